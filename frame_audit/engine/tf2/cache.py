# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
One frame's history as tf2 keeps it: TimeCache (a window of stamped samples) and StaticCache.

Samples are kept oldest first (tf2's std::list holds them newest first; the order of samples
that share a stamp is kept as tf2 keeps it). The quaternion math is tf2's (LinearMath):
quaternions are stored as received, not normalized, and rotating by one uses its conjugate,
so a sample inside tf2's 1 % tolerance gives the very numbers tf2 gives.
"""
import bisect
from dataclasses import dataclass
import math
from typing import List, Optional, Tuple

from .distros import Distro

Vector = Tuple[float, float, float]
Quat = Tuple[float, float, float, float]  # x, y, z, w


@dataclass(frozen=True)
class Sample:
    """tf2's TransformStorage: the child's pose in parent at stamp (nanoseconds)."""

    stamp: int
    parent: str
    translation: Vector
    rotation: Quat


@dataclass(frozen=True)
class Miss:
    """Why a cache has no value at a time: tf2's three extrapolation cases, or no data."""

    kind: str  # 'future', 'past', 'single' (one sample, another time), 'empty'
    requested: int
    nearest: int = 0


def quat_mul(a: Quat, b: Quat) -> Quat:
    """Return the Hamilton product a * b."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by + ay * bw + az * bx - ax * bz,
            aw * bz + az * bw + ax * by - ay * bx,
            aw * bw - ax * bx - ay * by - az * bz)


def conjugate(q: Quat) -> Quat:
    """Return tf2's Quaternion::inverse(): the conjugate, not divided by the norm."""
    return (-q[0], -q[1], -q[2], q[3])


def quat_rotate(q: Quat, v: Vector) -> Vector:
    """Return tf2's quatRotate: q * v * conjugate(q)."""
    x, y, z, _ = quat_mul(quat_mul(q, (v[0], v[1], v[2], 0.0)), conjugate(q))
    return (x, y, z)


def slerp(a: Quat, b: Quat, ratio: float) -> Quat:
    """Return tf2's slerp: along the shorter arc, unnormalized inputs as they are."""
    dot = sum(p * q for p, q in zip(a, b))
    scale = math.sqrt(sum(p * p for p in a) * sum(q * q for q in b))
    half = math.acos(max(-1.0, min(1.0, abs(dot) / scale)))
    if half == 0.0:
        return a
    d = 1.0 / math.sin(half)
    s0 = math.sin((1.0 - ratio) * half)
    s1 = math.sin(ratio * half) * (-1.0 if dot < 0 else 1.0)
    return tuple((p * s0 + q * s1) * d for p, q in zip(a, b))  # type: ignore[return-value]


def interpolate(one: Sample, two: Sample, time: int) -> Sample:
    """Return the sample at time between one (older) and two: lerp and slerp, as tf2 does."""
    if two.stamp == one.stamp:
        return two
    ratio = (time - one.stamp) / (two.stamp - one.stamp)
    translation = tuple((1.0 - ratio) * p + ratio * q
                        for p, q in zip(one.translation, two.translation))
    return Sample(time, one.parent, translation,  # type: ignore[arg-type]
                  slerp(one.rotation, two.rotation, ratio))


class TimeCache:
    """A frame's samples within the window (tf2's cache_time, 10 s by default)."""

    static = False

    def __init__(self, window_ns: int, distro: Distro):
        """Keep samples for window_ns behind the newest, as distro's tf2 does."""
        self.window_ns = window_ns
        self.distro = distro
        self.samples: List[Sample] = []  # oldest first
        self._stamps: List[int] = []

    def insert(self, sample: Sample) -> str:
        """
        Insert as tf2's TimeCache::insertData; return '' or what happened.

        'old' and 'repeated' were refused, 'duplicate' skipped (an identical sample), 'twice'
        kept beside another value of the same stamp (ROS 2). Of the values of one stamp, tf2's
        findClosest can return only the first inserted and the last (docs/tf2.md), so only
        those two are kept: a sender stuck on one stamp (use_sim_time without /clock) would
        otherwise grow the cache without bound, and each insertion with it. One answer can
        differ from tf2's: an exact copy of a value since replaced (neither first nor last) is
        taken as the new last value, where tf2, which still holds it, skips it.
        """
        samples, stamps = self.samples, self._stamps
        latest = stamps[-1] if stamps else None
        if self.distro.prune_first:
            self._prune()
        if latest is not None and sample.stamp < latest - self.window_ns:
            return 'old'
        low = bisect.bisect_left(stamps, sample.stamp)
        high = bisect.bisect_right(stamps, sample.stamp)
        if high > low:
            if self.distro.repeated == 'reject':
                return 'repeated'
            if self.distro.repeated == 'skip_exact' and sample in samples[low:high]:
                return 'duplicate'  # skipped silently, as ROS 2 does since #636
        if high - low >= 2:  # a later value of this stamp replaces the last one kept
            samples[high - 1] = sample
        else:
            samples.insert(high, sample)
            stamps.insert(high, sample.stamp)
        if not self.distro.prune_first:
            self._prune()
        return 'twice' if high > low else ''

    def _prune(self) -> None:
        """Drop samples more than the window older than the newest (tf2's pruneList)."""
        if not self._stamps:
            return
        cut = bisect.bisect_left(self._stamps, self._stamps[-1] - self.window_ns)
        if cut:
            del self.samples[:cut]
            del self._stamps[:cut]

    def clear(self) -> None:
        """Forget every sample (tf2's clearList, on a jump back in time)."""
        self.samples.clear()
        self._stamps.clear()

    def latest(self) -> Tuple[int, Optional[str]]:
        """Return the newest stamp and its parent: tf2's getLatestTimeAndParent."""
        if not self.samples:
            return 0, None
        newest = self.samples[-1]
        return newest.stamp, newest.parent

    def oldest_stamp(self) -> int:
        """Return the oldest stamp held (0 when empty)."""
        return self._stamps[0] if self._stamps else 0

    def closest(self, time: int) -> Tuple[Tuple[Sample, ...], Optional[Miss]]:
        """Return one or two samples around time (tf2's findClosest), or the miss."""
        samples, stamps = self.samples, self._stamps
        if not samples:
            return (), Miss('empty', time)
        if time == 0:
            return (samples[-1],), None
        if len(samples) == 1:
            if stamps[0] == time:
                return (samples[0],), None
            return (), Miss('single', time, stamps[0])
        if time == stamps[-1]:
            return (samples[-1],), None
        if time == stamps[0]:
            return (samples[0],), None
        if time > stamps[-1]:
            return (), Miss('future', time, stamps[-1])
        if time < stamps[0]:
            return (), Miss('past', time, stamps[0])
        index = bisect.bisect_right(stamps, time) - 1  # the newest at or before time
        return (samples[index], samples[index + 1]), None

    def value(self, time: int) -> Tuple[Optional[Sample], Optional[Miss]]:
        """Return the (interpolated) sample at time, or the miss: tf2's getData."""
        found, miss = self.closest(time)
        if miss is not None:
            return None, miss
        if len(found) == 1:
            return found[0], None
        one, two = found
        if one.parent != two.parent:
            return one, None
        return interpolate(one, two, time), None

    def nearest(self, time: int) -> Tuple[Optional[Sample], Optional[Miss]]:
        """Return the sample at or before time, not interpolated (its parent is value's)."""
        found, miss = self.closest(time)
        return (found[0] if found else None), miss

    def parent_at(self, time: int) -> Tuple[Optional[str], Optional[Miss]]:
        """Return the parent at time without interpolating: tf2's getParent."""
        sample, miss = self.nearest(time)
        return (sample.parent if sample else None), miss


class StaticCache:
    """A /tf_static edge: one value, valid at every time (tf2's StaticCache)."""

    static = True

    def __init__(self) -> None:
        """Hold no value yet."""
        self.sample: Optional[Sample] = None

    def insert(self, sample: Sample) -> str:
        """Replace the value: a latched edge sent again overwrites, whatever its stamp."""
        self.sample = sample
        return ''

    def clear(self) -> None:
        """Keep the value: tf2's StaticCache::clearList does nothing."""

    def latest(self) -> Tuple[int, Optional[str]]:
        """Return time zero (valid at every time) and the parent."""
        return 0, self.sample.parent if self.sample else None

    def oldest_stamp(self) -> int:
        """Return time zero."""
        return 0

    def value(self, time: int) -> Tuple[Optional[Sample], Optional[Miss]]:
        """Return the value, stamped with the time asked."""
        if self.sample is None:
            return None, Miss('empty', time)
        sample = self.sample
        return Sample(time, sample.parent, sample.translation, sample.rotation), None

    def nearest(self, time: int) -> Tuple[Optional[Sample], Optional[Miss]]:
        """Return the value as it was sent (its parent is value's), or the miss."""
        return self.sample, None if self.sample is not None else Miss('empty', time)

    def parent_at(self, time: int) -> Tuple[Optional[str], Optional[Miss]]:
        """Return the parent, whatever the time."""
        return (self.sample.parent if self.sample else None), None
