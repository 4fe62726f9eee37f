# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
tf2's BufferCore as a model: what it takes in, what it refuses, and what a lookup answers.

It follows geometry2's buffer_core.cpp (setTransformImpl, walkToTopParent,
getLatestCommonTime, validateFrameId) for the chosen distribution, down to the words of its
messages, so a refused lookup here reads as the node's log line did. Pure and deterministic:
no clock, no threads, no waiting (a wait is the caller's: feed the messages that would have
arrived, then ask).
"""
from dataclasses import dataclass
import math
from typing import Dict, Iterator, List, Optional, Tuple, Union

from . import texts
from .cache import conjugate, Miss, Quat, quat_mul, quat_rotate, Sample, StaticCache, TimeCache, \
    Vector
from .distros import DEFAULT_DISTRO, distro as distro_named, NS

Cache = Union[TimeCache, StaticCache]
MAX_GRAPH_DEPTH = 1000  # BufferCore::MAX_GRAPH_DEPTH: a longer walk is a loop
QUATERNION_TOLERANCE = 10e-3  # |x²+y²+z²+w² - 1| must be below this
IDENTITY: Quat = (0.0, 0.0, 0.0, 1.0)
ZERO: Vector = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Insertion:
    """What setTransform did with one transform: taken, or refused with tf2's codes and log."""

    taken: bool
    codes: Tuple[str, ...] = ()  # TF_OLD_DATA, TF_REPEATED_DATA, TF_NAN_INPUT, ...
    log: Tuple[str, ...] = ()  # the lines tf2 logs for it
    skipped_duplicate: bool = False  # ROS 2: an identical sample, skipped without a word
    kept_twice: bool = False  # ROS 2: kept beside another value of the same stamp


@dataclass(frozen=True)
class Tf2Error:
    """A refused lookup: tf2's exception, its message, and the facts behind it."""

    exception: str  # ExtrapolationException, LookupException, ConnectivityException, ...
    kind: str  # future, past, single, empty, no_frame, invalid, two_trees, loop
    text: str
    frame: str = ''  # the frame whose cache could not answer (the limiting edge's child)
    requested: int = 0  # nanoseconds
    nearest: int = 0  # the latest (future) or earliest (past) stamp that frame holds


@dataclass(frozen=True)
class Answer:
    """A lookup's answer: target <- source at stamp, or the error."""

    translation: Vector = ZERO
    rotation: Quat = IDENTITY
    stamp: int = 0
    error: Optional[Tf2Error] = None

    @property
    def ok(self) -> bool:
        """Return whether tf2 would have answered."""
        return self.error is None


class _Refused(Exception):
    """A lookup's error, raised inside the walk and returned as an Answer."""

    def __init__(self, error: Tf2Error):
        super().__init__(error.text)
        self.error = error


class Buffer:
    """A model of tf2::BufferCore for one distribution (default: the newest supported)."""

    def __init__(self, cache_time_s: float = 10.0, distro: str = DEFAULT_DISTRO):
        """Keep cache_time_s of history per frame, as the distro's tf2 would."""
        self.distro = distro_named(distro)
        self.window_ns = int(round(cache_time_s * NS))
        # frame ids in tf2's order of numbering (a dict: in order, and found at once)
        self.frames: Dict[str, None] = {}
        self.caches: Dict[str, Cache] = {}
        self.authority: Dict[str, str] = {}

    # -- taking transforms in -------------------------------------------------------------

    def _number(self, frame: str) -> None:
        """Give a frame its id on first sight (lookupOrInsertFrameNumber)."""
        self.frames.setdefault(frame)

    def set_transform(self, parent: str, child: str, stamp: int, translation: Vector,
                      rotation: Quat, authority: str = 'default_authority',
                      static: bool = False) -> Insertion:
        """Take one transform as setTransform would; stamp in nanoseconds."""
        parent, child = parent[1:] if parent.startswith('/') else parent, \
            child[1:] if child.startswith('/') else child
        refused = texts.validation(self.distro, parent, child, translation, rotation,
                                   authority, _is_unit(rotation))
        if refused:
            return Insertion(False, tuple(code for code, _ in refused),
                             tuple(line for _, line in refused))
        self._number(child)
        cache = self.caches.get(child)
        if cache is None or (self.distro.static_switch_reallocates and cache.static != static):
            cache = StaticCache() if static else TimeCache(self.window_ns, self.distro)
            self.caches[child] = cache
        self._number(parent)
        why = cache.insert(Sample(stamp, parent, tuple(map(float, translation)),  # type: ignore
                                  tuple(map(float, rotation))))  # type: ignore[arg-type]
        if why == 'duplicate':
            return Insertion(True, skipped_duplicate=True)
        if why and why != 'twice':
            code, line = texts.insertion_refused(self.distro, why, parent, child, stamp,
                                                 authority)
            return Insertion(False, (code,), (line,))
        self.authority[child] = authority
        return Insertion(True, kept_twice=why == 'twice')

    def clear(self) -> None:
        """Forget the dynamic history (tf2_ros does on a jump back in time); statics stay."""
        for cache in self.caches.values():
            cache.clear()

    # -- asking ---------------------------------------------------------------------------

    def parent_of(self, frame: str, time: int = 0) -> Optional[str]:
        """Return frame's parent at time (0: the newest), None if it has none."""
        cache = self.caches.get(frame)
        return cache.parent_at(time)[0] if cache is not None else None

    def chain(self, target: str, source: str,
              coming: Optional[Dict[str, str]] = None) -> List[Tuple[str, str]]:
        """
        Return the edges (parent, child) a lookup composes, source side first.

        Up from the source and up from the target (newest parents) to where they meet: an
        edge above that frame is off the chain, though walkToTopParent may read it, and
        name it in its text, once its walk up from the source has stopped. coming: a root's
        parent by an edge not yet sent. Empty where the two do not meet.
        """
        def up(frame: str) -> List[str]:
            seen = [frame]
            while len(seen) <= MAX_GRAPH_DEPTH:
                parent = self.parent_of(frame)
                if parent is None and coming:
                    parent = coming.get(frame)
                if parent is None or parent in seen:
                    break
                seen.append(parent)
                frame = parent
            return seen
        above_source, above_target = up(source), up(target)
        meeting = next((frame for frame in above_source if frame in above_target), None)
        if meeting is None:
            return []
        sides = above_source[:above_source.index(meeting) + 1], \
            above_target[:above_target.index(meeting) + 1]
        return [(parent, child) for side in sides for child, parent in zip(side, side[1:])]

    def latest_common_time(self, target: str, source: str) -> Tuple[int, Optional[Tf2Error]]:
        """Return the newest time every edge between the frames holds (0: all static)."""
        try:
            return self._common_time(target, source), None
        except _Refused as refused:
            return 0, refused.error

    def lookup(self, target: str, source: str, time: int = 0, values: bool = True) -> Answer:
        """
        Return target <- source at time (ns; 0 = latest common time), or tf2's error.

        values False: whether tf2 answers, and its error, without the transform's numbers
        (as canTransform walks, by each frame's parent at time): a lookup watched for its
        verdict alone costs no interpolation.
        """
        if target == source:
            cache = self.caches.get(target)
            stamp = cache.latest()[0] if time == 0 and cache is not None else time
            return Answer(stamp=stamp)
        try:
            for frame, role in ((target, 'target_frame'), (source, 'source_frame')):
                self._validate(frame, role)
            if time == 0:
                time = self._common_time(target, source)
            return self._walk(target, source, time, values)
        except _Refused as refused:
            return Answer(error=refused.error)

    def _validate(self, frame: str, role: str) -> None:
        """Refuse an empty, slashed or unknown frame id as validateFrameId does."""
        kind, text = texts.invalid_frame(self.distro, frame, 'lookupTransform argument ' + role)
        if kind:
            raise _Refused(Tf2Error('InvalidArgumentException' if kind == 'invalid'
                                    else 'LookupException', kind, text, frame))
        if frame not in self.frames:
            raise _Refused(Tf2Error('LookupException', 'no_frame', texts.no_frame(
                frame, 'lookupTransform argument ' + role), frame))

    def _loop(self) -> _Refused:
        return _Refused(Tf2Error('LookupException', 'loop', texts.loop(self._all_frames())))

    def _all_frames(self) -> List[Tuple[str, str]]:
        """Return (frame, parent) for every frame with a cache, in id order."""
        listed = []
        for frame in self.frames:
            cache = self.caches.get(frame)
            if cache is not None:
                sample, _ = cache.value(0)
                listed.append((frame, sample.parent if sample else 'NO_PARENT'))
        return listed

    def _up(self, frame: str) -> Iterator[Tuple[int, str]]:
        """Yield (newest stamp, parent) up from frame; past MAX_GRAPH_DEPTH steps, a loop."""
        for _ in range(MAX_GRAPH_DEPTH + 1):
            cache = self.caches.get(frame)
            stamp, parent = cache.latest() if cache is not None else (0, None)
            if parent is None:
                return
            yield stamp, parent
            frame = parent
        raise self._loop()

    def _common_time(self, target: str, source: str) -> int:
        """Return tf2's getLatestCommonTime: the oldest of the newest stamps on the path."""
        up: List[Tuple[int, str]] = []
        common: Optional[int] = None
        for stamp, parent in self._up(source):
            common = _older(common, stamp)
            up.append((stamp, parent))
            if parent == target:
                return common or 0
        parents = {parent for _, parent in up}
        common, meeting = None, None
        for stamp, parent in self._up(target):
            common = _older(common, stamp)
            if parent in parents:
                meeting = parent
                break
            if parent == source:
                return common or 0
        if meeting is None:
            raise _Refused(Tf2Error('ConnectivityException', 'two_trees',
                                    texts.two_trees(target, source)))
        for stamp, parent in up:
            common = _older(common, stamp)
            if parent == meeting:
                break
        return common or 0

    def _walk(self, target: str, source: str, time: int, values: bool = True) -> Answer:
        """Compose both chains up to where they meet (values): tf2's walkToTopParent."""
        source_vec, source_quat = ZERO, IDENTITY
        frame, top, missed = source, source, None
        for depth in range(MAX_GRAPH_DEPTH + 2):
            if depth > len(self.caches):  # more steps than frames: around a loop again, and
                raise self._loop()  # each round repeats the first (tf2 walks to the bound)
            cache = self.caches.get(frame)
            if cache is None:
                top = frame
                break
            sample, miss = cache.value(time) if values else cache.nearest(time)
            if sample is None:
                top, missed = frame, (frame, miss)
                break
            if frame == target:
                return self._answer(source_vec, source_quat, time) if values \
                    else Answer(stamp=time)
            if values:
                source_vec = _add(quat_rotate(sample.rotation, source_vec), sample.translation)
                source_quat = quat_mul(sample.rotation, source_quat)
            top, frame = frame, sample.parent
            if depth + 1 > MAX_GRAPH_DEPTH:
                raise self._loop()
        target_vec, target_quat = ZERO, IDENTITY
        frame = target
        for depth in range(MAX_GRAPH_DEPTH + 2):
            if frame == top:
                break
            if depth > len(self.caches):
                raise self._loop()
            cache = self.caches.get(frame)
            if cache is None:
                break
            sample, miss = cache.value(time) if values else cache.nearest(time)
            if sample is None:
                raise _Refused(self._extrapolation(frame, miss, target, source))
            if frame == source:
                if not values:
                    return Answer(stamp=time)
                inverse = conjugate(target_quat)
                return self._answer(quat_rotate(inverse, _neg(target_vec)), inverse, time)
            if values:
                target_vec = _add(quat_rotate(sample.rotation, target_vec), sample.translation)
                target_quat = quat_mul(sample.rotation, target_quat)
            frame = sample.parent
            if depth + 1 > MAX_GRAPH_DEPTH:
                raise self._loop()
        if frame != top:
            if missed is not None:
                raise _Refused(self._extrapolation(missed[0], missed[1], target, source))
            raise _Refused(Tf2Error('ConnectivityException', 'two_trees',
                                    texts.two_trees(target, source)))
        if not values:
            return Answer(stamp=time)
        inverse = conjugate(target_quat)
        return self._answer(_add(quat_rotate(inverse, source_vec),
                                 quat_rotate(inverse, _neg(target_vec))),
                            quat_mul(inverse, source_quat), time)

    def _extrapolation(self, frame: str, miss: Optional[Miss], target: str,
                       source: str) -> Tf2Error:
        assert miss is not None
        return Tf2Error('ExtrapolationException', miss.kind,
                        texts.extrapolation(self.distro, miss) +
                        texts.while_looking_up(source, target), frame,
                        miss.requested, miss.nearest)

    def _answer(self, translation: Vector, rotation: Quat, stamp: int) -> Answer:
        """
        Return the answer as tf2 hands it out.

        ROS 1 copies the composed quaternion into the message as it is; ROS 2 passes it
        through tf2::Transform's rotation matrix, which gives it unit length.
        """
        norm = math.sqrt(sum(q * q for q in rotation))
        if not self.distro.ros1 and norm > 0:
            rotation = tuple(q / norm for q in rotation)  # type: ignore[assignment]
        return Answer(translation, rotation, stamp)


def _older(common: Optional[int], stamp: int) -> Optional[int]:
    """Return the older of two newest stamps; a static edge's zero does not count."""
    if not stamp:
        return common
    return stamp if common is None else min(common, stamp)


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _neg(a: Vector) -> Vector:
    return (-a[0], -a[1], -a[2])


def _is_unit(rotation: Quat) -> bool:
    """Return whether tf2 takes the quaternion as normalized (within 1 % of squared length)."""
    return abs(sum(q * q for q in rotation) - 1.0) < QUATERNION_TOLERANCE
