# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which point of the car each pose topic really describes, and whether odometry agrees with TF.

A node told the wrong pose_frame raises no error anywhere: the car is silently 0.26 m off.
These checks decide from the data alone, against TF at each sample's stamp.
"""
import math
from typing import Dict, List, Optional, Tuple

import numpy as np

from .common import arrow, warming_up
from .laser import laser_path
from ..config import AuditConfig, PoseTopic
from ..findings import CheckResult, Finding, fmt, Level, within_tolerance
from ..lookup import lookup
from ..store import FrameStore, PoseTrack

POSE = 'pose_frame'
ODOMETRY = 'odometry'
VERDICT_WINDOW = 30  # the most recent placed samples (3 s) a verdict is drawn from
SPEED_SAMPLES = 25  # odom -> base_link samples the car's speed is measured over


def _medians(track: PoseTrack, frames: Tuple[str, ...],
             since: float) -> Tuple[Dict[str, float], float, int]:
    """
    Return each frame's median planar distance over the recent samples placed for all.

    Also the median of how far ahead of the first frame (the base) the samples sit along the
    car's axis: where on the car the poses are.
    """
    samples = [s for s in list(track.scored)[-VERDICT_WINDOW:]
               if s.received >= since and all(frame in s.distances for frame in frames)]
    if not samples:
        return {}, math.nan, 0
    ahead = float(np.median([s.distances[frames[0]][2] for s in samples]))
    return ({frame: float(np.median([s.distances[frame][0] for s in samples]))
             for frame in frames}, ahead, len(samples))


def _offset_finding(pose: PoseTopic, store: FrameStore,
                    config: AuditConfig) -> Optional[Finding]:
    """Compare a LiDAR pose topic's conversion offset with the tree's base_link → laser x."""
    if pose.laser_offset_x is None or pose.pose_frame != config.laser_frame:
        return None
    found = lookup(store, config.base_frame, config.laser_frame)
    if not found.ok:
        return None
    tree_x = found.transform.translation[0]
    if within_tolerance(pose.laser_offset_x, tree_x, config.tolerance_m):
        return None
    path = laser_path(store, config)
    topics = ', '.join(sorted({t for e in path for t in e.topics}))
    return Finding(
        POSE, Level.ERROR,
        '{}: consumers convert it to the rear axle with laser_offset_x {} m (poses.{}.'
        "laser_offset_x), but the tree's {} has x {} m (from {}): every converted pose is "
        '{} m off'.format(pose.topic, fmt(pose.laser_offset_x, 4), pose.name,
                          arrow(config.base_frame, config.laser_frame), fmt(tree_x, 4),
                          topics or 'TF', fmt(abs(pose.laser_offset_x - tree_x), 4)),
        'offset:' + pose.topic, frames=(config.base_frame, config.laser_frame),
        topics=(pose.topic,),
        values={'laser_offset_x': pose.laser_offset_x, 'tree_x': round(tree_x, 6)})


def _apart(store: FrameStore, a: str, b: str) -> float:
    """Return how far apart two points of the car are in the plane, by the tree (NaN: unknown)."""
    found = lookup(store, a, b)
    return math.hypot(*found.transform.translation[:2]) if found.ok else float('nan')


def _verdict(pose: PoseTopic, track: PoseTrack, store: FrameStore, config: AuditConfig,
             now: float) -> Tuple[Optional[Finding], str, bool]:
    """
    Return (finding, summary when none, whether there are too few samples to say).

    Only samples placed in the last timing.history_s count: a verdict does not outlive the
    data it was drawn from.
    """
    declared = pose.pose_frame
    frames = (config.base_frame, config.laser_frame)
    medians, ahead, count = _medians(track, frames, now - config.history_s)
    if count < config.pose_min_samples:
        why = ', '.join('{} ({}×)'.format(r, n) for r, n in sorted(track.unscorable.items()))
        return None, '{}: {} of {} samples placed against TF in the last {} s{}'.format(
            pose.topic, count, config.pose_min_samples, fmt(config.history_s, 0),
            '; not placed: ' + why if why else ''), True
    best = min(frames, key=lambda frame: medians[frame])
    distances = ', '.join('{} m from {}'.format(fmt(medians[f], 3), f) for f in frames)
    values = {'samples': count, 'ahead_of_base_m': round(ahead, 4),
              **{'median_m_' + f: round(medians[f], 4) for f in frames}}
    declared_fits = medians[declared] <= config.pose_fit_m
    if best == declared or (declared_fits and
                            medians[declared] - medians[best] < config.pose_margin_m):
        if declared_fits:
            return None, '{} describes {}, as declared (median {})'.format(
                pose.topic, declared, distances), False
    if medians[best] <= config.pose_fit_m and \
            medians[declared] - medians[best] >= config.pose_margin_m:
        return Finding(
            POSE, Level.ERROR,
            "{} is declared pose_frame {} (poses.{}.pose_frame), but its poses are {}'s: over "
            '{} samples the median is {}, by TF at each stamp; they sit {} m ahead of {} on '
            "the car's axis. Consumers place the car {} m from where it is; fix the publisher "
            'or the declared pose_frame'.format(
                pose.topic, declared, pose.name, best, count, distances,
                fmt(round(ahead, 2) + 0.0, 2),
                config.base_frame, fmt(_apart(store, best, declared), 2)),
            'frame:' + pose.topic, frames=(declared, best), topics=(pose.topic,),
            values=values), '', False
    return Finding(
        POSE, Level.WARN,
        '{} (declared pose_frame {}) fits no frame of the car: over {} samples the median is '
        '{}, and a frame fits within {} m (pose_frame.fit_m). Localization lost, or another '
        'point of the car?'.format(pose.topic, declared, count, distances,
                                   fmt(config.pose_fit_m, 2)),
        'fit:' + pose.topic, frames=frames, topics=(pose.topic,), values=values), '', False


def check_pose_frame(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that each pose topic describes the point of the car its consumers assume."""
    findings: List[Finding] = []
    summaries = []
    stale = 0
    for pose in config.pose_topics:
        offset = _offset_finding(pose, store, config)
        if offset:
            findings.append(offset)
        track = store.tracks.get(pose.topic)
        if track is None:
            stale += 1
            summaries.append('{}: no messages yet'.format(pose.topic))
            if not warming_up(store, config, now):
                findings.append(Finding(
                    POSE, Level.WARN,
                    'no messages on {} (poses.{}.topic): a misspelled topic, or its node is '
                    'not running; its pose_frame cannot be checked'.format(pose.topic,
                                                                           pose.name),
                    'silent:' + pose.topic, topics=(pose.topic,)))
            continue
        finding, summary, too_few = _verdict(pose, track, store, config, now)
        stale += too_few
        if finding:
            findings.append(finding)
        else:
            summaries.append(summary)
    return CheckResult(POSE, '; '.join(summaries), findings,
                       {'topics_judged': len(config.pose_topics) - stale}, stale=stale > 0)


def _frame_mismatches(track: PoseTrack, config: AuditConfig) -> List[Finding]:
    findings = []
    for field, frames, want, key in (
            ('header.frame_id', track.header_frames, config.odom_frame, 'frames.odom'),
            ('child_frame_id', track.child_frames, config.base_frame, 'frames.base')):
        for frame, count in sorted(frames.items()):
            if frame.lstrip('/') != want:
                findings.append(Finding(
                    ODOMETRY, Level.ERROR,
                    "{}'s {} is '{}' ({} messages), but the odometry frame in the tree is "
                    "'{}' ({}): consumers of {} place it in the wrong frame".format(
                        track.topic, field, frame, count, want, key, track.topic),
                    '{}:{}'.format(field, frame), frames=(frame, want), topics=(track.topic,)))
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


def _pose_vs_tf(track: PoseTrack, store: FrameStore, config: AuditConfig) -> Optional[Finding]:
    """
    Compare the odometry topic's poses with TF odom -> base_link at the same stamps.

    vesc_to_odom stamps /odom with the VESC state's time and its TF with the time of sending,
    a few milliseconds apart: the car moves speed x odometry.stamp_tolerance_s in between,
    which is allowed on top of odometry.position_tolerance_m.
    """
    base = config.base_frame
    samples = [s for s in list(track.scored)[-VERDICT_WINDOW:]
               if base in s.distances and s.record.frame_id.lstrip('/') == config.odom_frame]
    if len(samples) < config.pose_min_samples:
        return None
    median = float(np.median([s.distances[base][0] for s in samples]))
    allowed = config.odom_position_tolerance_m + _speed(store, config) * \
        config.odom_stamp_tolerance_s
    if within_tolerance(median, 0.0, allowed):
        return None
    return Finding(
        ODOMETRY, Level.ERROR,
        "{}'s pose is {} m (median over {} messages) from TF's {} at the same stamps, more "
        'than the {} m allowed (odometry.position_tolerance_m, plus the speed times '
        'odometry.stamp_tolerance_s): another node sends odom → base_link, or {} is not '
        'what drives TF'.format(
            track.topic, fmt(median, 3), len(samples), arrow(config.odom_frame, base),
            fmt(allowed, 3), track.topic),
        'vs_tf', frames=(config.odom_frame, base), topics=(track.topic,),
        values={'median_m': round(median, 4), 'allowed_m': round(allowed, 4)})


def check_odometry(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check the odometry topic's frames, its agreement with TF, and that odom never jumps."""
    findings: List[Finding] = []
    values = {}
    track = store.tracks.get(config.odom_topic)
    if track is not None:
        findings += _frame_mismatches(track, config)
        vs_tf = _pose_vs_tf(track, store, config)
        if vs_tf:
            findings.append(vs_tf)
        values['messages'] = track.count
    odom_edge = store.edges.get((config.odom_frame, config.base_frame))
    if odom_edge is not None and odom_edge.jumps.count:
        jumps = odom_edge.jumps
        findings.append(Finding(
            ODOMETRY, Level.ERROR,
            '{} jumped {} times (largest {} m, {} rad off its track): REP 105 requires odom '
            'to be continuous; an odometry reset or a second source'.format(
                arrow(config.odom_frame, config.base_frame), jumps.count,
                fmt(jumps.largest_m, 3), fmt(jumps.largest_rad, 3)),
            'jump', frames=odom_edge.key, topics=odom_edge.topics,
            values={'jumps': jumps.count, 'largest_jump_m': round(jumps.largest_m, 4)}))
    map_edge = store.edges.get((config.map_frame, config.odom_frame))
    if map_edge is not None:
        values['map_odom_corrections'] = map_edge.jumps.count
    stale = track is None and odom_edge is None
    if stale and not warming_up(store, config, now):
        summary = 'no {} and no {} received'.format(
            config.odom_topic, arrow(config.odom_frame, config.base_frame))
    else:
        summary = '{} agrees with TF, {} continuous'.format(
            config.odom_topic, arrow(config.odom_frame, config.base_frame))
    return CheckResult(ODOMETRY, summary, findings, values, stale=stale)
