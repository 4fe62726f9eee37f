# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The clocks an audit judges by: when messages arrived, and what their stamps are held against.

Live, stamps are held against the audit's receive clock; offline with a recorded /clock (a
replay with --clock, a simulator) against that clock; a receive clock that jumps back is a
loop (loops.py), and everything compared across it restarts (FrameStore.restart).
"""
import math
from typing import List, Optional

from .loops import stamped_before, TimeJump

MAX_TIME_JUMPS = 100  # the most recent backward jumps kept (a clock may oscillate)


class ReceiveClock:
    """When the audit received its first and last message, its jumps back, a recorded /clock."""

    def __init__(self, backwards_jump_s: float, clock_recorded: bool):
        """
        Follow arrivals; a jump back of more than backwards_jump_s is a loop.

        clock_recorded: a rosgraph_msgs/msg/Clock /clock is in the recording, so stamps
        cannot be judged before its first message.
        """
        self.backwards_jump_s = backwards_jump_s
        self.clock_recorded = clock_recorded
        self.first_received: Optional[float] = None
        self.last_received: Optional[float] = None
        self.time_jumps: List[TimeJump] = []
        self.clock_offset: Optional[float] = None  # receive time minus the recorded /clock

    def tick(self, received: float) -> bool:
        """Follow the receive clock to received; return whether it jumped back (a loop)."""
        if not math.isfinite(received):
            return False
        jumped = False
        if self.first_received is None:
            self.first_received = received
        elif self.last_received is not None \
                and received < self.last_received - self.backwards_jump_s:
            number = self.time_jumps[-1].number + 1 if self.time_jumps else 0
            self.time_jumps.append(TimeJump(number, self.last_received, received))
            del self.time_jumps[:-MAX_TIME_JUMPS]
            jumped = True
        if self.last_received is None or received > self.last_received \
                or self.time_jumps and self.time_jumps[-1].to_time == received:
            self.last_received = received
        return jumped

    def stamp_clock(self, received: float) -> Optional[float]:
        """
        Return the time stamps are judged against at receive time received, None: unknown yet.

        Where a rosgraph_msgs/msg/Clock /clock was recorded, stamps follow it, not the
        recorder's wall time; before its first message they cannot be judged. A /clock of
        another type is no clock: stamps are judged against arrival.
        """
        if self.clock_offset is not None:
            return received - self.clock_offset
        if self.clock_recorded:
            return None
        return received

    def stamped_before_jump(self, stamp: float, received: float) -> bool:
        """
        Return whether a message arriving at received was stamped before the clock's jump.

        Sent just before a loop's receive clock jumped back and taken just after it: it is
        judged on neither side (loops.stamped_before).
        """
        jump = self.time_jumps[-1] if self.time_jumps else None
        return stamped_before(jump, stamp, self.stamp_clock(received), received,
                              self.backwards_jump_s)

    def before_own_jump(self, jump: Optional[TimeJump], newest: Optional[float],
                        stamp: float, received: float) -> bool:
        """
        Return whether a stream's sample was stamped before the clock's or its own jump.

        Its own: its stamps went back while the receive clock ran on (newest: its newest
        stamp since); the new side has got at least as far as the jump's landing.
        """
        if jump is None and not self.time_jumps:
            return False  # the common case: no clock ever went back
        if self.stamped_before_jump(stamp, received):
            return True
        if jump is None:
            return False
        progress = jump.to_time if newest is None else max(newest, jump.to_time)
        return stamped_before(jump, stamp, progress, received, self.backwards_jump_s)

    def age(self, now: float) -> float:
        """Return how long the audit has been receiving, by the receive clock."""
        if self.first_received is None:
            return 0.0
        start = self.time_jumps[-1].to_time if self.time_jumps else self.first_received
        return max(0.0, now - start)
