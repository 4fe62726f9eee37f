# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The ROS message types the audit takes, by name, and the engine's records read from them.

rclpy's and rosbags' messages both have the fields of their definition, so one reader by
field name serves the live node, the recordings and the simulator; this module imports
neither library, and the engine never sees either's types.
"""
import math
import struct
from typing import Any, Tuple

from .engine.records import HeaderRecord, OdometryRecord, PoseRecord, TransformRecord

TF2_MESSAGE = 'tf2_msgs/msg/TFMessage'
TF1_MESSAGE = 'tf/msg/tfMessage'  # ROS 1's older tf/tfMessage
POSE_STAMPED = 'geometry_msgs/msg/PoseStamped'
POSE_WITH_COVARIANCE = 'geometry_msgs/msg/PoseWithCovarianceStamped'
ODOMETRY = 'nav_msgs/msg/Odometry'
LASER_SCAN = 'sensor_msgs/msg/LaserScan'
TF_TYPES = (TF2_MESSAGE, TF1_MESSAGE)
POSE_MESSAGE_TYPES = (POSE_STAMPED, POSE_WITH_COVARIANCE, ODOMETRY)
# Scan-like types whose first field is a std_msgs/Header: only the header is decoded.
HEADER_TYPES = (LASER_SCAN, 'sensor_msgs/msg/MultiEchoLaserScan', 'sensor_msgs/msg/PointCloud2')


def stamp_seconds(stamp: Any) -> float:
    """Return a builtin_interfaces/Time as seconds (the engine's clock unit)."""
    return stamp.sec + stamp.nanosec * 1e-9


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
    return TransformRecord(t.header.frame_id, t.child_frame_id, stamp_seconds(t.header.stamp),
                           (v.x, v.y, v.z), (q.x, q.y, q.z, q.w))


def pose_record(msg: Any) -> PoseRecord:
    """Return the pose a PoseStamped, PoseWithCovarianceStamped or Odometry carries."""
    pose = msg.pose.pose if hasattr(msg.pose, 'covariance') else msg.pose
    p, q = pose.position, pose.orientation
    return PoseRecord(msg.header.frame_id, stamp_seconds(msg.header.stamp),
                      (p.x, p.y, p.z), (q.x, q.y, q.z, q.w))


def odometry_record(msg: Any) -> OdometryRecord:
    """Return an Odometry message's pose and child frame."""
    return OdometryRecord(pose_record(msg), msg.child_frame_id)


def header_record(msg: Any) -> HeaderRecord:
    """Return only a message's header (for the scan: the frame it is measured in)."""
    return HeaderRecord(msg.header.frame_id, stamp_seconds(msg.header.stamp))


def cdr_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header that starts a CDR message: a scan's ranges are never decoded."""
    little = raw[1] == 1
    sec, nanosec, length = struct.unpack_from('<iII' if little else '>iII', raw, 4)
    frame = raw[16:16 + max(length - 1, 0)].decode('utf-8')
    return HeaderRecord(frame, sec + nanosec * 1e-9)


def ros1_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header (seq, stamp, frame_id) that starts a ROS 1 message."""
    _, sec, nanosec, length = struct.unpack_from('<IIII', raw, 0)
    return HeaderRecord(raw[16:16 + length].decode('utf-8'), sec + nanosec * 1e-9)
