# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Place each pose and odometry sample against TF at its stamp, once TF covers that stamp.

A sample is scored once: its planar distance and heading difference to each frame that could
be the point it describes: the base, the LiDAR, each declared pose_frame, and the other frames
of the robot's body (below the base, or between odom and the base). The pose_frame and
odometry checks then judge from these distances alone, so a check cycle stays cheap.
"""
from collections import deque
import math
from typing import Dict, List, Optional, Sequence, Tuple

from .geometry import compose, inverse, wrap_angle, yaw_of
from .lookup import lookup
from .pose_track import TrackedSample
from .store import FrameStore
from .tree_view import TreeReader


MAX_CANDIDATES = 16  # frames of the robot's body a sample is placed against, at most


def candidate_frames(store: TreeReader) -> List[str]:
    """
    Return the frames a pose sample is compared with: every point of the robot it can mean.

    The configured base and LiDAR and the declared pose frames first, then the rest of the
    robot's body by name: frames below the base, and those between odom and the base (a
    base_footprint above base_link).
    """
    config = store.config
    first = essential_frames(store)
    body: List[str] = []
    if config.base_frame in store.frames:
        ancestry = store.ancestry(config.base_frame)
        if config.odom_frame in ancestry:
            body += ancestry[1:ancestry.index(config.odom_frame)]
        children: Dict[str, List[str]] = {}
        for parent, child in store.edges:
            children.setdefault(parent, []).append(child)
        seen = set(body) | {config.base_frame}
        todo = deque([config.base_frame])
        while todo and len(body) < MAX_CANDIDATES:
            for child in sorted(children.get(todo.popleft(), ())):
                if len(body) >= MAX_CANDIDATES:
                    break
                if child not in seen:
                    seen.add(child)
                    body.append(child)
                    todo.append(child)
    return (first + sorted(set(body) - set(first)))[:MAX_CANDIDATES]


def essential_frames(store: TreeReader) -> List[str]:
    """Return the base, the LiDAR and the declared pose frames: a verdict needs these."""
    config = store.config
    frames = [config.base_frame, config.laser_frame] + \
        [p.pose_frame for p in config.pose_topics or ()]
    return list(dict.fromkeys(f for f in frames if f))


def _score(store: FrameStore, sample: TrackedSample, frames: Sequence[str],
           essential: Sequence[str]) -> Tuple[Optional[Dict[str, Tuple[float, float, float]]],
                                              str, bool]:
    """
    Return (distances, reason when none, whether TF may still come).

    A sample waits for TF to cover its stamp on the essential frames' edges only; a frame of
    the body whose edge lags (a wheel joint) is left out of this sample rather than hold it.
    """
    record = sample.record
    header = record.frame_id.lstrip('/')
    if not header:
        return None, 'empty header.frame_id', False
    values = tuple(record.position) + tuple(record.orientation) + (record.stamp,)
    if not all(math.isfinite(v) for v in values):
        return None, 'NaN or infinite pose', False
    distances: Dict[str, Tuple[float, float, float]] = {}
    reason = ''
    sample_pose = (record.position[0], record.position[1], yaw_of(record.orientation))
    for frame in frames:
        found = lookup(store, header, frame, record.stamp)
        if found.too_early and frame in essential:
            return None, found.why, True
        if found.transform is None:
            reason = reason or found.why
            continue
        ahead, left, turned = compose(inverse(found.transform.pose2d()), sample_pose)
        distances[frame] = (math.hypot(ahead, left), abs(wrap_angle(turned)), ahead)
    return (distances or None), reason, False


def score_pending(store: FrameStore, now: float) -> None:
    """Score every waiting sample that TF now covers; give up on those it never will."""
    frames = candidate_frames(store)
    essential = essential_frames(store)
    patience = store.config.history_s
    for track in store.tracks.values():
        while track.pending:
            sample = track.pending[0]
            distances, reason, wait = _score(store, sample, frames, essential)
            if wait and now - sample.received < patience:
                break
            track.pending.popleft()
            if distances is None:
                track.unscorable[reason] = track.unscorable.get(reason, 0) + 1
                continue
            sample.distances = distances
            track.scored.append(sample)
