# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""REP 105's order, map above odom above the base: chain_order."""
from typing import List, Sequence, Set, Tuple

from .common import arrow, explained_by_lost_static, LOST_STATIC_NOTE, since_start, source, \
    split_judged_from, WARM_UP_PERIODS, warming_up, window
from .tree_shape import holds_in_window, missing_frames
from ..check_ids import CHAIN
from ..config import AuditConfig
from ..edge import Edge, EdgeKey
from ..findings import CheckResult, Finding, fmt, Level
from ..store import FrameStore


VEHICLE_M = 1.0  # an edge under the base that moves this far moves like a vehicle, not a joint
STILL_SHARE = 0.1  # odom → base moving less than this share of it: the motion is below the base


def not_above(upper: str, lower: str, ancestry: Sequence[str], tree: str = '') -> str:
    """Say a frame out of REP 105's order, as the audit and the lint say it (tree: whose)."""
    return "{} is not above {}: {}{}'s ancestry is {}".format(
        upper, lower, tree + ' ' if tree else '', lower, ' ← '.join(ancestry))


def _reversed(store: FrameStore, chain: Sequence[str], start: float) -> List[Finding]:
    findings = []
    for upper_index, upper in enumerate(chain):
        for lower in chain[upper_index + 1:]:
            edge = store.edges.get((lower, upper))
            if edge is None or not holds_in_window(edge, start):
                continue
            findings.append(Finding(
                CHAIN, Level.ERROR,
                '{} is sent ({}), but REP 105 orders {}: the edge is inverted. Send {} '
                'instead'.format(arrow(lower, upper), source(edge), ' → '.join(chain),
                                 arrow(upper, lower)),
                'reversed:' + arrow(lower, upper), frames=(lower, upper), topics=edge.topics))
    return findings


def check_chain_order(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check REP 105: map above odom above base_link, other frames allowed in between."""
    chain = [config.map_frame, config.odom_frame, config.base_frame]
    required = [frame for frame in chain if frame in (config.required_frames or ())]
    findings = _reversed(store, chain, window(config, now))
    # the LiDAR's absence is laser_offset's to report, once
    frames = [f for f in config.required_frames or () if f != config.laser_frame]
    absent = len([f for f in frames if f not in store.frames])
    missing, unknown = missing_frames(
        frames, 'missing', CHAIN, store, config, now,
        'nothing publishes a transform to or from {} ({})'.format(
            'it' if absent == 1 else 'them', config.key('frames.required')))
    if missing:
        findings.append(missing)
    waiting = []
    for lower, upper in zip(required[1:], required[:-1]):
        if lower not in store.frames or upper not in store.frames:
            continue
        ancestry = store.ancestry(lower)
        if upper in ancestry:
            continue
        split = store.ancestry(upper)[-1] != ancestry[-1]
        if split and warming_up(store, config, now):  # its edge may come: a recorder first
            waiting.append("waiting for {} to join {}'s tree ({})".format(
                lower, upper, not_above(upper, lower, ancestry)))
            continue
        values = split_judged_from(store, config, ([lower], [upper])) if split else {}
        if explained_by_lost_static(store, upper, lower):
            findings.append(Finding(
                CHAIN, Level.WARN,
                '{}, in another tree than {}. {}; a static edge between the trees would '
                'explain it'.format(not_above(upper, lower, ancestry), upper,
                                    LOST_STATIC_NOTE[0].upper() + LOST_STATIC_NOTE[1:]),
                'order:{}:{}'.format(upper, lower), frames=(upper, lower), values=values))
            continue
        findings.append(Finding(
            CHAIN, Level.ERROR,
            '{}. REP 105 orders {}'.format(not_above(upper, lower, ancestry),
                                           ' → '.join(chain)),
            'order:{}:{}'.format(upper, lower), frames=(upper, lower), values=values))
    findings += _motion_below_base(store, config)
    ancestry = store.ancestry(config.base_frame) if config.base_frame in store.frames else []
    summary = '{} ancestry: {}'.format(config.base_frame, ' ← '.join(ancestry) or 'none yet')
    late = _late_edges(store, ancestry, config) + \
        _late_frames(store, [config.laser_frame], config)
    if late:
        summary += ' ({})'.format(', '.join(late))
    summary = '; '.join([unknown] * bool(unknown) + waiting + [summary])
    return CheckResult(CHAIN, summary, findings, {'ancestry': ' ← '.join(ancestry)},
                       stale=not ancestry or bool(unknown) or bool(waiting))


def _late_edges(store: FrameStore, ancestry: Sequence[str], config: AuditConfig) -> List[str]:
    """
    Return 'odom → base_link from 1.4 s' for each edge of the ancestry that came after the start.

    A recorder started before a node is the common case: the tree is whole from then on, and
    before then the chain waited (STALE), never a verdict on the recording.
    """
    late = []
    for child, parent in zip(ancestry, ancestry[1:]):
        edge = store.edges.get((parent, child))
        at = since_start(store, edge.first_received) if edge else 0.0
        if at > config.stale_after_s:
            late.append('{} from {} s'.format(arrow(parent, child), fmt(at, 1)))
    return late


def _late_frames(store: FrameStore, frames: Sequence[str], config: AuditConfig) -> List[str]:
    """Return 'map from 9.2 s' for each of frames that came later than the audit's start."""
    late = []
    for frame in dict.fromkeys(f for f in frames if f in store.frames):
        first = min(edge.first_received for key, edge in store.edges.items() if frame in key)
        at = since_start(store, first)
        if at > WARM_UP_PERIODS * config.stale_after_s:
            late.append('{} from {} s'.format(frame, fmt(at, 1)))
    return late


def _motion_below_base(store: FrameStore, config: AuditConfig) -> List[Finding]:
    """
    Report an edge below the base that moves like a vehicle while odom → base stays still.

    REP 105 puts the robot's motion on odom → base; a robot whose odometry drives an edge
    under the base (odom → base_footprint the identity, base_footprint → base_link driving
    metres) passes every other check, and init would take that edge for a mount. Only the
    edges between the base and the frames the audit places things in are judged: an
    AprilTag under the camera of a parked robot, or a lift's joint, moves metres below a
    still base and is no vehicle.
    """
    base, odom = config.base_frame, config.odom_frame
    ancestry = store.ancestry(base) if base in store.frames else []
    if odom not in ancestry:
        return []
    above = [edge for edge in (store.parent_of(frame) for frame in
                               ancestry[:ancestry.index(odom)]) if edge is not None]
    if not above:  # the base is odom itself: no edge between them to judge
        return []
    # With the base configured below base_footprint (the car's base_link on a TurtleBot),
    # motion sent on base_footprint → base_link lies inside odom → base itself: odom's own
    # edge, the last one above, is then the one that stays still.
    top = above[-1]
    within = [_motion_below(arrow(*top.key), top.reach_m, top.reach_rad, source(top), edge,
                            top.key[1], "{}, odometry's edge:".format(arrow(*top.key)),
                            (odom, top.key[1]))
              for edge in above[:-1] if _drives(edge, top.reach_m)]
    if within:
        return within
    still_m = max(edge.reach_m for edge in above)
    still_rad = max(edge.reach_rad for edge in above)
    chain = arrow(odom, base)
    return [_motion_below(chain, still_m, still_rad, ', '.join(source(e) for e in above), edge,
                          'the base', '{}: odometry moves {} ({}), and'.format(
                              chain, base, config.key('frames.base')), (odom, base))
            for edge in _below_base(store, config) if _drives(edge, still_m)]


def _drives(edge: Edge, still_m: float) -> bool:
    """Return whether an edge moves like a vehicle, where the edge above it stays still."""
    return edge.reach_m >= VEHICLE_M and still_m <= edge.reach_m * STILL_SHARE


def _motion_below(still: str, still_m: float, still_rad: float, sources: str, edge: Edge,
                  below: str, remedy: str, frames: Tuple[str, ...]) -> Finding:
    """Say the robot's motion is on an edge below a still one; remedy: where REP 105 puts it."""
    name = arrow(*edge.key)
    return Finding(
        CHAIN, Level.ERROR,
        '{} stays within {} m and {} rad of its first value ({}), while {} below it moves up '
        "to {} m and turns up to {} rad ({}): the robot's motion is below {}. REP 105 puts it "
        'on {} {} is a mount or a joint'.format(
            still, fmt(still_m, 3), fmt(still_rad, 3), sources, name, fmt(edge.reach_m, 2),
            fmt(edge.reach_rad, 2), source(edge), below, remedy, name),
        'motion_below:' + name, frames=frames + edge.key, topics=edge.topics,
        values={'reach_m': round(edge.reach_m, 4), 'base_reach_m': round(still_m, 4)})


def _below_base(store: FrameStore, config: AuditConfig) -> List[Edge]:
    """
    Return the edges from the base down to the frames the robot's data is placed in, sorted.

    Those frames: the LiDAR, the configured frames and poses' frames, and the odometry's
    child frame; each one's ancestry up to the base.
    """
    odometry = store.tracks.get(config.odom_topic)
    ends = {config.laser_frame, *(config.required_frames or ()),
            *(pose.pose_frame for pose in config.pose_topics or ()),
            *(f.lstrip('/') for f in (odometry.child_frames if odometry else ()))}
    keys: Set[EdgeKey] = set()
    for frame in ends & store.frames:
        ancestry = store.ancestry(frame)
        if config.base_frame in ancestry[1:]:
            path = ancestry[:ancestry.index(config.base_frame) + 1]
            keys.update(zip(path[1:], path))
    return [store.edges[key] for key in sorted(keys) if key in store.edges]
