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
from .geometry import rotation_angle, Transform
from .records import Arrival, HeaderRecord, OdometryRecord, PoseRecord, TF_STATIC_TOPIC, \
    TransformRecord

EdgeKey = Tuple[str, str]  # (parent, child)
RATE_WINDOW = 100  # receive times kept per edge to measure its rate
ALTERNATION_WINDOW = 100  # sample triples kept per edge to spot two interleaved sources
MIN_ALTERNATION_TRIPLES = 20
TRACK_SAMPLES = 5  # recent samples kept to follow an edge's track (velocity, alternation)
LEAD_EVERY = 20  # samples between two estimates of an edge's steady lead
RATE_DOUBLED = 1.8  # a rate this many times its first steady rate: a second source
MAX_REJECTION_KINDS = 1000
MAX_PENDING = 2000  # samples waiting for TF to cover their stamp
MAX_TIME_JUMPS = 100  # the most recent backward jumps kept (a clock may oscillate)
PLACE_PERIOD_S = 0.1  # samples kept to be placed against TF: at most ten a second


@dataclass
class Rejection:
    """Transforms tf2 would drop or change, of one kind, on one edge and topic."""

    reason: str
    parent: str
    child: str
    topic: str
    count: int = 0
    first_received: float = 0.0
    example: str = ''
    publisher: Optional[str] = None


@dataclass
class JumpStats:
    """Steps of an edge that leave the constant-velocity track by more than the threshold."""

    count: int = 0
    largest_m: float = 0.0
    largest_rad: float = 0.0
    first_received: Optional[float] = None
    last_received: Optional[float] = None


@dataclass
class Activity:
    """How much, and from when to when, one publisher sent an edge."""

    count: int
    first_received: float
    last_received: float


@dataclass
class TwoTracks:
    """Evidence that two sources send one edge: its samples alternate between two tracks."""

    first_received: float
    share: float = 0.0
    separation_m: float = 0.0
    rate_hz: Optional[float] = None


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
    received_times: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    latencies: Deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW))
    future_count: int = 0
    future_max_s: float = 0.0
    jumps: JumpStats = field(default_factory=JumpStats)
    alternations: Deque[bool] = field(default_factory=lambda: deque(maxlen=ALTERNATION_WINDOW))
    alternation_hits: int = 0
    two_tracks: Optional['TwoTracks'] = None
    baseline_rate_hz: Optional[float] = None  # the rate over its first RATE_WINDOW samples
    doubled: Optional[Tuple[float, float, float]] = None  # (received, baseline, rate)
    recent: Deque[Tuple[float, Transform]] = field(
        default_factory=lambda: deque(maxlen=TRACK_SAMPLES))  # since the last jump
    last_three: Deque[Transform] = field(default_factory=lambda: deque(maxlen=3))
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
        """Return the receive rate over the recent samples, None for fewer than 3."""
        if len(self.received_times) < 3:
            return None
        span = self.received_times[-1] - self.received_times[0]
        return (len(self.received_times) - 1) / span if span > 0 else None

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
    count: int = 0
    pending: Deque[TrackedSample] = field(default_factory=lambda: deque(maxlen=MAX_PENDING))
    scored: Deque[TrackedSample] = field(default_factory=lambda: deque(maxlen=MAX_PENDING))
    unscorable: Dict[str, int] = field(default_factory=dict)
    last_received: Optional[float] = None
    last_kept_stamp: float = -math.inf


@dataclass
class TimeJump:
    """The receive clock went backwards (a bag that loops, a restarted recording)."""

    number: int  # counted from 0 over the whole audit
    from_time: float
    to_time: float


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
        self.topic_counts: Dict[str, int] = {}
        self.first_received: Optional[float] = None
        self.last_received: Optional[float] = None
        self.time_jumps: List[TimeJump] = []
        self.messages = 0
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
            edge.stamps.clear()
            edge.values.clear()
            edge.received_times.clear()
            edge.latencies.clear()
            edge.recent.clear()
            edge.last_three.clear()
            edge.alternations.clear()
            edge.alternation_hits = 0
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
            rejection = Rejection(reason, parent, child, arrival.topic,
                                  first_received=arrival.received, example=example,
                                  publisher=arrival.publisher)
            self.rejections[key] = rejection
        rejection.count += 1

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
        edge.received_times.append(arrival.received)
        self._follow_rate(edge, arrival.received)
        edge.latencies.append(arrival.received - stamp)
        ahead = stamp - arrival.received
        if ahead > self.config.future_tolerance_s:
            edge.future_count += 1
            edge.future_max_s = max(edge.future_max_s, ahead)
        self._follow_track(edge, value, stamp, arrival.received)
        self._insert_sample(edge, stamp, value)

    def _follow_rate(self, edge: Edge, received: float) -> None:
        """
        Remember the edge's first steady rate, and when it first about doubled.

        A second node sending the same edge with the same values cannot be told from the
        data, but it doubles the rate (under bag replay no publisher identity is known).
        """
        if len(edge.received_times) < RATE_WINDOW:
            return
        rate = edge.rate_hz()
        if rate is None:
            return
        if edge.baseline_rate_hz is None:
            edge.baseline_rate_hz = rate
        elif edge.doubled is not None:
            first, baseline, highest = edge.doubled
            edge.doubled = (first, baseline, max(highest, rate))
        elif rate >= RATE_DOUBLED * edge.baseline_rate_hz:
            edge.doubled = (received, edge.baseline_rate_hz, rate)

    def _insert_sample(self, edge: Edge, stamp: float, value: Transform) -> None:
        """Insert by stamp, then drop what is older than the window (kept like tf2's cache)."""
        if not edge.stamps or stamp > edge.stamps[-1]:
            edge.stamps.append(stamp)
            edge.values.append(value)
        else:
            index = bisect.bisect_right(edge.stamps, stamp)
            if index and edge.stamps[index - 1] == stamp:
                edge.values[index - 1] = value  # tf2 keeps one value per stamp
                return
            edge.stamps.insert(index, stamp)
            edge.values.insert(index, value)
        oldest = edge.stamps[-1] - self.config.history_s
        if edge.stamps[0] < oldest:
            cut = bisect.bisect_left(edge.stamps, oldest)
            del edge.stamps[:cut]
            del edge.values[:cut]

    def _follow_track(self, edge: Edge, value: Transform, stamp: float,
                      received: float) -> None:
        """Count jumps off the constant-velocity track, and A-B-A-B alternation of tracks."""
        recent = edge.recent
        if len(recent) >= 2:
            (t0, a), (t1, b) = recent[0], recent[-1]
            if _check_jump(edge.jumps, a, b, value, t1 - t0, stamp - t1, received,
                           self.config):
                recent.clear()  # the track starts again where it jumped to
        if len(edge.last_three) == 3:
            alternating, separation = _alternates(*edge.last_three, value,
                                                  self.config.alternation_min_m)
            self._count_alternation(edge, alternating, separation, received)
        recent.append((stamp, value))
        edge.last_three.append(value)
        if edge.count % LEAD_EVERY == 0 and edge.latencies:
            ordered = sorted(edge.latencies)
            edge.lead_s = max(0.0, -ordered[len(ordered) // 2])

    def _count_alternation(self, edge: Edge, alternating: bool, separation: float,
                           received: float) -> None:
        """Keep the share of A-B-A triples in the window; remember when it first got high."""
        window = edge.alternations
        if len(window) == window.maxlen and window[0]:
            edge.alternation_hits -= 1
        window.append(alternating)
        edge.alternation_hits += alternating
        if len(window) < MIN_ALTERNATION_TRIPLES:
            return
        share = edge.alternation_hits / len(window)
        if share < self.config.alternation_fraction:
            return
        if edge.two_tracks is None:
            edge.two_tracks = TwoTracks(first_received=received)
        tracks = edge.two_tracks
        tracks.share = max(tracks.share, share)
        if alternating:
            tracks.separation_m = max(tracks.separation_m, separation)
        tracks.rate_hz = edge.rate_hz()

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
        if child_frame is not None:
            track.child_frames[child_frame] = track.child_frames.get(child_frame, 0) + 1
        if 0.0 <= record.stamp - track.last_kept_stamp < PLACE_PERIOD_S:
            return  # ten samples a second are enough to judge a topic by
        track.last_kept_stamp = record.stamp
        track.pending.append(TrackedSample(record, arrival.received))

    def add_odometry(self, record: OdometryRecord, arrival: Arrival) -> None:
        """Take in an odometry message: a pose of child_frame_id in header.frame_id."""
        self.add_pose(record.pose, arrival, child_frame=str(record.child_frame_id))

    def add_scan(self, record: HeaderRecord, arrival: Arrival) -> None:
        """Take in a scan's header: only its frame matters to the audit."""
        self._tick(arrival)
        frame = str(record.frame_id)
        self.scan_frames[frame] = self.scan_frames.get(frame, 0) + 1

    # -- the tree as it is now ------------------------------------------------------------

    def parent_of(self, child: str) -> Optional[Edge]:
        """
        Return the edge the audit follows up from child.

        With several parents (a fault parent_uniqueness reports) tf2 follows whichever came
        last; the audit keeps the established one, so the other checks still see the car: not
        an edge against REP 105's order, then a static parent, then one still arriving, then
        the one seen first.
        """
        candidates = self.parents.get(child)
        if not candidates:
            return None
        if len(candidates) == 1:
            return next(iter(candidates.values()))
        live_after = (self.last_received or 0.0) - self.config.stale_after_s
        return min(candidates.values(),
                   key=lambda edge: (self._against_chain(edge), edge.static_value is None,
                                     edge.last_received < live_after, edge.first_received))

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


def _same(a: Transform, b: Transform, config: AuditConfig) -> bool:
    """Return whether two values agree within the laser tolerances (NaN never agrees)."""
    near = all(abs(p - q) <= config.tolerance_m for p, q in zip(a.translation, b.translation))
    return near and rotation_angle(a.rotation, b.rotation) <= config.tolerance_rad


def _check_jump(stats: JumpStats, a: Transform, b: Transform, c: Transform, dt_ab: float,
                dt_bc: float, received: float, config: AuditConfig) -> bool:
    """
    Count c as a jump when it lands far from where the recent velocity would have taken it.

    The velocity is taken over a few samples (a is the oldest kept), so a message sent late
    and its successor sent early do not make one step look like a leap.
    """
    ratio = min(dt_bc / dt_ab, 50.0) if dt_ab > 1e-6 else 0.0
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = a.translation, b.translation, c.translation
    off_m = math.sqrt((cx - bx - ratio * (bx - ax)) ** 2 + (cy - by - ratio * (by - ay)) ** 2
                      + (cz - bz - ratio * (bz - az)) ** 2)
    off_rad = rotation_angle(b.rotation, c.rotation) if b.rotation != c.rotation else 0.0
    if off_m > config.odom_jump_m or off_rad > config.odom_jump_rad:
        stats.count += 1
        stats.largest_m = max(stats.largest_m, off_m)
        stats.largest_rad = max(stats.largest_rad, off_rad)
        if stats.first_received is None:
            stats.first_received = received
        stats.last_received = received
        return True
    return False


def _off_track(a: Transform, b: Transform, c: Transform) -> Tuple[float, float]:
    """Return how far b is from the midpoint of a and c, and how far apart a and c are."""
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = a.translation, b.translation, c.translation
    off = math.sqrt((bx - (ax + cx) / 2) ** 2 + (by - (ay + cy) / 2) ** 2
                    + (bz - (az + cz) / 2) ** 2)
    span = math.sqrt((ax - cx) ** 2 + (ay - cy) ** 2 + (az - cz) ** 2)
    return off, span


def _alternates(a: Transform, b: Transform, c: Transform, d: Transform,
                minimum_m: float) -> Tuple[bool, float]:
    """
    Return whether a, b, c, d zigzag between two tracks (A-B-A-B), and how far apart.

    Two sources interleaved on one edge put b off the a-c track and c off the b-d track,
    each by far more than a and c (or b and d) differ. One source's jump does not (its next
    sample stays where it jumped), and neither does noise: each of the two conditions holds
    for about one noisy sample in six, both for a few in a hundred.
    """
    off_b, span_ac = _off_track(a, b, c)
    off_c, span_bd = _off_track(b, c, d)
    separation = min(off_b, off_c)
    return (separation > minimum_m and off_b > 2 * span_ac and off_c > 2 * span_bd,
            separation)
