# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The audited message types read straight from their little-endian CDR bytes.

A generic deserializer (rosbags', rclpy's) builds a Python object per field, a covariance
array per pose, a message per transform, only for the audit to take seven numbers and two
names from it: most of an offline audit's reading was that. These readers know the fixed
layout of the standard definitions (tf2_msgs/TFMessage, nav_msgs/Odometry,
geometry_msgs/PoseStamped and PoseWithCovarianceStamped) and unpack only what the records
hold; PLAIN_READERS is keyed by the record message_types' reader makes of a message (a pose
topic may be recorded as Odometry) and the type recorded. A message they cannot read as laid
out (big-endian, truncated, a string without its terminator, a size that does not match)
raises NotPlain: the caller asks its generic deserializer, whose error the report gives, so
a damaged message reads exactly as before.
"""
import struct
from typing import Any, Callable, Dict, List, Tuple

from . import message_types as generic
from .engine.records import Payload, Quaternion, Vector3
from .message_types import header_stamp, HeaderRecord, ODOMETRY, odometry_record, \
    OdometryRecord, pose_record, POSE_STAMPED, POSE_WITH_COVARIANCE, PoseRecord, TF2_MESSAGE, \
    TransformRecord

__all__ = ['NotPlain', 'PLAIN_READERS', 'cdr_header']
ENCAPSULATION = 4  # CDR_LE's 4 bytes; alignment counts from after them
_U32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')
_SEVEN = struct.Struct('<7d')  # a Transform or a Pose: three coordinates, a quaternion
COVARIANCE = 36 * 8
TWIST_WITH_COVARIANCE = 6 * 8 + COVARIANCE

Raw = Tuple[str, int, int]  # frame_id, sec, nanosec: a header not yet judged
Placement = Tuple[Vector3, Quaternion]


class NotPlain(ValueError):
    """The bytes are not the standard layout as expected: the generic deserializer decides."""


def _string(raw: bytes, at: int) -> Tuple[str, int]:
    """Return the CDR string at the (4-aligned) offset and the offset after it."""
    if at + 4 > len(raw):
        raise NotPlain('string length past the end')
    length, = _U32.unpack_from(raw, at)
    end = at + 4 + length
    if length < 1 or end > len(raw) or raw[end - 1] != 0:
        raise NotPlain('string length or terminator')
    try:
        return raw[at + 4:end - 1].decode('utf-8'), end
    except UnicodeDecodeError:
        raise NotPlain('string not UTF-8') from None


def _align(at: int, size: int) -> int:
    """Return the offset at, aligned to size from the end of the encapsulation header."""
    return ENCAPSULATION + ((at - ENCAPSULATION + size - 1) & -size)


def _header(raw: bytes, at: int) -> Tuple[Raw, int]:
    """Return a std_msgs/Header's (frame_id, sec, nanosec) at the offset, and what follows."""
    at = _align(at, 4)
    if at + 8 > len(raw):
        raise NotPlain('header past the end')
    sec, nanosec = _STAMP.unpack_from(raw, at)
    frame, at = _string(raw, at + 8)
    return (frame, sec, nanosec), at


def _seven(raw: bytes, at: int) -> Tuple[Placement, int]:
    """Return a position and a quaternion (8-aligned) at the offset, and the offset after."""
    at = _align(at, 8)
    if at + 56 > len(raw):
        raise NotPlain('pose past the end')
    x, y, z, qx, qy, qz, qw = _SEVEN.unpack_from(raw, at)
    return ((x, y, z), (qx, qy, qz, qw)), at + 56


def _check(raw: bytes, end: int) -> None:
    """Refuse what rosbags refuses: bytes missing, or more than its padding left over."""
    if end > len(raw) or end + 3 < len(raw):
        raise NotPlain('size mismatch')


def _little(raw: bytes) -> None:
    if len(raw) < ENCAPSULATION or raw[0] != 0 or raw[1] != 1:
        raise NotPlain('not little-endian CDR')


def _stamp(header: Raw) -> float:
    return header_stamp(header[1], header[2])


def transform_records(raw: bytes) -> Tuple[TransformRecord, ...]:
    """Read a tf2_msgs/TFMessage's transforms."""
    _little(raw)
    if len(raw) < ENCAPSULATION + 4:
        raise NotPlain('no sequence length')
    count, = _U32.unpack_from(raw, ENCAPSULATION)
    at = ENCAPSULATION + 4
    if at + count > len(raw):
        raise NotPlain('sequence length')
    read: List[Tuple[Raw, str, Placement]] = []
    for _ in range(count):
        header, at = _header(raw, at)
        child, at = _string(raw, _align(at, 4))
        numbers, at = _seven(raw, at)
        read.append((header, child, numbers))
    _check(raw, at)
    return tuple(TransformRecord(header[0], child, _stamp(header), *placement)
                 for header, child, placement in read)


def _pose(header: Raw, placement: Placement) -> PoseRecord:
    return PoseRecord(header[0], _stamp(header), *placement)


def pose_stamped(raw: bytes) -> PoseRecord:
    """Read a geometry_msgs/PoseStamped."""
    _little(raw)
    header, at = _header(raw, ENCAPSULATION)
    numbers, at = _seven(raw, at)
    _check(raw, at)
    return _pose(header, numbers)


def pose_with_covariance(raw: bytes) -> PoseRecord:
    """Read a geometry_msgs/PoseWithCovarianceStamped (its covariance is skipped)."""
    _little(raw)
    header, at = _header(raw, ENCAPSULATION)
    numbers, at = _seven(raw, at)
    _check(raw, at + COVARIANCE)
    return _pose(header, numbers)


def odometry(raw: bytes) -> OdometryRecord:
    """Read a nav_msgs/Odometry's pose and child frame (covariances and twist skipped)."""
    _little(raw)
    header, at = _header(raw, ENCAPSULATION)
    child, at = _string(raw, _align(at, 4))
    numbers, at = _seven(raw, at)
    _check(raw, at + COVARIANCE + TWIST_WITH_COVARIANCE)
    return OdometryRecord(_pose(header, numbers), child)


def cdr_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header that starts a CDR message: a scan's ranges are never decoded."""
    little = raw[1] == 1
    sec, nanosec, length = struct.unpack_from('<iII' if little else '>iII', raw, 4)
    frame = raw[16:16 + max(length - 1, 0)].decode('utf-8')
    return HeaderRecord(frame, header_stamp(sec, nanosec))


def _odometry_pose(raw: bytes) -> PoseRecord:
    """Read a nav_msgs/Odometry recorded on a pose topic: its pose alone."""
    return odometry(raw).pose


# what the audit takes of a topic (its record), by the type recorded: how to read it plainly
PLAIN_READERS: Dict[Tuple[Callable[[Any], Payload], str], Callable[[bytes], Payload]] = {
    (generic.transform_records, TF2_MESSAGE): transform_records,
    (odometry_record, ODOMETRY): odometry,
    (pose_record, POSE_STAMPED): pose_stamped,
    (pose_record, POSE_WITH_COVARIANCE): pose_with_covariance,
    (pose_record, ODOMETRY): _odometry_pose}
