# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Recordings in and out: rosbag2 (.mcap, .db3, folders) and ROS 1 .bag files, via rosbags.

Reading yields engine records (frame_audit.records.Message) for the topics the audit uses,
in the order they were recorded (file order: a recording whose clock went back keeps its
jump). Scans are decoded only as far as their header. Messages of a type the audit cannot
read are skipped and counted, never an error; a file that cannot be read at all is a
BagError with a one-line reason. Writing turns records back into ROS messages, for the
simulator, the tests and the benchmarks.
"""
import math
import shutil
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

import numpy as np

from .config import AuditConfig
from .message_records import odometry_record, pose_record, split_stamp, transform_records
from .records import HeaderRecord, Message, OdometryRecord, Payload, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord

TF2_MESSAGE = 'tf2_msgs/msg/TFMessage'
TF1_MESSAGE = 'tf/msg/tfMessage'  # ROS 1's older tf/tfMessage
POSE_STAMPED = 'geometry_msgs/msg/PoseStamped'
POSE_WITH_COVARIANCE = 'geometry_msgs/msg/PoseWithCovarianceStamped'
ODOMETRY = 'nav_msgs/msg/Odometry'
LASER_SCAN = 'sensor_msgs/msg/LaserScan'
TF_TYPES = (TF2_MESSAGE, TF1_MESSAGE)
POSE_TYPES = (POSE_STAMPED, POSE_WITH_COVARIANCE, ODOMETRY)
# Scan-like types whose first field is a std_msgs/Header: only the header is decoded.
HEADER_TYPES = (LASER_SCAN, 'sensor_msgs/msg/MultiEchoLaserScan', 'sensor_msgs/msg/PointCloud2')
TF_DEFINITION = 'geometry_msgs/TransformStamped[] transforms'
STORAGE_BY_SUFFIX = {'.mcap': 'mcap', '.db3': 'sqlite3'}


class BagError(Exception):
    """A recording that cannot be read or written, with a one-line reason."""


@dataclass(frozen=True)
class RecordingInfo:
    """What a recording holds: its span on the log clock and its topics."""

    path: str
    start_s: float
    duration_s: float
    message_count: int
    topics: Dict[str, Tuple[str, int]]  # topic -> (message type, count)
    ros1: bool


@dataclass
class ReadStats:
    """What reading passed over: messages of types the audit cannot read, per topic and type."""

    skipped: Dict[Tuple[str, str], int] = field(default_factory=dict)
    read: int = 0


# -- reading ----------------------------------------------------------------------------


def _read_errors() -> Tuple[type, ...]:
    """Return the exceptions that mean "this file is damaged", from every layer below."""
    from rosbags.highlevel import AnyReaderError
    from rosbags.rosbag1 import ReaderError as Reader1Error
    from rosbags.rosbag2 import ReaderError as Reader2Error
    from rosbags.serde import SerdeError
    errors: List[type] = [AnyReaderError, Reader1Error, Reader2Error, SerdeError, struct.error,
                          OSError, EOFError, ValueError, KeyError, IndexError, AssertionError]
    try:
        import apsw  # rosbags' SQLite binding
        errors.append(apsw.Error)
    except ImportError:
        pass
    return tuple(errors)


def _bag_path(path: Path) -> Path:
    """Return what rosbags should open: the path, or the one storage file in a plain folder."""
    if not path.exists():
        raise BagError('{}: no such file or folder'.format(path))
    if not path.is_dir():
        if path.suffix not in ('.mcap', '.db3', '.bag'):
            raise BagError('{}: not a recording (expected a rosbag2 folder, .mcap, .db3 or '
                           '.bag)'.format(path))
        return path
    if (path / 'metadata.yaml').is_file():
        return path
    files = sorted(p for p in path.iterdir() if p.suffix in ('.mcap', '.db3', '.bag'))
    if len(files) == 1:
        return files[0]
    if not files:
        raise BagError('{}: folder holds no recording (no metadata.yaml, .mcap, .db3 or .bag)'
                       .format(path))
    raise BagError('{}: folder holds {} recordings and no metadata.yaml; name one of them'
                   .format(path, len(files)))


def _cdr_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header that starts a CDR message, and nothing after it."""
    little = raw[1] == 1
    sec, nanosec, length = struct.unpack_from('<iII' if little else '>iII', raw, 4)
    frame = raw[16:16 + max(length - 1, 0)].decode('utf-8')
    return HeaderRecord(frame, sec + nanosec * 1e-9)


def _ros1_header(raw: bytes) -> HeaderRecord:
    """Parse the std_msgs/Header (seq, stamp, frame_id) that starts a ROS 1 message."""
    _, sec, nanosec, length = struct.unpack_from('<IIII', raw, 0)
    return HeaderRecord(raw[16:16 + length].decode('utf-8'), sec + nanosec * 1e-9)


Decoder = Callable[[bytes], Payload]


class Recording:
    """An open recording: its summary, and its audited messages as records."""

    def __init__(self, path: Path, config: AuditConfig = AuditConfig()):
        """Open the recording and check it holds transforms; raise BagError if not."""
        from rosbags.highlevel import AnyReader
        from rosbags.typesys import get_typestore, Stores

        self.path = Path(path)
        self.config = config
        self.stats = ReadStats()
        self._errors = _read_errors()
        opened = _bag_path(self.path)
        self._reader = AnyReader([opened], default_typestore=get_typestore(Stores.ROS2_HUMBLE))
        self._guard(self._reader.open)
        try:
            self.info = self._guard(self._summary)
        except BagError:
            self.close()
            raise
        if not {TF_TOPIC, TF_STATIC_TOPIC} & set(self.info.topics):
            self.close()
            raise BagError('{}: no /tf or /tf_static topic, nothing to audit (topics: {})'.format(
                self.path, ', '.join(sorted(self.info.topics)) or 'none'))
        self._decoders: Dict[Tuple[str, str], Optional[Decoder]] = {}

    def _guard(self, action: Callable[[], Any]) -> Any:
        """Run action, turning any damaged-file error into a BagError."""
        try:
            return action()
        except self._errors as error:
            raise self._damaged(error) from None

    def _damaged(self, error: BaseException) -> BagError:
        """Return the BagError for a file that rosbags (or the decoding) could not read."""
        text = str(error).strip()
        reason = text.splitlines()[0] if text else type(error).__name__
        return BagError('{}: cannot read ({})'.format(self.path, reason))

    def _summary(self) -> RecordingInfo:
        """Return the recording's span and topics from its index."""
        reader = self._reader
        topics = {name: (info.msgtype or '?', info.msgcount)
                  for name, info in reader.topics.items()}
        count = reader.message_count
        start = reader.start_time if count else 0
        duration = reader.duration if count else 0
        return RecordingInfo(str(self.path), start * 1e-9, duration * 1e-9, count, topics,
                             not reader.is2)

    def close(self) -> None:
        """Close the files."""
        if self._reader.stack is not None:
            self._reader.close()

    def __enter__(self) -> 'Recording':
        """Return the open recording."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the recording."""
        self.close()

    # -- which topics, decoded how ----------------------------------------------------

    def audited_topics(self) -> Tuple[str, ...]:
        """Return the topics the audit reads."""
        config = self.config
        return (TF_TOPIC, TF_STATIC_TOPIC, config.odom_topic, config.scan_topic) + tuple(
            pose.topic for pose in config.pose_topics)

    def _decoder(self, topic: str, msgtype: str) -> Optional[Decoder]:
        """Return how to turn a raw message of this topic and type into a record, or None."""
        key = (topic, msgtype)
        if key not in self._decoders:
            self._decoders[key] = self._make_decoder(topic, msgtype)
        return self._decoders[key]

    def _make_decoder(self, topic: str, msgtype: str) -> Optional[Decoder]:
        reader = self._reader
        deserialize = reader.typestore.deserialize_cdr if reader.is2 \
            else reader.typestore.deserialize_ros1
        config = self.config
        if topic == config.scan_topic and msgtype in HEADER_TYPES:
            return _cdr_header if reader.is2 else _ros1_header
        if topic in (TF_TOPIC, TF_STATIC_TOPIC) and msgtype in TF_TYPES:
            return lambda raw: transform_records(deserialize(raw, msgtype))
        if topic == config.odom_topic and msgtype == ODOMETRY:
            return lambda raw: odometry_record(deserialize(raw, msgtype))
        if topic in {pose.topic for pose in config.pose_topics} and msgtype in POSE_TYPES:
            return lambda raw: pose_record(deserialize(raw, msgtype))
        return None

    # -- the messages -------------------------------------------------------------------

    def messages(self) -> Iterator[Message]:
        """Yield the audited topics' messages as records, in recorded order."""
        skipped = self.stats.skipped
        try:
            raw = _recorded_order(self._reader, self.audited_topics())
            for topic, msgtype, log_ns, data in raw:
                decode = self._decoder(topic, msgtype)
                if decode is None:
                    skipped[(topic, msgtype)] = skipped.get((topic, msgtype), 0) + 1
                    continue
                self.stats.read += 1
                yield Message(log_ns * 1e-9, topic, decode(data))
        except self._errors as error:
            raise self._damaged(error) from None


RawMessage = Tuple[str, str, int, bytes]  # topic, message type, log time (ns), data


def _recorded_order(reader: Any, wanted: Iterable[str]) -> Iterator[RawMessage]:
    """
    Yield the wanted topics' raw messages in file order where the storage allows.

    rosbags sorts by log time; file order keeps a recording's clock jumping back. ROS 1
    files and message-compressed rosbag2 folders are read in log-time order.
    """
    from rosbags.rosbag2.storage_mcap import McapReader
    from rosbags.rosbag2.storage_sqlite3 import Sqlite3Reader

    wanted = set(wanted)
    storages = _storages(reader)
    if storages is None:
        connections = [c for c in reader.connections if c.topic in wanted]
        for connection, log_ns, data in reader.messages(connections):
            yield connection.topic, connection.msgtype, log_ns, data
        return
    for storage in storages:
        mine = {c.id: c for c in storage.connections if c.topic in wanted}
        if not mine:
            continue
        if isinstance(storage, Sqlite3Reader):
            rows = storage.dbconn.execute(
                'SELECT topic_id, timestamp, data FROM messages WHERE topic_id IN ({}) '
                'ORDER BY id'.format(','.join(str(int(i)) for i in mine)))
        else:
            scan = storage.messages_scan if isinstance(storage, McapReader) else storage.messages
            rows = ((c.id, log_ns, data) for c, log_ns, data in scan(list(mine.values())))
        for cid, log_ns, data in rows:
            connection = mine[cid]
            yield connection.topic, connection.msgtype, log_ns, bytes(data)


def _storages(reader: Any) -> Optional[List[Any]]:
    """Return a rosbag2 recording's storage files, or None to read through rosbags' merge."""
    if not reader.is2:
        return None
    storage = reader.readers[0].storage
    inner = getattr(storage, 'storages', None)
    if inner is None:
        return [storage]
    if storage.metadata.compression_mode == 'message':
        return None
    return list(inner)


def read_messages(path: Path, config: AuditConfig = AuditConfig()) -> Iterator[Message]:
    """Yield a recording's audited messages as records, in recorded order."""
    with Recording(path, config) as recording:
        yield from recording.messages()


def recording_info(path: Path) -> RecordingInfo:
    """Return a recording's start, duration, message count and topics."""
    with Recording(path) as recording:
        return recording.info


# -- writing ----------------------------------------------------------------------------


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
    simulate.POSE_TYPES for a simulated drive. The path must not exist yet.
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
