# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The two sides of a clock that jumps back: a loop's messages judged each on its own side.

A recording replayed in a loop (`ros2 bag play --loop`) sends its first seconds again: with
--clock the receive clock jumps back, without it each edge's stamps do. tf2_ros clears its
buffer then, and the audit restarts everything that compares a message with an earlier one
(FrameStore.restart). A message stamped before the jump that arrives just after it was in
flight across the loop: compared with the new side it would be a jump of the odometry, a
stamp in the future, stamps going back once more. It belongs to the side before, which is
gone: it is counted, and compared with nothing.
"""
from dataclasses import dataclass, replace
import math
from typing import Dict, Optional


@dataclass(frozen=True)
class TimeJump:
    """
    A clock went backwards.

    The receive clock (a bag that loops, a restarted recording), or one edge's stamps while
    receive time ran on (a loop replayed without --clock).
    """

    number: int  # counted from 0 over the whole audit
    from_time: float
    to_time: float
    received: Optional[float] = None  # for an edge's stamps: when the jump arrived

    @property
    def arrived(self) -> float:
        """Return the receive time the jump arrived at (the receive clock's: where it went)."""
        return self.to_time if self.received is None else self.received


def stamps_back(last: Optional[TimeJump], newest: Optional[float], stamp: float,
                received: float, window_s: float) -> Optional[TimeJump]:
    """
    Return the jump a stream's sample makes when its stamp goes back past window_s, else None.

    newest: the stream's newest stamp; last: its jump before, which this one is numbered after.
    """
    if newest is None or not stamp < newest - window_s:  # NaN goes on, as it came
        return None
    return TimeJump(last.number + 1 if last else 0, newest, stamp, received)


def on_old_clock(jump: TimeJump) -> TimeJump:
    """
    Return an edge's stamp jump as seen once the receive clock itself has jumped back.

    Its arrival was on the clock before: before every window of the new one (a status no
    longer reports it; the clock's own jump says the cause), and no message of the new side
    is told apart by it.
    """
    return replace(jump, received=-math.inf)


def stamped_before(jump: Optional[TimeJump], stamp: float, progress: Optional[float],
                   received: float, window_s: float) -> bool:
    """
    Return whether a message arriving after jump was stamped on the side before it.

    Such a message was in flight across the jump: it arrives within window_s (the config's
    timing.backwards_jump_s) of it, stamped more than window_s ahead of where the new side
    has got to (progress: the clock stamps are judged against, or the stream's newest stamp
    since the jump) and no later than where the side before had got to. A stream stamped
    ahead of its clock long after a jump is a timing fault, judged as such.
    """
    if jump is None or progress is None:
        return False
    since = received - jump.arrived
    return 0.0 <= since <= window_s and \
        progress + window_s < stamp <= jump.from_time + window_s


def no_later(last_times: Dict[str, float], now: float) -> None:
    """Bring times of a clock that jumped back to now: each stream is alive at the jump."""
    for key, when in last_times.items():
        last_times[key] = min(when, now)
