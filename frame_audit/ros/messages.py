# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Conversions between ROS 2 messages and the engine's records, both ways.

The live node turns what it receives into records (so the engine never sees rclpy types) and
its check results into a DiagnosticArray; the live simulator turns the simulated car's records
into the messages a real car sends; the monitor reads the DiagnosticArray back.
"""
from dataclasses import dataclass, field
import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Type, Union

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import PoseStamped, PoseWithCovarianceStamped, TransformStamped
from nav_msgs.msg import Odometry
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

from ..engine.findings import CheckResult, Level
from ..engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, TransformRecord, \
    Unreadable
from ..message_types import ODOMETRY, POSE_STAMPED, POSE_WITH_COVARIANCE, split_stamp
from ..reports.diagnostics import FINDING_PREFIX, status_content, STATUS_PREFIX

SCAN_BEAMS = 1081  # a Hokuyo UST-10LX (the F1TENTH LiDAR): 270 degrees at 0.25 degrees

PoseMessage = Union[PoseStamped, PoseWithCovarianceStamped, Odometry]
POSE_CLASSES: Dict[str, Type[Any]] = {
    POSE_STAMPED: PoseStamped, POSE_WITH_COVARIANCE: PoseWithCovarianceStamped, ODOMETRY: Odometry}
_LEVEL_BYTES = {level: bytes([int(level)]) for level in Level}


# -- time ---------------------------------------------------------------------------------

def time_message(seconds: float) -> Time:
    """Return seconds as a builtin_interfaces/Time; a non-finite time is a ValueError."""
    sec, nanosec = split_stamp(seconds)
    return Time(sec=sec, nanosec=nanosec)


# -- records -> ROS -----------------------------------------------------------------------

def tf_message(records: Iterable[TransformRecord]) -> TFMessage:
    """Return the TFMessage a broadcaster would send for these transforms."""
    msg = TFMessage()
    for record in records:
        t = TransformStamped()
        t.header.frame_id, t.child_frame_id = record.parent, record.child
        t.header.stamp = time_message(record.stamp)
        v, q = t.transform.translation, t.transform.rotation
        v.x, v.y, v.z = (float(c) for c in record.translation)
        q.x, q.y, q.z, q.w = (float(c) for c in record.rotation)
        msg.transforms.append(t)
    return msg


def pose_message(record: PoseRecord, kind: Type[Any] = PoseStamped) -> PoseMessage:
    """Return the record as a PoseStamped, PoseWithCovarianceStamped or Odometry."""
    msg = kind()
    msg.header.frame_id = record.frame_id
    msg.header.stamp = time_message(record.stamp)
    pose = msg.pose if kind is PoseStamped else msg.pose.pose
    pose.position.x, pose.position.y, pose.position.z = (float(c) for c in record.position)
    q = pose.orientation
    q.x, q.y, q.z, q.w = (float(c) for c in record.orientation)
    return msg


def odometry_message(record: OdometryRecord) -> Odometry:
    """Return the record as nav_msgs/Odometry."""
    msg = pose_message(record.pose, Odometry)
    msg.child_frame_id = record.child_frame_id
    return msg


def scan_message(record: HeaderRecord, beams: int = SCAN_BEAMS) -> LaserScan:
    """Return a LaserScan with the record's header and a LiDAR's size, all beams at 10 m."""
    msg = LaserScan()
    msg.header.frame_id = record.frame_id
    msg.header.stamp = time_message(record.stamp)
    msg.angle_min, msg.angle_max = -0.75 * math.pi, 0.75 * math.pi
    msg.angle_increment = (msg.angle_max - msg.angle_min) / max(1, beams - 1)
    msg.range_min, msg.range_max = 0.02, 30.0
    msg.ranges = [10.0] * beams
    return msg


def ros_message(message: Message, pose_types: Optional[Mapping[str, str]] = None) -> Any:
    """
    Return the ROS message a car would publish for a record.

    pose_types maps a pose topic to its type name (as sim.car.POSE_TYPES); PoseStamped
    where it names none.
    """
    payload = message.payload
    if isinstance(payload, OdometryRecord):
        return odometry_message(payload)
    if isinstance(payload, PoseRecord):
        kind = POSE_CLASSES.get((pose_types or {}).get(message.topic, ''), PoseStamped)
        return pose_message(payload, kind)
    if isinstance(payload, HeaderRecord):
        return scan_message(payload)
    if isinstance(payload, Unreadable):  # no decoded fields to send (a TypeError, as ever)
        raise TypeError('an Unreadable message has nothing to send ({})'.format(payload.reason))
    return tf_message(payload)


# -- check results -> DiagnosticArray, and back -------------------------------------------

def diagnostic_status(result: CheckResult, hardware_id: str) -> DiagnosticStatus:
    """Return one check's DiagnosticStatus: its level, message, numbers and findings."""
    content = status_content(result, hardware_id)
    return DiagnosticStatus(level=_LEVEL_BYTES[result.level], name=content.name,
                            message=content.message, hardware_id=hardware_id,
                            values=[KeyValue(key=key, value=value)
                                    for key, value in content.values])


def diagnostic_array(results: Sequence[CheckResult], stamp: float,
                     hardware_id: str) -> DiagnosticArray:
    """Return the DiagnosticArray for one check cycle: one status per result."""
    msg = DiagnosticArray()
    msg.header.stamp = time_message(stamp)
    msg.status = [diagnostic_status(result, hardware_id) for result in results]
    return msg


@dataclass(frozen=True)
class Status:
    """One frame_audit status as read back from /diagnostics (check id, not the full name)."""

    check: str
    level: Level
    message: str
    hardware_id: str = ''
    values: Mapping[str, str] = field(default_factory=dict)

    def numbers(self) -> Dict[str, str]:
        """Return the check's own key-values, without the per-finding ones."""
        return {k: v for k, v in self.values.items() if not k.startswith(FINDING_PREFIX)}


def level_of(status: DiagnosticStatus) -> Level:
    """Return a DiagnosticStatus's level (a byte in ROS 2 Python, an int elsewhere)."""
    raw = status.level
    number = raw[0] if isinstance(raw, (bytes, bytearray)) else int(raw)
    try:
        return Level(number)
    except ValueError:
        return Level.ERROR  # an unknown level: show it as the worst, never hide it


def frame_audit_statuses(msg: DiagnosticArray) -> List[Status]:
    """Return the frame_audit statuses in a DiagnosticArray, others left out."""
    return [Status(s.name[len(STATUS_PREFIX):], level_of(s), s.message, s.hardware_id,
                   {kv.key: kv.value for kv in s.values})
            for s in msg.status if s.name.startswith(STATUS_PREFIX)]
