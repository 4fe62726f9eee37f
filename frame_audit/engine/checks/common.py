# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""What several checks say alike: how an edge is described, and when the audit is too young."""
import math
import re
from typing import AbstractSet, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..check_ids import CHECK_IDS
from ..config import AuditConfig
from ..edge import Edge
from ..findings import Finding, fmt, Level, Value
from ..geometry import Transform, yaw_of
from ..occurrences import Occurrences
from ..records import HEADER_TYPES, LASER_SCAN, ODOMETRY, TF_STATIC_TOPIC, TF_TOPIC
from ..store import FrameStore
from ..tree_view import TreeReader

WARM_UP_PERIODS = 2  # an audit younger than this many stale_after_s lacks data, not frames
MOVES_M = 0.01  # an edge whose /tf values go further than this from their first one moves
MOVES_RAD = 0.01
TF2_REPEATED_STAMP = (  # geometry2's tf2/src/cache.cpp; the table by release: docs/tf2.md
    "ROS 2's tf2 (TimeCache::insertData, current Humble, Jazzy and Kilted releases) skips only "
    'an exact copy: it keeps both values, and a lookup at that stamp gets the later one; ROS 1 '
    "Noetic's keeps the first and drops the later with TF_REPEATED_DATA")


def warming_up(store: FrameStore, config: AuditConfig, now: float) -> bool:
    """
    Return whether the audit is too young to call a missing frame or topic a fault.

    A recording that has ended is never too young: it holds all the data there will be. One
    still being read is always too young: a frame whose sender started late (from 9 s on) is
    in the recording, so existence is judged over the whole of it, at its end.
    """
    if store.recorded is not None:
        return not store.ended
    return not store.ended and store.clock.age(now) < WARM_UP_PERIODS * config.stale_after_s


def judged_from(store: FrameStore, config: AuditConfig) -> Dict[str, Value]:
    """
    Return, as a finding's values, from when a recording's absent frame was judgeable.

    Offline, existence is judged at the recording's end (warming_up), yet a frame absent
    throughout was known absent once the warm-up had passed: 'judged_from_s', seconds into
    the recording, which the report dates the finding by. Live, a finding appears when it
    is judged: no value.
    """
    if store.recorded is None or store.clock.last_received is None:
        return {}
    return {'judged_from_s': round(min(WARM_UP_PERIODS * config.stale_after_s,
                                       since_start(store, store.clock.last_received)), 3)}


def split_judged_from(store: FrameStore, config: AuditConfig,
                      groups: Sequence[Iterable[str]]) -> Dict[str, Value]:
    """
    Return, as a finding's values, from when frames of separate groups were all in the tree.

    Offline a split tree is judged at the recording's end (trees only ever join), yet it held
    from when the last of its groups appeared, or from the warm-up's end (judged_from).
    """
    values = judged_from(store, config)
    first: Dict[str, float] = {}
    for (parent, child), edge in store.edges.items():
        for frame in (parent, child):
            first[frame] = min(first.get(frame, edge.first_received), edge.first_received)
    appeared = [min((first[f] for f in group if f in first), default=None) for group in groups]
    known = [at for at in appeared if at is not None]
    if values and known:
        values['judged_from_s'] = max(values['judged_from_s'],
                                      round(since_start(store, max(known)), 3))
    return values


def moves(edge: Edge) -> bool:
    """Return whether an edge's /tf values moved: a joint or a vehicle, not a mount."""
    return edge.reach_m > MOVES_M or edge.reach_rad > MOVES_RAD


def senders_at_once(edge: Edge, start: float) -> List[str]:
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


def disputed(edge: Edge) -> List[str]:
    """
    Return the nodes that sent an edge at once, over all of it, where two or more did.

    Stage's stageros and robot_state_publisher both send base_footprint → base_link, each a
    constant 1 cm apart: the values move between the senders, the edge does not. Which is
    right is parent_uniqueness's to say; no one mount can be read from it meanwhile.
    """
    senders = senders_at_once(edge, -math.inf)
    return senders if len(senders) > 1 else []


def sent_at_once(edge: Edge) -> str:
    """Say who sends a disputed edge: 'a → b is sent by /x and /y at once'."""
    return '{} is sent by {} at once'.format(arrow(edge.parent, edge.child),
                                             ' and '.join(disputed(edge)))


def static_and_moving(edge: Edge, config: AuditConfig) -> bool:
    """
    Return whether an edge came on /tf_static and moves on /tf (SLAM's map -> odom).

    Two senders of one edge (parent_uniqueness's): for a moving edge the static one is the
    mistake, not the /tf one. REP 105's map -> odom and odom -> base move by definition,
    even before their values have gone far.
    """
    chain = moving_chain(config)
    return edge.static_value is not None and TF_TOPIC in edge.topic_counts and (
        moves(edge) or edge.key in tuple(zip(chain, chain[1:])))


def since_start(store: FrameStore, received: float) -> float:
    """Return how far into the audit (s) a receive time lies."""
    first = store.clock.first_received
    return received - (first if first is not None else received)


def static_lost(store: FrameStore) -> bool:
    """Return whether nothing came on /tf_static: a recorder started after the static nodes."""
    return bool(store.edges) and not store.topic_counts.get(TF_STATIC_TOPIC)


def moving_chain(config: AuditConfig) -> Tuple[str, ...]:
    """Return map, odom and the base: frames joined by moving edges, never by static ones."""
    return (config.map_frame, config.odom_frame, config.base_frame)


def explained_by_lost_static(store: FrameStore, a: str, b: str) -> bool:
    """
    Return whether a lost /tf_static explains why a and b are not joined.

    Only when nothing came on /tf_static and the two frames are in separate trees: one static
    edge could join those trees. Frames of one tree in the wrong order it cannot explain.
    """
    if not static_lost(store) or a not in store.frames or b not in store.frames:
        return False
    return store.ancestry(a)[-1] != store.ancestry(b)[-1]


def first_of(items: Sequence[str], limit: int) -> str:
    """Return items for a message, the first limit of them: 'a, b, c' (and how many more)."""
    shown = ', '.join(items[:limit])
    return shown + (' and {} more'.format(len(items) - limit) if len(items) > limit else '')


def tree_frames(store: FrameStore, limit: int = 12) -> str:
    """Return the tree's frames for a message: 'a, b, c' (and how many more)."""
    return first_of(sorted(store.frames), limit)


INIT_HINT = ('if the config describes another robot, write one for this robot with '
             '`frame-audit init RECORDING`')
ASSUMED_HINT = ("no --config was given, so the F1TENTH car's config stood in: if this is "
                'another robot, write one for it with `frame-audit init RECORDING` and audit '
                'with --config')
BY_HAND = (" (init takes odom from the odometry topic's header frame, and no transform of this "
           'recording carries it: send that transform, or set frames.* by hand, as '
           'config/frame_audit.yaml does)')
HINTS = (ASSUMED_HINT + BY_HAND, INIT_HINT + BY_HAND, ASSUMED_HINT, INIT_HINT)  # longest first
Seen = Tuple[Finding, float]  # a finding and when it was first seen (s into the audit)


def is_another_robot(store: FrameStore, config: AuditConfig) -> bool:
    """
    Return whether the config's frames are not this robot's, so a missing one points to init.

    The tree has frames, and the base is not among them, or the data names other frames where
    the config names its own (the scan's header frame is in the tree and is not frames.laser,
    or is another frame where the tree lacks frames.laser;
    the odometry's child frame is, and is not frames.base; or a frame below the base is named
    like a LiDAR where frames.laser is absent), or most of the configured frames are absent.
    A car under its own config with SLAM down and its LiDAR mount not launched lacks two of
    its four frames, and its scan still names its own LiDAR: two faults, not a config of
    another robot.
    """
    if not store.frames:
        return False
    if config.base_frame not in store.frames:
        return True
    odometry = store.tracks.get(config.odom_topic)
    named = {(frame.lstrip('/'), want) for frame in store.scan_frames
             for want in (config.laser_frame,) if want} | \
        {(frame.lstrip('/'), config.base_frame)
         for frame in (odometry.child_frames if odometry else ())}
    if any(frame in store.frames and frame != want for frame, want in named):
        return True
    if config.laser_frame and config.laser_frame not in store.frames and any(
            frame != want for frame, want in named if want == config.laser_frame):
        return True  # the scan names its own LiDAR, and the tree has neither (static lost)
    scans = {frame.lstrip('/') for frame in store.scan_frames}
    if config.laser_frame and config.laser_frame not in store.frames | scans and \
            config.base_frame in store.frames and lidars_by_name(store, config.base_frame):
        return True  # its LiDAR has another name (base_scan, LDS-01), and no scan names ours
    configured = set(moving_chain(config) + (config.laser_frame,) +
                     tuple(config.required_frames or ())) - {''}
    return 2 * len(configured - store.frames) > len(configured)


def init_pointer(store: FrameStore, config: AuditConfig) -> Tuple[Level, str]:
    """
    Return the level of a configured frame that another robot's tree lacks, and the pointer.

    Under a config the user named, the frame is their claim about this robot: an ERROR. Under
    the car's config, assumed because none was named, it is nobody's claim about this robot: a
    WARN that says so, points to init and fails nothing (issue 32). Where init could not
    measure this robot (an arm, an AUV's enu → ned tree: no odom), the pointer says so and
    what to do instead, so it never leads nowhere.
    """
    level, hint = (Level.WARN, ASSUMED_HINT) if config.assumed else (Level.ERROR, INIT_HINT)
    return level, hint if init_finds_odom(store) else hint + BY_HAND


def _pick(topics: Sequence[str], usual: str) -> Optional[str]:
    """Return the usual name if recorded, else the first of the topics, else None."""
    return usual if usual in topics else (topics[0] if topics else None)


def init_topics(types: Mapping[str, str]) -> Tuple[Optional[str], Optional[str]]:
    """Return the odometry and scan topics init measures a robot by (None: none recorded)."""
    odometry = sorted(t for t, kind in types.items() if kind == ODOMETRY)
    scans = sorted(t for t, kind in types.items() if kind in HEADER_TYPES)
    scan_topic = _pick([t for t in scans if types[t] == LASER_SCAN] or scans, '/scan')
    return _pick(odometry, '/odom'), scan_topic


def odometry_named(store: FrameStore, topic: str) -> List[str]:
    """Return the header frames an odometry topic names: read where audited, else sampled."""
    track = store.tracks.get(topic)
    return list(track.header_frames) if track is not None else \
        [frame for frame, topics in store.sampled_frames.items() if topic in topics]


def init_odometry(named: Mapping[str, Iterable[str]],
                  frames: AbstractSet[str]) -> Optional[str]:
    """
    Return the odometry topic init measures a robot by: one whose header the tree has.

    named: each odometry topic's header frames. A hand-written /odom in odom_fake beside
    robot_localization's /odometry/filtered in odom (round F4): the one TF agrees with is
    the robot's. Else /odom, else the first.
    """
    topics = sorted(named)
    tied = [t for t in topics if any(f.lstrip('/') in frames for f in named[t])]
    return _pick(tied, '/odom') or _pick(topics, '/odom')


def odometry_untied(named: Iterable[str], frames: AbstractSet[str]) -> List[str]:
    """
    Return the frames an odometry topic's headers name when no transform carries any of them.

    A Husky whose controller sends no TF: /husky_velocity_controller/odom names odom, which the
    tree lacks. Empty where a header frame is in the tree or none is known: init then measures
    the robot, by odom or by the world-fixed root. Shared by init and its pointer.
    """
    names = sorted({frame.lstrip('/') for frame in named})
    return [] if 'odom' in frames or any(frame in frames for frame in names) else names


def init_finds_odom(store: FrameStore) -> bool:
    """
    Return whether init would find this robot's frames, by measure_frames' rule.

    It refuses only a recording whose odometry topic names frames the tree lacks, with no
    frame named odom. Where the topics are not known (live: the graph's other topics are not
    known here), init is not ruled out.
    """
    if store.recorded is None:
        return True
    topic = init_odometry({t: odometry_named(store, t) for t, kind in store.recorded.items()
                           if kind == ODOMETRY}, store.frames)
    return not odometry_untied(odometry_named(store, topic) if topic else (), store.frames)


LIDAR_NAME = re.compile(r'laser|lidar|scan|lds|hokuyo|velodyne|ouster|livox', re.IGNORECASE)


def lidars_by_name(store: TreeReader, base: str) -> List[str]:
    """Return the frames below the base named like a LiDAR, for a recording with no scan."""
    return sorted(frame for frame in store.frames if frame != base and LIDAR_NAME.search(frame)
                  and base in store.ancestry(frame))


def one_pointer_to_init(findings: Sequence[Seen]) -> List[Seen]:
    """
    Fold the findings of one cause, a config of another robot's frames, into one (issue 21).

    Each check that meets a configured frame the tree lacks, where the config describes
    another robot, says so and points to init: a Neato under the car's config (base_footprint,
    no map, base_laser_link) got three findings for one cause. They become one, at the worst
    level (then in the checks' order) and the first time, that says every fact (each naming
    its config key and the tree's frame) and points to init once. Only findings that carry
    the pointer themselves are folded: a frame missing on the robot's own config is a fault
    of its own (issue 24).
    Findings are (finding, first seen s); the rest keep their order.
    """
    folded = [index for index, (finding, _) in enumerate(findings)
              if any(hint in finding.message for hint in HINTS)]
    if len(folded) < 2:
        return list(findings)
    ordered = sorted((findings[i][0] for i in folded), key=lambda f: (
        -f.level, CHECK_IDS.index(f.check) if f.check in CHECK_IDS else len(CHECK_IDS)))
    values = {key: value for f in reversed(ordered) for key, value in f.values.items()}
    values['checks'] = ', '.join(dict.fromkeys(f.check for f in ordered))
    hint = next(hint for hint in HINTS if hint in ordered[0].message)
    one = Finding(ordered[0].check, ordered[0].level, '; '.join(
        _without_hints(f.message) for f in ordered) + '; ' + hint,
        ordered[0].key, tuple(dict.fromkeys(x for f in ordered for x in f.frames)),
        tuple(dict.fromkeys(t for f in ordered for t in f.topics)), values)
    at = min(findings[i][1] for i in folded)
    return [(one, at) if i == folded[0] else item for i, item in enumerate(findings)
            if i not in folded[1:]]


def _without_hints(message: str) -> str:
    for hint in HINTS:
        message = message.replace(hint, '')
    return message.rstrip('; .')


# which of these, the data cannot tell: a ROS 1 bag gets latched statics whenever it starts,
# so there a missing /tf_static was left out or never sent
LOST_STATIC_NOTE = ('no /tf_static was received at all: the static transforms were sent before '
                    'the recording (or this node) started without being latched, /tf_static '
                    'was left out of the recorded topics, or nothing sent them '
                    '(robot_state_publisher or the static publishers not running)')


def no_transform(store: FrameStore) -> str:
    """Say a check has nothing to judge because no transform came: never a pass of nothing."""
    return 'nothing to judge: no transform {} on /tf or /tf_static'.format(
        'in the recording' if store.ended else 'received yet')


def window(config: AuditConfig, now: float) -> float:
    """
    Return when the window a verdict judges begins: timing.history_s before now.

    tf2 forgets what is older than its cache; live, a status shows the car as it is now, and
    what happened before lives on in the node's log (offline, in the report's findings).
    """
    return now - config.history_s


def plural(count: int, word: str, many: str = '') -> str:
    """Return '1 edge', '3 edges' (or the given plural)."""
    return '{} {}'.format(count, word if count == 1 else (many or word + 's'))


def times(count: int) -> str:
    """Return 'once', 'twice' or 'N times'."""
    return {1: 'once', 2: 'twice'}.get(count, '{} times'.format(count))


def undecoded_tf(store: FrameStore) -> str:
    """
    Return what of /tf and /tf_static could not be decoded ('' if all could), for a message.

    A frame those messages may have held is not known to be absent: a missing frame is then
    "could not be decoded", never "nothing publishes a transform".
    """
    parts = []
    for topic in (TF_TOPIC, TF_STATIC_TOPIC):
        reasons = [(reason, seen.total) for (name, reason), seen
                   in sorted(store.unreadable.items()) if name == topic]
        if reasons:
            parts.append('{} on {} could not be decoded ({})'.format(
                plural(sum(n for _, n in reasons), 'message'), topic, _reasons(reasons)))
    return ', and '.join(parts)


def _reasons(counted: Sequence[Tuple[str, int]]) -> str:
    """Return the first three (reason, count) pairs for a message: '3× reason; 1× other'."""
    return '; '.join('{}× {}'.format(count, reason) for reason, count in counted[:3])


def unreadable(store: FrameStore, check: str, topics: Iterable[str],
               now: float) -> List[Finding]:
    """Report recent messages of these topics that could not be read: one per topic."""
    wanted = set(topics)
    start = window(store.config, now)
    by_topic: Dict[str, List[Tuple[str, Occurrences]]] = {}
    for (topic, reason), skipped in sorted(store.unreadable.items()):
        if topic in wanted and skipped.since(start):
            by_topic.setdefault(topic, []).append((reason, skipped))
    findings = []
    for topic, reasons in sorted(by_topic.items()):
        count = sum(s.total for _, s in reasons)
        first = min(s.first or 0.0 for _, s in reasons)
        rest = store.topic_counts.get(topic, 0) - count
        # none of the tree could be read: no verdict about the robot stands, so CI must not pass
        level = Level.ERROR if rest <= 0 and topic in (TF_TOPIC, TF_STATIC_TOPIC) else Level.WARN
        findings.append(Finding(
            check, level,
            '{} on {} could not be read and {} skipped ({}); the first at {} s. {}'.format(
                plural(count, 'message'), topic, 'was' if count == 1 else 'were',
                _reasons([(reason, s.total) for reason, s in reasons]),
                fmt(first - (store.clock.first_received or first), 1),
                'The rest of {} was audited ({})'.format(topic, plural(rest, 'message'))
                if rest > 0 else 'None of {} could be audited'.format(topic)),
            'unreadable:' + topic, topics=(topic,),
            values={'skipped': count,
                    'first_at_s': round(first - (store.clock.first_received or first), 3)}))
    return findings


def arrow(parent: str, child: str) -> str:
    """Return 'parent → child'."""
    return '{} → {}'.format(parent, child)


def source(edge: Edge) -> str:
    """Describe where an edge came from: its topics, rate and publishers, where known."""
    parts = []
    for topic in edge.topics:
        rate = edge.rate_hz() if topic != TF_STATIC_TOPIC else None
        parts.append(topic + (', {} Hz'.format(fmt(rate, 1)) if rate else ''))
    publishers = ', '.join(sorted(edge.publishers))
    return '; '.join(parts) + (', by ' + publishers if publishers else '')


def describe(value: Optional[Transform]) -> str:
    """Return a transform as '(x, y, z) m, yaw θ rad', 4 decimals (0.1 mm)."""
    if value is None:
        return 'no value'
    x, y, z = value.translation
    return '({}, {}, {}) m, yaw {} rad'.format(fmt(x, 4), fmt(y, 4), fmt(z, 4),
                                               fmt(yaw_of(value.rotation), 4))
