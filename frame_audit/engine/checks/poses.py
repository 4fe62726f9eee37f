# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which point of the car each pose topic really describes, and whether odometry agrees with TF.

A node told the wrong pose_frame raises no error anywhere: the car is silently 0.26 m off.
These checks decide from the data alone, against TF at each sample's stamp.
"""
import math
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .common import arrow, INIT_HINT, plural, since_start, source, times, unreadable, warming_up, \
    window
from .laser import laser_path
from ..check_ids import ODOMETRY, POSE
from ..config import AuditConfig, PoseTopic
from ..findings import CheckResult, Finding, fmt, Level, Value, within_tolerance
from ..lookup import lookup
from ..records import ODOMETRY as ODOMETRY_TYPE, POSE_MESSAGE_TYPES
from ..scoring import candidate_frames
from ..store import Edge, FrameStore, PoseTrack

VERDICT_WINDOW = 30  # the most recent placed samples (3 s) a verdict is drawn from
SPEED_SAMPLES = 25  # odom -> base_link samples the car's speed is measured over


def placed_medians(track: PoseTrack, frames: Sequence[str], minimum: int,
                   since: float) -> Tuple[Dict[str, float], Dict[str, float], int]:
    """
    Return each frame's median planar distance over the recent samples placed against it.

    Only frames placed for at least minimum samples count. Also each frame's median of how
    far ahead of it the samples sit along the car's axis, and how many samples were recent.
    """
    samples = [s for s in list(track.scored)[-VERDICT_WINDOW:] if s.received >= since]
    medians, ahead = {}, {}
    for frame in frames:
        placed = [s.distances[frame] for s in samples if frame in s.distances]
        if len(placed) >= minimum:
            medians[frame] = float(np.median([d[0] for d in placed]))
            ahead[frame] = float(np.median([d[2] for d in placed]))
    return medians, ahead, len(samples)


def _offset_finding(pose: PoseTopic, store: FrameStore,
                    config: AuditConfig) -> Optional[Finding]:
    """Compare a LiDAR pose topic's conversion offset with the tree's base_link → laser x."""
    if pose.laser_offset_x is None or not config.laser_frame \
            or pose.pose_frame != config.laser_frame:
        return None
    found = lookup(store, config.base_frame, config.laser_frame)
    if found.transform is None:
        return None
    tree_x = found.transform.translation[0]
    if within_tolerance(pose.laser_offset_x, tree_x, config.tolerance_m):
        return None
    path = laser_path(store, config)
    topics = ', '.join(sorted({t for e in path for t in e.topics}))
    return Finding(
        POSE, Level.ERROR,
        '{}: consumers convert it to the rear axle with laser_offset_x {} m ({}), but the '
        "tree's {} has x {} m (from {}): every converted pose is {} m off".format(
            pose.topic, fmt(pose.laser_offset_x, 4),
            config.key('poses.{}.laser_offset_x'.format(pose.name)),
            arrow(config.base_frame, config.laser_frame), fmt(tree_x, 4), topics or 'TF',
            fmt(abs(pose.laser_offset_x - tree_x), 4)),
        'offset:' + pose.topic, frames=(config.base_frame, config.laser_frame),
        topics=(pose.topic,),
        values={'laser_offset_x': pose.laser_offset_x, 'tree_x': round(tree_x, 6)})


def _apart(store: FrameStore, a: str, b: str) -> float:
    """Return how far apart two points of the car are in the plane, by the tree (NaN: unknown)."""
    transform = lookup(store, a, b).transform
    return math.hypot(*transform.translation[:2]) if transform is not None else float('nan')


def _shown(medians: Dict[str, float], declared: str, base: str) -> str:
    """Return the distances a message shows: the base, the declared frame, the closest."""
    frames = sorted(medians, key=medians.__getitem__)[:3]
    for frame in (declared, base):
        if frame in medians and frame not in frames:
            frames.append(frame)
    return ', '.join('{} m from {}'.format(fmt(medians[f], 3), f) for f in frames)


def _alike(store: FrameStore, frame: str, frames: Sequence[str], margin: float) -> List[str]:
    """Return the frames that lie within margin of frame in the plane: the data cannot tell."""
    return [f for f in frames if f != frame and _apart(store, frame, f) < margin]


def _verdict(pose: PoseTopic, track: PoseTrack, store: FrameStore, config: AuditConfig,
             now: float) -> Tuple[Optional[Finding], str, bool]:
    """
    Return (finding, summary when none, whether there are too few samples to say).

    Only samples placed in the last timing.history_s count: a verdict does not outlive the
    data it was drawn from.
    """
    declared = pose.pose_frame
    key = config.key('poses.{}.pose_frame'.format(pose.name))
    ahead_of_clock = _future_edges(store, track, declared, now - config.history_s)
    if ahead_of_clock:  # timing's fault: placing the poses through it cannot say
        return None, '{}: cannot say which point it carries: {} stamped ahead of its arrival ' \
            '(timing), and TF at its stamps is not where the robot was'.format(
                pose.topic, ', '.join(arrow(*edge.key) for edge in ahead_of_clock)), True
    medians, ahead, recent = placed_medians(track, candidate_frames(store),
                                            config.pose_min_samples, now - config.history_s)
    if declared not in medians:
        why = ', '.join('{} ({}×)'.format(r, n) for r, n in sorted(track.unscorable.items()))
        if declared not in store.frames and not warming_up(store, config, now):
            why = '{} (its pose_frame, {}) is not in the tree'.format(declared, key) + (
                '; ' + why if why else '')
        placed = sum(1 for s in list(track.scored)[-VERDICT_WINDOW:]
                     if s.received >= now - config.history_s and declared in s.distances)
        return None, '{}: {} of {} samples placed against {} by TF in the last {} s{}'.format(
            pose.topic, placed, config.pose_min_samples, declared, fmt(config.history_s, 0),
            '; not placed: ' + why if why else ''), True
    best = min(medians, key=medians.__getitem__)
    distances = _shown(medians, declared, config.base_frame)
    base_ahead = ahead.get(config.base_frame, math.nan)
    values: Dict[str, Value] = {
        'samples': recent, 'ahead_of_base_m': round(base_ahead, 4),
        **{'median_m_' + f: round(m, 4) for f, m in medians.items()}}
    fit = config.pose_fit_m
    # A TF stamped a few ms off its value trails the car by speed x that: a declared frame as
    # close as any, within that allowance (odometry.stamp_tolerance_s, as odometry has), is no
    # "fits no frame". The allowance never excuses another frame that fits clearly better:
    # that is the fault this check exists for.
    slack = fit + _speed(store, config) * config.odom_stamp_tolerance_s
    if medians[declared] - medians[best] < config.pose_margin_m and medians[declared] <= slack:
        steady = _steady_offset(pose, track, declared, now - config.history_s, config,
                                slack - fit)
        if steady is not None:
            return steady, '', False
        alike = _alike(store, declared, list(medians), config.pose_margin_m)
        return None, '{} describes {}, as declared (median {}){}'.format(
            pose.topic, declared, distances,
            '; {} lie{} too close to it to tell apart'.format(
                ', '.join(alike), 's' if len(alike) == 1 else '') if alike else ''), False
    if medians[best] <= fit and \
            medians[declared] - medians[best] >= config.pose_margin_m:
        alike = _alike(store, best, list(medians), config.pose_margin_m)
        where = ("; they sit {} m ahead of {} on the car's axis".format(
            fmt(round(base_ahead, 2) + 0.0, 2), config.base_frame)
            if math.isfinite(base_ahead) else '')
        return Finding(
            POSE, Level.ERROR,
            "{} is declared pose_frame {} ({}), but its poses are {}'s{}: over {} samples "
            'the median is {}, by TF at each stamp{}. Consumers place the robot {} m from '
            'where it is; fix the publisher or the declared pose_frame'.format(
                pose.topic, declared, key, best,
                ' (or {}, too close to tell apart)'.format(', '.join(alike)) if alike else '',
                recent, distances, where, fmt(_apart(store, best, declared), 2)),
            'frame:' + pose.topic, frames=(declared, best), topics=(pose.topic,),
            values=values), '', False
    return Finding(
        POSE, Level.WARN,
        '{} (declared pose_frame {}) fits no frame of the robot: over {} samples the median '
        'is {}, and a frame fits within {} m ({}, plus the speed times '
        'odometry.stamp_tolerance_s). Localization lost, or another point of the '
        'robot?'.format(pose.topic, declared, recent, distances, fmt(slack, 2),
                        config.key('pose_frame.fit_m')),
        'fit:' + pose.topic, frames=(declared, best), topics=(pose.topic,),
        values=values), '', False


STEADY_MIN_M = 0.03  # a pose steadily this far from its declared frame is another point
STEADY_SCATTER = 5.0  # ... when that is this many times the drive's own scatter


def _steady_offset(pose: PoseTopic, track: PoseTrack, declared: str, since: float,
                   config: AuditConfig, skew_m: float) -> Optional[Finding]:
    """
    Report poses that sit steadily at another point of the robot than the declared frame.

    Within pose_frame.fit_m they fit the declared frame, but a point 0.07 m ahead of the
    LiDAR (the front axle) every time, where a clean drive sits at 0.000 m, is no noise: it
    stands out from the drive's own scatter (the median deviation of the distances). A
    stamp a few ms off also puts every pose ahead, by the speed times that: skew_m (the
    speed times odometry.stamp_tolerance_s) is allowed on top of STEADY_MIN_M.
    """
    samples = [s.distances[declared] for s in list(track.scored)[-VERDICT_WINDOW:]
               if s.received >= since and declared in s.distances]
    if len(samples) < config.pose_min_samples:
        return None
    planar = np.array([d[0] for d in samples])
    offset = float(np.median(planar))
    scatter = float(np.median(np.abs(planar - offset)))
    if offset < STEADY_MIN_M + skew_m or offset < STEADY_SCATTER * scatter:
        return None
    ahead = float(np.median([d[2] for d in samples]))
    side = math.sqrt(max(0.0, offset * offset - ahead * ahead))
    return Finding(
        POSE, Level.WARN,
        '{} carries a point {} m {} {} along the car ({} m to the side), steadily: over {} '
        'samples the median is {} m from {} (its declared pose_frame, {}), {} times the '
        "drive's own scatter of {} m. Within {} of {} m, but another point of the robot: "
        'consumers place it that far off; fix the publisher or declare the frame at that '
        'point'.format(pose.topic, fmt(abs(ahead), 3), 'ahead of' if ahead >= 0 else 'behind',
                       declared, fmt(side, 3), len(samples), fmt(offset, 3), declared,
                       config.key('poses.{}.pose_frame'.format(pose.name)),
                       fmt(offset / scatter, 0) if scatter > 0 else 'many',
                       fmt(scatter, 4), config.key('pose_frame.fit_m'), fmt(config.pose_fit_m, 2)),
        'steady:' + pose.topic, frames=(declared,), topics=(pose.topic,),
        values={'offset_m': round(offset, 4), 'ahead_m': round(ahead, 4),
                'scatter_m': round(scatter, 4)})


def _future_edges(store: FrameStore, track: PoseTrack, frame: str,
                  start: float) -> List[Edge]:
    """Return the edges between the track's header frame and frame stamped in the future."""
    if not track.header_frames or frame not in store.frames:
        return []
    header = max(track.header_frames, key=track.header_frames.__getitem__).lstrip('/')
    if header not in store.frames:
        return []
    down, up = store.ancestry(frame), store.ancestry(header)
    common = next((f for f in down if f in set(up)), None)
    if common is None:
        return []
    between = down[:down.index(common)] + up[:up.index(common)]
    edges = [store.parent_of(f) for f in between]
    return [edge for edge in edges if edge is not None and edge.future.since(start)]


def silent_topic(store: FrameStore, config: AuditConfig, now: float, topic: str, key: str,
                 check: str) -> Union[Finding, str]:
    """
    Say why a configured topic has no messages: a finding, or a summary when nothing is wrong.

    Live, the graph tells: a topic nobody publishes or subscribes is simply not used on this
    car (the particle filter runs, SLAM does not); one that nodes wait for but nobody
    publishes is a misspelled name; one published but silent is a node that does not send.
    """
    graph = store.topic_graph
    if graph is not None and topic in graph:
        publishers, subscribers = graph[topic]
        if not publishers and not subscribers:
            return '{}: not in use (no node publishes or subscribes it)'.format(topic)
        if not publishers:
            return Finding(check, Level.WARN, '{} ({}) has {} waiting for it and no publisher: '
                           'a misspelled name on one side?'.format(
                               topic, key, plural(subscribers, 'subscriber')),
                           'silent:' + topic, topics=(topic,), values={
                               'subscribers': subscribers})
    if warming_up(store, config, now):
        return '{}: no messages yet'.format(topic)
    return Finding(check, Level.WARN, 'no messages on {} ({}){}: a misspelled topic, or its '
                   'node is not running or not sending'.format(
                       topic, key, ', though {} publish{} it'.format(
                           plural(graph[topic][0], 'node'), 'es' if graph[topic][0] == 1
                           else '') if graph is not None and topic in graph else ''),
                   'silent:' + topic, topics=(topic,))


def _not_recorded(store: FrameStore, topic: str) -> bool:
    """Return whether a recording was read and does not hold topic at all."""
    return store.recorded is not None and topic not in store.recorded


def unlisted_topics(store: FrameStore, config: AuditConfig, types: Sequence[str]) -> List[str]:
    """Return 'topic (type)' for recorded topics of these types that the config does not list."""
    listed = {config.odom_topic, config.scan_topic} | \
        {p.topic for p in config.pose_topics or ()}
    return ['{} ({})'.format(topic, msgtype.rsplit('/', 1)[-1])
            for topic, msgtype in sorted((store.recorded or {}).items())
            if msgtype in types and topic not in listed]


def check_pose_frame(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that each pose topic describes the point of the car its consumers assume."""
    findings: List[Finding] = []
    summaries = []
    stale = 0
    absent = []
    pose_topics = config.pose_topics or ()
    for pose in pose_topics:
        offset = _offset_finding(pose, store, config)
        if offset:
            findings.append(offset)
        track = store.tracks.get(pose.topic)
        if track is None:
            stale += 1
            if _not_recorded(store, pose.topic):
                absent.append('{} ({})'.format(pose.topic, config.key(
                    'poses.{}.topic'.format(pose.name))))
                continue
            key = config.key('poses.{}.topic'.format(pose.name))
            silent = silent_topic(store, config, now, pose.topic, key, POSE)
            if isinstance(silent, Finding):
                findings.append(silent)
            else:
                summaries.append(silent)
            continue
        finding, summary, too_few = _verdict(pose, track, store, config, now)
        stale += too_few
        if finding:
            findings.append(finding)
        else:
            summaries.append(summary)
    findings += unreadable(store, POSE, [pose.topic for pose in pose_topics], now)
    if absent:
        others = unlisted_topics(store, config, POSE_MESSAGE_TYPES)
        summaries.append('not recorded: {}{}'.format(', '.join(absent), (
            '; pose topics in the recording that the config does not list: ' +
            ', '.join(others)) if others else '; the recording has no other pose topic'))
    if not pose_topics:
        summaries.append('no pose topics are configured (pose_topics is empty)')
    return CheckResult(POSE, '; '.join(summaries), findings,
                       {'topics_judged': len(pose_topics) - stale},
                       stale=stale > 0 or not pose_topics)


def _tree_edge(store: FrameStore, parent: str, child: str) -> str:
    """Describe the tree's edge parent → child, '' when the tree has none."""
    edge = store.edges.get((parent, child))
    return '{} ({})'.format(arrow(parent, child), source(edge)) if edge is not None else ''


def _frame_mismatches(track: PoseTrack, store: FrameStore, config: AuditConfig,
                      start: float) -> List[Finding]:
    """
    Compare the odometry message's frames with the config, and say what the tree says.

    When the tree has the very edge the message names, the robot is consistent and the config
    describes another one (a WARN pointing to frame-audit init); when it does not, consumers
    of the topic place it in a frame TF does not have (an ERROR).
    """
    findings = []
    parents = [f.lstrip('/') for f in track.header_frames if track.header_last[f] >= start]
    children = [f.lstrip('/') for f in track.child_frames if track.child_last[f] >= start]
    for field, frames, last, want, key in (
            ('header.frame_id', track.header_frames, track.header_last, config.odom_frame,
             'frames.odom'),
            ('child_frame_id', track.child_frames, track.child_last, config.base_frame,
             'frames.base')):
        for frame, count in sorted(frames.items()):
            name = frame.lstrip('/')
            if name == want or last[frame] < start:
                continue
            pairs = [(name, c) for c in children] if field == 'header.frame_id' else \
                [(p, name) for p in parents]
            edges = [e for e in (_tree_edge(store, p, c) for p, c in pairs) if e]
            said = "{}'s {} is '{}' ({} messages), but {} is '{}'".format(
                track.topic, field, frame, count, config.key(key), want)
            if edges:
                findings.append(Finding(
                    ODOMETRY, Level.WARN,
                    "{}. The tree agrees with {}: it has {}. If {} is this robot's frame, set "
                    '{}: {}; {}'.format(said, track.topic, '; '.join(edges), name, key, name,
                                        INIT_HINT),
                    '{}:{}'.format(field, frame), frames=(name, want), topics=(track.topic,)))
            else:
                where = 'is in the tree, but no TF edge joins it to {}'.format(
                    ' or '.join(children if field == 'header.frame_id' else parents)) \
                    if name in store.frames else 'is not in the tree'
                findings.append(Finding(
                    ODOMETRY, Level.ERROR,
                    '{}; {} {}: consumers of {} place it in a frame TF does not '
                    'match'.format(said, name, where, track.topic),
                    '{}:{}'.format(field, frame), frames=(name, want), topics=(track.topic,)))
    return findings


def _speed(store: FrameStore, config: AuditConfig) -> float:
    """Return how fast odom -> base_link has moved over its last samples (m/s, 0 unknown)."""
    edge = store.edges.get((config.odom_frame, config.base_frame))
    if edge is None or len(edge.stamps) < 2:
        return 0.0
    stamps, values = edge.stamps[-SPEED_SAMPLES:], edge.values[-SPEED_SAMPLES:]
    span = stamps[-1] - stamps[0]
    path = sum(math.dist(a.translation, b.translation) for a, b in zip(values, values[1:]))
    return path / span if span > 0 else 0.0


def _pose_vs_tf(track: PoseTrack, store: FrameStore,
                config: AuditConfig) -> Tuple[Optional[Finding], int]:
    """
    Compare the odometry topic's poses with TF odom -> base_link at the same stamps.

    Returns the finding, if any, and how many messages were compared (0: too few to say).

    vesc_to_odom stamps /odom with the VESC state's time and its TF with the time of sending,
    a few milliseconds apart: the car moves speed x odometry.stamp_tolerance_s in between,
    which is allowed on top of odometry.position_tolerance_m.
    """
    base = config.base_frame
    samples = [s for s in list(track.scored)[-VERDICT_WINDOW:]
               if base in s.distances and s.record.frame_id.lstrip('/') == config.odom_frame]
    if len(samples) < config.pose_min_samples:
        return None, 0
    median = float(np.median([s.distances[base][0] for s in samples]))
    allowed = config.odom_position_tolerance_m + _speed(store, config) * \
        config.odom_stamp_tolerance_s
    if within_tolerance(median, 0.0, allowed):
        return None, len(samples)
    return Finding(
        ODOMETRY, Level.ERROR,
        "{}'s pose is {} m (median over {} messages) from TF's {} at the same stamps, more "
        'than the {} m allowed (odometry.position_tolerance_m, plus the speed times '
        'odometry.stamp_tolerance_s): another node sends odom → base_link, or {} is not '
        'what drives TF'.format(
            track.topic, fmt(median, 3), len(samples), arrow(config.odom_frame, base),
            fmt(allowed, 3), track.topic),
        'vs_tf', frames=(config.odom_frame, base), topics=(track.topic,),
        values={'median_m': round(median, 4), 'allowed_m': round(allowed, 4)}), len(samples)


STOPPED_PERIODS = 3  # a topic silent for this many of its periods (and stale_after_s) stopped


def _topic_stopped(track: PoseTrack, edge: Edge, store: FrameStore, config: AuditConfig,
                   now: float) -> List[Finding]:
    """Report an odometry topic that stopped while TF's odom → base goes on."""
    if track.last_received is None or track.first_received is None or track.count < 3:
        return []
    period = (track.last_received - track.first_received) / (track.count - 1)
    limit = max(config.stale_after_s, STOPPED_PERIODS * period)
    age = now - track.last_received
    if age <= limit or now - edge.last_received > limit:
        return []  # still coming, or TF stopped too (timing reports that)
    return [Finding(
        ODOMETRY, Level.ERROR,
        '{} stopped: its last message arrived {} s ago ({} s into the recording; more than {} s, '
        'timing.stale_after_s or {} periods), while {} goes on ({}). Nodes that read {} '
        '(a controller, robot_localization) get nothing: its node stopped sending'.format(
            track.topic, fmt(age, 1), fmt(since_start(store, track.last_received), 1),
            fmt(limit, 1), STOPPED_PERIODS, arrow(*edge.key), source(edge), track.topic),
        'stopped:' + track.topic, frames=edge.key, topics=(track.topic,),
        values={'age_s': round(age, 3)})]


def _two_sources_since(edge: Edge, start: float) -> bool:
    """
    Return whether the edge came from two sources since start: its jumps are theirs.

    Jumps between two sources' tracks are parent_uniqueness's, as long as it reports them (its
    window); a reset after the second source has gone is odometry's again.
    """
    return edge.sources.two_tracks is not None and edge.sources.two_tracks.last_received >= start


def check_odometry(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check the odometry topic's frames, its agreement with TF, and that odom never jumps."""
    findings: List[Finding] = []
    values: Dict[str, Value] = {}
    said = []
    name = arrow(config.odom_frame, config.base_frame)
    track = store.tracks.get(config.odom_topic)
    topic_key = config.key('odometry.topic')
    compared = 0
    if track is not None:
        findings += _frame_mismatches(track, store, config, window(config, now))
        vs_tf, compared = _pose_vs_tf(track, store, config)
        if vs_tf:
            findings.append(vs_tf)
        values['messages'] = track.count
        said.append('{} agrees with TF over {} messages'.format(config.odom_topic, compared)
                    if compared else '{}: too few messages placed against TF {} to '
                    'compare'.format(config.odom_topic, name))
    elif _not_recorded(store, config.odom_topic):
        others = unlisted_topics(store, config, (ODOMETRY_TYPE,))
        said.append('{} ({}) is not recorded{}'.format(
            config.odom_topic, topic_key, '; odometry topics in the recording: ' +
            ', '.join(others) if others else ''))
    elif store.topic_graph is not None:  # live: the graph says whether it is used
        silent = silent_topic(store, config, now, config.odom_topic, topic_key, ODOMETRY)
        if isinstance(silent, Finding):
            findings.append(silent)
            said.append('no {} messages'.format(config.odom_topic))
        else:
            said.append(silent)
    else:
        said.append('no {} messages ({}){}'.format(
            config.odom_topic, topic_key, ' yet' if not store.ended else ''))
    findings += unreadable(store, ODOMETRY, (config.odom_topic,), now)
    odom_edge = store.edges.get((config.odom_frame, config.base_frame))
    if track is not None and odom_edge is not None:
        findings += _topic_stopped(track, odom_edge, store, config, now)
    recent = odom_edge.sources.jumps.since(window(config, now)) if odom_edge is not None else []
    if recent and odom_edge is not None \
            and not _two_sources_since(odom_edge, window(config, now)):
        largest_m, largest_rad = max(j[1] for j in recent), max(j[2] for j in recent)
        findings.append(Finding(
            ODOMETRY, Level.ERROR,
            '{} jumped {} in the last {} s (largest {} m, {} rad off its track; the last {} s '
            'ago): REP 105 requires odom to be continuous; an odometry reset or a second '
            'source'.format(name, times(len(recent)), fmt(config.history_s, 0),
                            fmt(largest_m, 3), fmt(largest_rad, 3),
                            fmt(now - recent[-1][0], 1)),
            'jump', frames=odom_edge.key, topics=odom_edge.topics,
            values={'jumps': len(recent), 'largest_jump_m': round(largest_m, 4),
                    'jumps_total': odom_edge.sources.jumps.total}))
    if odom_edge is not None:
        said.append('{} continuous'.format(name))
    else:
        said.append('no {} in the tree{}'.format(name, ' yet' if not store.ended else ''))
    map_edge = store.edges.get((config.map_frame, config.odom_frame))
    if map_edge is not None:
        values['map_odom_corrections'] = map_edge.sources.jumps.total
    # agreement is never claimed without data: no odometry, or too little, leaves it STALE
    stale = track is None or not compared
    return CheckResult(ODOMETRY, '; '.join(said), findings, values, stale=stale)
