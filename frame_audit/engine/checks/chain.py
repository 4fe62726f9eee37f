# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""REP 105's order, map above odom above the base: chain_order."""
from typing import List, Sequence, Set

from .common import arrow, explained_by_lost_static, LOST_STATIC_NOTE, since_start, source, \
    WARM_UP_PERIODS, window
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
    for lower, upper in zip(required[1:], required[:-1]):
        if lower not in store.frames or upper not in store.frames:
            continue
        ancestry = store.ancestry(lower)
        if upper in ancestry:
            continue
        if explained_by_lost_static(store, upper, lower):
            findings.append(Finding(
                CHAIN, Level.WARN,
                '{}, in another tree than {}. {}; a static edge between the trees would '
                'explain it'.format(not_above(upper, lower, ancestry), upper,
                                    LOST_STATIC_NOTE[0].upper() + LOST_STATIC_NOTE[1:]),
                'order:{}:{}'.format(upper, lower), frames=(upper, lower)))
            continue
        findings.append(Finding(
            CHAIN, Level.ERROR,
            '{}. REP 105 orders {}'.format(not_above(upper, lower, ancestry),
                                           ' → '.join(chain)),
            'order:{}:{}'.format(upper, lower), frames=(upper, lower)))
    findings += _motion_below_base(store, config)
    ancestry = store.ancestry(config.base_frame) if config.base_frame in store.frames else []
    summary = '{} ancestry: {}'.format(config.base_frame, ' ← '.join(ancestry) or 'none yet')
    late = _late_frames(store, ancestry + [config.laser_frame], config)
    if late:
        summary += ' ({})'.format(', '.join(late))
    return CheckResult(CHAIN, unknown + ('; ' if unknown else '') + summary, findings,
                       {'ancestry': ' ← '.join(ancestry)}, stale=not ancestry or bool(unknown))


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
    above = [store.parent_of(frame) for frame in ancestry[:ancestry.index(odom)]]
    if not any(above):  # the base is odom itself: no edge between them to judge
        return []
    within = _motion_within_chain([e for e in above if e is not None], odom)
    if within:
        return within
    still_m = max(edge.reach_m for edge in above if edge is not None)
    still_rad = max(edge.reach_rad for edge in above if edge is not None)
    findings = []
    for edge in _below_base(store, config):
        if edge.reach_m < VEHICLE_M or still_m > edge.reach_m * STILL_SHARE:
            continue
        name, chain = arrow(*edge.key), arrow(odom, base)
        findings.append(Finding(
            CHAIN, Level.ERROR,
            '{} stays within {} m and {} rad of its first value ({}), while {} below it moves '
            "up to {} m and turns up to {} rad ({}): the robot's motion is below the base. "
            'REP 105 puts it on {}: odometry moves {} ({}), and {} is a mount or a '
            'joint'.format(chain, fmt(still_m, 3), fmt(still_rad, 3),
                           ', '.join(source(e) for e in above if e is not None), name,
                           fmt(edge.reach_m, 2), fmt(edge.reach_rad, 2), source(edge), chain,
                           base, config.key('frames.base'), name),
            'motion_below:' + name, frames=(odom, base) + edge.key, topics=edge.topics,
            values={'reach_m': round(edge.reach_m, 4), 'base_reach_m': round(still_m, 4)}))
    return findings


def _motion_within_chain(chain: List[Edge], odom: str) -> List[Finding]:
    """
    Report odom's own edge still while an edge under it, above the base, drives the robot.

    With the base configured below base_footprint (the car's base_link on a TurtleBot), the
    motion sent on base_footprint → base_link lies inside odom → base itself: the base moves,
    so the check above sees nothing, yet odom → base_footprint is the identity. REP 105 puts
    the motion on odom's edge. chain runs from the base up to odom's edge.
    """
    top = chain[-1]
    findings = []
    for edge in chain[:-1]:
        if edge.reach_m < VEHICLE_M or top.reach_m > edge.reach_m * STILL_SHARE:
            continue
        name, first = arrow(*edge.key), arrow(*top.key)
        findings.append(Finding(
            CHAIN, Level.ERROR,
            '{} stays within {} m and {} rad of its first value ({}), while {} below it moves '
            "up to {} m and turns up to {} rad ({}): the robot's motion is below {}. REP 105 "
            "puts it on {}, odometry's edge: {} is a mount or a joint".format(
                first, fmt(top.reach_m, 3), fmt(top.reach_rad, 3), source(top), name,
                fmt(edge.reach_m, 2), fmt(edge.reach_rad, 2), source(edge), top.key[1], first,
                name),
            'motion_below:' + name, frames=(odom, top.key[1]) + edge.key, topics=edge.topics,
            values={'reach_m': round(edge.reach_m, 4), 'base_reach_m': round(top.reach_m, 4)}))
    return findings


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
