# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Every edge the audit has seen, with a bounded history: the tree the checks look at.

tf2's buffer re-parents a frame silently and keeps one parent; this store keeps every
(parent, child) edge ever received, from which topic and publisher, so a second parent is
never lost. It treats each transform as tf2 does (drops NaN, non-unit, self-parented and
unnamed transforms, strips a leading '/') and counts what it dropped and why.
"""
import bisect
from collections import deque
from dataclasses import dataclass, field
import math
from typing import Deque, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .config import AuditConfig
from .geometry import distance, rotation_angle, Transform
from .loops import on_old_clock, stamped_before, stamps_back, TimeJump
from .occurrences import Occurrences
from .records import Arrival, CLOCK_TOPIC, CLOCK_TYPE, HeaderRecord, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from .tf2.watch import LookupWatch
from .two_sources import conflict_m, follow_rate, follow_track, RATE_EVERY, rate_of, RATE_WINDOW, \
    Sources, SWITCH

EdgeKey = Tuple[str, str]  # (parent, child)
MAX_REJECTION_KINDS = 1000
MAX_PENDING = 2000  # samples waiting for TF to cover their stamp
MAX_TIME_JUMPS = 100  # the most recent backward jumps kept (a clock may oscillate)
MAX_TRANSLATION_M = 1e6  # finite, but no robot's frames are 1,000 km apart
BURST_RATIO = 1.5  # receipts this much faster than their stamps: a burst after a stall
PLACE_PERIOD_S = 0.1  # samples kept to be placed against TF: at most ten a second
LEAD_EVERY = 20  # samples between two estimates of an edge's steady lead
FRAMES_RESERVED = 100  # frames past limits.max_frames kept for the configured chain's facts
MAX_WAITING = 1000  # /tf_static edges past limits.max_frames kept until a frame below comes


@dataclass
class Rejection:
    """Transforms tf2 would drop or change, of one kind, on one edge and topic."""

    reason: str
    parent: str
    child: str
    topic: str
    seen: Occurrences = field(default_factory=Occurrences)
    example: str = ''
    publisher: Optional[str] = None


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
        self.sources.restart()
        self.lead_s = 0.0
        self.stamp_jumps = [on_old_clock(jump) for jump in self.stamp_jumps[-1:]]
        self.last_received = min(self.last_received, now)
        _no_later(self.topic_last, now)
        for activity in self.publishers.values():
            activity.last_received = min(activity.last_received, now)  # inf: latched

    def latest(self) -> Optional[Transform]:
        """Return the newest value by stamp (or the static value)."""
        if self.values:
            return self.values[-1]
        return self.static_value


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

    def restart(self, now: float) -> None:
        """Forget the samples to be placed against TF; its receipts count up to now."""
        self.pending.clear()
        self.scored.clear()
        self.last_kept_stamp = self.newest_stamp = -math.inf
        if self.stamp_jump is not None:  # its own jump arrived on the clock before
            self.stamp_jump = on_old_clock(self.stamp_jump)
        if self.last_received is not None:
            self.last_received = min(self.last_received, now)
        _no_later(self.header_last, now)
        _no_later(self.child_last, now)


class FrameStore:
    """The audit's memory: edges, pose samples, scan headers, and what tf2 would have dropped."""

    def __init__(self, config: AuditConfig, recorded: Optional[Mapping[str, str]] = None,
                 lookups: Optional[LookupWatch] = None):
        """
        Keep the configuration's frame names, window and thresholds.

        recorded (offline): every topic of the recording and its type. lookups: the car's
        lookups, asked of tf2 (Audit feeds it); it admits the configured frames past
        max_frames, as here.
        """
        self.config = config
        self.edges: Dict[EdgeKey, Edge] = {}
        self.parents: Dict[str, Dict[str, Edge]] = {}  # child -> parent -> edge
        self.frames: Set[str] = set()
        self.rejections: Dict[Tuple[str, str, str, str], Rejection] = {}
        self.rejections_dropped = 0
        self.frames_over_limit = 0
        # child -> a /tf_static edge limits.max_frames kept out: (parent, value, stamp, arrival)
        self._waiting: Dict[str, Tuple[str, Transform, float, Arrival]] = {}
        self._overflow_seen: Tuple[int, int, float] = (0, 0, 0.0)  # counts, when they last grew
        self.tracks: Dict[str, PoseTrack] = {}
        self.scan_frames: Dict[str, int] = {}
        self.scan_last: Dict[str, float] = {}
        self.topic_counts: Dict[str, int] = {}
        self.first_received: Optional[float] = None
        self.last_received: Optional[float] = None
        self.time_jumps: List[TimeJump] = []
        self.messages = 0
        self._ended = False  # a recording read to its end: no more data will come
        self.unreadable: Dict[Tuple[str, str], Occurrences] = {}  # (topic, reason) -> when
        self.recorded = dict(recorded) if recorded is not None else None
        self.clock_offset: Optional[float] = None  # receive time minus the recorded /clock
        # live: configured topic -> (publishers, subscribers besides the audit), from the graph
        self.topic_graph: Optional[Dict[str, Tuple[int, int]]] = None
        # the frames limits.max_frames never keeps out: the ones the config names
        self._configured = {config.map_frame, config.odom_frame, config.base_frame,
                            config.laser_frame, *(config.required_frames or ()),
                            *(pose.pose_frame for pose in config.pose_topics or ())} - {''}
        self.lookups = lookups
        if lookups is not None:
            lookups.reserved = lookups.reserved | self._configured
        # While every frame has one parent, the tree's shape changes only when an edge is
        # added, so ancestries are cached until then (lookups are most of an audit's time).
        self._ancestries: Dict[str, List[str]] = {}
        self._one_parent_each = True

    # -- the clock ------------------------------------------------------------------------

    def _tick(self, arrival: Arrival) -> None:
        """Follow the receive clock; a jump back clears the histories, not the edges."""
        received = arrival.received
        self.messages += 1
        self.topic_counts[arrival.topic] = self.topic_counts.get(arrival.topic, 0) + 1
        if not math.isfinite(received):
            return
        if self.first_received is None:
            self.first_received = received
        elif self.last_received is not None \
                and received < self.last_received - self.config.backwards_jump_s:
            number = self.time_jumps[-1].number + 1 if self.time_jumps else 0
            self.time_jumps.append(TimeJump(number, self.last_received, received))
            del self.time_jumps[:-MAX_TIME_JUMPS]
            self.restart(received)
        if self.last_received is None or received > self.last_received \
                or self.time_jumps and self.time_jumps[-1].to_time == received:
            self.last_received = received

    def restart(self, now: float) -> None:
        """
        Forget everything that compares a message with an earlier one: the clock jumped back.

        The one place a loop restarts the audit, as tf2_ros clears its buffer: edges' and
        pose tracks' samples, rates, jumps and every windowed count, the lookups' model;
        every stream counts as alive at the jump. The tree, its senders and static values,
        and the totals stay (the node's log and an offline report keep what was found).
        """
        for edge in self.edges.values():
            edge.restart(now)
        for track in self.tracks.values():
            track.restart(now)
        for rejection in self.rejections.values():
            rejection.seen.restart()
        for seen in self.unreadable.values():
            seen.restart()
        _no_later(self.scan_last, now)
        if self.lookups is not None:
            self.lookups.restart()

    def stamped_before_jump(self, stamp: float, received: float) -> bool:
        """
        Return whether a message arriving at received was stamped before the clock's jump.

        Sent just before a loop's receive clock jumped back and taken just after it: it is
        judged on neither side (loops.stamped_before).
        """
        jump = self.time_jumps[-1] if self.time_jumps else None
        return stamped_before(jump, stamp, self.stamp_clock(received), received,
                              self.config.backwards_jump_s)

    # -- transforms -----------------------------------------------------------------------

    def _reject(self, reason: str, parent: str, child: str, arrival: Arrival,
                example: str) -> None:
        key = (reason, parent, child, arrival.topic)
        rejection = self.rejections.get(key)
        if rejection is None:
            if len(self.rejections) >= MAX_REJECTION_KINDS:
                self.rejections_dropped += 1
                return
            rejection = Rejection(reason, parent, child, arrival.topic, example=example,
                                  publisher=arrival.publisher)
            self.rejections[key] = rejection
        rejection.seen.add(arrival.received)

    def add_transforms(self, records: Iterable[TransformRecord], arrival: Arrival) -> None:
        """Take in one TFMessage's transforms as tf2 would."""
        self._tick(arrival)
        for record in records:
            self._add_transform(record, arrival)

    def _add_transform(self, record: TransformRecord, arrival: Arrival) -> None:
        parent, child = str(record.parent), str(record.child)
        stripped = parent.lstrip('/'), child.lstrip('/')
        if (parent, child) != stripped and all(stripped):
            self._reject('leading_slash', parent, child, arrival,
                         '{!r} → {!r} becomes {} → {}'.format(parent, child, *stripped))
        parent, child = stripped
        if not parent or not child:
            self._reject('empty_frame_id', parent, child, arrival,
                         'frame ids {!r} -> {!r}'.format(record.parent, record.child))
            return
        if parent == child:
            self._reject('self_parent', parent, child, arrival, '{} -> {}'.format(parent, child))
            return
        try:
            x, y, z = map(float, record.translation)
            qx, qy, qz, qw = map(float, record.rotation)
            stamp = float(record.stamp)
        except (TypeError, ValueError):
            self._reject('not_finite', parent, child, arrival, 'values {!r} {!r}'.format(
                record.translation, record.rotation))
            return
        if not math.isfinite(x + y + z + qx + qy + qz + qw + stamp):
            self._reject('not_finite', parent, child, arrival,
                         'translation {} rotation {} stamp {}'.format(
                             record.translation, record.rotation, record.stamp))
            return
        if max(abs(x), abs(y), abs(z)) > MAX_TRANSLATION_M:
            self._reject('huge_value', parent, child, arrival,  # taken, as tf2 takes it
                         'translation {}'.format(record.translation))
        norm2 = qx * qx + qy * qy + qz * qz + qw * qw
        if abs(norm2 - 1.0) >= 0.01:
            self._reject('non_unit_quaternion', parent, child, arrival,
                         'rotation {} has squared length {:.4f}'.format(record.rotation, norm2))
            return
        norm = math.sqrt(norm2)
        value = Transform((x, y, z), (qx / norm, qy / norm, qz / norm, qw / norm))
        edge = self.edges.get((parent, child))
        if edge is not None:
            self._update_edge(edge, value, stamp, arrival)
            return
        edge = self._new_edge(parent, child, arrival)
        if edge is None:
            if arrival.topic == TF_STATIC_TOPIC:  # latched once: it will not come again
                self._waiting.pop(child, None)
                self._waiting[child] = (parent, value, stamp, arrival)
                if len(self._waiting) > MAX_WAITING:
                    del self._waiting[next(iter(self._waiting))]
            return
        self._update_edge(edge, value, stamp, arrival)
        self._admit_waiting(parent)

    def _admit_waiting(self, frame: str) -> None:
        """
        Let in the static edges kept out above a frame that has just come in, up the chain.

        Past limits.max_frames a mount between base_link and the LiDAR, latched before the
        LiDAR's own edge, brings no configured frame and is kept out; once the LiDAR's edge
        makes it the parent of a frame held, it is one (a new parent to a frame held).
        """
        while frame in self._waiting:
            parent, value, stamp, arrival = self._waiting.pop(frame)
            edge = self.edges.get((parent, frame)) or self._new_edge(parent, frame, arrival)
            if edge is None:
                return
            self.frames_over_limit = max(0, self.frames_over_limit - 1)
            self._update_edge(edge, value, stamp, arrival)
            frame = parent

    def stamp_clock(self, received: float) -> Optional[float]:
        """
        Return the time stamps are judged against at receive time received, None: unknown yet.

        Where a rosgraph_msgs/msg/Clock /clock was recorded (a replay with --clock, a
        simulator), stamps follow it, not the recorder's wall time; before its first message
        they cannot be judged. A /clock of another type is no clock: stamps are judged
        against arrival.
        """
        if self.clock_offset is not None:
            return received - self.clock_offset
        if self.recorded is not None and self.recorded.get(CLOCK_TOPIC) == CLOCK_TYPE:
            return None
        return received

    def _new_edge(self, parent: str, child: str, arrival: Arrival) -> Optional[Edge]:
        """
        Add an edge, unless it would take the tree past limits.max_frames.

        The bound drops a flood, never what the audit is for: past it, an edge still enters
        when it brings a configured frame, or a new parent to a frame already held (a second
        parent, a cycle, the root above the configured chain), up to FRAMES_RESERVED frames
        more; an edge between frames already held adds no frame and always enters.
        """
        new_frames = {parent, child} - self.frames
        total = len(self.frames) + len(new_frames)
        if new_frames and total > self.config.max_frames and not (
                total <= self.config.max_frames + FRAMES_RESERVED
                and (child in self.frames or new_frames & self._configured)):
            self.frames_over_limit += 1
            return None
        self.frames |= new_frames
        edge = Edge(parent, child, first_received=arrival.received)
        self.edges[(parent, child)] = edge
        parents = self.parents.setdefault(child, {})
        parents[parent] = edge
        self._one_parent_each = self._one_parent_each and len(parents) == 1
        self._ancestries.clear()
        return edge

    def _update_edge(self, edge: Edge, value: Transform, stamp: float,
                     arrival: Arrival) -> None:
        edge.count += 1
        edge.last_received = arrival.received
        edge.topic_counts[arrival.topic] = edge.topic_counts.get(arrival.topic, 0) + 1
        edge.topic_last[arrival.topic] = arrival.received
        edge.topic_first.setdefault(arrival.topic, arrival.received)
        if arrival.publisher:
            # a static value is latched: its publisher counts as sending from then on
            until = math.inf if arrival.topic == TF_STATIC_TOPIC else arrival.received
            activity = edge.publishers.get(arrival.publisher)
            if activity is None:
                edge.publishers[arrival.publisher] = Activity(1, arrival.received, until)
            else:
                activity.count += 1
                activity.last_received = max(activity.last_received, until)
        if arrival.topic == TF_STATIC_TOPIC:
            old = edge.static_value
            if old is not None and not _same(old, value, self.config):
                edge.static_changes.append((old, value, arrival.received))
                del edge.static_changes[:-10]
            edge.static_value = value
            edge.static_sender = arrival.publisher
            return
        newest = edge.stamps[-1] if edge.stamps else None
        if self._before_own_jump(edge.stamp_jumps[-1] if edge.stamp_jumps else None, newest,
                                 stamp, arrival.received):
            edge.from_before_jump += 1
            return
        back = stamps_back(edge.stamp_jumps[-1] if edge.stamp_jumps else None, newest, stamp,
                           arrival.received, self.config.backwards_jump_s)
        if back is not None:
            edge.stamp_jumps.append(back)
            del edge.stamp_jumps[:-MAX_TIME_JUMPS]
            edge.clear_history()  # the stamps restarted: follow the edge on its new clock
        edge.stamp_times.append(stamp)
        edge.received_times.append(arrival.received)
        if len(edge.received_times) >= RATE_WINDOW and edge.count % RATE_EVERY == 0:
            follow_rate(edge.sources, edge.paced_rate_hz(), arrival.received)
        _follow_reach(edge, value)
        now = self.stamp_clock(arrival.received)
        if now is not None:
            edge.latencies.append(now - stamp)
            ahead = stamp - now
            if ahead > self.config.future_tolerance_s:
                edge.future.add(arrival.received, ahead)
        if edge.count % LEAD_EVERY == 0 and edge.latencies:
            ordered = sorted(edge.latencies)
            edge.lead_s = max(0.0, -ordered[len(ordered) // 2])
        follow_track(edge.sources, value, stamp, arrival.received, self.config)
        self._insert_sample(edge, stamp, value)

    def _before_own_jump(self, jump: Optional[TimeJump], newest: Optional[float],
                         stamp: float, received: float) -> bool:
        """
        Return whether a stream's sample was stamped before its clock's or its own jump.

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
        return stamped_before(jump, stamp, progress, received, self.config.backwards_jump_s)

    def _insert_sample(self, edge: Edge, stamp: float, value: Transform) -> None:
        """Insert by stamp, then drop what is older than the window (kept like tf2's cache)."""
        if not edge.stamps or stamp > edge.stamps[-1]:
            edge.stamps.append(stamp)
            edge.values.append(value)
        else:
            index = bisect.bisect_right(edge.stamps, stamp)
            if index and edge.stamps[index - 1] == stamp:
                apart = distance(edge.values[index - 1].translation, value.translation)
                sources = edge.sources
                if apart >= conflict_m(edge.stamps, edge.values, self.config) \
                        and sources.assignments and sources.assignments[-1] == SWITCH:
                    sources.conflicts.add(edge.last_received)  # one stamp, two tracks' values
                elif apart > 0.0 or edge.values[index - 1].rotation != value.rotation:
                    sources.restamped.add(edge.last_received, apart)  # one track, re-stamped
                edge.values[index - 1] = value  # tf2 keeps one value per stamp
                return
            edge.stamps.insert(index, stamp)
            edge.values.insert(index, value)
        oldest = edge.stamps[-1] - self.config.history_s
        if edge.stamps[0] < oldest:
            cut = bisect.bisect_left(edge.stamps, oldest)
            del edge.stamps[:cut]
            del edge.values[:cut]

    # -- pose-like samples ----------------------------------------------------------------

    def _track(self, topic: str) -> PoseTrack:
        track = self.tracks.get(topic)
        if track is None:
            track = self.tracks[topic] = PoseTrack(topic)
        return track

    def add_pose(self, record: PoseRecord, arrival: Arrival,
                 child_frame: Optional[str] = None) -> None:
        """Take in a pose sample; it is scored against TF once TF covers its stamp."""
        self._tick(arrival)
        track = self._track(arrival.topic)
        track.count += 1
        track.last_received = arrival.received
        if track.first_received is None:
            track.first_received = arrival.received
        frame = str(record.frame_id)
        track.header_frames[frame] = track.header_frames.get(frame, 0) + 1
        track.header_last[frame] = arrival.received
        if child_frame is not None:
            track.child_frames[child_frame] = track.child_frames.get(child_frame, 0) + 1
            track.child_last[child_frame] = arrival.received
        newest = track.newest_stamp if math.isfinite(track.newest_stamp) else None
        if self._before_own_jump(track.stamp_jump, newest, record.stamp, arrival.received):
            track.from_before_jump += 1
            return
        back = stamps_back(track.stamp_jump, newest, record.stamp, arrival.received,
                           self.config.backwards_jump_s)
        if back is not None:
            track.stamp_jump = back
            track.pending.clear()  # waiting for the old side's TF, which the edges forgot
            track.last_kept_stamp = track.newest_stamp = -math.inf  # its new side begins
        track.newest_stamp = max(track.newest_stamp, record.stamp)
        if 0.0 <= record.stamp - track.last_kept_stamp < PLACE_PERIOD_S:
            return  # ten samples a second are enough to judge a topic by
        track.last_kept_stamp = record.stamp
        track.pending.append(TrackedSample(record, arrival.received))

    def add_odometry(self, record: OdometryRecord, arrival: Arrival) -> None:
        """Take in an odometry message: a pose of child_frame_id in header.frame_id."""
        self.add_pose(record.pose, arrival, child_frame=str(record.child_frame_id))

    def add_unreadable(self, reason: str, arrival: Arrival) -> None:
        """Count a message that could not be read (undecodable, or of the wrong type)."""
        self._tick(arrival)
        key = (arrival.topic, reason)
        skipped = self.unreadable.get(key)
        if skipped is None:
            if len(self.unreadable) >= MAX_REJECTION_KINDS:
                self.rejections_dropped += 1
                return
            skipped = self.unreadable[key] = Occurrences()
        skipped.add(arrival.received)

    def add_scan(self, record: HeaderRecord, arrival: Arrival) -> None:
        """Take in a scan's header (only its frame matters), or a recorded /clock's time."""
        self._tick(arrival)
        if arrival.topic == CLOCK_TOPIC:
            self.clock_offset = arrival.received - record.stamp
            return
        frame = str(record.frame_id)
        self.scan_frames[frame] = self.scan_frames.get(frame, 0) + 1
        self.scan_last[frame] = arrival.received

    def forget(self, now: float) -> None:
        """
        Forget what stopped before the window, as tf2 forgets it: live memory stays bounded.

        Edges silent for longer than timing.history_s are dropped, with the frames only they
        held, unless latched on /tf_static or on the chain the audit follows from the base
        and the LiDAR up to the root (a stopped odom -> base_link stays, and stays
        reported); so are kinds of rejected and unreadable messages not seen in the window,
        a static edge's /tf stream silent before it, the record of a static value changed and
        since changed back, and the count of frames limits.max_frames kept out once none came
        in the window. The live node forgets; an offline audit keeps everything for its report.
        """
        before = now - self.config.history_s
        kept: Set[EdgeKey] = set()
        for frame in (self.config.base_frame, self.config.laser_frame):
            chain = self.ancestry(frame) if frame in self.frames else []
            kept.update(zip(chain[1:], chain))
        gone = [key for key, edge in self.edges.items()
                if edge.static_value is None and edge.last_received < before
                and key not in kept]
        for parent, child in gone:
            del self.edges[(parent, child)]
            del self.parents[child][parent]
            if not self.parents[child]:
                del self.parents[child]
        if gone:
            self.frames = {frame for key in self.edges for frame in key}
            self._one_parent_each = all(len(p) == 1 for p in self.parents.values())
            self._ancestries.clear()
        self.rejections = {key: rejection for key, rejection in self.rejections.items()
                           if (rejection.seen.last or 0.0) >= before}
        self.unreadable = {key: seen for key, seen in self.unreadable.items()
                           if (seen.last or 0.0) >= before}
        for edge in self.edges.values():
            _forget_static_history(edge, before, self.config)
        self._forget_overflow(now, before)
        if self.lookups is not None:  # tf2's model forgets the frames forgotten here
            self.lookups.keep_only(self.frames)

    def _forget_overflow(self, now: float, before: float) -> None:
        """Zero the counts of what limits.max_frames kept out once none came in the window."""
        counts = (self.frames_over_limit, self.rejections_dropped)
        if counts != self._overflow_seen[:2]:
            self._overflow_seen = counts + (now,)
        elif any(counts) and self._overflow_seen[2] < before:
            self.frames_over_limit = self.rejections_dropped = 0
            self._overflow_seen = (0, 0, now)

    # -- the tree as it is now ------------------------------------------------------------

    def parent_of(self, child: str) -> Optional[Edge]:
        """
        Return the edge the audit follows up from child.

        With several parents (a fault parent_uniqueness reports) tf2 follows whichever came
        last; the audit keeps the established one, so the other checks still see the car and
        one fault does not hide another: not an edge against REP 105's order, then REP 105's
        own parent (map above odom, odom above the base), then a static parent, then one
        still arriving, then the one seen first.
        """
        candidates = self.parents.get(child)
        if not candidates:
            return None
        if len(candidates) == 1:
            return next(iter(candidates.values()))
        live_after = (self.last_received or 0.0) - self.config.stale_after_s
        return min(candidates.values(),
                   key=lambda edge: (self._against_chain(edge), not self._on_chain(edge),
                                     edge.static_value is None,
                                     edge.last_received < live_after, edge.first_received))

    def _on_chain(self, edge: Edge) -> bool:
        """Return whether an edge is one of REP 105's: map -> odom or odom -> base."""
        config = self.config
        return edge.key in ((config.map_frame, config.odom_frame),
                            (config.odom_frame, config.base_frame))

    def _against_chain(self, edge: Edge) -> bool:
        """Return whether an edge runs up REP 105's map, odom, base chain (base -> odom)."""
        chain = (self.config.map_frame, self.config.odom_frame, self.config.base_frame)
        return edge.parent in chain and edge.child in chain and \
            chain.index(edge.parent) > chain.index(edge.child)

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to the root (stopping at a cycle)."""
        cached = self._ancestries.get(frame)
        if cached is not None:
            return cached
        chain = self._walk_up(frame)
        if self._one_parent_each:
            self._ancestries[frame] = chain
        return chain

    def _walk_up(self, frame: str) -> List[str]:
        chain = [frame]
        seen = {frame}
        edge = self.parent_of(frame)
        while edge is not None and edge.parent not in seen:
            chain.append(edge.parent)
            seen.add(edge.parent)
            edge = self.parent_of(edge.parent)
        return chain

    def roots(self) -> List[str]:
        """Return the frames with no parent, sorted."""
        return sorted(frame for frame in self.frames if frame not in self.parents)

    def trees(self) -> List[List[str]]:
        """Return the connected groups of frames (over every edge seen), largest first."""
        group: Dict[str, str] = {frame: frame for frame in self.frames}

        def find(frame: str) -> str:
            while group[frame] != frame:
                group[frame] = group[group[frame]]
                frame = group[frame]
            return frame

        for parent, child in self.edges:
            group[find(parent)] = find(child)
        members: Dict[str, List[str]] = {}
        for frame in sorted(self.frames):
            members.setdefault(find(frame), []).append(frame)
        return sorted(members.values(), key=lambda frames: (-len(frames), frames))

    @property
    def ended(self) -> bool:
        """Return whether a recording was read to its end: no more data will come."""
        return self._ended

    def end(self) -> None:
        """Mark the recording read to its end: its edges' rates are then over all of it."""
        self._ended = True
        for edge in self.edges.values():
            edge.whole = self.whole_recording

    @property
    def whole_recording(self) -> bool:
        """Return whether a recording was read to its end on one receive clock."""
        return self.ended and not self.time_jumps

    def age(self, now: float) -> float:
        """Return how long the audit has been receiving, by the receive clock."""
        if self.first_received is None:
            return 0.0
        start = self.time_jumps[-1].to_time if self.time_jumps else self.first_received
        return max(0.0, now - start)


def _forget_static_history(edge: Edge, before: float, config: AuditConfig) -> None:
    """
    Forget what no longer holds of a static edge: its /tf stream and its undone changes.

    A static edge also sent on /tf for a while is static again once /tf is silent for the
    window (its stream did not stop: the latched value serves), and a static value changed and
    then changed back to the one before leaves tf2 with the right value: the record goes, and
    the other static publishers' latches, replaced, age out of the window from then.
    """
    if edge.static_value is None:
        return
    if edge.topic_last.get(TF_TOPIC, math.inf) < before:
        del edge.topic_counts[TF_TOPIC]
        del edge.topic_last[TF_TOPIC]
        edge.clear_history()
    if edge.static_changes and _same(edge.static_changes[0][0], edge.static_value, config):
        changed_back = edge.static_changes[-1][2]
        edge.static_changes.clear()
        for name, activity in edge.publishers.items():  # their latched values were replaced
            if name != edge.static_sender and activity.last_received == math.inf:
                activity.last_received = changed_back


def _no_later(last_times: Dict[str, float], now: float) -> None:
    """Bring times of a clock that jumped back to now: each stream is alive at the jump."""
    for key, when in last_times.items():
        last_times[key] = min(when, now)


def _follow_reach(edge: Edge, value: Transform) -> None:
    """Keep how far an edge's /tf values went from its first: a mount, or a vehicle."""
    if edge.origin is None:
        edge.origin = value
        return
    edge.reach_m = max(edge.reach_m, distance(edge.origin.translation, value.translation))
    edge.reach_rad = max(edge.reach_rad, rotation_angle(edge.origin.rotation, value.rotation))


def _same(a: Transform, b: Transform, config: AuditConfig) -> bool:
    """Return whether two values agree within the laser tolerances (NaN never agrees)."""
    near = all(abs(p - q) <= config.tolerance_m for p, q in zip(a.translation, b.translation))
    return near and rotation_angle(a.rotation, b.rotation) <= config.tolerance_rad
