# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What can be read of an MCAP file whose recorder died before it wrote the footer.

A recorder killed by a crash or a dead battery leaves the data section without the summary
and footer that rosbags opens a file by. The mcap library's stream reader walks the records
from the start instead: every complete chunk is recovered, and reading stops where the file
does (or at the first damaged record), saying where. The same walk reads an MCAP file without
message indexes in file order, as ros2 bag play does (play_order), and a message on a channel
id no Channel record names is counted (orphan), never passed over without a word.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, Optional, Tuple, Type

Definition = Tuple[str, str]  # a connection's message definition: format (MSG, IDL, NONE), text
NO_DEFINITION: Definition = ('NONE', '')
# topic, type, log time (ns; None: a row without a valid time), data, the type's definition,
# and who sent it where the file says (a ROS 1 connection's callerid; rosbag2 keeps none)
RawMessage = Tuple[str, str, Optional[int], bytes, Definition, Optional[str]]
# an MCAP Message record's: its log time always valid, and no sender
McapMessage = Tuple[str, str, int, bytes, Definition, None]
RECORD_LIMIT = 1 << 28  # 256 MiB: a longer record in a cut file is damage, not data
AT_FOOTER = 'the file ends in its footer'  # a whole file's walk ends there as it should


@dataclass
class CutShort:
    """The part of a cut MCAP file that can be read: its topics, span and where it stops."""

    path: Path
    topics: Dict[str, Tuple[str, int]] = field(default_factory=dict)  # topic -> type, count
    start_ns: int = 0
    end_ns: int = 0
    count: int = 0
    stopped: str = ''  # why reading stopped, for the report

    def _stop(self, reason: str) -> None:
        self.stopped = self.stopped or reason


def recover(path: Path, errors: Tuple[Type[BaseException], ...]) -> Optional[CutShort]:
    """Return what can be read of a cut MCAP file, or None when it holds no message at all."""
    cut = CutShort(Path(path))
    for topic, msgtype, log_ns, _, _, _ in walk(cut.path, None, cut._stop, errors):
        known = cut.topics.get(topic, (msgtype, 0))
        cut.topics[topic] = (known[0], known[1] + 1)
        cut.start_ns = log_ns if not cut.count else min(cut.start_ns, log_ns)
        cut.end_ns = max(cut.end_ns, log_ns)
        cut.count += 1
    return cut if cut.count else None


def schema_definition(schema: object) -> Tuple[str, Definition]:
    """Return a Schema record's type name and definition, as rosbags names their formats."""
    encoding = getattr(schema, 'encoding', '')
    form = {'ros2msg': 'MSG', 'ros2idl': 'IDL'}.get(encoding, 'NONE')
    text = getattr(schema, 'data', b'').decode('utf-8', 'replace') if form != 'NONE' else ''
    return getattr(schema, 'name', '?'), (form, text)


def walk(path: Path, wanted: Optional[Iterable[str]], stop: Callable[[str], None],
         errors: Tuple[Type[BaseException], ...] = (),
         orphan: Optional[Callable[[int], None]] = None) -> Iterator[McapMessage]:
    """
    Yield the wanted topics' message records in file order, until the file or a record ends.

    wanted None: every topic. orphan is told the channel id of each message whose channel no
    Channel record (before it) names: its topic is unknown, so it cannot be audited.
    """
    from mcap.exceptions import McapError
    from mcap.records import Channel, Footer, Message, Schema
    from mcap.stream_reader import StreamReader

    wanted = None if wanted is None else set(wanted)
    schemas: Dict[int, Tuple[str, Definition]] = {}
    channels: Dict[int, Tuple[str, str, Definition]] = {}
    with open(path, 'rb') as stream:
        reader = StreamReader(stream, record_size_limit=RECORD_LIMIT)
        try:
            for record in reader.records:
                if isinstance(record, Schema):
                    schemas[record.id] = schema_definition(record)
                elif isinstance(record, Channel):
                    name, definition = schemas.get(record.schema_id, ('?', NO_DEFINITION))
                    channels[record.id] = (record.topic, name, definition)
                elif isinstance(record, Message):
                    known = channels.get(record.channel_id)
                    if known is None:
                        if orphan is not None:
                            orphan(record.channel_id)
                    elif wanted is None or known[0] in wanted:
                        yield known[0], known[1], record.log_time, record.data, known[2], None
                elif isinstance(record, Footer):
                    stop('{}, without the closing magic, at byte {}'.format(
                        AT_FOOTER, stream.tell()))
                    return
        except (McapError, EOFError) + tuple(errors) as error:
            stop('{} at byte {} of {}'.format(
                'the file ends' if type(error).__name__ == 'EndOfFile'
                else 'a damaged record ({})'.format(type(error).__name__),
                stream.tell(), path.stat().st_size))
