# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Records from ROS messages, read by field name: rclpy's and rosbags' messages alike.

Both libraries give a message the fields of its definition, so one reader serves the live
node and the recordings; this module imports neither.
"""
import math
from typing import Any, Tuple

from .records import HeaderRecord, OdometryRecord, PoseRecord, TransformRecord


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
