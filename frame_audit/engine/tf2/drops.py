# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What tf2 drops or keeps twice, per edge and per publisher, as the chosen distribution would.

Every transform of a recording goes through the tf2 model's setTransform in arrival order;
each refusal is counted under its tf2 code. A receive clock going back (a bag that loops, a
restarted recording) is a jump tf2_ros answers by clearing its buffer: counted as a jump, not
as old data. Stamps going back by more than the cache window while arrivals run on (a
simulator reset, a loop replayed without --clock) make tf2 refuse that publisher's data until
its stamps catch up: counted apart from ordinary old data, which is a publisher out of order.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from .buffer_core import Buffer
from .distros import DEFAULT_DISTRO, to_ns
from .replay import JUMP_BACK_S, TfMessage

UNKNOWN = 'unknown_publisher'  # tf2's authority when the sender is not known


@dataclass
class Drops:
    """One edge from one publisher: what tf2 took, refused, skipped or kept twice."""

    parent: str
    child: str
    publisher: str
    taken: int = 0
    refused: Dict[str, int] = field(default_factory=dict)  # tf2 code -> count
    after_reset: int = 0  # TF_OLD_DATA of stamps that went back past the window
    skipped_duplicates: int = 0  # ROS 2: identical samples skipped silently
    kept_twice: int = 0  # ROS 2: a second value kept at a stamp already held

    @property
    def name(self) -> str:
        """Return the edge as reports write it."""
        return '{} → {}'.format(self.parent, self.child)

    @property
    def changed_anything(self) -> bool:
        """Return whether tf2 did anything but take every sample once."""
        return bool(self.refused or self.skipped_duplicates or self.kept_twice)


@dataclass(frozen=True)
class ClockJump:
    """The receive clock went back: tf2_ros clears its buffer (a loop, a restart)."""

    at: float
    back_s: float


def count_drops(messages: Sequence[TfMessage], distro: str = DEFAULT_DISTRO,
                cache_time_s: float = 10.0) -> Tuple[List[Drops], List[ClockJump]]:
    """Return per edge and publisher what the distribution's tf2 did, and the clock's jumps."""
    buffer = Buffer(cache_time_s, distro)
    counts: Dict[Tuple[str, str, str], Drops] = {}
    newest: Dict[Tuple[str, str], float] = {}
    jumps: List[ClockJump] = []
    last = None
    for message in messages:
        if last is not None and message.received < last - JUMP_BACK_S:
            jumps.append(ClockJump(message.received, last - message.received))
            buffer.clear()
            newest.clear()
        last = message.received
        who = message.publisher or UNKNOWN
        for record in message.records:
            parent, child = record.parent.lstrip('/'), record.child.lstrip('/')
            drops = counts.setdefault((parent, child, who), Drops(parent, child, who))
            done = buffer.set_transform(record.parent, record.child, to_ns(record.stamp),
                                        record.translation, record.rotation, who,
                                        message.static)
            before = newest.get((parent, child))
            if done.taken:
                drops.taken += 1
                drops.skipped_duplicates += done.skipped_duplicate
                drops.kept_twice += done.kept_twice
                newest[(parent, child)] = max(before or record.stamp, record.stamp)
                continue
            for code in done.codes:
                drops.refused[code] = drops.refused.get(code, 0) + 1
            if 'TF_OLD_DATA' in done.codes and before is not None and \
                    before - record.stamp > 2 * cache_time_s:
                drops.after_reset += 1
    return sorted(counts.values(), key=lambda d: (d.parent, d.child, d.publisher)), jumps
