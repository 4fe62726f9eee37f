# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The tree's shape: one parent per frame, REP 105's order, one connected tree."""
from dataclasses import dataclass
import math
from typing import Collection, Dict, List, Optional, Sequence, Set, Tuple

from .common import another_robot, arrow, describe, explained_by_lost_static, INIT_HINT, \
    judged_from, LOST_STATIC_NOTE, moving_chain, plural, since_start, source, static_and_moving, \
    static_lost, TF2_REPEATED_STAMP, tree_frames, undecoded_tf, unreadable, WARM_UP_PERIODS, \
    warming_up, window
from ..check_ids import CHAIN, CONNECTIVITY, PARENTS, TREE
from ..config import AuditConfig
from ..findings import CheckResult, Finding, fmt, Level, Value
from ..records import TF_STATIC_TOPIC
from ..store import Edge, EdgeKey, FrameStore
from ..tree_view import TreeReader
from ..two_sources import SAME_STAMP_CONFLICTS


VEHICLE_M = 1.0  # an edge under the base that moves this far moves like a vehicle, not a joint
STILL_SHARE = 0.1  # odom → base moving less than this share of it: the motion is below the base


def _live(edge: Edge, start: float) -> bool:
    """Return whether an edge holds within the window: latched on /tf_static, or recent."""
    return edge.static_value is not None or edge.last_received >= start


def _second_parents(store: FrameStore, start: float) -> List[Finding]:
    findings = []
    for child, parents in sorted(store.parents.items()):
        edges = sorted((e for e in parents.values() if _live(e, start)),
                       key=lambda edge: edge.first_received)
        if len(edges) < 2:
            continue
        described = ' and '.join('{} ({})'.format(e.parent, source(e)) for e in edges)
        topics = tuple(sorted({t for e in edges for t in e.topics}))
        findings.append(Finding(
            PARENTS, Level.ERROR,
            '{} has {} parents: {}. A frame has one parent: tf2 keeps whichever came last, so '
            'nodes see {} jump between them; stop the node that should not send it'.format(
                child, len(edges), described, child),
            'parents:' + child, frames=(child,) + tuple(e.parent for e in edges), topics=topics,
            values={'parents': ', '.join(e.parent for e in edges)}))
    return findings


def _cycles(store: FrameStore, start: float) -> List[Finding]:
    """Find cycles over the edges of the window (a depth-first search, each cycle once)."""
    children: Dict[str, List[str]] = {}
    for (parent, child), edge in store.edges.items():
        if _live(edge, start):
            children.setdefault(parent, []).append(child)
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    found: Dict[Tuple[str, ...], List[str]] = {}
    for root in sorted(children):
        if state.get(root):
            continue
        path = [root]
        stack = [iter(sorted(children.get(root, ())))]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                found.setdefault(tuple(sorted(set(cycle))), cycle)
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(children.get(nxt, ()))))
    return [Finding(PARENTS, Level.ERROR,
                    'cycle: {}. tf2 cannot resolve a frame that is its own ancestor'.format(
                        ' → '.join(cycle)),
                    'cycle:' + ','.join(key), frames=key, topics=())
            for key, cycle in sorted(found.items())]


def _at_once(edge: Edge, start: float) -> List[str]:
    """
    Return the publishers that sent an edge during the same time within the window, sorted.

    One node taking over from another (a restart under a new name) is no fault; two sending
    at once are. A static publisher counts as sending for good: its value is latched.
    """
    spans = sorted(((name, activity) for name, activity in edge.publishers.items()
                    if activity.last_received >= start),
                   key=lambda item: item[1].first_received)
    names: Set[str] = set()
    for index, (first, early) in enumerate(spans):
        for second, late in spans[index + 1:]:
            if late.first_received <= early.last_received:
                names.update((first, second))
    return sorted(names)


def _two_sources(store: FrameStore, config: AuditConfig, start: float) -> List[Finding]:
    findings = []
    for edge in sorted(store.edges.values(), key=lambda e: e.key):
        if not _live(edge, start):
            continue
        name = arrow(edge.parent, edge.child)
        senders = _at_once(edge, start)
        sources = edge.sources
        if static_and_moving(edge, config):
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} is sent on /tf_static ({}) and moves on /tf ({}: up to {} m and {} rad from '
                'its first value): two senders of one edge, and nodes see it jump between the '
                'fixed value and the moving one. A moving edge has no fixed value: the static '
                'one is the mistake; stop the static publisher of {}'.format(
                    name, describe(edge.static_value), _tf_source(edge), fmt(edge.reach_m, 2),
                    fmt(edge.reach_rad, 2), name),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'reach_m': round(edge.reach_m, 4)}))
        elif senders:
            counts = ', '.join('{} ({} messages)'.format(node, edge.publishers[node].count)
                               for node in senders)
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} is sent by {} nodes at once: {} on {}. Two sources of one edge make the '
                'frame jump between their estimates; keep one'.format(
                    name, len(senders), counts, ', '.join(edge.topics)),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'publishers': ', '.join(senders)}))
        elif sources.two_tracks is not None and sources.two_tracks.last_received >= start:
            tracks = sources.two_tracks
            rates = ' and '.join('one at {} Hz'.format(fmt(rate, 1)) if rate else
                                 'one at an unknown rate' for rate in tracks.rates_hz)
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} comes from two sources: its samples keep switching between two tracks '
                'up to {} m apart ({} switches in its last {} samples), {} by header stamps, '
                'on {}. The publishers are not known here (as in a bag replay); keep '
                'one'.format(name, fmt(tracks.separation_m, 2), tracks.switches,
                             len(sources.assignments), rates, ', '.join(edge.topics)),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'separation_m': round(tracks.separation_m, 4),
                        'switches': tracks.switches,
                        'rates_hz': ', '.join(fmt(r or float('nan'), 1)
                                              for r in tracks.rates_hz)}))
        elif len(sources.conflicts.since(start)) >= SAME_STAMP_CONFLICTS:
            conflicts = len(sources.conflicts.since(start))
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} comes from two sources: {} of its stamps arrived twice with values of two '
                'tracks, on {}. {}; keep one source'.format(
                    name, conflicts, ', '.join(edge.topics), TF2_REPEATED_STAMP),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'conflicting_stamps': conflicts}))
        elif sources.doubled is not None and sources.doubled_last >= start:
            _, baseline, rate = sources.doubled
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} went from {} Hz to {} Hz on {}: a second node sending it (the publishers '
                'are not known here, as in a bag replay); keep one'.format(
                    name, fmt(baseline, 1), fmt(rate, 1), ', '.join(edge.topics)),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'baseline_hz': round(baseline, 2), 'rate_hz': round(rate, 2)}))
    return findings


def _tf_source(edge: Edge) -> str:
    """Describe an edge's /tf stream: its rate and its publishers, where known."""
    rate = edge.rate_hz()
    return '/tf' + (', {} Hz'.format(fmt(rate, 1)) if rate else '')


def _restamped(store: FrameStore, start: float) -> List[str]:
    """Say which edges' stamps one sender re-sent with a newer value, and what tf2 does."""
    said = ['{} re-sent {} of its stamps with a newer value (one sender: its values keep '
            'to one track)'.format(arrow(*edge.key), len(edge.sources.restamped.since(start)))
            for edge in sorted(store.edges.values(), key=lambda e: e.key)
            if edge.sources.restamped.since(start)]
    return said + ([TF2_REPEATED_STAMP] if said else [])


def check_parent_uniqueness(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that every frame has one parent, no cycle, and each edge one source."""
    start = window(config, now)
    findings = _second_parents(store, start) + _cycles(store, start) + \
        _two_sources(store, config, start)
    summary = '; '.join(['each of {} has one parent and one source'.format(
        plural(len(store.frames), 'frame'))] + _restamped(store, start))
    return CheckResult(PARENTS, summary, findings, {'frames': len(store.frames)},
                       stale=not store.edges)


def _missing(frames: Sequence[str], key: str, check: str, store: FrameStore,
             config: AuditConfig, now: float, what: str) -> Tuple[Optional[Finding], str]:
    """
    Report frames that should be in the tree, in one finding, unless the audit is too young.

    A lost /tf_static excuses only frames a static edge would bring: map, odom and the base
    are joined by moving edges, so their absence stays an ERROR. Where /tf or /tf_static
    messages could not be decoded, what they held is unknown: no finding, but the reason the
    check cannot say (its STALE summary), with the count, never that nothing publishes them.
    Returns (the finding, the reason it cannot be known); at most one of them.
    """
    absent = [frame for frame in frames if frame not in store.frames]
    if not absent or warming_up(store, config, now):
        return None, ''
    names = ', '.join(absent)
    verb = 'is' if len(absent) == 1 else 'are'
    undecoded = undecoded_tf(store)
    if undecoded:
        pronoun = 'it' if len(absent) == 1 else 'them'
        return None, ('{} {} not in the tree as read: {}, so whether anything publishes {} '
                      'cannot be known; the audit cannot vouch for {}'.format(
                          names, verb, undecoded, pronoun, pronoun))
    if static_lost(store) and not set(absent) & set(moving_chain(config)):
        return Finding(check, Level.WARN, '{} {} not in the tree: {}'.format(
            names, verb, LOST_STATIC_NOTE), key, frames=tuple(absent),
            values=judged_from(store, config)), ''
    hint = ''
    if check == CHAIN and another_robot(store, config):
        hint = '. The tree has {}; {}'.format(tree_frames(store), INIT_HINT)
    return Finding(check, Level.ERROR, '{} {} not in the tree: {}{}'.format(
        names, verb, what, hint), key, frames=tuple(absent),
        values=judged_from(store, config)), ''


def _reversed(store: FrameStore, chain: Sequence[str], start: float) -> List[Finding]:
    findings = []
    for upper_index, upper in enumerate(chain):
        for lower in chain[upper_index + 1:]:
            edge = store.edges.get((lower, upper))
            if edge is None or not _live(edge, start):
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
    missing, unknown = _missing(frames, 'missing', CHAIN, store, config, now,
                                'nothing publishes a transform to or from {} ({})'.format(
                                    'it' if len([f for f in frames if f not in store.frames])
                                    == 1 else 'them', config.key('frames.required')))
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
                "{} is not above {}: {}'s ancestry is {}, in another tree than {}. {}; a "
                'static edge between the trees would explain it'.format(
                    upper, lower, lower, ' ← '.join(ancestry), upper,
                    LOST_STATIC_NOTE[0].upper() + LOST_STATIC_NOTE[1:]),
                'order:{}:{}'.format(upper, lower), frames=(upper, lower)))
            continue
        findings.append(Finding(
            CHAIN, Level.ERROR,
            "{} is not above {}: {}'s ancestry is {}. REP 105 orders {}".format(
                upper, lower, lower, ' ← '.join(ancestry), ' → '.join(chain)),
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


def _header_frames(store: TreeReader, config: AuditConfig,
                   start: float = -math.inf) -> Dict[str, Dict[str, int]]:
    """Return frame -> {topic: messages} for every frame named in a header since start."""
    named: Dict[str, Dict[str, int]] = {}

    def add(frame: str, topic: str, count: int, last: float) -> None:
        if last >= start:
            named.setdefault(frame.lstrip('/'), {})[topic] = count

    for frame, count in store.scan_frames.items():
        add(frame, config.scan_topic, count, store.scan_last[frame])
    for topic, track in store.tracks.items():
        for frame, count in track.header_frames.items():
            add(frame, topic, count, track.header_last[frame])
        for frame, count in track.child_frames.items():
            add(frame, topic, count, track.child_last[frame])
    return named


def expected_missing(store: TreeReader, config: AuditConfig) -> Dict[str, str]:
    """Return frames that should be in the tree and are not, each with why it is expected."""
    missing = {frame: 'required ({})'.format(config.key('frames.required'))
               for frame in config.required_frames or () if frame not in store.frames}
    for frame, topics in _header_frames(store, config).items():
        if frame and frame not in store.frames:
            missing.setdefault(frame, 'named in the header of ' + ', '.join(sorted(topics)))
    return missing


def check_connectivity(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that every frame a header names is in the tree and reaches the base; one tree."""
    findings = []
    base_root = store.ancestry(config.base_frame)[-1] if config.base_frame in store.frames \
        else None
    named = _header_frames(store, config, window(config, now))
    if '' in named:
        topics = named.pop('')
        findings.append(Finding(CONNECTIVITY, Level.ERROR, 'an empty header.frame_id on {}'.format(
            _named_by(topics)), 'header:', topics=tuple(sorted(topics))))
    # the LiDAR's absence is laser_offset's to report, a required frame's chain_order's
    absent = [frame for frame in sorted(named) if frame not in store.frames
              and frame != config.laser_frame and frame not in (config.required_frames or ())]
    missing, unknown = _missing(
        absent, 'header:' + ','.join(absent), CONNECTIVITY, store, config, now,
        '{}, but no transform reaches {}, so no node can place that data'.format(
            '; '.join('{} names {} in its header'.format(_named_by(named[f]), f)
                      for f in absent), 'it' if len(absent) == 1 else 'them'))
    if missing:
        missing.topics = tuple(sorted({t for f in absent for t in named[f]}))
        findings.append(missing)
    for frame, topics in sorted(named.items()):
        if frame not in store.frames or base_root is None \
                or store.ancestry(frame)[-1] == base_root:
            continue
        lost = explained_by_lost_static(store, frame, config.base_frame)
        findings.append(Finding(
            CONNECTIVITY, Level.WARN if lost else Level.ERROR,
            "{} (named by {}) is not connected to {}: its tree has root {}, {}'s has "
            'root {}{}'.format(frame, _named_by(topics), config.base_frame,
                               store.ancestry(frame)[-1], config.base_frame, base_root,
                               '. ' + LOST_STATIC_NOTE if lost else ''),
            'header:' + frame, frames=(frame, config.base_frame), topics=tuple(sorted(topics))))
    findings += _slashed_scan(store, config, window(config, now))
    findings += unreadable(store, CONNECTIVITY, (config.scan_topic,), now)
    trees = store.trees()
    if len(trees) > 1:
        lost = static_lost(store)
        findings.append(Finding(
            CONNECTIVITY, Level.WARN if lost else Level.ERROR,
            '{} separate trees: {}. Frames in different trees cannot be transformed into each '
            'other{}'.format(len(trees), '; '.join('{{{}}}'.format(', '.join(t)) for t in trees),
                             '; ' + LOST_STATIC_NOTE if lost else ''),
            'trees', frames=tuple(t[0] for t in trees)))
    summary = unknown or 'one tree of {}, every header frame in it'.format(
        plural(len(store.frames), 'frame'))
    return CheckResult(CONNECTIVITY, summary, findings, {'trees': len(trees)},
                       stale=not trees or bool(unknown))


def _slashed_scan(store: FrameStore, config: AuditConfig, start: float) -> List[Finding]:
    """
    Report a scan header since start whose frame id starts with '/' where TF's ids do not.

    tf2 refuses such an id in a lookup ("frame_ids cannot start with a '/'"), so the scan
    cannot be placed. A robot whose transforms carry the '/' too (ROS 1's habit) has one
    cause, which transform_values reports. Live, a driver fixed clears it once the window
    passes, as the other header checks do.
    """
    if any(r.reason == 'leading_slash' for r in store.rejections.values()):
        return []
    return [Finding(
        CONNECTIVITY, Level.ERROR,
        "{}'s header names '{}' ({} messages), but tf2 refuses a frame id that starts with "
        "'/' in a lookup (\"frame_ids cannot start with a '/'\"), so no node can place the "
        "scan; the tree has {}: drop the '/' from the LiDAR driver's frame_id".format(
            config.scan_topic, frame, count,
            frame.lstrip('/') if frame.lstrip('/') in store.frames else 'no such frame'),
        'slash:' + frame, frames=(frame,), topics=(config.scan_topic,))
        for frame, count in sorted(store.scan_frames.items())
        if frame.startswith('/') and frame.lstrip('/') and store.scan_last[frame] >= start]


def _named_by(topics: Dict[str, int]) -> str:
    return ', '.join('{} ({} messages)'.format(t, n) for t, n in sorted(topics.items()))


@dataclass(frozen=True)
class FrameRow:
    """One frame as view_frames draws it: its parents, and how its edges arrive."""

    frame: str
    parents: Tuple[str, ...]
    static: bool
    topics: Tuple[str, ...]
    publishers: Tuple[str, ...]
    rate_hz: Optional[float]
    count: int


def frame_rows(store: TreeReader, only: Optional[Collection[str]] = None) -> List[FrameRow]:
    """
    Return every frame (or only these) with its parent edges, roots included, by name.

    The rate is messages over time: over the whole time the edge was sent where a recording
    was read to its end, else (live) over its recent messages.
    """
    rows = []
    for frame in sorted(store.frames if only is None else only):
        edges: List[Edge] = sorted(store.parents.get(frame, {}).values(),
                                   key=lambda edge: edge.first_received)
        rates = [rate for rate in (edge.rate_hz() for edge in edges) if rate]
        rows.append(FrameRow(
            frame=frame, parents=tuple(edge.parent for edge in edges),
            static=bool(edges) and all(edge.is_static for edge in edges),
            topics=tuple(sorted({t for edge in edges for t in edge.topics})),
            publishers=tuple(sorted({p for edge in edges for p in edge.publishers})),
            rate_hz=max(rates) if rates else None,
            count=sum(edge.count for edge in edges)))
    return rows


MAX_TREE_ROWS = 60  # frames the tree status lists; a flood of frames is counted, not listed


def tree_summary(store: FrameStore, config: AuditConfig, now: float,
                 marked: Collection[str] = ()) -> CheckResult:
    """
    List the frames with their parent, topic, publisher, rate and static flag.

    Up to MAX_TREE_ROWS: the chain and the frames findings name first, then the rest by name;
    the frames left out are counted, so a flood of frames keeps /diagnostics small.
    """
    chain = store.ancestry(config.base_frame) + [config.laser_frame]
    first = [f for f in dict.fromkeys(chain + sorted(marked)) if f in store.frames]
    shown = set(first[:MAX_TREE_ROWS])
    for frame in sorted(store.frames):
        if len(shown) >= MAX_TREE_ROWS:
            break
        shown.add(frame)
    values: Dict[str, Value] = {}
    for row in frame_rows(store, shown):
        if not row.parents:
            values[row.frame] = 'root'
            continue
        rate = 'static' if row.static else (
            '{} Hz'.format(fmt(row.rate_hz, 1)) if row.rate_hz else 'rate unknown')
        by = ', by ' + ', '.join(row.publishers) if row.publishers else ''
        values[row.frame] = 'parent {} ({}; {}{})'.format(
            ', '.join(row.parents), ', '.join(row.topics), rate, by)
    left_out = len(store.frames) - len(shown)
    if left_out:
        values['frames not listed'] = left_out
    summary = '{}, {}, {} from /tf_static{}'.format(
        plural(len(store.frames), 'frame'), plural(len(store.edges), 'edge'),
        sum(1 for edge in store.edges.values() if TF_STATIC_TOPIC in edge.topic_counts),
        '; {} listed (the chain and the frames with findings first)'.format(len(shown))
        if left_out else '')
    return CheckResult(TREE, summary, [], values, stale=not store.frames)
