# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A transform as tf2 admits it: what tf2 drops, what it changes, and what it takes.

tf2 drops a transform with a NaN, a non-unit rotation, no frame name, or its own frame as
parent, and strips a leading '/' (with a warning); each such transform is counted as a
Rejection of its kind, on its edge and topic, so a report says what tf2 did not take and why.
"""
from dataclasses import dataclass, field
import math
import re
from typing import Dict, NamedTuple, Optional, Sequence, Tuple

from .findings import Level
from .geometry import Transform
from .occurrences import Occurrences
from .records import TransformRecord

MAX_TRANSLATION_M = 1e6  # finite, but no robot's frames are 1,000 km apart
UNIT_TOLERANCE = 0.01  # tf2 takes a rotation whose |‖q‖² − 1| is below this
WHITESPACE = re.compile(r'\s')  # str.isspace's characters (both ask Py_UNICODE_ISSPACE)
TF2_DROPS = 'tf2 drops these transforms'
# reason -> (level, what is wrong, what tf2 does with it): the audit's and the lint's words
SAID: Dict[str, Tuple[Level, str, str]] = {
    'not_finite': (Level.ERROR, 'NaN or infinite values', TF2_DROPS),
    'non_unit_quaternion': (Level.ERROR, 'a quaternion that is not unit length '
                            '(|‖q‖² − 1| ≥ 0.01)', TF2_DROPS),
    'self_parent': (Level.ERROR, 'a frame as its own parent', TF2_DROPS),
    'empty_frame_id': (Level.ERROR, 'an empty frame id', TF2_DROPS),
    'huge_value': (Level.WARN, 'a translation beyond 1,000 km',
                   'tf2 keeps these transforms: everything placed through this edge is that '
                   'far off'),
    'leading_slash': (Level.WARN, "a frame id that starts with '/'",
                      "tf2 strips the '/', so they land on the frame without it"),
    'whitespace': (Level.WARN, 'a frame id holding whitespace',
                   'tf2 keeps these transforms, but every tool that takes frames as words '
                   "splits the id (a shell's tf2_echo, ROS 1 launch args, a YAML list "
                   "written inline): name it with '_'"),
}


def is_finite(value: Transform) -> bool:
    """Return whether every number of a value is finite: tf2 drops NaN and infinity."""
    return all(math.isfinite(v) for v in value.translation + value.rotation)


def is_unit(rotation: Tuple[float, float, float, float]) -> bool:
    """Return whether tf2 takes a rotation: |‖q‖² − 1| < 0.01, as its buffer checks."""
    return abs(sum(c * c for c in rotation) - 1.0) < UNIT_TOLERANCE


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


class Refusal(NamedTuple):
    """One transform's fault: its kind, its edge as named, and an example to show."""

    reason: str
    parent: str
    child: str
    example: str


class Admitted(NamedTuple):
    """A transform tf2 takes: its edge's names, its value (rotation normalised), its stamp."""

    parent: str
    child: str
    value: Transform
    stamp: float


def admit(record: TransformRecord) -> Tuple[Optional[Admitted], Sequence[Refusal]]:
    """Return the transform as tf2 would take it (None: dropped) and each fault found."""
    faults: Tuple[Refusal, ...] = ()
    parent, child = str(record.parent), str(record.child)
    stripped = parent.lstrip('/'), child.lstrip('/')
    if (parent, child) != stripped and all(stripped):
        faults = (Refusal('leading_slash', parent, child,
                          '{!r} → {!r} becomes {} → {}'.format(parent, child, *stripped)),)
    parent, child = stripped
    if not parent or not child:
        return None, faults + (Refusal('empty_frame_id', parent, child, 'frame ids {!r} -> {!r}'
                                       .format(record.parent, record.child)),)
    if parent == child:
        return None, faults + (Refusal('self_parent', parent, child,
                                       '{} -> {}'.format(parent, child)),)
    if WHITESPACE.search(parent) or WHITESPACE.search(child):  # taken, as tf2 takes it
        faults += (Refusal('whitespace', parent, child, '{!r} → {!r}'.format(parent, child)),)
    try:
        x, y, z = map(float, record.translation)
        qx, qy, qz, qw = map(float, record.rotation)
        stamp = float(record.stamp)
    except (TypeError, ValueError):
        return None, faults + (Refusal('not_finite', parent, child, 'values {!r} {!r}'.format(
            record.translation, record.rotation)),)
    if not math.isfinite(x + y + z + qx + qy + qz + qw + stamp):
        return None, faults + (Refusal('not_finite', parent, child,
                                       'translation {} rotation {} stamp {}'.format(
                                           record.translation, record.rotation, record.stamp)),)
    if max(abs(x), abs(y), abs(z)) > MAX_TRANSLATION_M:
        faults += (Refusal('huge_value', parent, child,  # taken, as tf2 takes it
                           'translation {}'.format(record.translation)),)
    norm2 = qx * qx + qy * qy + qz * qz + qw * qw
    if abs(norm2 - 1.0) >= UNIT_TOLERANCE:
        return None, faults + (Refusal('non_unit_quaternion', parent, child,
                                       'rotation {} has squared length {:.4f}'.format(
                                           record.rotation, norm2)),)
    norm = math.sqrt(norm2)
    value = Transform((x, y, z), (qx / norm, qy / norm, qz / norm, qw / norm))
    return Admitted(parent, child, value, stamp), faults
