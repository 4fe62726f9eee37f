# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the engine takes in: plain records of the messages the car publishes.

The adapters (the live node, the bag reader, the simulator) turn ROS messages into these and
back, so the engine never sees rclpy or rosbags types.
"""
from dataclasses import dataclass
from typing import Optional, Tuple, Union

Vector3 = Tuple[float, float, float]
Quaternion = Tuple[float, float, float, float]  # x, y, z, w, as in geometry_msgs

TF_TOPIC = '/tf'
TF_STATIC_TOPIC = '/tf_static'
CLOCK_TOPIC = '/clock'  # offline: a recorded /clock, carried as a header with its time

# The ROS message types the audit takes, by name: the engine judges which topic carries what
# by these, and the adapters (frame_audit.message_types) read the messages by their fields.
TF2_MESSAGE = 'tf2_msgs/msg/TFMessage'
TF1_MESSAGE = 'tf/msg/tfMessage'  # ROS 1's older tf/tfMessage
POSE_STAMPED = 'geometry_msgs/msg/PoseStamped'
POSE_WITH_COVARIANCE = 'geometry_msgs/msg/PoseWithCovarianceStamped'
ODOMETRY = 'nav_msgs/msg/Odometry'
LASER_SCAN = 'sensor_msgs/msg/LaserScan'
CLOCK_TYPE = 'rosgraph_msgs/msg/Clock'  # only this /clock is a time to judge stamps against
TF_TYPES = (TF2_MESSAGE, TF1_MESSAGE)
POSE_MESSAGE_TYPES = (POSE_STAMPED, POSE_WITH_COVARIANCE, ODOMETRY)
# Scan-like types whose first field is a std_msgs/Header: only the header is decoded.
HEADER_TYPES = (LASER_SCAN, 'sensor_msgs/msg/MultiEchoLaserScan', 'sensor_msgs/msg/PointCloud2')


@dataclass(frozen=True)
class TransformRecord:
    """One geometry_msgs/TransformStamped: child's pose in parent at stamp (seconds)."""

    parent: str
    child: str
    stamp: float
    translation: Vector3
    rotation: Quaternion


@dataclass(frozen=True)
class PoseRecord:
    """A stamped pose (PoseStamped, PoseWithCovarianceStamped or Odometry's pose)."""

    frame_id: str
    stamp: float
    position: Vector3
    orientation: Quaternion


@dataclass(frozen=True)
class OdometryRecord:
    """nav_msgs/Odometry: the pose of child_frame_id in header.frame_id."""

    pose: PoseRecord
    child_frame_id: str


@dataclass(frozen=True)
class HeaderRecord:
    """Only a message's header: for the scan, the frame it is measured in."""

    frame_id: str
    stamp: float


@dataclass(frozen=True)
class Arrival:
    """How a message reached the audit: topic, receive time, and who sent it, where known."""

    topic: str
    received: float
    publisher: Optional[str] = None


@dataclass(frozen=True)
class Unreadable:
    """A message the adapter could not turn into a record, and why: counted, not lost."""

    reason: str


Payload = Union[Tuple[TransformRecord, ...], PoseRecord, OdometryRecord, HeaderRecord,
                Unreadable]


@dataclass(frozen=True)
class Message:
    """
    One message as the audit receives it, with its topic and receive time.

    The payload is a TFMessage's transforms, a pose, odometry, or a scan's header; offline
    the receive time is the recording's log time.
    """

    received: float
    topic: str
    payload: Payload
    publisher: Optional[str] = None

    @property
    def arrival(self) -> Arrival:
        """Return how the message arrived."""
        return Arrival(self.topic, self.received, self.publisher)
