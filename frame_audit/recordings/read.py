# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reading recordings into engine records, via rosbags.

Reading yields engine records (engine.records.Message) for the topics the audit uses, in the
order the recording is played (play_order: ros2 bag play's order, file after file; a file
that stores messages out of that order is said so in a note).
Scans are decoded only as far as their header. Messages of a type the audit cannot read are
skipped and counted, never an error; a file that cannot be read at all is a BagError with a
one-line reason.

Every message of a file is audited or counted with its reason: an MCAP message on a channel
no Channel record names, or a .db3 row of no topic, becomes a note of the report. Types are
resolved per connection, from that connection's own definition (or the distribution's
where the file holds none): one topic's definitions never change how another is read, and
the definitions of topics the audit does not read are never parsed. What metadata.yaml says
is checked against the files before it is repeated: a count the files do not hold, a file
listed twice, a listed file that is a pipe.
"""
import bz2
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePath
import struct
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple, Type

from . import BagError
from .find import recordings_below
from .play_order import Disorder, mcap_in_play_order, SQLITE_PLAY_ORDER, SQLITE_STORED_AFTER
from .recover import AT_FOOTER, CutShort, Definition, NO_DEFINITION, RawMessage, RECORD_LIMIT, \
    recover
from ..engine.config import AuditConfig
from ..engine.records import CLOCK_TOPIC, CLOCK_TYPE, HeaderRecord, Message, Payload, \
    TF_STATIC_TOPIC, TF_TOPIC, Unreadable
from ..message_types import HEADER_TYPES, InvalidField, ODOMETRY, odometry_record, \
    POSE_MESSAGE_TYPES, pose_record, ros1_header, stamp_seconds, TF_TYPES, transform_records
from ..plain_cdr import cdr_header, NotPlain, PLAIN_READERS

METADATA_LIMIT = 1 << 20  # 1 MiB: rosbag2 writes a few KB; a larger metadata.yaml is not one
DEFINITION_LIMIT = 1 << 18  # 256 KiB: an audited type's whole definition is a few KB
HEADER_SAMPLES = 5  # messages of each other stamped topic whose header frame is read
HEADER = 'std_msgs/msg/Header'
LOG_TIME_LIMIT = 1 << 63  # a ROS time (rcutils_time_point_value_t) is a signed 64-bit count


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
    orphans: Dict[int, int] = field(default_factory=dict)  # MCAP channel id -> messages
    orphan_rows: int = 0  # .db3 rows whose topic_id names no topic
    stopped: str = ''  # an MCAP whose walk stopped at a damaged record: where and why
    disorder: List[Disorder] = field(default_factory=list)  # per file read, in reading order


def resolved(topic: str) -> str:
    """
    Return a recorded topic's name as a player's publishers resolve it: `tf` is `/tf`.

    A recorder that kept a relative name (a MiR's ROS 1 bag, a ROS 2 folder's `name: tf`)
    plays it in the root namespace, where tf2's listeners hear it.
    """
    return topic if not topic or topic.startswith('/') else '/' + topic


def _as_recorded(wanted: Set[str]) -> Set[str]:
    """Return the recorded names that resolve to the wanted topics (`/tf` and `tf`)."""
    return wanted | {topic[1:] for topic in wanted if topic.startswith('/')}


def _read_errors() -> Tuple[Type[BaseException], ...]:
    """Return the exceptions that mean "this file is damaged", from every layer below."""
    from rosbags.rosbag1 import ReaderError as Reader1Error
    from rosbags.rosbag2 import ReaderError as Reader2Error
    from rosbags.serde import SerdeError
    from rosbags.typesys import TypesysError
    # TypeError, MemoryError and RuntimeError come from damaged files too: an MCAP of only its
    # magic, a summary whose lengths were flipped, a corrupt lz4 chunk, a NULL data column;
    # AttributeError from QoS metadata of the wrong shape (durability: [])
    errors: List[Type[BaseException]] = [
        Reader1Error, Reader2Error, SerdeError, TypesysError, struct.error, OSError, EOFError,
        ValueError, KeyError, IndexError, AssertionError, TypeError, MemoryError, RuntimeError,
        ArithmeticError, AttributeError]
    for module, name in (('apsw', 'Error'), ('backports.zstd', 'ZstdError'),
                         ('compression.zstd', 'ZstdError'), ('zstandard', 'ZstdError')):
        try:  # rosbags' SQLite binding, its zstd decompressor, and mcap's
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
        below = recordings_below(path)
        raise BagError('{}: folder holds no recording (no metadata.yaml, .mcap, .db3 or .bag){}'
                       .format(path, '' if not below else '; below it: {}{}: name {}, or audit '
                               'them all with --recursive'.format(
                                   ', '.join(str(p.relative_to(path)) for p in below[:3]),
                                   ' and {} more'.format(len(below) - 3) if len(below) > 3
                                   else '', 'it' if len(below) == 1 else 'one')))
    raise BagError('{}: folder holds {} recordings and no metadata.yaml; name one of them, or '
                   'audit them all with --recursive'.format(path, len(files)))


def _listed_files(folder: Path) -> List[str]:
    """
    Check a rosbag2 folder's metadata.yaml before rosbags reads it; return notes on it.

    A metadata.yaml past METADATA_LIMIT, or one that lists a file that is not a regular file
    (a named pipe would block the reading forever), is refused in one line; a file listed
    more than once is read once, and said so.
    """
    import yaml

    metadata = folder / 'metadata.yaml'
    size = metadata.stat().st_size
    if size > METADATA_LIMIT:
        raise BagError('{}: metadata.yaml is {:.1f} MB, beyond the {} MB a rosbag2 index '
                       'needs: not read'.format(folder, size / 1e6, METADATA_LIMIT >> 20))
    try:
        loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
        document = yaml.load(metadata.read_bytes(), Loader=loader)
        listed = [PurePath(str(name)).name for name in
                  document['rosbag2_bagfile_information']['relative_file_paths']]
    except (yaml.YAMLError, OSError, TypeError, KeyError, ValueError, RecursionError):
        return []  # rosbags says what is wrong with it
    for name in dict.fromkeys(listed):
        path = folder / name
        if path.exists() and not path.is_file():
            raise BagError('{}: metadata.yaml lists {}, which is not a regular file (a pipe or '
                           'a device?): not read'.format(folder, name))
    return ['metadata.yaml lists {} {} times: it was read once'.format(name, times)
            for name, times in Counter(listed).items() if times > 1]


def _bounded(compression: str, size: int) -> Callable[[bytes], bytes]:
    """
    Return a ROS 1 chunk's decompressor that stops past the size its record declares.

    Stream after stream (bz2 and lz4 both read concatenated streams), never more than
    size + 1 bytes out: an 11 KB chunk that would inflate to 2 GB is refused at its size.
    """
    def inflate(data: bytes) -> bytes:
        if compression == 'none':
            out = data
        else:
            if compression == 'bz2':
                new_stream: Callable[[], Any] = bz2.BZ2Decompressor
            else:
                from lz4.frame import LZ4FrameDecompressor
                new_stream = LZ4FrameDecompressor
            out, rest = b'', data
            while rest and len(out) <= size:
                stream = new_stream()
                out += stream.decompress(rest, max_length=size + 1 - len(out))
                rest = stream.unused_data if stream.eof else b''
        if len(out) > size:
            raise ValueError('a {} chunk inflates past the {} bytes its record declares'.format(
                compression, size))
        return out
    return inflate


def _inflate(data: bytes) -> bytes:
    """
    Return a message-compressed rosbag2 message's data, as rosbag2 compressed it (zstd).

    A message that inflates past RECORD_LIMIT is refused there, never held whole.
    """
    import io

    import zstandard
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data),
                                                        read_across_frames=True)
    out = reader.read(RECORD_LIMIT + 1)
    if len(out) > RECORD_LIMIT:
        raise ValueError('a message inflates past the {} MiB a message may hold'.format(
            RECORD_LIMIT >> 20))
    return out


def _ros1_reader(path: Path) -> Any:
    """Return a rosbags ROS 1 reader whose chunks never inflate past their declared size."""
    from rosbags.rosbag1 import Reader
    from rosbags.rosbag1.reader import Header, RecordType

    class BoundedReader(Reader):

        def read_chunk(self) -> Any:
            bio = self.bio
            assert bio is not None  # chunks are read only from an open file, as rosbags asserts
            start = bio.tell()
            chunk = super().read_chunk()
            end = bio.tell()
            bio.seek(start)
            header = Header.read(bio, RecordType.CHUNK)
            bio.seek(end)
            return chunk._replace(decompressor=_bounded(header.get_string('compression'),
                                                        header.get_uint32('size')))

    return BoundedReader(path)


def _definition(connection: Any) -> Definition:
    """Return a rosbags connection's message definition as (format, text)."""
    msgdef = connection.msgdef
    return (msgdef.format.name, msgdef.data) if msgdef.data else NO_DEFINITION


def _sender(connection: Any) -> Optional[str]:
    """
    Return who sent a connection's messages: a ROS 1 connection's callerid, None if unknown.

    rosbag records one connection per publisher of a topic, each with its node's name, so two
    nodes sending one edge are named as the live node names them; rosbag2 keeps no sender.
    """
    callerid = getattr(connection.ext, 'callerid', None)
    return str(callerid) if callerid else None


def _storage_path(storage: Any) -> Any:
    """Return what a storage reads, to tell a file listed twice (or the storage itself)."""
    path = getattr(storage, 'path', None)
    return Path(path).resolve() if path is not None else id(storage)


def connection_types(definition: Definition, msgtype: str, ros2: bool = True) -> Any:
    """
    Return a typestore holding msgtype from one connection's definition, or why there is none.

    Only that definition is registered (on an empty store); without one, the distribution's
    own types. A definition past DEFINITION_LIMIT, or one rosbags cannot parse or register
    (a constant of 1e999), is the one-line reason, never an exception.
    """
    from rosbags.typesys import get_types_from_idl, get_types_from_msg, get_typestore, \
        Stores

    form, text = definition
    if form == 'NONE':
        return get_typestore(Stores.ROS2_HUMBLE if ros2 else Stores.ROS1_NOETIC)
    if len(text) > DEFINITION_LIMIT:
        return 'its message definition is {} KB, beyond the {} KB a {} needs'.format(
            len(text) >> 10, DEFINITION_LIMIT >> 10, msgtype)
    store = get_typestore(Stores.EMPTY)
    try:
        if form == 'MSG':
            types = get_types_from_msg(text, msgtype)
        else:
            types = {}
            separator = '=' * 80 + '\n'
            for part in text.split(separator)[1:] if text.startswith(separator) else [text]:
                types.update(get_types_from_idl(part.split('\n', 1)[1]
                                                if part.startswith('IDL: ') else part))
        store.register(types)
    except _read_errors() + (NameError, SyntaxError, RecursionError) as error:
        return 'its message definition cannot be read ({})'.format(_first_line(error))
    if msgtype not in store.types:
        return 'its message definition does not define {}'.format(msgtype)
    return store


def _standard(types: Any, msgtype: str) -> bool:
    """Return whether a connection defines msgtype, and the types in it, as the standard does."""
    from rosbags.typesys import get_typestore, Stores
    from rosbags.typesys.base import Nodetype

    stock = get_typestore(Stores.ROS2_HUMBLE).fielddefs
    names, seen = [msgtype], set()
    while names:
        name = names.pop()
        seen.add(name)
        fields = stock[name][1]
        if types.fielddefs.get(name, ((), ()))[1] != fields:
            return False
        for _, (kind, desc) in fields:
            inner: Any
            if kind == Nodetype.NAME:
                inner = desc
            elif kind in (Nodetype.ARRAY, Nodetype.SEQUENCE) and desc[0][0] == Nodetype.NAME:
                inner = desc[0][1]
            else:
                continue
            if inner not in seen:
                names.append(inner)
    return True


Decoder = Callable[[bytes], Payload]


class Recording:
    """An open recording: its summary, and its audited messages as records."""

    def __init__(self, path: Path, config: AuditConfig = AuditConfig()):
        """Open the recording and check it holds transforms; raise BagError if not."""
        from rosbags.rosbag2 import Reader

        self.path = Path(path)
        self.config = config
        self.stats = ReadStats()
        self.cut: Optional[CutShort] = None  # an MCAP without its footer: what was recovered
        self.file_notes: List[str] = []  # what is wrong with the file, said in the report
        self._errors = _read_errors()
        opened = _bag_path(self.path)
        self._is2 = opened.suffix != '.bag'
        if opened.is_dir():
            self.file_notes += self._guard(lambda: _listed_files(opened))
        self._reader = self._guard(lambda: Reader(opened) if self._is2 else _ros1_reader(opened))
        try:
            self._reader.open()
        except self._errors as error:
            self.cut = recover(opened, self._errors) if opened.suffix == '.mcap' else None
            if self.cut is None:
                raise self._damaged(error) from None
        # rosbag2 compresses each message of such a folder (zstd), and rosbags leaves it so
        self._compressed = self.cut is None and self._is2 and self._guard(
            lambda: self._reader.compression_mode) == 'message'
        try:
            self._storages = self._guard(self._unique_storages) if self.cut is None else []
            self.info = self._guard(self._summary)
        except BagError:
            self.close()
            raise
        if not {TF_TOPIC, TF_STATIC_TOPIC} & set(self.info.topics):
            self.close()
            raise BagError('{}: no /tf or /tf_static topic, nothing to audit (topics: {})'.format(
                self.path, ', '.join(sorted(self.info.topics)) or 'none'))
        self._decoders: Dict[Tuple[str, str, Definition], Optional[Decoder]] = {}
        self._typestores: Dict[Tuple[str, Definition], Any] = {}

    def _guard(self, action: Callable[[], Any]) -> Any:
        """Run action, turning any damaged-file error into a BagError."""
        try:
            return action()
        except self._errors as error:
            raise self._damaged(error) from None

    def _damaged(self, error: BaseException) -> BagError:
        """Return the BagError for a file that rosbags (or the decoding) could not read."""
        return BagError('{}: cannot read ({})'.format(self.path, _first_line(error)))

    def _unique_storages(self) -> List[Any]:
        """Return a rosbag2 recording's storage files, each once (rosbags reads them so too)."""
        if not self._is2:
            return []
        storage = self._reader.storage
        inner = getattr(storage, 'storages', None)
        if inner is None:
            return [storage]
        unique = list({_storage_path(s): s for s in inner}.values())
        inner[:] = unique
        return unique

    def _summary(self) -> RecordingInfo:
        """Return the recording's span and topics, as its files' own indexes hold them."""
        if self.cut is not None:
            cut = self.cut
            cut_topics: Dict[str, Tuple[str, int]] = {}
            for name, (msgtype, count) in cut.topics.items():
                _count(cut_topics, resolved(name), msgtype, count)
            return RecordingInfo(str(self.path), cut.start_ns * 1e-9,
                                 (cut.end_ns - cut.start_ns) * 1e-9, cut.count, cut_topics,
                                 False)
        if not self._is2:
            reader = self._reader
            topics: Dict[str, Tuple[str, int]] = {}
            for name, info in reader.topics.items():
                _count(topics, resolved(name), info.msgtype or '?', info.msgcount)
            count = reader.message_count
            return RecordingInfo(str(self.path), reader.start_time * 1e-9 if count else 0.0,
                                 reader.duration * 1e-9 if count else 0.0, count, topics, True)
        topics = {}
        for storage in self._storages:
            for connection in storage.connections:  # a damaged row may hold NULLs
                _count(topics, resolved(connection.topic or '?'), connection.msgtype or '?',
                       connection.msgcount or 0)
        held = [s.metadata for s in self._storages if s.metadata.message_count > 0]
        count = sum(m.message_count for m in held)
        said = self._reader.message_count
        if said != count and self._reader.path.is_dir():
            self.file_notes.append('metadata.yaml says {} messages; its files hold {}: the '
                                   "files' count is the one used".format(said, count))
        start = min((m.start_time for m in held), default=0)
        end = max((m.end_time for m in held), default=0)
        return RecordingInfo(str(self.path), start * 1e-9, max(end - start, 0) * 1e-9, count,
                             topics, False)

    def close(self) -> None:
        """Close the files."""
        if self.cut is None and getattr(self._reader, 'is_open', True) \
                and getattr(self._reader, 'bio', True) is not None:
            try:
                self._reader.close()
            except self._errors:  # rosbags clears what metadata.yaml gave it: 'files: x'
                pass

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
        recorded_clock = self.info.topics.get(CLOCK_TOPIC, ('',))[0]
        clock = (CLOCK_TOPIC,) if recorded_clock == CLOCK_TYPE else ()
        return (TF_TOPIC, TF_STATIC_TOPIC, config.odom_topic, config.scan_topic) + tuple(
            pose.topic for pose in config.pose_topics or ()) + clock

    def _decoder(self, topic: str, msgtype: str, definition: Definition) -> Optional[Decoder]:
        """Return how to turn a raw message of this topic and type into a record, or None."""
        key = (topic, msgtype, definition)
        if key not in self._decoders:
            decode = self._make_decoder(topic, msgtype, definition)
            if decode is not None and self._compressed:
                self._decoders[key] = lambda raw: decode(_inflate(raw))
            else:
                self._decoders[key] = decode
        return self._decoders[key]

    def _make_decoder(self, topic: str, msgtype: str,
                      definition: Definition) -> Optional[Decoder]:
        config = self.config
        if topic == config.scan_topic and msgtype in HEADER_TYPES:
            return cdr_header if self._is2 else ros1_header
        record: Callable[[Any], Payload]
        if topic in (TF_TOPIC, TF_STATIC_TOPIC) and msgtype in TF_TYPES:
            record = transform_records
        elif topic == config.odom_topic and msgtype == ODOMETRY:
            record = odometry_record
        elif topic in {p.topic for p in config.pose_topics or ()} \
                and msgtype in POSE_MESSAGE_TYPES:
            record = pose_record
        elif topic == CLOCK_TOPIC and msgtype == CLOCK_TYPE:  # stamps are judged against it
            record = _clock_record
        else:
            return None
        types = self._types(definition, msgtype)
        if isinstance(types, str):
            return lambda raw: Unreadable(types)
        deserialize = types.deserialize_cdr if self._is2 else types.deserialize_ros1
        plain = PLAIN_READERS.get((record, msgtype)) if self._is2 and _standard(types, msgtype) \
            else None
        if plain is None:
            return lambda raw: record(deserialize(raw, msgtype))

        def decode(raw: bytes) -> Payload:
            try:
                return plain(raw)
            except NotPlain:  # rosbags reads it, or says what is wrong with it
                return record(deserialize(raw, msgtype))
        return decode

    def _types(self, definition: Definition, msgtype: str) -> Any:
        """
        Return the typestore that reads a connection of this definition, or why there is none.

        Only this connection's definition is registered (on an empty store), so another
        topic's definitions (a ROS 1 Header with seq, a redefined Vector3) never change how
        this one is read; without a definition, the distribution's own types.
        """
        key = (msgtype, definition)  # tf/tfMessage and tf2_msgs/TFMessage share one text
        if key not in self._typestores:
            self._typestores[key] = connection_types(definition, msgtype, self._is2)
        return self._typestores[key]

    # -- the messages -------------------------------------------------------------------

    def _use(self, config: Optional[AuditConfig]) -> None:
        """Read by config from now on (which topics, decoded how), and count afresh."""
        if config is not None and config is not self.config:
            self.config = config
            self._decoders = {}
        self.stats = ReadStats()

    def messages(self, config: Optional[AuditConfig] = None) -> Iterator[Message]:
        """
        Yield the audited topics' messages as records, in the order the recording is played.

        A message that cannot be decoded, or whose topic was recorded with a type the audit
        cannot read, is yielded as Unreadable with the reason: counted and reported, while the
        rest of the recording is audited; so is one logged at or past 2^63 ns, which no ROS
        time holds. Each call is a pass of its own from the start, by config (default: the
        one the recording was opened with), and stats count that pass: init finds the robot's
        frames in a first pass and places its poses in a second, over one opening of the file.
        """
        self._use(config)
        skipped = self.stats.skipped
        last_ns = 0
        try:
            for topic, msgtype, log_ns, data, definition, sender in self._raw():
                if log_ns is None or log_ns >= LOG_TIME_LIMIT:
                    yield Message(last_ns * 1e-9, topic, Unreadable(
                        'a row without a valid time or data' if log_ns is None else
                        'logged at {} ns, past the 2^63 ns a ROS time holds'.format(log_ns)))
                    continue
                last_ns = log_ns
                decode = self._decoder(topic, msgtype, definition)
                if decode is None:
                    skipped[(topic, msgtype)] = skipped.get((topic, msgtype), 0) + 1
                    yield Message(log_ns * 1e-9, topic, Unreadable(
                        'recorded as {}, which the audit does not read on this topic'.format(
                            msgtype)), sender)
                    continue
                self.stats.read += 1
                try:
                    payload = decode(data)
                except InvalidField as error:
                    payload = Unreadable(str(error))
                except self._errors as error:
                    payload = Unreadable('undecodable {} ({})'.format(
                        msgtype.rsplit('/', 1)[-1], _first_line(error)))
                yield Message(log_ns * 1e-9, topic, payload, sender)
        except self._errors as error:
            raise self._damaged(error) from None

    def notes(self) -> List[str]:
        """Return what the report must say of the file and of the last pass over it."""
        stats = self.stats
        notes = list(self.file_notes)
        for channel, count in sorted(stats.orphans.items()):
            notes.append('{} message{} on MCAP channel id {}, which no Channel record names, '
                         'could not be audited: their topic is unknown'.format(
                             count, '' if count == 1 else 's', channel))
        if stats.orphan_rows:
            notes.append('{} of the messages table name{} no topic (topic_id not in the '
                         'topics table) and could not be audited'.format(
                             '1 row' if stats.orphan_rows == 1 else
                             '{} rows'.format(stats.orphan_rows),
                             's' if stats.orphan_rows == 1 else ''))
        notes += [note for note in map(Disorder.note, stats.disorder) if note]
        if stats.stopped:
            notes.append('reading stopped early ({}); the messages before it were audited'
                         .format(stats.stopped))
        return notes

    def header_samples(self, config: Optional[AuditConfig] = None,
                       per_topic: int = HEADER_SAMPLES) -> Dict[str, Dict[str, int]]:
        """
        Return the frames the first messages of every other stamped topic name in headers.

        An IMU, a GPS or a camera whose frame no transform reaches cannot be placed by any
        node, though the config names none of them (mavros' base_link, an AUV's DVL): their
        first per_topic messages' headers are read, nothing else of them. Run before the
        audit's pass (it counts afresh); a topic that cannot be read is left out. config:
        the one whose topics are audited (default: the recording's).
        """
        self._use(config)
        wanted = self._header_topics()
        if not wanted:
            return {}
        left = {topic: min(per_topic, self.info.topics.get(topic, ('', per_topic))[1])
                for topic in wanted}
        frames: Dict[str, Dict[str, int]] = {}
        read: Counter = Counter()
        parse = (cdr_header if self._is2 else ros1_header)
        try:
            for topic, data in self._first_raw(wanted, per_topic):
                if read[topic] >= per_topic:
                    continue
                read[topic] += 1
                try:
                    frame = parse(_inflate(data) if self._compressed else data).frame_id
                except (InvalidField, struct.error, UnicodeDecodeError) + self._errors:
                    continue
                counts = frames.setdefault(topic, {})
                counts[frame] = counts.get(frame, 0) + 1
                if all(read[topic] >= want for topic, want in left.items()):
                    break
        except self._errors:
            pass  # what was read stands; the audit's own pass says what is damaged
        return frames

    def _first_raw(self, wanted: Set[str], per_topic: int) -> Iterator[Tuple[str, bytes]]:
        """
        Yield (topic, raw message) from the start of each wanted topic, in play order or not.

        A .db3 is asked for each topic's first rows alone: sorting a camera's every row to
        play order would read the whole file for five headers.
        """
        from rosbags.rosbag2.storage_mcap import McapReader

        if not self._is2:
            yield from ((raw[0], raw[3]) for raw in self._raw(wanted))
            return
        for storage in self._storages:
            if isinstance(storage, McapReader):
                assert isinstance(storage.path, Path)  # as _storage_raw holds
                yield from ((raw[0], raw[3]) for raw in self._mcap_raw(storage.path, wanted))
                continue
            for connection in storage.connections:
                if resolved(connection.topic) in wanted:
                    for (data,) in storage.dbconn.execute(
                            'SELECT data FROM messages WHERE topic_id = ? AND typeof(data) = '
                            "'blob' ORDER BY timestamp LIMIT ?", (connection.id, per_topic)):
                        yield resolved(connection.topic), bytes(data)

    def _header_topics(self) -> Set[str]:
        """Return the topics the audit does not read whose type starts with a std_msgs/Header."""
        if self.cut is not None:
            return set()
        audited = set(self.audited_topics())
        topics = set()
        for connection in self._guard(lambda: self._reader.connections):
            if resolved(connection.topic) in audited or connection.msgtype in TF_TYPES:
                continue
            types = self._types(_definition(connection), connection.msgtype)
            fields = [] if isinstance(types, str) else \
                types.fielddefs.get(connection.msgtype, ((), ()))[1]
            if fields and fields[0][0] == 'header' and fields[0][1][1] == HEADER:
                topics.add(resolved(connection.topic))
        return topics

    def _raw(self, wanted: Optional[Set[str]] = None) -> Iterator[RawMessage]:
        """Yield the audited topics' (or wanted's) raw messages in the order played."""
        wanted = set(self.audited_topics()) if wanted is None else wanted
        if self.cut is not None:
            yield from self._mcap_raw(self.cut.path, wanted)
            return
        if not self._is2:  # rosbag plays a ROS 1 bag by time, as rosbags reads it
            connections = [c for c in self._reader.connections if resolved(c.topic) in wanted]
            definitions = {c.id: _definition(c) for c in connections}
            senders = {c.id: _sender(c) for c in connections}
            for connection, log_ns, data in self._reader.messages(connections):
                yield resolved(connection.topic), connection.msgtype, log_ns, data, \
                    definitions[connection.id], senders[connection.id]
            return
        for storage in self._storages:  # one file after another, as ros2 bag play reads them
            yield from self._storage_raw(storage, wanted)

    def _storage_raw(self, storage: Any, wanted: Set[str]) -> Iterator[RawMessage]:
        from rosbags.rosbag2.storage_mcap import McapReader

        # rosbags keeps the Path the recording was opened with (never another RPath)
        assert isinstance(storage.path, Path)
        if isinstance(storage, McapReader):
            yield from self._mcap_raw(storage.path, wanted)
            return
        mine = {c.id: c for c in storage.connections if resolved(c.topic) in wanted}
        definitions = {cid: _definition(c) for cid, c in mine.items()}
        dbconn = storage.dbconn
        assert dbconn is not None  # the recording opened its storages
        orphans = dbconn.execute(
            'SELECT COUNT(*) FROM messages WHERE topic_id NOT IN (SELECT id FROM '
            'topics)').fetchone()
        assert orphans is not None  # COUNT(*) always yields its one row
        self.stats.orphan_rows += orphans[0]
        if not mine:
            return
        topic_ids = ','.join(str(int(i)) for i in mine)
        count, worst = dbconn.execute(SQLITE_STORED_AFTER.format(topic_ids)).fetchone()
        self.stats.disorder.append(Disorder(storage.path.name, count, worst or 0))
        # a damaged .db3 may hold NULL or text where a row's time or data should be
        for cid, log_ns, data, valid in dbconn.execute(
                "SELECT topic_id, timestamp, data, typeof(timestamp) = 'integer' AND "
                "typeof(data) = 'blob' FROM messages WHERE topic_id IN ({}) {}".format(
                    topic_ids, SQLITE_PLAY_ORDER)):
            connection = mine[cid]
            yield resolved(connection.topic), connection.msgtype, log_ns if valid else None, \
                bytes(data) if valid else b'', definitions[cid], None

    def _mcap_raw(self, path: Path, wanted: Set[str]) -> Iterator[RawMessage]:
        disorder = Disorder(path.name)
        self.stats.disorder.append(disorder)
        for raw in mcap_in_play_order(path, _as_recorded(wanted), disorder, self._stopped,
                                      self._errors, self._orphan):
            yield (resolved(raw[0]),) + raw[1:]

    def _orphan(self, channel: int) -> None:
        self.stats.orphans[channel] = self.stats.orphans.get(channel, 0) + 1

    def _stopped(self, reason: str) -> None:
        if self.cut is None and not reason.startswith(AT_FOOTER):  # recover() said where
            self.stats.stopped = self.stats.stopped or reason


def read_messages(path: Path, config: AuditConfig = AuditConfig()) -> Iterator[Message]:
    """Yield a recording's audited messages as records, in the order they are played."""
    with Recording(path, config) as recording:
        yield from recording.messages()


def recording_info(path: Path) -> RecordingInfo:
    """Return a recording's start, duration, message count and topics."""
    with Recording(path) as recording:
        return recording.info


def _count(topics: Dict[str, Tuple[str, int]], topic: str, msgtype: str, count: int) -> None:
    """Add a connection's messages to its topic's: one type, or '?' where two differ."""
    known, counted = topics.get(topic, (msgtype, 0))
    topics[topic] = (known if known == msgtype else '?', counted + count)


def _clock_record(message: Any) -> HeaderRecord:
    """Return a recorded /clock message as a header with its time (the store follows it)."""
    return HeaderRecord('', stamp_seconds(message.clock))
