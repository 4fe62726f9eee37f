# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The samples of one pose-like topic (a pose topic or the odometry topic), kept to be placed.

Each sample waits until TF covers its stamp, then is scored against the frames it could
describe (scoring.py); ten a second are enough to judge a topic by.
"""
from collections import deque
from dataclasses import dataclass, field
from itertools import islice
import math
from typing import Deque, Dict, List, Optional, Tuple

from .loops import no_later, on_old_clock, stamps_back, TimeJump
from .receive_clock import ReceiveClock
from .records import PoseRecord

MAX_PENDING = 2000  # samples waiting for TF to cover their stamp
PLACE_PERIOD_S = 0.1  # samples kept to be placed against TF: at most ten a second


@dataclass
class TrackedSample:
    """
    A pose (or odometry) sample and, once TF covers its stamp, its distances.

    distances maps a frame name to how far the sample is from that frame's TF pose: metres in
    the plane, radians of heading, and metres ahead along the car's axis (from the frame).
    """

    record: PoseRecord
    received: float
    distances: Dict[str, Tuple[float, float, float]] = field(default_factory=dict)
    unscorable: str = ''


@dataclass
class PoseTrack:
    """Samples of one pose-like topic (a pose topic or the odometry topic)."""

    topic: str
    header_frames: Dict[str, int] = field(default_factory=dict)
    child_frames: Dict[str, int] = field(default_factory=dict)
    header_last: Dict[str, float] = field(default_factory=dict)  # frame -> last received
    child_last: Dict[str, float] = field(default_factory=dict)
    count: int = 0
    pending: Deque[TrackedSample] = field(default_factory=lambda: deque(maxlen=MAX_PENDING))
    scored: Deque[TrackedSample] = field(default_factory=lambda: deque(maxlen=MAX_PENDING))
    unscorable: Dict[str, int] = field(default_factory=dict)
    last_received: Optional[float] = None
    first_received: Optional[float] = None
    last_kept_stamp: float = -math.inf
    newest_stamp: float = -math.inf
    stamp_jump: Optional[TimeJump] = None  # its stamps' last jump back, receipts running on
    from_before_jump: int = 0  # samples stamped before a jump back that arrived after it

    def recent(self, count: int) -> List[TrackedSample]:
        """Return the newest count samples placed, oldest first (a verdict's window)."""
        newest = list(islice(reversed(self.scored), count))
        newest.reverse()
        return newest

    def restart(self, now: float) -> None:
        """Forget the samples to be placed against TF; its receipts count up to now."""
        self.pending.clear()
        self.scored.clear()
        self.last_kept_stamp = self.newest_stamp = -math.inf
        if self.stamp_jump is not None:  # its own jump arrived on the clock before
            self.stamp_jump = on_old_clock(self.stamp_jump)
        if self.last_received is not None:
            self.last_received = min(self.last_received, now)
        no_later(self.header_last, now)
        no_later(self.child_last, now)

    def take(self, record: PoseRecord, received: float, child_frame: Optional[str],
             clock: ReceiveClock) -> None:
        """Count a sample and its frames; keep it to be placed, ten a second, on its side."""
        self.count += 1
        self.last_received = received
        if self.first_received is None:
            self.first_received = received
        frame = str(record.frame_id)
        self.header_frames[frame] = self.header_frames.get(frame, 0) + 1
        self.header_last[frame] = received
        if child_frame is not None:
            self.child_frames[child_frame] = self.child_frames.get(child_frame, 0) + 1
            self.child_last[child_frame] = received
        newest = self.newest_stamp if math.isfinite(self.newest_stamp) else None
        if clock.before_own_jump(self.stamp_jump, newest, record.stamp, received):
            self.from_before_jump += 1
            return
        back = stamps_back(self.stamp_jump, newest, record.stamp, received,
                           clock.backwards_jump_s)
        if back is not None:
            self.stamp_jump = back
            self.pending.clear()  # waiting for the old side's TF, which the edges forgot
            self.last_kept_stamp = self.newest_stamp = -math.inf  # its new side begins
        self.newest_stamp = max(self.newest_stamp, record.stamp)
        if 0.0 <= record.stamp - self.last_kept_stamp < PLACE_PERIOD_S:
            return  # ten samples a second are enough to judge a topic by
        self.last_kept_stamp = record.stamp
        self.pending.append(TrackedSample(record, received))
