# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
limits.max_frames: a flood of frames is counted, not stored, and never what the audit is for.

Past the bound an edge still enters when it brings a configured frame, or a new parent to a
frame already held (a second parent, a cycle, the root above the configured chain), up to
FRAMES_RESERVED frames more; an edge between frames already held adds no frame and always
enters. A /tf_static edge kept out is held until a frame below it comes in: latched once, it
will not come again.
"""
from typing import AbstractSet, Dict, NamedTuple, Optional

from .config import AuditConfig
from .geometry import Transform
from .records import Arrival

FRAMES_RESERVED = 100  # frames past limits.max_frames kept for the configured chain's facts
MAX_WAITING = 1000  # /tf_static edges past limits.max_frames kept until a frame below comes


class HeldStatic(NamedTuple):
    """A /tf_static edge kept out by the bound, waiting for a frame below it."""

    parent: str
    value: Transform
    stamp: float
    arrival: Arrival


class FrameLimit:
    """The bound on frames, the frames it never keeps out, and what it kept out."""

    def __init__(self, config: AuditConfig):
        """Take limits.max_frames, and the frames the config names: never kept out."""
        self.max_frames = config.max_frames
        self.configured = {config.map_frame, config.odom_frame, config.base_frame,
                           config.laser_frame, *(config.required_frames or ()),
                           *(pose.pose_frame for pose in config.pose_topics or ())} - {''}
        self.over_limit = 0  # edges kept out, counted
        self._held: Dict[str, HeldStatic] = {}  # child -> its /tf_static edge kept out

    def admits(self, frames: AbstractSet[str], parent: str, child: str) -> bool:
        """Return whether parent -> child may enter a tree of frames; count it if not."""
        new_frames = {parent, child} - frames
        total = len(frames) + len(new_frames)
        if new_frames and total > self.max_frames and not (
                total <= self.max_frames + FRAMES_RESERVED
                and (child in frames or new_frames & self.configured)):
            self.over_limit += 1
            return False
        return True

    def hold(self, child: str, held: HeldStatic) -> None:
        """Keep a /tf_static edge kept out until a frame below it comes (the newest ones)."""
        self._held.pop(child, None)
        self._held[child] = held
        if len(self._held) > MAX_WAITING:
            del self._held[next(iter(self._held))]

    def release(self, child: str) -> Optional[HeldStatic]:
        """Return the static edge held above child, no longer held (None: none)."""
        return self._held.pop(child, None)

    def let_in(self) -> None:
        """Count a held edge as let in: no longer kept out."""
        self.over_limit = max(0, self.over_limit - 1)
