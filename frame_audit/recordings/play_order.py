# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The order `ros2 bag play` plays a rosbag2 file in, and how far the file strays from it.

rosbag2's SequentialReader reads a folder's files one after another, in metadata.yaml's
order, and asks each storage for received-timestamp order (rosbag2_cpp sequential_reader,
Humble to Rolling). The storages answer so:

- sqlite3 selects `ORDER BY messages.timestamp, messages.id` (sqlite_storage.cpp);
- MCAP reads in the mcap library's LogTimeOrder when any chunk index holds message indexes:
  by log time, ties by the chunk's offset in the file, then the message's offset in its
  chunk (mcap read_job_queue.hpp CompareForward, RecordOffset::operator>); a file without
  message indexes (one whose recorder died before its summary) is read in file order, with
  a warning (mcap_storage.cpp).

A chunk is decompressed when playing reaches its first log time, as the mcap library does:
memory holds the chunks whose spans overlap, not the file. The mcap library's own
log-time reader gives the same order, but compares in Python per message and hides the
positions the disorder note needs. Its chunk reading (read, inflate) is used here; a chunk's
Message records are found in its bytes, and any chunk that scan cannot read as the library
would is left to the library's record parsing.
"""
from dataclasses import dataclass
import heapq
import io
from pathlib import Path
import struct
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple, Type

from .recover import Definition, McapMessage, NO_DEFINITION, RECORD_LIMIT, schema_definition, \
    walk

# rosbag2's order; a damaged row without an integer time (rosbag2 would read it as 0) last
SQLITE_PLAY_ORDER = "ORDER BY typeof(timestamp) != 'integer', timestamp, id"
# per row of the audited topics, the latest log time of any row the file stores before it
SQLITE_STORED_AFTER = (
    'SELECT COUNT(*), MAX(latest - timestamp) FROM (SELECT topic_id, timestamp, MAX(timestamp) '
    'OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS latest FROM '
    "messages WHERE typeof(timestamp) = 'integer') WHERE latest > timestamp AND topic_id IN "
    '({})')


_LENGTH = struct.Struct('<Q')
WRITERS_JITTER_NS = 10_000_000  # 10 ms: a recorder's threads storing out of log-time order


@dataclass
class Disorder:
    """The audited messages a file stores after a message logged later, and by how much."""

    file: str
    count: int = 0
    worst_ns: int = 0
    file_order: bool = False  # read in file order (no message indexes), as ros2 bag play does

    def stored_after(self, log_ns: int, latest_ns: int) -> None:
        """Count a message stored after one logged at latest_ns, if that is later."""
        if latest_ns > log_ns:
            self.count += 1
            self.worst_ns = max(self.worst_ns, latest_ns - log_ns)

    def note(self) -> Optional[str]:
        """
        Return the report's note on the file's order, or None when the order does not matter.

        rosbag2 writes from several threads: an indexed file whose messages are stored up to
        a few milliseconds apart from log-time order is read back in that order by ros2 bag
        play and by every reader; only a file played as stored, or one behind by more, is said.
        """
        if not self.count or not self.file_order and self.worst_ns < WRITERS_JITTER_NS:
            return None
        worst = self.worst_ns * 1e-9  # under a millisecond, "0.000 s" would read as none
        return ('{}: {} message{} of the audited topics {} stored after messages logged up to '
                '{} later; {}'.format(
                    self.file, self.count, '' if self.count == 1 else 's',
                    'is' if self.count == 1 else 'are',
                    '{:.3f} s'.format(worst) if worst >= 0.001 else
                    '{:.3f} ms'.format(worst * 1e3),
                    'the file holds no message indexes, so ros2 bag play plays it in file '
                    'order, and so it was audited' if self.file_order else
                    'audited in log-time order, as ros2 bag play plays them'))


def mcap_in_play_order(path: Path, wanted: Set[str], disorder: Disorder,
                       stop: Callable[[str], None], errors: Tuple[Type[BaseException], ...],
                       orphan: Callable[[int], None]) -> Iterator[McapMessage]:
    """Yield an MCAP file's wanted messages in the order ros2 bag play plays them."""
    from mcap.exceptions import McapError
    from mcap.reader import make_reader

    with open(path, 'rb') as stream:
        try:  # mcap's C++ reader scans a file whose summary it cannot read: file order
            summary = make_reader(stream).get_summary()
        except (McapError, EOFError) + errors:
            summary = None
        chunks = summary.chunk_indexes if summary is not None else []
        if not any(chunk.message_index_length for chunk in chunks):
            disorder.file_order = True
            latest = 0
            for message in walk(path, None, stop, errors, orphan):
                if message[0] in wanted:
                    disorder.stored_after(message[2], latest)
                    yield message
                latest = max(latest, message[2])
            return
        assert summary is not None  # it holds the chunk indexes
        try:
            yield from _log_time_order(stream, summary, wanted, disorder, orphan)
        except (McapError, EOFError) + errors as error:
            stop('a damaged chunk ({}) in {}'.format(type(error).__name__, path.name))


# a play queue entry: log time, chunk offset, place in the chunk (-1: the chunk itself), and
# the chunk's index record, or its run of wanted messages and the next one's place in the run
_Entry = Tuple[int, int, int, Any]
# a message in a chunk's run: log time, place in the chunk, what is yielded
_Placed = Tuple[int, int, McapMessage]
_MESSAGE_HEAD = struct.Struct('<H4xQ')  # a Message record's channel id and log time
MESSAGE, SCHEMA, CHANNEL = 0x05, 0x03, 0x04  # the opcodes a chunk holds


class _Irregular(Exception):
    """A chunk the scan cannot read as the mcap library would: the library reads it."""


def _log_time_order(stream: Any, summary: Any, wanted: Set[str], disorder: Disorder,
                    orphan: Callable[[int], None]) -> Iterator[McapMessage]:
    """
    Yield the wanted messages of the indexed chunks by (log time, chunk offset, offset).

    Each chunk is one run of its messages in that order (a recorder's chunk mostly is
    already): runs are merged, and a message is taken straight from its run while it comes
    before every other chunk's next, so only where chunks overlap in time does it queue.
    """
    schemas: Dict[int, Tuple[str, Definition]] = {
        schema_id: schema_definition(schema) for schema_id, schema in summary.schemas.items()}
    unknown = ('?', NO_DEFINITION)
    channels = {channel_id: (channel.topic,) + schemas.get(channel.schema_id, unknown)
                for channel_id, channel in summary.channels.items()}
    mine = {channel_id for channel_id, (topic, _, _) in channels.items() if topic in wanted}
    by_place = sorted(summary.chunk_indexes, key=lambda chunk: chunk.chunk_start_offset)
    stored_before: Dict[int, int] = {}  # chunk offset -> latest log time stored before it
    latest = 0
    for chunk in by_place:
        stored_before[chunk.chunk_start_offset] = latest
        latest = max(latest, chunk.message_end_time)
    queue: List[_Entry] = [
        (chunk.message_start_time, chunk.chunk_start_offset, -1, chunk) for chunk in by_place
        if chunk.message_index_length and mine & set(chunk.message_index_offsets)]
    heapq.heapify(queue)
    while queue:
        log_ns, offset, place, item = heapq.heappop(queue)
        if place < 0:
            run = _chunk_run(stream, item, offset, channels, mine, disorder,
                             stored_before[offset], orphan)
            if run:
                heapq.heappush(queue, (run[0][0], offset, run[0][1], (run, 0)))
            continue
        run, index = item
        yield run[index][2]
        for index in range(index + 1, len(run)):
            log_ns, place, message = run[index]
            if queue and log_ns >= queue[0][0] and (log_ns, offset, place) > queue[0][:3]:
                heapq.heappush(queue, (log_ns, offset, place, (run, index)))
                break
            yield message


def _chunk_run(stream: Any, chunk_index: Any, offset: int, channels: Dict[int, Tuple[str, str,
               Definition]], mine: Set[int], disorder: Disorder, latest: int,
               orphan: Callable[[int], None]) -> List[_Placed]:
    """Return a chunk's wanted messages in log-time order; count its strays and orphans."""
    from mcap.data_stream import ReadDataStream
    from mcap.records import Chunk

    size = max(chunk_index.chunk_length, chunk_index.uncompressed_size)
    if size > RECORD_LIMIT:
        raise EOFError('a chunk of {} bytes, past the {} MiB a record may hold'.format(
            size, RECORD_LIMIT >> 20))
    stream.seek(offset + 1 + 8)  # past the record's opcode and length
    chunk = Chunk.read(ReadDataStream(stream))
    try:
        records = _scan(chunk)
    except _Irregular:
        records = _library_records(chunk)
    run: List[_Placed] = []
    for place, channel_id, log_ns, data in records:
        known = channels.get(channel_id)
        if known is None:
            orphan(channel_id)
        elif channel_id in mine:
            if latest > log_ns:
                disorder.stored_after(log_ns, latest)
            run.append((log_ns, place, (known[0], known[1], log_ns, data, known[2], None)))
        if log_ns > latest:
            latest = log_ns
    run.sort(key=lambda placed: placed[:2])
    return run


def _scan(chunk: Any) -> List[Tuple[int, int, int, bytes]]:
    """
    Return a chunk's Message records as (place, channel id, log time, data), from its bytes.

    The mcap library parses every record field by field; only the four values are needed.
    Whatever the library would read otherwise (a record past the chunk's end, a Schema or
    Channel record whose fields do not fill it) is _Irregular: the library then reads it.
    """
    from mcap.data_stream import ReadDataStream
    from mcap.exceptions import McapError
    from mcap.records import Channel, Schema
    from mcap.stream_reader import get_chunk_data_stream

    inflated, size = get_chunk_data_stream(chunk)
    data = inflated.read(size)
    records = []
    at, end = 0, len(data)
    while at < end:
        if at + 9 > end:
            raise _Irregular()
        opcode = data[at]
        length, = _LENGTH.unpack_from(data, at + 1)
        body, after = at + 9, at + 9 + length
        if after > end:
            raise _Irregular()
        if opcode == MESSAGE:
            if length < 22:
                raise _Irregular()
            channel_id, log_ns = _MESSAGE_HEAD.unpack_from(data, body)
            records.append((at, channel_id, log_ns, data[body + 22:after]))
        elif opcode in (SCHEMA, CHANNEL):
            fields = ReadDataStream(io.BytesIO(data[body:after]))
            try:
                (Schema if opcode == SCHEMA else Channel).read(fields)
            except (McapError, struct.error, UnicodeDecodeError, ValueError):
                raise _Irregular() from None
            if fields.count != length:
                raise _Irregular()
        at = after
    return records


def _library_records(chunk: Any) -> List[Tuple[int, int, int, bytes]]:
    """Return a chunk's Message records as the mcap library reads them (or its error)."""
    from mcap.records import Message
    from mcap.stream_reader import breakup_chunk

    return [(place, record.channel_id, record.log_time, record.data)
            for place, record in enumerate(breakup_chunk(chunk)) if isinstance(record, Message)]
