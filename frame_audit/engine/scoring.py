# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Place each pose and odometry sample against TF at its stamp, once TF covers that stamp.

A sample is scored once: its planar distance and heading difference to each frame that could
be the point it describes (the base and the laser). The pose_frame and
odometry checks then judge from these distances alone, so a check cycle stays cheap.
"""
import math
from typing import Dict, Optional, Set, Tuple

from .geometry import compose, inverse, wrap_angle, yaw_of
from .lookup import lookup
from .store import FrameStore, TrackedSample


def candidate_frames(store: FrameStore) -> Set[str]:
    """Return the frames a pose sample is compared with: the two points a pose can mean."""
    return {store.config.base_frame, store.config.laser_frame}


def _score(store: FrameStore, sample: TrackedSample,
           frames: Set[str]) -> Tuple[Optional[Dict[str, Tuple[float, float, float]]], str,
                                      bool]:
    """Return (distances, reason when none, whether TF may still come)."""
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
    for frame in sorted(frames):
        found = lookup(store, header, frame, record.stamp)
        if found.too_early:
            return None, found.why, True
        if not found.ok:
            reason = reason or found.why
            continue
        ahead, left, turned = compose(inverse(found.transform.pose2d()), sample_pose)
        distances[frame] = (math.hypot(ahead, left), abs(wrap_angle(turned)), ahead)
    return (distances or None), reason, False


def score_pending(store: FrameStore, now: float) -> None:
    """Score every waiting sample that TF now covers; give up on those it never will."""
    frames = candidate_frames(store)
    patience = store.config.history_s
    for track in store.tracks.values():
        while track.pending:
            sample = track.pending[0]
            distances, reason, wait = _score(store, sample, frames)
            if wait and now - sample.received < patience:
                break
            track.pending.popleft()
            if distances is None:
                track.unscorable[reason] = track.unscorable.get(reason, 0) + 1
                continue
            sample.distances = distances
            track.scored.append(sample)
