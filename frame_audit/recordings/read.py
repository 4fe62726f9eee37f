# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reading recordings into engine records, via rosbags.

Reading yields engine records (engine.records.Message) for the topics the audit uses, in the
order they were recorded (file order: a recording whose clock went back keeps its jump).
Scans are decoded only as far as their header. Messages of a type the audit cannot read are
skipped and counted, never an error; a file that cannot be read at all is a BagError with a
one-line reason.
"""
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from . import BagError
from .recover import CutShort, RawMessage, recover
from ..engine.config import AuditConfig
from ..engine.records import Message, Payload, TF_STATIC_TOPIC, TF_TOPIC, \
    Unreadable
from ..message_types import cdr_header, HEADER_TYPES, ODOMETRY, odometry_record, pose_record, \
    POSE_MESSAGE_TYPES, ros1_header, TF_TYPES, transform_records


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


def _read_errors() -> Tuple[type, ...]:
    """Return the exceptions that mean "this file is damaged", from every layer below."""
    from rosbags.highlevel import AnyReaderError
    from rosbags.rosbag1 import ReaderError as Reader1Error
    from rosbags.rosbag2 import ReaderError as Reader2Error
    from rosbags.serde import SerdeError
    # TypeError, MemoryError and RuntimeError come from damaged files too: an MCAP of only its
    # magic, a summary whose lengths were flipped, a corrupt lz4 chunk, a NULL data column
    errors: List[type] = [AnyReaderError, Reader1Error, Reader2Error, SerdeError, struct.error,
                          OSError, EOFError, ValueError, KeyError, IndexError, AssertionError,
                          TypeError, MemoryError, RuntimeError, ArithmeticError]
    for module, name in (('apsw', 'Error'), ('backports.zstd', 'ZstdError'),
                         ('compression.zstd', 'ZstdError')):
        try:  # rosbags' SQLite binding, and its zstd decompressor
            errors.append(getattr(__import__(module, fromlist=[name]), name))
        except (ImportError, AttributeError):
            pass
    return tuple(errors)


def _first_line(error: BaseException) -> str:
    """Return an error's first line, shortened, or its type's name."""
    text = str(error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    return line if len(line) <= 160 else line[:157] + '...'


def _bag_path(path: Path) -> Path:
    """Return what rosbags should open: the path, or the one storage file in a plain folder."""
    if not path.exists():
        raise BagError('{}: no such file or folder'.format(path))
    if not path.is_dir() and not path.is_file():
        raise BagError('{}: not a regular file or folder (a pipe or a device?), not read'.format(
            path))
    if not path.is_dir():
        if path.suffix not in ('.mcap', '.db3', '.bag'):
            raise BagError('{}: not a recording (expected a rosbag2 folder, .mcap, .db3 or '
                           '.bag)'.format(path))
        return path
    if (path / 'metadata.yaml').is_file():
        return path
    try:
        files = sorted(p for p in path.iterdir()
                       if p.suffix in ('.mcap', '.db3', '.bag') and p.is_file())
    except OSError as error:
        raise BagError('{}: cannot list the folder ({})'.format(
            path, error.strerror or type(error).__name__)) from None
    if len(files) == 1:
        return files[0]
    if not files:
        raise BagError('{}: folder holds no recording (no metadata.yaml, .mcap, .db3 or .bag)'
                       .format(path))
    raise BagError('{}: folder holds {} recordings and no metadata.yaml; name one of them, or '
                   'audit them all with --recursive'.format(path, len(files)))


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
        self.cut: Optional[CutShort] = None  # an MCAP without its footer: what was recovered
        self._errors = _read_errors()
        opened = _bag_path(self.path)
        self._reader = AnyReader([opened], default_typestore=get_typestore(Stores.ROS2_HUMBLE))
        try:
            self._reader.open()
        except self._errors as error:
            self.cut = recover(opened, self._errors) if opened.suffix == '.mcap' else None
            if self.cut is None:
                raise self._damaged(error) from None
        self._typestore = self._reader.typestore if self.cut is None \
            else get_typestore(Stores.ROS2_HUMBLE)
        self._is2 = self.cut is not None or self._reader.is2
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
        return BagError('{}: cannot read ({})'.format(self.path, _first_line(error)))

    def _summary(self) -> RecordingInfo:
        """Return the recording's span and topics from its index (or what was recovered)."""
        if self.cut is not None:
            cut = self.cut
            return RecordingInfo(str(self.path), cut.start_ns * 1e-9,
                                 (cut.end_ns - cut.start_ns) * 1e-9, cut.count, cut.topics,
                                 False)
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
        if self.cut is None and self._reader.stack is not None:
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
        deserialize = self._typestore.deserialize_cdr if self._is2 \
            else self._typestore.deserialize_ros1
        config = self.config
        if topic == config.scan_topic and msgtype in HEADER_TYPES:
            return cdr_header if self._is2 else ros1_header
        if topic in (TF_TOPIC, TF_STATIC_TOPIC) and msgtype in TF_TYPES:
            return lambda raw: transform_records(deserialize(raw, msgtype))
        if topic == config.odom_topic and msgtype == ODOMETRY:
            return lambda raw: odometry_record(deserialize(raw, msgtype))
        if topic in {pose.topic for pose in config.pose_topics} and msgtype in POSE_MESSAGE_TYPES:
            return lambda raw: pose_record(deserialize(raw, msgtype))
        return None

    # -- the messages -------------------------------------------------------------------

    def _use(self, config: Optional[AuditConfig]) -> None:
        """Read by config from now on (which topics, decoded how), and count afresh."""
        if config is not None and config is not self.config:
            self.config = config
            self._decoders = {}
        self.stats = ReadStats()

    def messages(self, config: Optional[AuditConfig] = None) -> Iterator[Message]:
        """
        Yield the audited topics' messages as records, in recorded order.

        A message that cannot be decoded, or whose topic was recorded with a type the audit
        cannot read, is yielded as Unreadable with the reason: counted and reported, while the
        rest of the recording is audited. Each call is a pass of its own from the start, by
        config (default: the one the recording was opened with), and stats count that pass:
        init finds the robot's frames in a first pass and places its poses in a second, over
        one opening of the file.
        """
        self._use(config)
        skipped = self.stats.skipped
        last_ns = 0
        try:
            raw = self.cut.messages(self.audited_topics()) if self.cut is not None \
                else _recorded_order(self._reader, self.audited_topics())
            for topic, msgtype, log_ns, data in raw:
                if log_ns is None:
                    yield Message(last_ns * 1e-9, topic, Unreadable(
                        'a row without a valid time or data'))
                    continue
                last_ns = log_ns
                decode = self._decoder(topic, msgtype)
                if decode is None:
                    skipped[(topic, msgtype)] = skipped.get((topic, msgtype), 0) + 1
                    yield Message(log_ns * 1e-9, topic, Unreadable(
                        'recorded as {}, which the audit does not read on this topic'.format(
                            msgtype)))
                    continue
                self.stats.read += 1
                try:
                    payload = decode(data)
                except self._errors as error:
                    payload = Unreadable('undecodable {} ({})'.format(
                        msgtype.rsplit('/', 1)[-1], _first_line(error)))
                yield Message(log_ns * 1e-9, topic, payload)
        except self._errors as error:
            raise self._damaged(error) from None


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
            # a damaged .db3 may hold NULL or text where a row's time or data should be
            rows = ((cid, log_ns if valid else None, data if valid else b'')
                    for cid, log_ns, data, valid in storage.dbconn.execute(
                        "SELECT topic_id, timestamp, data, typeof(timestamp) = 'integer' AND "
                        "typeof(data) = 'blob' FROM messages WHERE topic_id IN ({}) ORDER BY "
                        'id'.format(','.join(str(int(i)) for i in mine))))
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
