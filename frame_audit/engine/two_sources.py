# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Two sources of one edge, told from the data alone (no publisher identity under bag replay).

One source makes one smooth track, broken only by jumps. Two sources make two tracks that
each keep getting samples, at any mix of rates; or they send one stamp with two values; or
they double the edge's rate. The store hands each sample of a moving edge here; the
parent_uniqueness check reads the evidence kept on the edge, in its Sources record, which
this module alone writes.
"""
from collections import deque
from dataclasses import dataclass, field
import math
from typing import Deque, Iterable, List, Optional, Sequence, Tuple

from .config import AuditConfig
from .geometry import distance, rotation_angle, Transform
from .occurrences import Occurrences

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
RATE_EVERY = 10  # samples between two looks at an edge's rate
RATE_DOUBLED = 1.8  # a rate this many times its first steady rate: a second source
NOISE_APART = 6.0  # two tracks this many times the edge's own noise apart: two sources
MOTION_SPAN_S = 0.05  # a track's motion is measured over at least this span of stamps
RIPE_SAMPLES = 3  # samples after a step off its track before it is judged a jump or motion
MOTION_MARGIN = 1.25  # a step may exceed the fastest motion seen by this much and be motion
STEP_WINDOW = 64  # recent steps from sample to sample whose median is the edge's usual motion


@dataclass
class TwoTracks:
    """Evidence that two sources send one edge: its samples keep switching between two tracks."""

    first_received: float
    last_received: float = -math.inf
    separation_m: float = 0.0
    switches: int = 0  # in the window, when last seen
    noise_m: float = 0.0  # the edge's own noise then: the tracks stood out from it
    rates_hz: Tuple[Optional[float], Optional[float]] = (None, None)


@dataclass
class ValueTrack:
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
        return rate_of(self.stamps)


@dataclass
class Sources:
    """
    One edge's evidence of its sources, written here alone and read by parent_uniqueness.

    Its tracks and how samples switched between them, its rate against its first steady one,
    what one stamp sent twice said, and the jumps off its track (odometry's).
    """

    tracks: List[ValueTrack] = field(default_factory=list)  # at most two: the current one first
    assignments: Deque[int] = field(  # per sample: SAME, SWITCH or MISS
        default_factory=lambda: deque(maxlen=SWITCH_WINDOW))
    switch_offs: Deque[float] = field(  # at each switch between tracks, how far apart
        default_factory=lambda: deque(maxlen=SWITCH_WINDOW))
    residuals: Deque[float] = field(  # each sample's distance to the track it lies nearest
        default_factory=lambda: deque(maxlen=SWITCH_WINDOW))
    two_tracks: Optional[TwoTracks] = None
    jumps: Occurrences = field(default_factory=Occurrences)  # steps off: (received, m, rad)
    # each step off the track beyond jump_m or jump_rad: (received, off_m, off_rad, dt_s,
    # samples before it), a jump only if beyond what the edge's motion could do in dt, as
    # judged once RIPE_SAMPLES more have shown that motion
    steps_off: Deque[Tuple[float, float, float, float, int]] = field(
        default_factory=lambda: deque(maxlen=SWITCH_WINDOW))
    samples: int = 0  # followed on its tracks
    conflicts: Occurrences = field(default_factory=Occurrences)  # one stamp, two values
    restamped: Occurrences = field(default_factory=Occurrences)  # a stamp re-sent, one track
    top_speed: float = 0.0  # m/s: the fastest this edge has moved along one track
    top_turn: float = 0.0  # rad/s: the fastest it has turned along one track
    # from each sample to the next (not across a switch between tracks): m/s and rad/s
    step_speeds: Deque[float] = field(default_factory=lambda: deque(maxlen=STEP_WINDOW))
    step_turns: Deque[float] = field(default_factory=lambda: deque(maxlen=STEP_WINDOW))
    previous: Optional[Tuple[float, Transform]] = None  # the last sample followed
    baseline_rate_hz: Optional[float] = None  # the rate over its first RATE_WINDOW samples
    doubled: Optional[Tuple[float, float, float]] = None  # (received, baseline, rate)
    doubled_last: float = -math.inf  # when the rate was last about double its baseline

    def clear_tracks(self) -> None:
        """Forget the tracks of an old clock; what they showed stays."""
        for history in (self.tracks, self.assignments, self.residuals, self.switch_offs):
            history.clear()

    def restart(self) -> None:
        """Forget everything seen on a receive clock that jumped back (totals stay)."""
        self.clear_tracks()
        for seen in (self.jumps, self.conflicts, self.restamped):
            seen.restart()
        self.steps_off.clear()
        self.step_speeds.clear()
        self.step_turns.clear()
        self.two_tracks = self.doubled = self.baseline_rate_hz = self.previous = None
        self.doubled_last = -math.inf


def follow_rate(sources: Sources, rate: Optional[float], received: float) -> None:
    """
    Remember the edge's first steady rate, and when it first about doubled.

    A second node sending the same edge with the same values cannot be told from the
    data, but it doubles the rate (under bag replay no publisher identity is known). The
    store looks at the edge's paced rate every RATE_EVERY samples, its RATE_WINDOW full.
    """
    if rate is None:
        return
    if sources.baseline_rate_hz is None:
        sources.baseline_rate_hz = rate
    elif rate >= RATE_DOUBLED * sources.baseline_rate_hz:
        first, _, highest = sources.doubled or (received, 0.0, 0.0)
        sources.doubled = (first, sources.baseline_rate_hz, max(highest, rate))
        sources.doubled_last = received


def conflict_m(stamps: Sequence[float], values: Sequence[Transform],
               config: AuditConfig) -> float:
    """
    Return how far apart two values of one stamp must be to be two sources' values.

    One source's message stamped a period late shares its successor's stamp with the
    value of a moment before: apart by the speed times the stamp's error, which odometry
    allows (odometry.stamp_tolerance_s); two sources' tracks lie further apart.
    """
    stamps, values = stamps[-SPEED_STEPS:], values[-SPEED_STEPS:]
    speeds = sorted(distance(a.translation, b.translation) / (t1 - t0)
                    for t0, t1, a, b in zip(stamps, stamps[1:], values, values[1:])
                    if t1 > t0)
    speed = speeds[len(speeds) // 2] if speeds else 0.0  # the median step: one source's
    return config.alternation_min_m + speed * config.odom_stamp_tolerance_s


def follow_track(sources: Sources, value: Transform, stamp: float, received: float,
                 config: AuditConfig) -> None:
    """
    Give the sample to the track it continues; count jumps and switches between tracks.

    One source makes one smooth track, broken only by jumps (after which the new track
    goes on alone). Two sources make two tracks that each keep getting samples, at any
    mix of rates: the samples keep switching between them. A noisy single source fits
    neither track often, and is never called two sources.
    """
    tracks = sources.tracks
    sources.samples += 1
    previous, sources.previous = sources.previous, (stamp, value)
    if not tracks:
        tracks.append(ValueTrack())
        tracks[0].add(stamp, value)
        return
    current = tracks[0]
    other = tracks[1] if len(tracks) == 2 else None
    tolerance = config.odom_stamp_tolerance_s
    close = config.alternation_min_m / 2
    off, known = current.off(value, stamp, other.velocity() if other else None, tolerance,
                             close)
    off_other, known_other = (other.off(value, stamp, current.velocity(), tolerance, close)
                              if other is not None else (math.inf, False))
    # other is None only with off_other inf: current is nearest (were off NaN, it is the one)
    nearest = current if off <= off_other or other is None else other
    if value != nearest.samples[-1][1]:  # a value re-sent as it was tells nothing of noise
        sources.residuals.append(min(off, off_other))
    if previous is not None and previous[0] < stamp and previous[1] is nearest.samples[-1][1]:
        _follow_step(sources, previous, stamp, value)  # along one source, not between two
    if off <= fit(known, config):
        sources.assignments.append(SAME)
        current.add(stamp, value)
        _follow_motion(sources, current)
        return
    if other is not None:
        if off_other <= fit(known_other, config):
            sources.assignments.append(SWITCH)
            other.add(stamp, value)
            sources.tracks = [other, current]
            note_switch(sources, off, received, config)
            return
    sources.assignments.append(MISS)
    last_stamp, last = current.samples[-1]
    turned = rotation_angle(last.rotation, value.rotation)
    if off > config.odom_jump_m or turned > config.odom_jump_rad:
        sources.jumps.add(received, off, turned)  # map -> odom's corrections are counted
        sources.steps_off.append((received, off, turned, stamp - last_stamp, sources.samples))
    new = ValueTrack()
    new.add(stamp, value)
    sources.tracks = [new, current]  # a second track from before is forgotten


def _follow_motion(sources: Sources, track: ValueTrack) -> None:
    """Remember the fastest motion along one track: what this robot is seen to be capable of."""
    (t0, a), (t1, b) = track.samples[0], track.samples[-1]
    if t1 - t0 < MOTION_SPAN_S:  # too short a span: a stamp's jitter is no speed
        return
    velocity = track.velocity()
    if velocity is not None:
        sources.top_speed = max(sources.top_speed, math.hypot(*velocity))
    sources.top_turn = max(sources.top_turn, rotation_angle(a.rotation, b.rotation) / (t1 - t0))


def _follow_step(sources: Sources, previous: Tuple[float, Transform], stamp: float,
                 value: Transform) -> None:
    """
    Remember the motion from one sample to the next: the edge's usual step.

    Odometry at 2 Hz on a curve leaves every sample off the line its track predicts, so no
    track ever measures its speed; the steps themselves still show how it moves.
    """
    (_, a), dt = previous, stamp - previous[0]
    sources.step_speeds.append(distance(a.translation, value.translation) / dt)
    sources.step_turns.append(rotation_angle(a.rotation, value.rotation) / dt)


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0.0


def jumps_since(sources: Sources, start: float, config: AuditConfig,
                ended: bool = False) -> List[Tuple[float, float, float, float, int]]:
    """
    Return the steps off the track since start that the edge's own motion cannot explain.

    Judged against the fastest motion the edge has shown once RIPE_SAMPLES more samples came
    (or the recording ended), not by then: a robot still for its first seconds that then turns
    at 0.35 rad/s with odometry at 0.9 Hz steps 0.38 rad at its first turn, as at every later
    one.
    """
    found = []
    for step in sources.steps_off:
        received, off, turned, dt, before = step
        within_m, within_rad = reach(sources, dt, config)
        ripe = ended or sources.samples - before >= RIPE_SAMPLES
        if received >= start and ripe and (off > within_m or turned > within_rad):
            found.append(step)
    return found


def reach(sources: Sources, dt: float, config: AuditConfig) -> Tuple[float, float]:
    """
    Return how far off its track (m, rad) a sample dt after the last may lie and be no jump.

    A jump is a step the robot's own motion cannot explain: beyond odometry.jump_m and
    jump_rad, and beyond what the fastest motion the edge has shown could do in dt. A
    Neato reversing its spin at 2.6 rad/s, stamps 0.75 s apart, or samples lost for a
    second are the robot moving, not odometry resetting. Off its predicted track, a robot
    that reversed lies at most twice its top speed times dt away. The config's limits
    (odometry.top_speed_mps, top_turn_rad_s), where given, stand in for what was seen.
    """
    dt = max(dt, 0.0)
    speed, turn = top_motion(sources, config)
    return (max(config.odom_jump_m, 2.0 * speed * dt * MOTION_MARGIN),
            max(config.odom_jump_rad, turn * dt * MOTION_MARGIN))


def top_motion(sources: Sources, config: AuditConfig) -> Tuple[float, float]:
    """
    Return the top speed (m/s) and turn rate (rad/s) a jump is judged against.

    The config's where given; else the fastest along a track, or the median step from
    sample to sample where that is faster (a jump is one step of many: never the median).
    """
    return (config.odom_top_speed_mps or max(sources.top_speed, _median(sources.step_speeds)),
            config.odom_top_turn_rad_s or max(sources.top_turn, _median(sources.step_turns)))


def own_noise(sources: Sources) -> float:
    """
    Return the edge's own noise: the median distance of its samples to their nearest track.

    A particle filter's map -> odom wobbles a centimetre or more far from odom's origin (its
    heading jitter times that distance), and is re-sent unchanged between updates; two
    sources lie apart by much more than that, each on its own smooth track. Only samples
    that changed the value count (a re-sent value tells nothing); 0 until enough did.
    """
    if len(sources.residuals) < MIN_SWITCH_SAMPLES:
        return 0.0
    ordered = sorted(sources.residuals)
    return ordered[len(ordered) // 2]


def fit(predicted: bool, config: AuditConfig) -> float:
    """
    Return how close a sample must be to a track to continue it.

    Half the tracks' minimum separation where the track's motion is known; before any
    velocity is known (two tracks of one sample each), anything short of a jump. The edge's
    own noise does not widen it (a wide fit would swallow a second source, and the noise
    measured then would grow with it): the noise decides only whether tracks stand out.
    """
    half = config.alternation_min_m / 2
    return half if predicted else max(half, config.odom_jump_m)


def note_switch(sources: Sources, separation: float, received: float,
                config: AuditConfig) -> None:
    """
    Call two sources once switches are many, misses few and the tracks stand out.

    The tracks stand out when the switches' typical separation (their median: one wide
    wobble is no second source) is NOISE_APART times the edge's own noise.
    """
    sources.switch_offs.append(separation)
    window = sources.assignments
    switches = window.count(SWITCH)
    if len(window) < MIN_SWITCH_SAMPLES or len(sources.residuals) < MIN_SWITCH_SAMPLES \
            or switches < MIN_SWITCHES \
            or window.count(MISS) > MAX_MISS_SHARE * len(window):
        return
    noise = own_noise(sources)
    recent = sorted(list(sources.switch_offs)[-switches:])
    if min(separation, recent[len(recent) // 2]) < max(config.alternation_min_m,
                                                       NOISE_APART * noise):
        return
    if sources.two_tracks is None:
        sources.two_tracks = TwoTracks(first_received=received)
    evidence = sources.two_tracks
    evidence.last_received = received
    evidence.separation_m = max(evidence.separation_m, separation)
    evidence.switches = max(evidence.switches, switches)
    evidence.noise_m = noise
    rates = sorted((track.rate_hz() for track in sources.tracks),
                   key=lambda rate: -(rate or 0.0))
    evidence.rates_hz = (rates[0], rates[1])


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


def rate_of(times: Iterable[float]) -> Optional[float]:
    """Return the rate of a series of times (any order), None for fewer than 3 or no span."""
    times = list(times)
    if len(times) < 3:
        return None
    span = max(times) - min(times)
    return (len(times) - 1) / span if span > 0 else None
