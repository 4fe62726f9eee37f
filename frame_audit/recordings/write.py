# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Writing engine records as recordings, via rosbags: for the simulator, the tests and the benchmarks.

The suffix picks the format (.mcap, .db3, a rosbag2 folder, or a ROS 1 .bag); /tf_static is
offered as tf2 sends it (transient local, or latched in ROS 1).
"""
import math
from pathlib import Path
import shutil
import tempfile
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Tuple

import numpy as np

from . import BagError
from ..engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, TF_STATIC_TOPIC, \
    TF_TOPIC, TransformRecord, Unreadable
from ..message_types import LASER_SCAN, ODOMETRY, POSE_STAMPED, split_stamp, TF2_MESSAGE, TF_TYPES

TF_DEFINITION = 'geometry_msgs/TransformStamped[] transforms'
STORAGE_BY_SUFFIX = {'.mcap': 'mcap', '.db3': 'sqlite3'}


class _Builder:
    """Turns records into rosbags message objects of one typestore (ROS 1 or ROS 2)."""

    def __init__(self, typestore: object, ros1: bool, beams: int):
        self.types = typestore.types  # type: ignore[attr-defined]
        self.ros1 = ros1
        self.covariance = np.zeros(36, dtype=np.float64)
        angles = np.linspace(-2.35, 2.35, beams)
        # A 3 m wide corridor, ending 12 m ahead: what the LiDAR sees on a straight.
        side = 1.5 / np.maximum(np.abs(np.sin(angles)), 1e-3)
        ahead = 12.0 / np.maximum(np.cos(angles), 1e-3)
        self.corridor = np.minimum(side, ahead).clip(0.06, 30.0).astype(np.float32)
        self.intensities = np.full(beams, 100.0, dtype=np.float32)

    def _new(self, name: str, **fields: object) -> object:
        return self.types[name](**fields)

    def header(self, frame: str, stamp: float) -> object:
        sec, nanosec = split_stamp(stamp)
        time = self._new('builtin_interfaces/msg/Time', sec=sec, nanosec=nanosec)
        if self.ros1:
            return self._new('std_msgs/msg/Header', seq=0, stamp=time, frame_id=frame)
        return self._new('std_msgs/msg/Header', stamp=time, frame_id=frame)

    def pose(self, position: Tuple[float, ...], orientation: Tuple[float, ...]) -> object:
        x, y, z = position
        qx, qy, qz, qw = orientation
        return self._new('geometry_msgs/msg/Pose',
                         position=self._new('geometry_msgs/msg/Point', x=x, y=y, z=z),
                         orientation=self._new('geometry_msgs/msg/Quaternion',
                                               x=qx, y=qy, z=qz, w=qw))

    def tf_message(self, records: Tuple[TransformRecord, ...], msgtype: str) -> object:
        transforms = []
        for record in records:
            x, y, z = record.translation
            qx, qy, qz, qw = record.rotation
            transforms.append(self._new(
                'geometry_msgs/msg/TransformStamped',
                header=self.header(record.parent, record.stamp),
                child_frame_id=record.child,
                transform=self._new(
                    'geometry_msgs/msg/Transform',
                    translation=self._new('geometry_msgs/msg/Vector3', x=x, y=y, z=z),
                    rotation=self._new('geometry_msgs/msg/Quaternion', x=qx, y=qy, z=qz,
                                       w=qw))))
        return self._new(msgtype, transforms=transforms)

    def pose_message(self, record: PoseRecord, msgtype: str) -> object:
        if msgtype == ODOMETRY:  # a pose topic may be nav_msgs/Odometry
            return self.odometry(OdometryRecord(record, ''))
        pose = self.pose(record.position, record.orientation)
        if msgtype != POSE_STAMPED:
            pose = self._new('geometry_msgs/msg/PoseWithCovariance', pose=pose,
                             covariance=self.covariance)
        return self._new(msgtype, header=self.header(record.frame_id, record.stamp), pose=pose)

    def odometry(self, record: OdometryRecord) -> object:
        zero = self._new('geometry_msgs/msg/Vector3', x=0.0, y=0.0, z=0.0)
        twist = self._new('geometry_msgs/msg/TwistWithCovariance', covariance=self.covariance,
                          twist=self._new('geometry_msgs/msg/Twist', linear=zero, angular=zero))
        pose = self._new('geometry_msgs/msg/PoseWithCovariance', covariance=self.covariance,
                         pose=self.pose(record.pose.position, record.pose.orientation))
        return self._new(ODOMETRY, header=self.header(record.pose.frame_id, record.pose.stamp),
                         child_frame_id=record.child_frame_id, pose=pose, twist=twist)

    def scan(self, record: HeaderRecord) -> object:
        beams = len(self.corridor)
        shift = int(record.stamp * 40) % 9 - 4  # the view changes as the car drives
        return self._new(LASER_SCAN, header=self.header(record.frame_id, record.stamp),
                         angle_min=-2.35, angle_max=2.35, angle_increment=4.7 / (beams - 1),
                         time_increment=0.025 / beams, scan_time=0.025, range_min=0.06,
                         range_max=30.0, ranges=np.roll(self.corridor, shift),
                         intensities=self.intensities)


def _message_type(message: Message, pose_types: Mapping[str, str], tf_type: str) -> str:
    """Return the ROS type a record is written as."""
    payload = message.payload
    if isinstance(payload, OdometryRecord):
        return ODOMETRY
    if isinstance(payload, PoseRecord):
        return pose_types.get(message.topic, POSE_STAMPED)
    if isinstance(payload, HeaderRecord):
        return LASER_SCAN
    return tf_type if message.topic == TF_TOPIC else TF2_MESSAGE


def _to_ros(builder: _Builder, message: Message, msgtype: str) -> object:
    """Return the rosbags message object for a record."""
    payload = message.payload
    if isinstance(payload, OdometryRecord):
        return builder.odometry(payload)
    if isinstance(payload, PoseRecord):
        return builder.pose_message(payload, msgtype)
    if isinstance(payload, HeaderRecord):
        return builder.scan(payload)
    if isinstance(payload, Unreadable):  # no decoded fields to write (a TypeError, as ever)
        raise TypeError('an Unreadable message has nothing to write ({})'.format(payload.reason))
    return builder.tf_message(payload, msgtype)


def _static_qos() -> list:
    """Return /tf_static's offered QoS: reliable, transient local, depth 1 (latched)."""
    from rosbags.interfaces import Qos, QosDurability, QosHistory, QosLiveliness, \
        QosReliability, QosTime
    infinite = QosTime(2147483647, 4294967295)
    return [Qos(QosHistory.KEEP_LAST, 1, QosReliability.RELIABLE, QosDurability.TRANSIENT_LOCAL,
                infinite, infinite, QosLiveliness.AUTOMATIC, infinite, False)]


def _ros2_typestore() -> Any:
    from rosbags.typesys import get_typestore, Stores
    return get_typestore(Stores.ROS2_HUMBLE)


def _ros1_typestore() -> Any:
    from rosbags.typesys import get_types_from_msg, get_typestore, Stores
    typestore = get_typestore(Stores.ROS1_NOETIC)
    for name in TF_TYPES:  # the ROS 1 store has neither
        typestore.register(get_types_from_msg(TF_DEFINITION, name))
    return typestore


def _write_all(writer: Any, builder: '_Builder', messages: Iterable[Message],
               pose_types: Mapping[str, str], tf_type: str,
               connect: Callable[[str, str], Any], serialize: Callable[[Any, str], bytes]) -> int:
    """Write messages with one connection per (topic, type); return how many were written."""
    connections: Dict[Tuple[str, str], object] = {}
    count = 0
    for message in messages:
        msgtype = _message_type(message, pose_types, tf_type)
        connection = connections.get((message.topic, msgtype))
        if connection is None:
            connection = connections[(message.topic, msgtype)] = connect(message.topic,
                                                                         msgtype)
        writer.write(connection, _log_ns(message),
                     serialize(_to_ros(builder, message, msgtype), msgtype))
        count += 1
    return count


def _write_ros2(folder: Path, storage: str, messages: Iterable[Message],
                pose_types: Mapping[str, str], beams: int) -> int:
    """Write a rosbag2 folder (/tf_static offered as transient local, as tf2 sends it)."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    typestore = _ros2_typestore()
    plugin = StoragePlugin.MCAP if storage == 'mcap' else StoragePlugin.SQLITE3
    with Writer(folder, version=Writer.VERSION_LATEST, storage_plugin=plugin) as writer:
        def connect(topic: str, msgtype: str) -> Any:
            qos = _static_qos() if topic == TF_STATIC_TOPIC else ()
            return writer.add_connection(topic, msgtype, typestore=typestore,
                                         offered_qos_profiles=qos)
        return _write_all(writer, _Builder(typestore, ros1=False, beams=beams),
                          messages, pose_types, TF2_MESSAGE, connect, typestore.serialize_cdr)


def _write_ros1(path: Path, messages: Iterable[Message], pose_types: Mapping[str, str],
                beams: int, tf_type: str) -> int:
    """Write a ROS 1 bag (/tf_static latched)."""
    from rosbags.rosbag1 import Writer
    typestore = _ros1_typestore()
    with Writer(path) as writer:
        def connect(topic: str, msgtype: str) -> Any:
            latching = 1 if topic == TF_STATIC_TOPIC else None
            return writer.add_connection(topic, msgtype, typestore=typestore,
                                         latching=latching)
        return _write_all(writer, _Builder(typestore, ros1=True, beams=beams),
                          messages, pose_types, tf_type, connect, typestore.serialize_ros1)


def _log_ns(message: Message) -> int:
    """Return a message's receive time as the log time in nanoseconds."""
    if not math.isfinite(message.received) or message.received < 0:
        raise BagError('receive time {} cannot be a log time'.format(message.received))
    return int(round(message.received * 1e9))


def write_bag(path: Path, messages: Iterable[Message],
              pose_types: Optional[Mapping[str, str]] = None, beams: int = 1080,
              tf_type: str = TF2_MESSAGE, storage: str = 'mcap') -> int:
    """
    Write messages as a recording; return how many were written.

    The suffix picks the format: .mcap or .db3 a single rosbag2 file, .bag a ROS 1 bag
    (tf_type may then be the older tf/msg/tfMessage for /tf), anything else a rosbag2
    folder with the given storage ('mcap' or 'sqlite3'). pose_types maps a pose topic to
    its ROS type (PoseStamped, the default, PoseWithCovarianceStamped or Odometry); pass
    sim.car.POSE_TYPES for a simulated drive. The path must not exist yet.
    """
    path = Path(path)
    pose_types = pose_types or {}
    if path.exists():
        raise BagError('{}: exists already, not overwriting'.format(path))
    if tf_type not in TF_TYPES:
        raise BagError('tf_type must be one of {}'.format(', '.join(TF_TYPES)))
    if path.suffix == '.bag':
        return _write_ros1(path, messages, pose_types, beams, tf_type)
    if tf_type != TF2_MESSAGE:
        raise BagError('{} exists only in ROS 1 bags'.format(tf_type))
    if path.suffix not in STORAGE_BY_SUFFIX:
        return _write_ros2(path, storage, messages, pose_types, beams)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix='.' + path.name) as scratch:
        folder = Path(scratch) / path.stem
        count = _write_ros2(folder, STORAGE_BY_SUFFIX[path.suffix], messages, pose_types, beams)
        shutil.move(str(folder / (path.stem + path.suffix)), str(path))
    return count
