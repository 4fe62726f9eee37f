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
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Deque, Dict, Iterable, List, Optional, Set, Tuple

from .config import AuditConfig
from .geometry import distance, rotation_angle, Transform
from .records import Arrival, HeaderRecord, OdometryRecord, PoseRecord, TF_STATIC_TOPIC, \
    TransformRecord

EdgeKey = Tuple[str, str]  # (parent, child)
RATE_WINDOW = 100  # stamps kept per edge to measure its rate
SWITCH_WINDOW = 100  # track assignments kept per edge to spot two sources
MIN_SWITCHES = 6  # switches between two tracks in the window before two sources are called
MAX_MISS_SHARE = 0.25  # a noisy stream misses both tracks often; two sources seldom do
TRACK_SAMPLES = 3  # samples kept per track to measure its velocity
MAX_EXTRAPOLATION_S = 1.0  # a track is followed at most this far beyond its last sample
MIN_SWITCH_SAMPLES = 20  # samples in the window before switches are judged
SAME, SWITCH, MISS = 0, 1, -1  # how a sample continued the edge's tracks
SPEED_STEPS = 11  # history samples an edge's speed is taken over (the median step)
SAME_STAMP_CONFLICTS = 3  # stamps seen with two different values before two sources are called
LEAD_EVERY = 20  # samples between two estimates of an edge's steady lead
RATE_EVERY = 10  # samples between two looks at an edge's rate
RATE_DOUBLED = 1.8  # a rate this many times its first steady rate: a second source
MAX_REJECTION_KINDS = 1000
MAX_PENDING = 2000  # samples waiting for TF to cover their stamp
MAX_OCCURRENCES = 1000  # times kept per counted kind (jumps, rejections, unreadable messages)
MAX_TIME_JUMPS = 100  # the most recent backward jumps kept (a clock may oscillate)
MAX_TRANSLATION_M = 1e6  # finite, but no robot's frames are 1,000 km apart
PLACE_PERIOD_S = 0.1  # samples kept to be placed against TF: at most ten a second


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

    def since(self, start: float) -> List[Tuple[float, float, float]]:
        """Return the occurrences at or after start."""
        return [item for item in self.times if item[0] >= start]

    @property
    def last(self) -> Optional[float]:
        """Return when it last happened."""
        return self.times[-1][0] if self.times else None


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
class TwoTracks:
    """Evidence that two sources send one edge: its samples keep switching between two tracks."""

    first_received: float
    last_received: float = -math.inf
    separation_m: float = 0.0
    switches: int = 0  # in the window, when last seen
    rates_hz: Tuple[Optional[float], Optional[float]] = (None, None)


@dataclass
class Track:
    """One consistent run of an edge's values: a source, as far as the data can tell."""

    samples: Deque[Tuple[float, Transform]] = field(
        default_factory=lambda: deque(maxlen=TRACK_SAMPLES))
    stamps: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    moving: Optional[Tuple[float, float, float]] = None  # the velocity, kept as samples come

    def add(self, stamp: float, value: Transform) -> None:
        """Extend the track, and measure its velocity over its kept samples (m/s)."""
        self.samples.append((stamp, value))
        self.stamps.append(stamp)
        (t0, a), (t1, b) = self.samples[0], self.samples[-1]
        dt = t1 - t0
        if dt <= 1e-6:
            self.moving = None
            return
        (ax, ay, az), (bx, by, bz) = a.translation, b.translation
        self.moving = ((bx - ax) / dt, (by - ay) / dt, (bz - az) / dt)

    def velocity(self) -> Optional[Tuple[float, float, float]]:
        """Return the track's velocity over its kept samples (m/s), None from one sample."""
        return self.moving

    def off(self, value: Transform, stamp: float,
            fallback: Optional[Tuple[float, float, float]], stamp_tolerance_s: float,
            close_m: float) -> Tuple[float, bool]:
        """
        Return how far value lies from the track, and whether the track's motion was known.

        The track is followed at its own velocity (or fallback: the other source's motion)
        to stamp; a sample further than close_m from there is measured against the track
        anywhere within stamp_tolerance_s of stamp: a sample stamped a few milliseconds late
        lies on the track, only further back, and is no second source.
        """
        t1, last = self.samples[-1]
        velocity = self.velocity() or fallback
        if velocity is None:
            return math.dist(value.translation, last.translation), False
        point = value.translation
        here = _along(last.translation, velocity, stamp - t1)
        off = math.dist(point, here)
        if off <= close_m:  # most samples: on the track at their own stamp
            return off, True
        early = _along(last.translation, velocity, stamp - stamp_tolerance_s - t1)
        late = _along(last.translation, velocity, stamp + stamp_tolerance_s - t1)
        return _to_segment(point, early, late), True

    def rate_hz(self) -> Optional[float]:
        """Return the track's rate by its header stamps."""
        return _rate(self.stamps)


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
    stamps: List[float] = field(default_factory=list)
    values: List[Transform] = field(default_factory=list)
    stamp_times: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    received_times: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    latencies: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    topic_last: Dict[str, float] = field(default_factory=dict)  # topic -> last received
    future: Occurrences = field(default_factory=Occurrences)  # (received, ahead_s)
    jumps: Occurrences = field(default_factory=Occurrences)  # (received, off_m, off_rad)
    tracks: List[Track] = field(default_factory=list)  # at most two: the current one first
    assignments: Deque[int] = field(  # per sample: SAME, SWITCH or MISS
        default_factory=lambda: deque(maxlen=SWITCH_WINDOW))
    two_tracks: Optional['TwoTracks'] = None
    conflicts: Occurrences = field(default_factory=Occurrences)  # one stamp, two values
    stamp_jumps: List['TimeJump'] = field(default_factory=list)  # stamps back, receipts on
    baseline_rate_hz: Optional[float] = None  # the rate over its first RATE_WINDOW samples
    doubled: Optional[Tuple[float, float, float]] = None  # (received, baseline, rate)
    doubled_last: float = -math.inf  # when the rate was last about double its baseline
    lead_s: float = 0.0  # how far ahead of its arrival the edge is steadily stamped

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
        Return the rate over the recent samples, None for fewer than 3.

        Measured on header stamps: a loaded computer delivers in bursts after a stall, and
        the receive times of a burst would read as a rate many times the real one. Edges
        whose stamps never move (a ROS 1 habit for fixed joints) fall back to receive times.
        """
        return _rate(self.stamp_times) or _rate(self.received_times)

    def clear_history(self) -> None:
        """Forget the samples of an old clock; the edge itself and its findings stay."""
        for history in (self.stamps, self.values, self.stamp_times, self.received_times,
                        self.latencies, self.tracks, self.assignments):
            history.clear()

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
    last_kept_stamp: float = -math.inf


@dataclass
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


class FrameStore:
    """The audit's memory: edges, pose samples, scan headers, and what tf2 would have dropped."""

    def __init__(self, config: AuditConfig):
        """Keep the configuration's frame names, window and thresholds."""
        self.config = config
        self.edges: Dict[EdgeKey, Edge] = {}
        self.parents: Dict[str, Dict[str, Edge]] = {}  # child -> parent -> edge
        self.frames: Set[str] = set()
        self.rejections: Dict[Tuple[str, str, str, str], Rejection] = {}
        self.rejections_dropped = 0
        self.frames_over_limit = 0
        self.tracks: Dict[str, PoseTrack] = {}
        self.scan_frames: Dict[str, int] = {}
        self.scan_last: Dict[str, float] = {}
        self.topic_counts: Dict[str, int] = {}
        self.first_received: Optional[float] = None
        self.last_received: Optional[float] = None
        self.time_jumps: List[TimeJump] = []
        self.messages = 0
        self.ended = False  # a recording read to its end: no more data will come
        self.unreadable: Dict[Tuple[str, str], Occurrences] = {}  # (topic, reason) -> when
        self.recorded: Optional[Dict[str, str]] = None  # offline: every topic -> its type
        # live: configured topic -> (publishers, subscribers besides the audit), from the graph
        self.topic_graph: Optional[Dict[str, Tuple[int, int]]] = None
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
            self._clear_histories(received)
        if self.last_received is None or received > self.last_received \
                or self.time_jumps and self.time_jumps[-1].to_time == received:
            self.last_received = received

    def _clear_histories(self, now: float) -> None:
        """Forget the samples of the old clock; every stream counts as alive at the jump."""
        for edge in self.edges.values():
            edge.last_received = min(edge.last_received, now)
            edge.clear_history()
        for track in self.tracks.values():
            track.pending.clear()
            track.scored.clear()
            track.last_kept_stamp = -math.inf
            if track.last_received is not None:
                track.last_received = min(track.last_received, now)

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
        edge = self.edges.get((parent, child))
        if edge is None:
            edge = self._new_edge(parent, child, arrival)
            if edge is None:
                return
        norm = math.sqrt(norm2)
        value = Transform((x, y, z), (qx / norm, qy / norm, qz / norm, qw / norm))
        self._update_edge(edge, value, stamp, arrival)

    def _new_edge(self, parent: str, child: str, arrival: Arrival) -> Optional[Edge]:
        """Add an edge, unless it would take the tree past limits.max_frames."""
        new_frames = {parent, child} - self.frames
        if len(self.frames) + len(new_frames) > self.config.max_frames:
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
            return
        newest = edge.stamps[-1] if edge.stamps else None
        if newest is not None and stamp < newest - self.config.backwards_jump_s:
            number = edge.stamp_jumps[-1].number + 1 if edge.stamp_jumps else 0
            edge.stamp_jumps.append(TimeJump(number, newest, stamp, arrival.received))
            del edge.stamp_jumps[:-MAX_TIME_JUMPS]
            edge.clear_history()  # the stamps restarted: follow the edge on its new clock
        edge.stamp_times.append(stamp)
        edge.received_times.append(arrival.received)
        self._follow_rate(edge, arrival.received)
        edge.latencies.append(arrival.received - stamp)
        ahead = stamp - arrival.received
        if ahead > self.config.future_tolerance_s:
            edge.future.add(arrival.received, ahead)
        self._follow_track(edge, value, stamp, arrival.received)
        self._insert_sample(edge, stamp, value)

    def _follow_rate(self, edge: Edge, received: float) -> None:
        """
        Remember the edge's first steady rate, and when it first about doubled.

        A second node sending the same edge with the same values cannot be told from the
        data, but it doubles the rate (under bag replay no publisher identity is known).
        """
        if len(edge.received_times) < RATE_WINDOW or edge.count % RATE_EVERY:
            return
        rate = edge.rate_hz()  # over the window's stamps: taken every RATE_EVERY samples
        if rate is None:
            return
        if edge.baseline_rate_hz is None:
            edge.baseline_rate_hz = rate
        elif rate >= RATE_DOUBLED * edge.baseline_rate_hz:
            first, _, highest = edge.doubled or (received, 0.0, 0.0)
            edge.doubled = (first, edge.baseline_rate_hz, max(highest, rate))
            edge.doubled_last = received

    def _insert_sample(self, edge: Edge, stamp: float, value: Transform) -> None:
        """Insert by stamp, then drop what is older than the window (kept like tf2's cache)."""
        if not edge.stamps or stamp > edge.stamps[-1]:
            edge.stamps.append(stamp)
            edge.values.append(value)
        else:
            index = bisect.bisect_right(edge.stamps, stamp)
            if index and edge.stamps[index - 1] == stamp:
                if distance(edge.values[index - 1].translation, value.translation) \
                        >= self._conflict_m(edge):  # one stamp, two values
                    edge.conflicts.add(edge.last_received)
                edge.values[index - 1] = value  # tf2 keeps one value per stamp
                return
            edge.stamps.insert(index, stamp)
            edge.values.insert(index, value)
        oldest = edge.stamps[-1] - self.config.history_s
        if edge.stamps[0] < oldest:
            cut = bisect.bisect_left(edge.stamps, oldest)
            del edge.stamps[:cut]
            del edge.values[:cut]

    def _conflict_m(self, edge: Edge) -> float:
        """
        Return how far apart two values of one stamp must be to be two sources' values.

        One source's message stamped a period late shares its successor's stamp with the
        value of a moment before: apart by the speed times the stamp's error, which odometry
        allows (odometry.stamp_tolerance_s); two sources' tracks lie further apart.
        """
        stamps, values = edge.stamps[-SPEED_STEPS:], edge.values[-SPEED_STEPS:]
        speeds = sorted(distance(a.translation, b.translation) / (t1 - t0)
                        for t0, t1, a, b in zip(stamps, stamps[1:], values, values[1:])
                        if t1 > t0)
        speed = speeds[len(speeds) // 2] if speeds else 0.0  # the median step: one source's
        return self.config.alternation_min_m + speed * self.config.odom_stamp_tolerance_s

    def _follow_track(self, edge: Edge, value: Transform, stamp: float,
                      received: float) -> None:
        """
        Give the sample to the track it continues; count jumps and switches between tracks.

        One source makes one smooth track, broken only by jumps (after which the new track
        goes on alone). Two sources make two tracks that each keep getting samples, at any
        mix of rates: the samples keep switching between them. A noisy single source fits
        neither track often, and is never called two sources.
        """
        if edge.count % LEAD_EVERY == 0 and edge.latencies:
            ordered = sorted(edge.latencies)
            edge.lead_s = max(0.0, -ordered[len(ordered) // 2])
        tracks = edge.tracks
        if not tracks:
            tracks.append(Track())
            tracks[0].add(stamp, value)
            return
        current = tracks[0]
        other = tracks[1] if len(tracks) == 2 else None
        tolerance = self.config.odom_stamp_tolerance_s
        close = self.config.alternation_min_m / 2
        off, known = current.off(value, stamp, other.velocity() if other else None, tolerance,
                                 close)
        if off <= self._fit(known):
            edge.assignments.append(SAME)
            current.add(stamp, value)
            return
        if other is not None:
            off_other, known = other.off(value, stamp, current.velocity(), tolerance, close)
            if off_other <= self._fit(known):
                edge.assignments.append(SWITCH)
                other.add(stamp, value)
                edge.tracks = [other, current]
                self._note_switch(edge, off, received)
                return
        edge.assignments.append(MISS)
        turned = rotation_angle(current.samples[-1][1].rotation, value.rotation)
        if off > self.config.odom_jump_m or turned > self.config.odom_jump_rad:
            edge.jumps.add(received, off, turned)
        new = Track()
        new.add(stamp, value)
        edge.tracks = [new, current]  # a second track from before is forgotten

    def _fit(self, predicted: bool) -> float:
        """
        Return how close a sample must be to a track to continue it.

        Half the tracks' minimum separation where the track's motion is known; before any
        velocity is known (two tracks of one sample each), anything short of a jump.
        """
        half = self.config.alternation_min_m / 2
        return half if predicted else max(half, self.config.odom_jump_m)

    def _note_switch(self, edge: Edge, separation: float, received: float) -> None:
        """Call two sources once switches are many, misses few and the tracks apart."""
        window = edge.assignments
        switches = window.count(SWITCH)
        if len(window) < MIN_SWITCH_SAMPLES or switches < MIN_SWITCHES \
                or window.count(MISS) > MAX_MISS_SHARE * len(window) \
                or separation < self.config.alternation_min_m:
            return
        if edge.two_tracks is None:
            edge.two_tracks = TwoTracks(first_received=received)
        evidence = edge.two_tracks
        evidence.last_received = received
        evidence.separation_m = max(evidence.separation_m, separation)
        evidence.switches = max(evidence.switches, switches)
        rates = sorted((track.rate_hz() for track in edge.tracks),
                       key=lambda rate: -(rate or 0.0))
        evidence.rates_hz = (rates[0], rates[1])

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
        frame = str(record.frame_id)
        track.header_frames[frame] = track.header_frames.get(frame, 0) + 1
        track.header_last[frame] = arrival.received
        if child_frame is not None:
            track.child_frames[child_frame] = track.child_frames.get(child_frame, 0) + 1
            track.child_last[child_frame] = arrival.received
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
        """Take in a scan's header: only its frame matters to the audit."""
        self._tick(arrival)
        frame = str(record.frame_id)
        self.scan_frames[frame] = self.scan_frames.get(frame, 0) + 1
        self.scan_last[frame] = arrival.received

    def forget(self, now: float) -> None:
        """
        Forget what stopped before the window, as tf2 forgets it: live memory stays bounded.

        Edges silent for longer than timing.history_s are dropped, with the frames only they
        held, unless latched on /tf_static or on the chain the audit follows from the base
        and the LiDAR up to the root (a stopped odom -> base_link stays, and stays
        reported); so are kinds of rejected and unreadable messages not seen in the window.
        The live node forgets; an offline audit keeps everything for its report.
        """
        before = now - self.config.history_s
        kept = set()
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

    def age(self, now: float) -> float:
        """Return how long the audit has been receiving, by the receive clock."""
        if self.first_received is None:
            return 0.0
        start = self.time_jumps[-1].to_time if self.time_jumps else self.first_received
        return max(0.0, now - start)


def _along(start: Tuple[float, ...], velocity: Tuple[float, ...],
           dt: float) -> Tuple[float, ...]:
    """Return where a track starting at start gets in dt at velocity (at most a second on)."""
    dt = max(-MAX_EXTRAPOLATION_S, min(MAX_EXTRAPOLATION_S, dt))
    (x, y, z), (vx, vy, vz) = start, velocity
    return (x + vx * dt, y + vy * dt, z + vz * dt)


def _to_segment(point: Tuple[float, ...], a: Tuple[float, ...],
                b: Tuple[float, ...]) -> float:
    """Return the distance from point to the segment a-b."""
    ab = [q - p for p, q in zip(a, b)]
    length2 = sum(c * c for c in ab)
    t = 0.0 if length2 <= 0 else max(0.0, min(1.0, sum(
        (x - p) * c for x, p, c in zip(point, a, ab)) / length2))
    return math.dist(point, [p + t * c for p, c in zip(a, ab)])


def _rate(times: Iterable[float]) -> Optional[float]:
    """Return the rate of a series of times (any order), None for fewer than 3 or no span."""
    times = list(times)
    if len(times) < 3:
        return None
    span = max(times) - min(times)
    return (len(times) - 1) / span if span > 0 else None


def _same(a: Transform, b: Transform, config: AuditConfig) -> bool:
    """Return whether two values agree within the laser tolerances (NaN never agrees)."""
    near = all(abs(p - q) <= config.tolerance_m for p, q in zip(a.translation, b.translation))
    return near and rotation_angle(a.rotation, b.rotation) <= config.tolerance_rad
