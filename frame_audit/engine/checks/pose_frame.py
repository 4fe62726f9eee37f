# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which point of the car each pose topic really describes.

A node told the wrong pose_frame raises no error anywhere: the car is silently 0.26 m off.
The check decides from the data alone, against TF at each sample's stamp.
"""
import math
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .common import arrow, plural, unreadable, warming_up
from .laser import laser_path
from .pose_topics import car_speed, not_recorded, silent_topic, unlisted_topics, VERDICT_WINDOW
from ..check_ids import POSE
from ..config import AuditConfig, PoseTopic
from ..edge import Edge
from ..findings import CheckResult, Finding, fmt, Level, Value, within_tolerance
from ..lookup import lookup
from ..pose_track import PoseTrack
from ..records import POSE_MESSAGE_TYPES
from ..scoring import candidate_frames
from ..store import FrameStore


def placed_medians(track: PoseTrack, frames: Sequence[str], minimum: int,
                   since: float) -> Tuple[Dict[str, float], Dict[str, float], int]:
    """
    Return each frame's median planar distance over the recent samples placed against it.

    Only frames placed for at least minimum samples count. Also each frame's median of how
    far ahead of it the samples sit along the car's axis, and how many samples were recent.
    """
    samples = [s for s in track.recent(VERDICT_WINDOW) if s.received >= since]
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
        placed = sum(1 for s in track.recent(VERDICT_WINDOW)
                     if s.received >= now - config.history_s and declared in s.distances)
        return None, '{}: {} placed against {} by TF in the last {} s, {} needed ({}){}'.format(
            pose.topic, plural(placed, 'sample'), declared, fmt(config.history_s, 0),
            config.pose_min_samples, config.key('pose_frame.min_samples'),
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
    slack = fit + car_speed(store, config) * config.odom_stamp_tolerance_s
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
    samples = [s.distances[declared] for s in track.recent(VERDICT_WINDOW)
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


def check_pose_frame(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that each pose topic describes the point of the car its consumers assume."""
    findings: List[Finding] = []
    summaries: List[str] = []  # judged
    waiting: List[str] = []  # what cannot be judged yet, and why: first, the STALE row's words
    stale = 0
    absent = []
    pose_topics = config.pose_topics or ()
    for pose in pose_topics:
        track = store.tracks.get(pose.topic)
        offset = _offset_finding(pose, store, config) if track is not None else None
        if offset:  # a conversion judged only where its topic came: no verdict on nothing
            findings.append(offset)
        if track is None:
            stale += 1
            if not_recorded(store, pose.topic):
                absent.append('{} ({})'.format(pose.topic, config.key(
                    'poses.{}.topic'.format(pose.name))))
                continue
            key = config.key('poses.{}.topic'.format(pose.name))
            silent = silent_topic(store, config, now, pose.topic, key, POSE)
            if isinstance(silent, Finding):
                findings.append(silent)
            else:
                waiting.append(silent)
            continue
        finding, summary, too_few = _verdict(pose, track, store, config, now)
        stale += too_few
        if finding:
            findings.append(finding)
        else:
            (waiting if too_few else summaries).append(summary)
    findings += unreadable(store, POSE, [pose.topic for pose in pose_topics], now)
    if absent:
        others = unlisted_topics(store, config, POSE_MESSAGE_TYPES)
        waiting.append('not recorded: {}{}'.format(', '.join(absent), (
            '; pose topics in the recording that the config does not list: ' +
            ', '.join(others)) if others else '; the recording has no other pose topic'))
    if not pose_topics:
        waiting.append('no pose topics are configured (pose_topics is empty)')
    return CheckResult(POSE, '; '.join(waiting + summaries), findings,
                       {'topics_judged': len(pose_topics) - stale},
                       stale=stale > 0 or not pose_topics)
