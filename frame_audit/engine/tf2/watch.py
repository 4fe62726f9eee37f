# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The car's own lookups, asked as they happen: how many messages tf2 placed within the wait.

A message filter holds each message until tf2 can place it in the target frame at its stamp,
or its wait runs out. This does the same with the model (buffer.py) as messages arrive, so
the live node and the offline audit give one answer: each TFMessage goes into one buffer
(diagnose.feed, as the Replay does), each message of a lookup topic becomes a pending lookup
due at its arrival plus the wait, and a pending lookup is asked (diagnose.ask) before the
buffer takes anything that arrived after its due time: placed or refused, the answers equal
placed.summarize's over the same recording. A refusal is then judged, or set apart where
another check owns its cause (a frame never sent, a split tree, a sender starting, stopped or
refused by tf2); one that came before its limiting edge's next sample waits for it, as only
that sample tells a late edge from a stopped one. What is kept is bounded: tf2's cache
window, the pending and held lookups (a wait's and a silence's worth of messages), and the
counts per second of the window.
"""
from collections import deque
from dataclasses import dataclass, field, replace
from itertools import islice
import math
from typing import AbstractSet, Any, Collection, Deque, Dict, Iterable, List, Optional, Sequence, \
    Tuple

from .backend import model_name, Real
from .buffer_core import Buffer, Tf2Error
from .distros import DEFAULT_DISTRO, to_ns, to_s
from .drops import UNKNOWN
from .replay import ask, feed, JUMP_BACK_S, TfMessage
from ..config import LookupEntry
from ..pace import silence_limit
from ..records import TransformRecord

MAX_PENDING = 10000  # lookups waiting per entry; past this the oldest is asked at once
MAX_EXAMPLE = 400  # characters of tf2's text kept per limiting edge
MAX_SENDERS = 5  # senders named per limiting edge
PACE_SAMPLES = 30  # arrivals kept per edge to know its usual gap
CLOCKS_APART_S = 1.0  # a message and an edge this much further behind their stamps: 2 clocks
MAX_FRAMES_NAMED = 5  # a lookup topic's message frames kept for the message
EDGE_KINDS = ('future', 'past', 'single', 'empty')  # refusals a limiting edge explains
UNNAMED = 'an edge the model cannot name (tf2 itself refused where the model did not)'
OPEN_SECONDS = 3  # the newest seconds, where answers still land: added up at every tally


@dataclass(frozen=True)
class Pending:
    """One message waiting to be placed: its stamp and frame, and when tf2 gives up."""

    stamp: float
    frame: str
    due: float


@dataclass
class Refusals:
    """The refusals one limiting edge caused (in one second, or over the window)."""

    kind: str  # tf2's error kind most of them had: future, past, single or empty
    child: str = ''  # the limiting edge's child frame
    count: int = 0
    lag_s: Optional[float] = None  # the most the edge's stamps ran behind (future) or ahead
    publishers: Tuple[str, ...] = ()
    example: str = ''  # tf2's message for the worst one
    kinds: Dict[str, int] = field(default_factory=dict)  # how many of each kind

    def merge(self, other: 'Refusals') -> None:
        """Add another's refusals of the same edge: counts, kinds, worst lag and text, senders."""
        self.count += other.count
        for kind, count in (other.kinds or {other.kind: other.count}).items():
            self.kinds[kind] = self.kinds.get(kind, 0) + count
        self.kind = max(self.kinds, key=lambda kind: self.kinds[kind]) if self.count \
            else self.kind  # the first edge held one sample; the rest came too late
        self.publishers = tuple(sorted(set(self.publishers + other.publishers)))[:MAX_SENDERS]
        worse = other.lag_s is not None and (self.lag_s is None or other.lag_s > self.lag_s)
        if worse or not self.example:
            self.example = other.example
        if worse:
            self.lag_s = other.lag_s


# Why a lookup is set apart rather than judged: each names its subject (a frame, a kind of
# error, or the limiting edge) and the check that reports the cause.
NOT_IN_TREE = 'not_in_tree'  # a frame tf2 never had (chain_order, laser_offset, connectivity)
SHAPE = 'shape'  # two trees, a loop, an invalid id: the tree's shape, not an edge's timing
STARTING = 'starting'  # stamped before the limiting edge's first sample: its sender starting
SILENT = 'silent'  # the limiting edge had stopped (timing)
REJECTED = 'rejected'  # its samples kept coming and tf2 refused them (transform_values)
WAITING = 'waiting'  # nothing of the limiting edge since: too early to tell late from stopped
Apart = Dict[Tuple[str, str], int]  # (why, subject) -> lookups


@dataclass(frozen=True)
class HeldRefusal:
    """A refusal tf2 gave before its limiting edge came again: late or stopped, not yet known."""

    lookup: LookupEntry
    due: float
    edge: str
    refusal: Refusals  # this one refusal


@dataclass
class Second:
    """The lookups of one entry that came due in one second of the receive clock."""

    second: int
    asked: int = 0
    apart: Apart = field(default_factory=dict)
    refused: Dict[str, Refusals] = field(default_factory=dict)  # limiting edge -> refusals


@dataclass
class Settled:
    """
    An entry's leading seconds added up once: a tally adds only the seconds after them.

    Offline every second is kept, and adding them all up at every check made the audit's
    time grow with the square of the recording's length. A second changed after it was
    added up (a held refusal judged late, a clock gone back) drops this sum (_bucket).
    """

    count: int = 0  # the leading seconds added up
    asked: int = 0
    apart: Apart = field(default_factory=dict)
    refused: Dict[str, Refusals] = field(default_factory=dict)

    def add(self, second: 'Second') -> None:
        """Add one more second, as a tally adds them."""
        self.asked += second.asked
        _add_counts(self.apart, second.apart)
        for edge, refusals in second.refused.items():
            self.refused.setdefault(edge, Refusals(refusals.kind, refusals.child)) \
                .merge(refusals)


@dataclass
class Tally:
    """One entry's lookups over the window, added up for the check."""

    lookup: LookupEntry
    asked: int = 0
    apart: Apart = field(default_factory=dict)
    refused: Dict[str, Refusals] = field(default_factory=dict)
    before_tf: int = 0  # messages that came before any transform did
    frames: Tuple[str, ...] = ()  # the message frames seen (the lookups' sources)
    tf2: str = ''  # which tf2 answered: "tf2 (kilted model)" or tf2_py's
    delay_s: Optional[float] = None  # the messages' median arrival after their stamps

    @property
    def judged(self) -> int:
        """Return the lookups that judge the stamps: asked, less those set apart."""
        return self.asked - sum(self.apart.values())

    @property
    def refused_count(self) -> int:
        """Return how many tf2 refused because an edge's stamps fell short."""
        return sum(r.count for r in self.refused.values())


class LookupWatch:
    """The configured lookups, asked of a tf2 model fed in arrival order."""

    def __init__(self, lookups: Sequence[LookupEntry], cache_time_s: float = 10.0,
                 distro: str = DEFAULT_DISTRO, max_frames: int = 10000,
                 silent_after_s: float = 1.0, real: Optional[Real] = None):
        """
        Start with an empty buffer; max_frames bounds the frames it keeps caches for.

        real: tf2 itself (tf2_py), fed the same transforms, answers; the model keeps the
        caches that name a refusal's limiting edge. None: the model answers.

        silent_after_s (the config's timing.stale_after_s): a limiting edge that tf2 took
        nothing of for this long had stopped, or had its samples refused; its refusals are
        set apart, as timing or transform_values report the cause.
        """
        self.lookups = tuple(lookups)
        self.buffer = Buffer(cache_time_s, distro)
        self.real = real.make(cache_time_s) if real else None
        self.tf2 = real.name if real else model_name(distro)
        self.max_frames = max_frames
        # frames admitted past max_frames: the lookups' targets, and the store's configured
        # frames once it is given this watch (FrameStore.lookups)
        self.reserved: AbstractSet[str] = frozenset(lookup.target for lookup in lookups)
        self.silent_after_s = silent_after_s
        self.pending: Dict[LookupEntry, Deque[Pending]] = {lookup: deque() for lookup in lookups}
        self.seconds: Dict[LookupEntry, Deque[Second]] = {lookup: deque() for lookup in lookups}
        self.settled: Dict[LookupEntry, Settled] = {}
        self.before_tf: Dict[LookupEntry, int] = dict.fromkeys(self.lookups, 0)
        self.frames: Dict[LookupEntry, Dict[str, None]] = {lookup: {} for lookup in lookups}
        # each entry's recent messages: how long after its stamp each arrived (ahead: < 0)
        self.delays: Dict[LookupEntry, Deque[float]] = {
            lookup: deque(maxlen=PACE_SAMPLES) for lookup in lookups}
        self.topics = {lookup.topic for lookup in lookups}
        self.last: Optional[float] = None  # the last transform's arrival
        # per child frame (as many as the buffer has caches): its edge's first stamp, when a
        # sample of it last arrived, and when tf2 took its last ones (taken_times)
        self.first_stamp: Dict[str, float] = {}
        self.arrived: Dict[str, float] = {}
        self.delay: Dict[str, float] = {}  # child -> its last sample's arrival after its stamp
        self.taken_times: Dict[str, Deque[float]] = {}  # child -> recent arrivals taken: its pace
        self.held: Dict[str, Deque[HeldRefusal]] = {}  # child frame -> refusals since it last came

    def add_transforms(self, records: Iterable[TransformRecord], received: float,
                       static: bool, publisher: Optional[str]) -> None:
        """Take one TFMessage: first ask every lookup that came due before it arrived."""
        if not math.isfinite(received):
            return
        if self.last is not None and received < self.last - JUMP_BACK_S:
            self.restart()  # tf2_ros clears its buffer on a jump back (feed does)
        self.resolve(received)
        room = len(self.buffer.caches) < self.max_frames
        kept = tuple(r for r in records if math.isfinite(r.stamp)
                     and (room or r.child.lstrip('/') in self.buffer.caches
                          or r.child.lstrip('/') in self.reserved))
        insertions = feed(self.buffer, TfMessage(received, kept, static, publisher), self.last,
                          self.real)
        for record, insertion in zip(kept, insertions):
            child = record.child.lstrip('/')
            if insertion.taken:
                self._release(child, received)
                self.taken_times.setdefault(child, deque(maxlen=PACE_SAMPLES)).append(received)
                self.first_stamp[child] = min(self.first_stamp.get(child, record.stamp),
                                              record.stamp)
                self.delay[child] = received - record.stamp
            self.arrived[child] = received
        self.last = received

    def restart(self) -> None:
        """Ask what waits before a clock's jump back; every sender starts again after it."""
        self.resolve()
        self.first_stamp.clear()

    def _release(self, child: str, received: float) -> None:
        """Judge the refusals held since child's edge last came, now that it came again."""
        held = self.held.pop(child, None)
        if not held:
            return
        why = self._silence(child, received)
        for one in held:
            bucket = self._bucket(one.lookup, one.due)
            if why is None:
                bucket.refused.setdefault(one.edge, Refusals(one.refusal.kind, child)) \
                    .merge(one.refusal)
            else:
                _add_counts(bucket.apart, {(why, one.edge): 1})

    def _silence(self, child: str, now: float) -> Optional[str]:
        """
        Return SILENT or REJECTED if tf2 took nothing of child's edge for longer than it may.

        As timing judges a stop (pace.py): silent_after_s, and 3 of the edge's usual gaps, so
        an edge sent at 0.9 Hz is slow (the lookups' own cause), not stopped.
        """
        times = self.taken_times.get(child, ())
        taken = times[-1] if times else -math.inf
        if now - taken <= silence_limit(self.silent_after_s, list(times)):
            return None
        return REJECTED if self.arrived.get(child, -math.inf) > taken else SILENT

    def add_message(self, topic: str, frame: str, stamp: float, received: float) -> None:
        """Take one message of a lookup topic: a pending lookup per entry of the topic."""
        if topic not in self.topics or not (math.isfinite(stamp) and math.isfinite(received)):
            return
        for lookup in self.lookups:
            if lookup.topic != topic:
                continue
            if self.last is None:  # the audit started before TF: not the car's refusal
                self.before_tf[lookup] += 1
                continue
            self.delays[lookup].append(received - stamp)
            frames = self.frames[lookup]  # the newest few, for the message
            frames.pop(frame, None)
            frames[frame] = None
            while len(frames) > MAX_FRAMES_NAMED:
                del frames[next(iter(frames))]
            pending = self.pending[lookup]
            if len(pending) >= MAX_PENDING:
                self._answer(lookup, pending.popleft())
            # MessageFilter::add strips one leading '/' before it asks (stripSlash)
            pending.append(Pending(stamp, frame[1:] if frame.startswith('/') else frame,
                                   received + lookup.wait_s))

    def resolve(self, before: float = math.inf) -> None:
        """Ask every pending lookup due before `before` (default: all, the recording ended)."""
        for lookup, pending in self.pending.items():
            while pending and pending[0].due < before:
                self._answer(lookup, pending.popleft())

    def _bucket(self, lookup: LookupEntry, due: float) -> Second:
        """Return the second a lookup due then is counted in (made if new)."""
        seconds = self.seconds[lookup]
        second = int(math.floor(due))
        index = len(seconds)
        while index and seconds[index - 1].second > second:
            index -= 1
        found = bool(index) and seconds[index - 1].second == second
        settled = self.settled.get(lookup)
        if settled is not None and index - found < settled.count:
            del self.settled[lookup]  # a second already added up changes
        if found:
            return seconds[index - 1]
        seconds.insert(index, Second(second))
        return seconds[index]

    def _answer(self, lookup: LookupEntry, waiting: Pending) -> None:
        """Ask tf2 for one message as the buffer stands, and count (or hold) the answer."""
        answer = ask(self.buffer, lookup.target, waiting.frame, waiting.stamp, self.real,
                     values=False)
        bucket = self._bucket(lookup, waiting.due)
        bucket.asked += 1
        error = answer.error
        if error is None:
            return
        if error.kind == 'no_frame':
            _add_counts(bucket.apart, {(NOT_IN_TREE, error.frame): 1})
            return
        if error.kind not in EDGE_KINDS:
            _add_counts(bucket.apart, {(SHAPE, error.kind): 1})
            return
        if not error.frame:  # tf2 itself refused where the model did not: it names no edge
            bucket.refused.setdefault(UNNAMED, Refusals(error.kind)).merge(
                Refusals(error.kind, count=1, example=error.text[:MAX_EXAMPLE]))
            return
        limited = self._on_chain(lookup.target, waiting, error)
        edge, lag, publisher = self._edge(limited)
        if waiting.stamp < self.first_stamp.get(limited.frame, 0.0) \
                and self._one_clock(limited.frame, waiting, lookup):
            _add_counts(bucket.apart, {(STARTING, edge): 1})
            return
        refusal = Refusals(error.kind, error.frame, 1, lag, (publisher,) if publisher else (),
                           error.text[:MAX_EXAMPLE])
        if error.kind == 'future':  # the edge has not caught up: late, or stopped?
            silence = self._silence(error.frame, waiting.due)
            if silence is not None:  # silent long enough already: stopped (or refused)
                _add_counts(bucket.apart, {(silence, edge): 1})
                return
            held = self.held.setdefault(error.frame, deque())  # judged when it comes again
            if len(held) >= MAX_PENDING:
                oldest = held.popleft()
                _add_counts(self._bucket(oldest.lookup, oldest.due).apart, {(SILENT, edge): 1})
            held.append(HeldRefusal(lookup, waiting.due, edge, refusal))
            return
        bucket.refused.setdefault(edge, Refusals(error.kind, error.frame)).merge(refusal)

    def _on_chain(self, target: str, waiting: Pending, error: Tf2Error) -> Tf2Error:
        """
        Return the refusal as the first edge of the lookup's own chain that misses its time.

        tf2's text may name an edge off the chain: with odom → base_link short, a lookup of
        /scan in odom reads odom's own parent edge on its second walk, and a stale map → odom
        is what the text names. The limiting edge is the one whose fix places the lookup.
        """
        chain = [child for _, child in self.buffer.chain(target, waiting.frame)]
        if not chain or error.frame in chain:
            return error
        for child in chain:
            _, miss = self.buffer.caches[child].value(to_ns(waiting.stamp))
            if miss is not None:
                return replace(error, kind=miss.kind, frame=child, requested=miss.requested,
                               nearest=miss.nearest)
        return error

    def _one_clock(self, child: str, waiting: Pending, lookup: LookupEntry) -> bool:
        """
        Return whether a message and an edge were stamped on one clock, as far as it matters.

        A message stamped before an edge's first sample is its sender starting, when the
        message arrives on time or as long after its stamp as the edge's last sample did (an edge
        stamped ahead is timing's to say). Scans stamped 4.7 h behind their arrival, and an
        edge on the receiving machine's clock, are two clocks: their refusals are judged.
        """
        message = waiting.due - lookup.wait_s - waiting.stamp
        edge = self.delay.get(child, math.inf)
        return abs(message) <= CLOCKS_APART_S or abs(message - edge) <= CLOCKS_APART_S

    def _edge(self, error: Tf2Error) -> Tuple[str, Optional[float], Optional[str]]:
        """Return the limiting edge ('parent → child') with its lag and sender."""
        parent = self.buffer.parent_of(error.frame)
        name = '{} → {}'.format(parent or '?', error.frame)
        lag = None
        if error.kind in ('future', 'past'):
            gap = to_s(error.requested) - to_s(error.nearest)
            lag = gap if error.kind != 'past' else -gap
        sender = self.buffer.authority.get(error.frame)
        return name, lag, sender if sender != UNKNOWN else None

    def forget(self, before: float) -> None:
        """Drop the counts of lookups due before `before` (live: the window moves on)."""
        for lookup, seconds in self.seconds.items():
            while seconds and seconds[0].second + 1 <= before:
                seconds.popleft()
                self.settled.pop(lookup, None)
        for child in list(self.held):  # a stopped edge's refusals, held past the window
            held = self.held[child]
            while held and held[0].due < before:
                held.popleft()
            if not held:
                del self.held[child]
        if self.last is not None:  # TF came: the messages before it no longer tell anything
            self.before_tf = dict.fromkeys(self.lookups, 0)

    def keep_only(self, frames: Collection[str]) -> None:
        """
        Drop the caches of child frames not among frames: live, those the store forgot.

        Hours of tracker frames would otherwise fill max_frames for good, and every later
        frame would be one tf2 "never had"; a frame forgotten that comes again starts anew.
        """
        for child in [child for child in self.buffer.caches if child not in frames]:
            del self.buffer.caches[child]
            self.buffer.frames.pop(child, None)  # bounded with the caches
            self.buffer.authority.pop(child, None)
            for kept in (self.first_stamp, self.delay, self.arrived, self.taken_times,
                         self.held):
                kept.pop(child, None)

    def tallies(self, now: float, ended: bool = False) -> List[Tally]:
        """
        Return each entry's counts over what is kept (live: the window; offline: all).

        A refusal after which the limiting edge has not come again is set apart as stopped
        (or refused by tf2) once silent_after_s passed; before that it is too early to tell
        late from stopped (WAITING), unless the recording ended: then it counts.
        """
        return [self._tally(lookup, now, ended) for lookup in self.lookups]

    def delay_of(self, lookup: LookupEntry) -> Optional[float]:
        """Return how long after its stamp an entry's recent messages arrive (the median)."""
        delays = sorted(self.delays[lookup])
        return delays[len(delays) // 2] if delays else None

    def _tally(self, lookup: LookupEntry, now: float, ended: bool) -> Tally:
        """Add up one entry's seconds, and its refusals still held."""
        tally = Tally(lookup, before_tf=self.before_tf[lookup], frames=tuple(self.frames[lookup]),
                      tf2=self.tf2, delay_s=self.delay_of(lookup))
        seconds = self.seconds[lookup]
        start = seconds[0].second if seconds else math.inf
        settled = self.settled.setdefault(lookup, Settled())
        newest = max(settled.count, len(seconds) - OPEN_SECONDS)
        for second in islice(seconds, settled.count, newest):
            settled.add(second)
        settled.count = newest
        total = Settled(newest, settled.asked, dict(settled.apart), {
            edge: replace(refusals, kinds=dict(refusals.kinds))
            for edge, refusals in settled.refused.items()})
        for second in islice(seconds, newest, None):
            total.add(second)
        tally.asked, tally.apart, tally.refused = total.asked, total.apart, total.refused
        for child, held in self.held.items():
            why = self._silence(child, now) or (None if ended else WAITING)
            for one in held:
                if one.lookup != lookup or one.due < start:
                    continue
                if why is None:
                    tally.refused.setdefault(one.edge, Refusals(one.refusal.kind, child)) \
                        .merge(one.refusal)
                else:
                    _add_counts(tally.apart, {(why, one.edge): 1})
        return tally


def _add_counts(total: Dict[Any, int], more: Dict[Any, int]) -> None:
    """Add more's counts into total, key by key."""
    for key, count in more.items():
        total[key] = total.get(key, 0) + count
