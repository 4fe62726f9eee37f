# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A recording's transforms replayed into the tf2 model in the order they arrived.

A lookup is then asked of the buffer as the node held it at that moment (the receive clock),
and each edge's whole history (who sent it, when, stamped when) is there for a diagnosis to
read. `feed` and `ask` are the one way in and out for the replay and the live lookups check.
"""
import bisect
from dataclasses import dataclass, field
import statistics
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .backend import model_name, Real, Tf2, with_facts
from .buffer_core import Answer, Buffer, Insertion
from .distros import DEFAULT_DISTRO, to_ns
from ..findings import fmt
from ..records import TransformRecord

JUMP_BACK_S = 1.0  # a receive clock going back further is a jump: tf2_ros clears its buffer


@dataclass(frozen=True)
class TfMessage:
    """One recorded TFMessage: when it arrived, its transforms, whether on /tf_static."""

    received: float
    records: Tuple[TransformRecord, ...]
    static: bool = False
    publisher: Optional[str] = None


@dataclass
class EdgeHistory:
    """Every sample of one parent -> child edge in the recording, in arrival order."""

    parent: str
    child: str
    static: bool = False
    received: List[float] = field(default_factory=list)
    stamps: List[float] = field(default_factory=list)
    publishers: Set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        """Return the edge as reports write it."""
        return '{} → {}'.format(self.parent, self.child)

    def rate_hz(self) -> Optional[float]:
        """
        Return the rate from the median step of the stamps in arrival order, None below 3.

        Only steps forward count: a stamp re-sent, or stamps going back (a bag loop, a
        simulator reset), say nothing of the rate.
        """
        steps = [b - a for a, b in zip(self.stamps, self.stamps[1:]) if b > a]
        if len(steps) < 2:
            return None
        return 1.0 / statistics.median(steps)

    def delays(self, start: float = float('-inf'), end: float = float('inf')) -> List[float]:
        """Return how far each stamp ran behind its arrival, for arrivals in [start, end]."""
        return [r - s for r, s in zip(self.received, self.stamps) if start <= r <= end]

    def latest_at(self, moment: float) -> Optional[float]:
        """Return the newest stamp that had arrived by moment."""
        stamps = [s for r, s in zip(self.received, self.stamps) if r <= moment]
        return max(stamps) if stamps else None

    def last_arrival(self, moment: float) -> Optional[float]:
        """Return when the edge last arrived at or before moment."""
        index = bisect.bisect_right(self.received, moment)
        return self.received[index - 1] if index else None

    def first_covering(self, stamp: float, after: float) -> Optional[float]:
        """Return the first arrival after `after` of a sample stamped at or after stamp."""
        for r, s in zip(self.received, self.stamps):
            if r >= after and s >= stamp:
                return r
        return None


class Replay:
    """A recording's transforms, replayed into the tf2 model up to any moment."""

    def __init__(self, messages: Sequence[TfMessage], distro: str = DEFAULT_DISTRO,
                 cache_time_s: float = 10.0, start: Optional[float] = None,
                 real: Optional[Real] = None):
        """
        Keep the messages (arrival order) and each edge's history; start: the recording's.

        real: tf2 itself (tf2_py), fed the same messages, answers the lookups; the model keeps
        the caches the diagnosis reads. None: the model answers.
        """
        self.messages = list(messages)
        self.distro = distro
        self.cache_time_s = cache_time_s
        self.histories: Dict[Tuple[str, str], EdgeHistory] = {}
        for message in self.messages:
            for record in message.records:
                key = (record.parent.lstrip('/'), record.child.lstrip('/'))
                history = self.histories.get(key)
                if history is None:
                    history = self.histories[key] = EdgeHistory(*key, static=message.static)
                history.received.append(message.received)
                history.stamps.append(record.stamp)
                if message.publisher:
                    history.publishers.add(message.publisher)
        self.real = real
        self.tf2 = real.name if real else model_name(distro)  # which tf2 answers
        self._cursor = _Cursor(self)
        self._ahead: Optional[_Cursor] = None  # probe()'s own
        self._received = [m.received for m in self.messages]  # in arrival order
        self.frames = {frame for key in self.histories for frame in key}
        self.has_static = any(message.static for message in self.messages)
        self.start = min((m.received for m in self.messages), default=0.0) \
            if start is None else start
        self.end = max((m.received for m in self.messages), default=0.0)

    def buffer_at(self, moment: float) -> Buffer:
        """Return the buffer holding what had arrived by moment (rebuilt to go back)."""
        return self._cursor.at(moment)

    def ask(self, target: str, source: str, time: float, moment: float) -> Answer:
        """Return what tf2 answered at moment for target <- source at time (0: latest)."""
        return ask(self._cursor.at(moment), target, source, time, self._cursor.real)

    def probe(self, target: str, source: str, time: float, moment: float) -> Answer:
        """
        Ask as ask() does, of a buffer of its own: a fix is proven by asking ahead.

        Proving a wait asks later than the lookups still to be explained; asked of the one
        buffer, each would rebuild it from the start to go back.
        """
        if self._ahead is None:
            self._ahead = _Cursor(self)
        return ask(self._ahead.at(moment), target, source, time, self._ahead.real)

    def arrivals(self, after: float, until: float) -> List[float]:
        """Return the distinct arrivals from after to until, in order."""
        received = self._received
        return sorted(set(received[bisect.bisect_left(received, after):
                                   bisect.bisect_right(received, until)]))

    def into(self, moment: float) -> str:
        """Return a receive-clock moment as reports tell it: seconds into the recording."""
        return '{} s into the recording'.format(fmt(moment - self.start, 2))

    def edge_of(self, child: str, moment: float) -> Optional[EdgeHistory]:
        """Return the edge above child as the buffer held it at moment."""
        parent = self.buffer_at(moment).parent_of(child)
        return self.histories.get((parent, child)) if parent else None


class _Cursor:
    """A buffer fed a replay's messages up to a moment: forward as asked, rebuilt to go back."""

    def __init__(self, replay: Replay):
        """Start empty, before the replay's first message."""
        self.replay = replay
        self._start()

    def _start(self) -> None:
        replay = self.replay
        self.buffer = Buffer(replay.cache_time_s, replay.distro)
        self.real: Optional[Tf2] = replay.real.make(replay.cache_time_s) if replay.real \
            else None
        self.fed = 0
        self.last: Optional[float] = None

    def at(self, moment: float) -> Buffer:
        """Return the buffer holding what had arrived by moment."""
        messages = self.replay.messages
        if self.fed and messages[self.fed - 1].received > moment:
            self._start()
        while self.fed < len(messages) and messages[self.fed].received <= moment:
            message = messages[self.fed]
            feed(self.buffer, message, self.last, self.real)
            self.last = message.received
            self.fed += 1
        return self.buffer


def feed(buffer: Buffer, message: TfMessage, last: Optional[float],
         real: Optional[Tf2] = None) -> List[Insertion]:
    """
    Take one TFMessage as tf2_ros does: its receive clock going back (from last) clears first.

    The one way in for the Replay and the live lookups check (tf2.watch), so both hold the
    same buffer (and tf2 itself, real, the same messages); returns what the model did with
    each transform.
    """
    given = [(record.parent, record.child, to_ns(record.stamp), record.translation,
              record.rotation, message.publisher or 'unknown_publisher', message.static)
             for record in message.records]
    if last is not None and message.received < last - JUMP_BACK_S:
        buffer.clear()
        if real is not None:
            real.clear()
    if real is not None:
        for transform in given:
            real.set_transform(*transform)
    return [buffer.set_transform(*transform) for transform in given]


def ask(buffer: Buffer, target: str, source: str, time: float,
        real: Optional[Tf2] = None, values: bool = True) -> Answer:
    """
    Return what tf2 answers for target <- source at time in seconds (0: latest).

    real (tf2 itself) answers where given; the model then only names the limiting frame of
    a refusal, which tf2's text does not. values False: the verdict alone, without the
    model's numbers (BufferCore.lookup).
    """
    stamp = to_ns(time) if time else 0
    if real is None:
        return buffer.lookup(target, source, stamp, values)
    said = real.lookup(target, source, stamp)
    return said if said.ok else with_facts(said, buffer.lookup(target, source, stamp))


@dataclass(frozen=True)
class Clock:
    """The asking side's clock: how far its stamps run behind their arrival, and who says so."""

    delay_s: float
    source: str  # "/scan (median of 357)", or the most punctual /tf edge


def receive_clock(replay: Replay) -> Clock:
    """
    Return the most punctual edge's median delay: the asker's clock when nothing else says.

    Future-dated edges (negative delays: AMCL's transform_tolerance) say nothing of the clock.
    """
    delays = sorted((statistics.median(h.delays()), h.name) for h in replay.histories.values()
                    if not h.static and h.stamps)
    punctual = [pair for pair in delays if pair[0] >= 0.0]
    if not punctual and not delays:
        return Clock(0.0, 'no /tf edge')
    delay, name = punctual[0] if punctual else delays[-1]
    return Clock(delay, 'the most punctual /tf edge, {}'.format(name))
