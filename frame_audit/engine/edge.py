# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
One parent -> child edge as received: its senders, static value, samples and rates.

Kept like tf2's cache: samples sorted by stamp, one value per stamp, older than the window
dropped. Beside tf2's cache it keeps what the checks judge: which topic and publisher sent
it, how fast, how late, how far it moved, and whether two sources share it (two_sources.py).
"""
import bisect
from collections import deque
from dataclasses import dataclass, field
import math
from typing import Deque, Dict, List, Optional, Tuple

from .config import AuditConfig
from .geometry import distance, rotation_angle, Transform
from .loops import no_later, on_old_clock, stamps_back, TimeJump
from .occurrences import Occurrences
from .receive_clock import MAX_TIME_JUMPS, ReceiveClock
from .records import Arrival, TF_STATIC_TOPIC, TF_TOPIC
from .two_sources import conflict_m, follow_rate, follow_track, RATE_EVERY, rate_of, RATE_WINDOW, \
    Sources, SWITCH

EdgeKey = Tuple[str, str]  # (parent, child)
BURST_RATIO = 1.5  # receipts this much faster than their stamps: a burst after a stall
LEAD_EVERY = 20  # samples between two estimates of an edge's steady lead
MAX_STATIC_CHANGES = 10  # the most recent changes of a static value kept


@dataclass
class Activity:
    """How much, and from when to when, one publisher sent an edge."""

    count: int
    first_received: float
    last_received: float


@dataclass
class Edge:
    """One parent -> child edge as received, on any topic, from any publisher."""

    parent: str
    child: str
    first_received: float
    last_received: float = 0.0
    count: int = 0
    topic_counts: Dict[str, int] = field(default_factory=dict)
    publishers: Dict[str, 'Activity'] = field(default_factory=dict)
    static_value: Optional[Transform] = None
    static_changes: List[Tuple[Transform, Transform, float]] = field(default_factory=list)
    static_sender: Optional[str] = None  # who latched the static value in force
    stamps: List[float] = field(default_factory=list)
    values: List[Transform] = field(default_factory=list)
    stamp_times: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    received_times: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    latencies: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    topic_last: Dict[str, float] = field(default_factory=dict)  # topic -> last received
    topic_first: Dict[str, float] = field(default_factory=dict)  # topic -> first received
    future: Occurrences = field(default_factory=Occurrences)  # (received, ahead_s)
    future_senders: Dict[str, int] = field(default_factory=dict)  # who stamped ahead, how often
    sources: Sources = field(default_factory=Sources)  # one source or two (two_sources.py)
    stamp_jumps: List[TimeJump] = field(default_factory=list)  # stamps back, receipts on
    lead_s: float = 0.0  # how far ahead of its arrival the edge is steadily stamped
    origin: Optional[Transform] = None  # its first value on /tf: how far it moves from there
    reach_m: float = 0.0  # the furthest its /tf values went from origin
    reach_rad: float = 0.0  # the most its /tf values turned from origin
    whole: bool = False  # a recording read to its end on one clock: rates over all of it
    from_before_jump: int = 0  # samples stamped before a jump back that arrived after it

    @property
    def key(self) -> EdgeKey:
        """Return (parent, child)."""
        return (self.parent, self.child)

    @property
    def is_static(self) -> bool:
        """Return whether the edge only ever came on /tf_static."""
        return set(self.topic_counts) == {TF_STATIC_TOPIC}

    @property
    def topics(self) -> Tuple[str, ...]:
        """Return the topics the edge came on, sorted."""
        return tuple(sorted(self.topic_counts))

    def rate_hz(self) -> Optional[float]:
        """
        Return the edge's rate as every report and check gives it, None for fewer than 3.

        Where a recording was read to its end (whole), its /tf messages over the whole time
        they were sent; else (live, or a recording still being read) over the recent samples.
        """
        return self._whole_rate_hz() if self.whole else self._recent_rate_hz()

    def _recent_rate_hz(self) -> Optional[float]:
        """
        Return the rate over the recent samples, None for fewer than 3.

        Messages over the time they arrived in (a sender whose clock runs fast stretches its
        stamps: 18.7 Hz by stamps where 20.8 Hz arrived). A burst delivered after a stall
        would read as a rate many times the real one: receipts packed much faster than their
        stamps are measured by the stamps. Edges whose stamps never move (a ROS 1 habit for
        fixed joints) are measured by receipts.
        """
        by_receipt, by_stamp = rate_of(self.received_times), rate_of(self.stamp_times)
        if by_receipt and by_stamp and by_receipt > BURST_RATIO * by_stamp:
            return by_stamp
        return by_receipt or by_stamp

    def paced_rate_hz(self) -> Optional[float]:
        """
        Return the rate over the recent samples by their stamps (receipts where they stand).

        A sender's own clock paces its stamps, where arrivals over a wireless link bunch and
        spread (12 Hz, then 24 Hz, by receipts): a rate that doubles is judged by this one.
        """
        return rate_of(self.stamp_times) or rate_of(self.received_times)

    def _whole_rate_hz(self) -> Optional[float]:
        """
        Return the /tf messages over the whole time they were sent, None for fewer than 3.

        A recording read to its end is judged over all of it (issue 21: 9.0 Hz arrived where
        the last 100 messages' median gap said 7.6 Hz); receipts, as the recorder took them.
        """
        count = self.topic_counts.get(TF_TOPIC, 0)
        span = self.topic_last.get(TF_TOPIC, 0.0) - self.topic_first.get(TF_TOPIC, 0.0)
        return (count - 1) / span if count >= 3 and span > 0.0 else None

    def clear_history(self) -> None:
        """Forget the samples of an old clock; the edge itself and its findings stay."""
        for history in (self.stamps, self.values, self.stamp_times, self.received_times,
                        self.latencies):
            history.clear()
        self.sources.clear_tracks()

    def restart(self, now: float) -> None:
        """
        Forget all the edge was compared with on a receive clock that jumped back to now.

        Its samples, rates, tracks, the jumps, future stamps and two sources seen on them,
        and the times it last came (it counts as alive at the jump); the edge, its
        senders, its static value and its totals stay.
        """
        self.clear_history()
        self.future.restart()
        self.future_senders.clear()
        self.sources.restart()
        self.lead_s = 0.0
        self.stamp_jumps = [on_old_clock(jump) for jump in self.stamp_jumps[-1:]]
        self.last_received = min(self.last_received, now)
        no_later(self.topic_last, now)
        for activity in self.publishers.values():
            activity.last_received = min(activity.last_received, now)  # inf: latched

    def latest(self) -> Optional[Transform]:
        """Return the newest value by stamp (or the static value)."""
        if self.values:
            return self.values[-1]
        return self.static_value

    def take(self, value: Transform, stamp: float, arrival: Arrival, clock: ReceiveClock,
             config: AuditConfig) -> None:
        """Take one admitted transform: its sender, then its static value or its sample."""
        self._count(arrival)
        if arrival.topic == TF_STATIC_TOPIC:
            self._latch(value, arrival, config)
            return
        newest = self.stamps[-1] if self.stamps else None
        last_jump = self.stamp_jumps[-1] if self.stamp_jumps else None
        if clock.before_own_jump(last_jump, newest, stamp, arrival.received):
            self.from_before_jump += 1
            return
        back = stamps_back(last_jump, newest, stamp, arrival.received, config.backwards_jump_s)
        if back is not None:
            self.stamp_jumps.append(back)
            del self.stamp_jumps[:-MAX_TIME_JUMPS]
            self.clear_history()  # the stamps restarted: follow the edge on its new clock
        self.stamp_times.append(stamp)
        self.received_times.append(arrival.received)
        if len(self.received_times) >= RATE_WINDOW and self.count % RATE_EVERY == 0:
            follow_rate(self.sources, self.paced_rate_hz(), arrival.received)
        self._follow_reach(value)
        now = clock.stamp_clock(arrival.received)
        if now is not None:
            self.latencies.append(now - stamp)
            ahead = stamp - now
            if ahead > config.future_tolerance_s:
                self.future.add(arrival.received, ahead)
                if arrival.publisher:
                    self.future_senders[arrival.publisher] = \
                        self.future_senders.get(arrival.publisher, 0) + 1
        if self.count % LEAD_EVERY == 0 and self.latencies:
            ordered = sorted(self.latencies)
            self.lead_s = max(0.0, -ordered[len(ordered) // 2])
        follow_track(self.sources, value, stamp, arrival.received, config)
        self._insert_sample(stamp, value, config)

    def _count(self, arrival: Arrival) -> None:
        """Count a message, its topic and its publisher (a latched one sends from then on)."""
        self.count += 1
        self.last_received = arrival.received
        self.topic_counts[arrival.topic] = self.topic_counts.get(arrival.topic, 0) + 1
        self.topic_last[arrival.topic] = arrival.received
        self.topic_first.setdefault(arrival.topic, arrival.received)
        if arrival.publisher:
            until = math.inf if arrival.topic == TF_STATIC_TOPIC else arrival.received
            activity = self.publishers.get(arrival.publisher)
            if activity is None:
                self.publishers[arrival.publisher] = Activity(1, arrival.received, until)
            else:
                activity.count += 1
                activity.last_received = max(activity.last_received, until)

    def _latch(self, value: Transform, arrival: Arrival, config: AuditConfig) -> None:
        """Take a /tf_static value; a changed one is kept as a change."""
        old = self.static_value
        if old is not None and not same_value(old, value, config):
            self.static_changes.append((old, value, arrival.received))
            del self.static_changes[:-MAX_STATIC_CHANGES]
        self.static_value = value
        self.static_sender = arrival.publisher

    def _insert_sample(self, stamp: float, value: Transform, config: AuditConfig) -> None:
        """Insert by stamp, then drop what is older than the window (kept like tf2's cache)."""
        stamps, values = self.stamps, self.values
        if not stamps or stamp > stamps[-1]:
            stamps.append(stamp)
            values.append(value)
        else:
            index = bisect.bisect_right(stamps, stamp)
            if index and stamps[index - 1] == stamp:
                apart = distance(values[index - 1].translation, value.translation)
                sources = self.sources
                if apart >= conflict_m(stamps, values, config) \
                        and sources.assignments and sources.assignments[-1] == SWITCH:
                    sources.conflicts.add(self.last_received)  # one stamp, two tracks' values
                elif apart > 0.0 or values[index - 1].rotation != value.rotation:
                    sources.restamped.add(self.last_received, apart)  # one track, re-stamped
                values[index - 1] = value  # tf2 keeps one value per stamp
                return
            stamps.insert(index, stamp)
            values.insert(index, value)
        oldest = stamps[-1] - config.history_s
        if stamps[0] < oldest:
            cut = bisect.bisect_left(stamps, oldest)
            del stamps[:cut]
            del values[:cut]

    def _follow_reach(self, value: Transform) -> None:
        """Keep how far the /tf values went from the first: a mount, or a vehicle."""
        if self.origin is None:
            self.origin = value
            return
        self.reach_m = max(self.reach_m, distance(self.origin.translation, value.translation))
        self.reach_rad = max(self.reach_rad,
                             rotation_angle(self.origin.rotation, value.rotation))

    def forget_static_history(self, before: float, config: AuditConfig) -> None:
        """
        Forget what no longer holds of a static edge: its /tf stream and its undone changes.

        A static edge also sent on /tf for a while is static again once /tf is silent for the
        window (its stream did not stop: the latched value serves), and a static value
        changed and then changed back to the one before leaves tf2 with the right value: the
        record goes, and the other static publishers' latches, replaced, age out of the
        window from then.
        """
        if self.static_value is None:
            return
        if self.topic_last.get(TF_TOPIC, math.inf) < before:
            del self.topic_counts[TF_TOPIC]
            del self.topic_last[TF_TOPIC]
            self.clear_history()
        if self.static_changes \
                and same_value(self.static_changes[0][0], self.static_value, config):
            changed_back = self.static_changes[-1][2]
            self.static_changes.clear()
            for name, activity in self.publishers.items():  # their latched values were replaced
                if name != self.static_sender and activity.last_received == math.inf:
                    activity.last_received = changed_back


def same_value(a: Transform, b: Transform, config: AuditConfig) -> bool:
    """Return whether two values agree within the laser tolerances (NaN never agrees)."""
    near = all(abs(p - q) <= config.tolerance_m for p, q in zip(a.translation, b.translation))
    return near and rotation_angle(a.rotation, b.rotation) <= config.tolerance_rad
