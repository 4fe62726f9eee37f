# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""When something happened, counted over a window: the record every windowed count shares."""
from collections import deque
from dataclasses import dataclass, field
from typing import Deque, List, Optional, Tuple

MAX_OCCURRENCES = 1000  # times kept per counted kind (jumps, rejections, unreadable messages)


@dataclass
class Occurrences:
    """
    When something happened, with up to two numbers each: a bounded history and the total.

    Live, a status reports the last timing.history_s (as tf2 forgets after its cache window),
    so counts are taken over a window; the total and the first time stay for the log.
    """

    total: int = 0
    first: Optional[float] = None
    times: Deque[Tuple[float, float, float]] = field(
        default_factory=lambda: deque(maxlen=MAX_OCCURRENCES))

    def add(self, when: float, a: float = 0.0, b: float = 0.0) -> None:
        """Note one occurrence at receive time when."""
        self.total += 1
        if self.first is None:
            self.first = when
        self.times.append((when, a, b))

    def restart(self) -> None:
        """Forget the times of a clock that jumped back; the total and the first stay (log)."""
        self.times.clear()

    def since(self, start: float) -> List[Tuple[float, float, float]]:
        """Return the occurrences at or after start."""
        return [item for item in self.times if item[0] >= start]

    @property
    def last(self) -> Optional[float]:
        """Return when it last happened."""
        return self.times[-1][0] if self.times else None
