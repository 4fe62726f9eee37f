# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The engine's records, read from the ROS messages the audit takes.

The type names are the engine's (engine.records), re-exported here for the adapters.

rclpy's and rosbags' messages both have the fields of their definition, so one reader by
field name serves the live node, the recordings and the simulator; this module imports
neither library, and the engine never sees either's types.
"""
import math
import struct
from typing import Any, Tuple

from .engine.records import HEADER_TYPES, HeaderRecord, LASER_SCAN, ODOMETRY, OdometryRecord, \
    POSE_MESSAGE_TYPES, POSE_STAMPED, POSE_WITH_COVARIANCE, PoseRecord, TF1_MESSAGE, TF2_MESSAGE, \
    TF_TYPES, TransformRecord

__all__ = ['HEADER_TYPES', 'LASER_SCAN', 'ODOMETRY', 'POSE_MESSAGE_TYPES', 'POSE_STAMPED',
           'POSE_WITH_COVARIANCE', 'TF1_MESSAGE', 'TF2_MESSAGE', 'TF_TYPES', 'header_record',
           'header_stamp', 'InvalidField', 'odometry_record', 'pose_record', 'ros1_header',
           'split_stamp', 'stamp_seconds', 'transform_records']
NANOSECONDS = 1_000_000_000


class InvalidField(ValueError):
    """A field that holds what its type forbids (a stamp's nanosec of 10^9 or more)."""


def stamp_seconds(stamp: Any) -> float:
    """Return a builtin_interfaces/Time as seconds (the engine's clock unit)."""
    return stamp.sec + stamp.nanosec * 1e-9


def header_stamp(sec: int, nanosec: int) -> float:
    """Return a header stamp as seconds; InvalidField if its nanosec is not below 10^9."""
    if not 0 <= nanosec < NANOSECONDS:
        raise InvalidField('header.stamp.nanosec is {}, an invalid field (it counts the '
                           'nanoseconds within a second: 0 to 999999999)'.format(nanosec))
    return sec + nanosec * 1e-9


def split_stamp(seconds: float) -> Tuple[int, int]:
    """Return seconds as (sec, nanosec), rounded to the nanosecond; non-finite: ValueError."""
    if not math.isfinite(seconds):
        raise ValueError('cannot stamp a message with {!r} s'.format(seconds))
    nanoseconds = int(round(seconds * 1e9))
    return nanoseconds // 1_000_000_000, nanoseconds % 1_000_000_000


def transform_records(msg: Any) -> Tuple[TransformRecord, ...]:
    """Return a TFMessage's (or tf/tfMessage's) transforms, exactly as sent."""
    return tuple(_transform_record(t) for t in msg.transforms)


def _transform_record(t: Any) -> TransformRecord:
    v, q = t.transform.translation, t.transform.rotation
    stamp = t.header.stamp
    return TransformRecord(t.header.frame_id, t.child_frame_id,
                           header_stamp(stamp.sec, stamp.nanosec),
                           (v.x, v.y, v.z), (q.x, q.y, q.z, q.w))


def pose_record(msg: Any) -> PoseRecord:
    """Return the pose a PoseStamped, PoseWithCovarianceStamped or Odometry carries."""
    pose = msg.pose.pose if hasattr(msg.pose, 'covariance') else msg.pose
    p, q = pose.position, pose.orientation
    return PoseRecord(msg.header.frame_id, header_stamp(msg.header.stamp.sec,
                                                        msg.header.stamp.nanosec),
                      (p.x, p.y, p.z), (q.x, q.y, q.z, q.w))


def odometry_record(msg: Any) -> OdometryRecord:
    """Return an Odometry message's pose and child frame."""
    return OdometryRecord(pose_record(msg), msg.child_frame_id)


def header_record(msg: Any) -> HeaderRecord:
    """Return only a message's header (for the scan: the frame it is measured in)."""
    return HeaderRecord(msg.header.frame_id, header_stamp(msg.header.stamp.sec,
                                                          msg.header.stamp.nanosec))


def ros1_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header (seq, stamp, frame_id) that starts a ROS 1 message."""
    _, sec, nanosec, length = struct.unpack_from('<IIII', raw, 0)
    return HeaderRecord(raw[16:16 + length].decode('utf-8'), header_stamp(sec, nanosec))
