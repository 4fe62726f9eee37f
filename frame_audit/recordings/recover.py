# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What can be read of an MCAP file whose recorder died before it wrote the footer.

A recorder killed by a crash or a dead battery leaves the data section without the summary
and footer that rosbags opens a file by. The mcap library's stream reader walks the records
from the start instead: every complete chunk is recovered, and reading stops where the file
does (or at the first damaged record), saying where.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, Optional, Tuple

RawMessage = Tuple[str, str, Optional[int], bytes]  # topic, type, log time (ns; None: bad row)
RECORD_LIMIT = 1 << 28  # 256 MiB: a longer record in a cut file is damage, not data


@dataclass
class CutShort:
    """The part of a cut MCAP file that can be read: its topics, span and where it stops."""

    path: Path
    topics: Dict[str, Tuple[str, int]] = field(default_factory=dict)  # topic -> type, count
    start_ns: int = 0
    end_ns: int = 0
    count: int = 0
    stopped: str = ''  # why reading stopped, for the report

    def messages(self, wanted: Optional[Iterable[str]] = None) -> Iterator[RawMessage]:
        """Yield the recoverable messages of the wanted topics in file order."""
        wanted = None if wanted is None else set(wanted)
        for topic, msgtype, log_ns, data in _walk(self.path, self._stop):
            if wanted is None or topic in wanted:
                yield topic, msgtype, log_ns, data

    def _stop(self, reason: str) -> None:
        self.stopped = self.stopped or reason


def recover(path: Path, errors: Tuple[type, ...]) -> Optional[CutShort]:
    """Return what can be read of a cut MCAP file, or None when it holds no message at all."""
    cut = CutShort(Path(path))
    for topic, msgtype, log_ns, _ in _walk(cut.path, cut._stop, errors):
        known = cut.topics.get(topic, (msgtype, 0))
        cut.topics[topic] = (known[0], known[1] + 1)
        cut.start_ns = log_ns if not cut.count else min(cut.start_ns, log_ns)
        cut.end_ns = max(cut.end_ns, log_ns)
        cut.count += 1
    return cut if cut.count else None


def _walk(path: Path, stop, errors: Tuple[type, ...] = ()) -> Iterator[RawMessage]:
    """Yield every message record the stream reader reaches, until the file or a record ends."""
    from mcap.exceptions import McapError
    from mcap.records import Channel, Footer, Message, Schema
    from mcap.stream_reader import StreamReader

    schemas: Dict[int, str] = {}
    channels: Dict[int, Tuple[str, str]] = {}
    with open(path, 'rb') as stream:
        reader = StreamReader(stream, record_size_limit=RECORD_LIMIT)
        try:
            for record in reader.records:
                if isinstance(record, Schema):
                    schemas[record.id] = record.name
                elif isinstance(record, Channel):
                    channels[record.id] = (record.topic, schemas.get(record.schema_id, '?'))
                elif isinstance(record, Message) and record.channel_id in channels:
                    topic, msgtype = channels[record.channel_id]
                    yield topic, msgtype, record.log_time, record.data
                elif isinstance(record, Footer):
                    stop('the file ends in its footer, without the closing magic, at byte '
                         '{}'.format(stream.tell()))
                    return
        except (McapError, EOFError) + tuple(errors) as error:
            stop('{} at byte {} of {}'.format(
                'the file ends' if type(error).__name__ == 'EndOfFile'
                else 'a damaged record ({})'.format(type(error).__name__),
                stream.tell(), path.stat().st_size))
