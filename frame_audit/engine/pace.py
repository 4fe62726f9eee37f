# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
How long an edge may be silent and still keep its own pace: timing's and lookups' one rule.

An edge has stopped when it has been silent longer than the configured limit and than
STOPPED_PERIODS of its usual gaps. timing reports the stop; the lookups check sets apart the
refusals it caused, so both must say "stopped" of the same silences.
"""
from typing import Sequence

STOPPED_PERIODS = 3  # an edge silent for this many of its usual gaps (and the limit) stopped
MIN_GAPS = 2  # gaps seen before they say anything of the edge's pace


def usual_gap(arrivals: Sequence[float], delays: Sequence[float] = ()) -> float:
    """
    Return the silence the edge's own delivery makes usual: its gaps, or how late it comes.

    AMCL answering each odometry message that comes every 1.1 s sends map → odom in bursts
    of seven: 6 Hz, but 1.1 s apart, again and again; that is its pace, not a stop. Its
    first burst already shows it: samples stamped over 1.1 s, delivered at once (the spread
    of their delays). A gap seen a tenth of the time or more is its habit too.
    """
    gaps = sorted(b - a for a, b in zip(arrivals, arrivals[1:]))
    habit = gaps[len(gaps) * 9 // 10] if len(gaps) >= MIN_GAPS else 0.0
    spread = max(delays) - min(delays) if delays else 0.0
    return max(habit, spread)


def silence_limit(limit_s: float, arrivals: Sequence[float],
                  delays: Sequence[float] = ()) -> float:
    """Return how long the edge may be silent before it has stopped."""
    return max(limit_s, STOPPED_PERIODS * usual_gap(arrivals, delays))
