# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Recordings are read in the order `ros2 bag play` plays them, whatever order the file keeps.

rosbag2 plays a folder file after file; a .db3 by timestamp, then row id; an indexed MCAP by
log time, then chunk offset, then offset in the chunk; an MCAP without message indexes in
file order (frame_audit/recordings/play_order.py names the sources). Each file here is
written message by message in an order of the test's choosing, by rosbags (as write_bag
does) or by the mcap library with chunks as small as the test asks; each out-of-order file
is audited beside its twin holding the same messages in order, and must get its verdicts.
"""
import io
from pathlib import Path
import random
import shutil
import tempfile
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from frame_audit.app.audit import audit_recording
from frame_audit.engine.records import Message, TF_TOPIC, Unreadable
from frame_audit.recordings.read import Recording
from frame_audit.recordings.write import write_bag
from frame_audit.reports.report import RECORDING, Report
from frame_audit.sim.car import drive, POSE_TYPES
from hypothesis import given, settings, strategies as st
import pytest
from robots import drive as robot_drive, Robot
from rosbags.rosbag2 import CompressionFormat, CompressionMode, StoragePlugin, Writer
from test_damaged import T0, tf_message, TF_TYPE, TYPESTORE
import yaml

SECONDS = 20.0

# -- which order, exactly ------------------------------------------------------------------

Logged = List[Tuple[int, bytes]]  # (log time in ns, CDR /tf) in the order the file stores them


def numbered(log_offsets: Sequence[int]) -> Logged:
    """Return /tf messages whose child frame is their place in the file: f0, f1, ..."""
    return [(T0 * 10 ** 9 + offset * 100_000_000, tf_message('odom', 'f{}'.format(place), T0))
            for place, offset in enumerate(log_offsets)]


def write_mcap(path: Path, messages: Logged, chunk_size: int, indexed: bool = True) -> Path:
    """Write an MCAP by the mcap library (as rosbag2 does): chunks of chunk_size bytes."""
    from mcap.writer import IndexType, Writer as McapWriter

    kinds = IndexType.ALL if indexed else IndexType.ALL & ~IndexType.MESSAGE
    with open(path, 'wb') as stream:
        writer = McapWriter(stream, chunk_size=chunk_size, index_types=kinds)
        writer.start(profile='ros2', library='test')
        schema = writer.register_schema(TF_TYPE, 'ros2msg', TYPESTORE.generate_msgdef(
            TF_TYPE, ros_version=2)[0].encode())
        channel = writer.register_channel(TF_TOPIC, 'cdr', schema)
        for log_ns, data in messages:
            writer.add_message(channel, log_ns, data, log_ns)
        writer.finish()
    return path


def write_rosbag2(folder: Path, messages: Logged, storage: StoragePlugin,
                  compressed: bool = False) -> Path:
    """Write a rosbag2 folder by rosbags, one message after another: a .db3 row id each."""
    writer = Writer(folder, version=Writer.VERSION_LATEST, storage_plugin=storage)
    if compressed:  # each message on its own, as `ros2 bag record --compression-mode message`
        writer.set_compression(CompressionMode.MESSAGE, CompressionFormat.ZSTD)
    with writer:
        connection = writer.add_connection(TF_TOPIC, TF_TYPE, typestore=TYPESTORE)
        for log_ns, data in messages:
            writer.write(connection, log_ns, data)
    return folder


def places_read(path: Path) -> List[int]:
    """Return the file places (f<place>) of a recording's /tf messages, in the order read."""
    with Recording(path) as recording:
        return [int(m.payload[0].child[1:]) for m in recording.messages()]


def stored_late(log_offsets: Sequence[int]) -> Tuple[int, float]:
    """Return how many messages the file stores after one logged later, and the worst by (s)."""
    count, worst, latest = 0, 0.0, None
    for offset in log_offsets:
        if latest is not None and latest > offset:
            count, worst = count + 1, max(worst, (latest - offset) * 0.1)
        latest = offset if latest is None else max(latest, offset)
    return count, worst


def order_notes(path: Path) -> List[str]:
    with Recording(path) as recording:
        list(recording.messages())
        return [note for note in recording.notes() if 'stored after' in note]


def said(notes: List[str], log_offsets: Sequence[int]) -> bool:
    """Return whether the notes say exactly the file's disorder (none when it has none)."""
    count, worst = stored_late(log_offsets)
    if not count:
        return notes == []
    return len(notes) == 1 and ' {} message{} of the audited topics'.format(
        count, '' if count == 1 else 's') in notes[0] and \
        'up to {:.3f} s later'.format(worst) in notes[0]


LOG_OFFSETS = st.lists(st.integers(0, 6), min_size=1, max_size=40)  # ties are frequent


@settings(max_examples=60, deadline=None)
@given(log_offsets=LOG_OFFSETS, chunk_size=st.sampled_from([64, 300, 1 << 20]))
def test_an_indexed_mcap_is_read_by_log_time_then_place(log_offsets: List[int],
                                                        chunk_size: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        path = write_mcap(Path(scratch) / 'tf.mcap', numbered(log_offsets), chunk_size)
        assert places_read(path) == sorted(range(len(log_offsets)),
                                           key=lambda place: (log_offsets[place], place))
        assert said(order_notes(path), log_offsets)


@settings(max_examples=40, deadline=None)
@given(log_offsets=LOG_OFFSETS)
def test_an_mcap_without_message_indexes_is_read_in_file_order(log_offsets: List[int]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        path = write_mcap(Path(scratch) / 'tf.mcap', numbered(log_offsets), 300, indexed=False)
        assert places_read(path) == list(range(len(log_offsets)))
        notes = order_notes(path)
        assert said(notes, log_offsets)
        assert all('no message indexes, so ros2 bag play plays it in file order' in note
                   for note in notes)


@settings(max_examples=40, deadline=None)
@given(log_offsets=LOG_OFFSETS,
       storage=st.sampled_from([StoragePlugin.SQLITE3, StoragePlugin.MCAP]))
def test_a_rosbag2_file_is_read_by_log_time_then_place(log_offsets: List[int],
                                                       storage: StoragePlugin) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = write_rosbag2(Path(scratch) / 'tf', numbered(log_offsets), storage)
        assert places_read(folder) == sorted(range(len(log_offsets)),
                                             key=lambda place: (log_offsets[place], place))
        assert said(order_notes(folder), log_offsets)


def split(folder: Path, parts: Sequence[Path]) -> Path:
    """Make one rosbag2 folder of several one-file folders, in that order (a split recording)."""
    infos = [yaml.safe_load((part / 'metadata.yaml').read_text())[
        'rosbag2_bagfile_information'] for part in parts]
    folder.mkdir()
    merged = dict(infos[0], relative_file_paths=[], files=[])
    topics: Dict[str, dict] = {}
    for index, (part, info) in enumerate(zip(parts, infos)):
        (name,) = info['relative_file_paths']
        renamed = '{}_{}{}'.format(folder.name, index, Path(name).suffix)
        shutil.move(str(part / name), str(folder / renamed))
        merged['relative_file_paths'].append(renamed)
        merged['files'] += [dict(entry, path=renamed) for entry in info['files']]
        for entry in info['topics_with_message_count']:
            name = entry['topic_metadata']['name']
            known = topics.setdefault(name, dict(entry, message_count=0))
            known['message_count'] += entry['message_count']
    merged['topics_with_message_count'] = list(topics.values())
    merged['message_count'] = sum(info['message_count'] for info in infos)
    (folder / 'metadata.yaml').write_text(yaml.safe_dump(
        {'rosbag2_bagfile_information': merged}))
    return folder


@pytest.mark.parametrize('storage', [StoragePlugin.SQLITE3, StoragePlugin.MCAP])
def test_a_split_recording_is_played_file_after_file(tmp_path: Path,
                                                     storage: StoragePlugin) -> None:
    """The second file logged before the first one ends: played after it, not merged."""
    first = [4, 5, 6, 7]
    second = [0, 1, 2, 3]
    messages = numbered(first + second)
    folder = split(tmp_path / 'split', [
        write_rosbag2(tmp_path / 'a', messages[:4], storage),
        write_rosbag2(tmp_path / 'b', messages[4:], storage)])
    assert places_read(folder) == list(range(8))
    assert order_notes(folder) == []  # each file keeps its own order


# -- verdicts: an out-of-order file audited as its twin -------------------------------------

def late_scans(messages: List[Message], rng: random.Random) -> List[Message]:
    """Every 0.9 s, store a /scan logged 1.2 s later before the messages logged meanwhile."""
    arranged = list(messages)
    start = arranged[0].received
    at = 0.9
    while start + at + 1.2 < arranged[-1].received:
        scan = next(i for i, m in enumerate(arranged)
                    if m.topic == '/scan' and m.received >= start + at + 1.2)
        place = next(i for i, m in enumerate(arranged) if m.received >= start + at)
        arranged.insert(place, arranged.pop(scan))
        at += 0.9
    return arranged


def shuffled(messages: List[Message], rng: random.Random) -> List[Message]:
    arranged = list(messages)
    rng.shuffle(arranged)
    return arranged


def reversed_order(messages: List[Message], rng: random.Random) -> List[Message]:
    return messages[::-1]


ARRANGEMENTS: Dict[str, Callable[[List[Message], random.Random], List[Message]]] = {
    'late_scans': late_scans, 'shuffled': shuffled, 'reversed': reversed_order}


def verdicts(report: Report) -> Set[Tuple[str, str, Tuple[str, ...]]]:
    """Return the checks' levels and the findings about the robot (not the file)."""
    return {(c.check, c.level, ()) for c in report.checks} | {
        (f.check, f.level, tuple(f.frames)) for f in report.findings if f.check != RECORDING}


def notes(report: Report) -> List[str]:
    return [f.message for f in report.findings if f.check == RECORDING]


def audit_arranged(path: Path, messages: List[Message], how: Optional[str],
                   pose_types: Dict[str, str]) -> Report:
    arranged = ARRANGEMENTS[how](messages, random.Random(7)) if how else messages
    write_bag(path, arranged, pose_types=pose_types, beams=16)
    return audit_recording(path).report()


@pytest.fixture(scope='module')
def car() -> Dict[str, List[Message]]:
    return {'healthy': list(drive(SECONDS, seed=11)),
            'pf_rear_axle': list(drive(SECONDS, seed=11, faults=['pf_rear_axle']))}


@pytest.mark.parametrize('suffix', ['.mcap', '.db3'])
@pytest.mark.parametrize('how', sorted(ARRANGEMENTS))
@pytest.mark.parametrize('state', ['healthy', 'pf_rear_axle'])
def test_a_car_stored_out_of_order_gets_its_twins_verdicts(tmp_path: Path, car, state: str,
                                                           how: str, suffix: str) -> None:
    twin = audit_arranged(tmp_path / ('twin' + suffix), car[state], None, POSE_TYPES)
    stored = audit_arranged(tmp_path / (how + suffix), car[state], how, POSE_TYPES)
    assert verdicts(stored) == verdicts(twin)
    assert notes(twin) == []
    assert len(notes(stored)) == 1 and 'audited in log-time order, as ros2 bag play plays ' \
        'them' in notes(stored)[0]
    if state == 'healthy':
        assert {level for _, level, _ in verdicts(twin)} == {'OK'}
    else:
        assert ('pose_frame', 'ERROR', ()) in verdicts(stored)


def test_a_turtlebot_db3_stored_out_of_order_gets_its_twins_verdicts(tmp_path: Path) -> None:
    """Another robot's habits (AMCL dating map -> odom ahead, 5 Hz scans), in a .db3."""
    robot = Robot()
    messages = robot_drive(robot)
    pose_types = {p.topic: p.msgtype for p in robot.poses}
    twin = audit_arranged(tmp_path / 'twin.db3', messages, None, pose_types)
    stored = audit_arranged(tmp_path / 'shuffled.db3', messages, 'shuffled', pose_types)
    assert verdicts(stored) == verdicts(twin) and notes(twin) == []
    assert len(notes(stored)) == 1


def test_a_split_recording_whose_clock_went_back_is_audited_to_its_end(tmp_path: Path) -> None:
    """Its second file starts over (a restarted clock): played after the first, kept going."""
    messages = list(drive(SECONDS, seed=11, faults=['time_loop']))
    jump = next(i for i in range(1, len(messages))
                if messages[i].received < messages[i - 1].received - 1.0)
    parts = [tmp_path / 'before', tmp_path / 'after']
    for part, some in zip(parts, (messages[:jump], messages[jump:])):
        write_bag(part, some, pose_types=POSE_TYPES, beams=16)
    result = audit_recording(split(tmp_path / 'loop', parts))
    assert result.duration_s == pytest.approx(SECONDS, abs=0.1)
    report = result.report()
    assert notes(report) == []  # each file keeps its order
    jumped = 'time jumped back 10.0 s (from 1700000010.0 to 1700000000.0)'
    assert [f.message.split(':')[0] for f in report.findings] == [jumped]


def zstd_bomb(inflated: int) -> bytes:
    """Return a zstd frame of a few kB that inflates to `inflated` zero bytes."""
    import zstandard

    packer = zstandard.ZstdCompressor().compressobj()
    block = bytes(1 << 20)
    return b''.join(packer.compress(block) for _ in range(inflated >> 20)) + packer.flush()


@pytest.mark.parametrize('storage', [StoragePlugin.SQLITE3, StoragePlugin.MCAP])
def test_a_message_compressed_folder_is_played_by_log_time(tmp_path: Path,
                                                           storage: StoragePlugin) -> None:
    offsets = [3, 1, 2, 0, 5, 4]
    write_rosbag2(tmp_path / 'zstd', numbered(offsets), storage, compressed=True)
    assert places_read(tmp_path / 'zstd') == [3, 1, 2, 0, 5, 4]
    assert said(order_notes(tmp_path / 'zstd'), offsets)


def test_a_compressed_message_that_cannot_be_inflated_is_one_unreadable(tmp_path: Path) -> None:
    """A bomb (past 256 MiB) and a frame that is no zstd: each one message, the rest audited."""
    import sqlite3

    write_rosbag2(tmp_path / 'zstd', numbered(range(6)), StoragePlugin.SQLITE3, compressed=True)
    (db3,) = (tmp_path / 'zstd').glob('*.db3')
    with sqlite3.connect(str(db3)) as database:
        database.execute('UPDATE messages SET data = ? WHERE id = 2', (zstd_bomb(300 << 20),))
        database.execute('UPDATE messages SET data = ? WHERE id = 4', (b'not zstd at all',))
    with Recording(tmp_path / 'zstd') as recording:
        read = list(recording.messages())
    seen = [m.payload.reason if isinstance(m.payload, Unreadable) else m.payload[0].child
            for m in read]
    assert seen[0::2] == ['f0', 'f2', 'f4'] and seen[5] == 'f5'
    assert 'inflates past the 256 MiB' in seen[1] and seen[3].startswith('undecodable')


def test_a_topic_not_audited_never_counts_as_the_audited_ones_disorder(tmp_path: Path) -> None:
    """Review: in an MCAP without message indexes every topic's disorder was counted."""
    from mcap.writer import IndexType, Writer as McapWriter

    path = tmp_path / 'two.mcap'
    with open(path, 'wb') as stream:
        writer = McapWriter(stream, chunk_size=300,
                            index_types=IndexType.ALL & ~IndexType.MESSAGE)
        writer.start(profile='ros2', library='test')
        schema = writer.register_schema(TF_TYPE, 'ros2msg', TYPESTORE.generate_msgdef(
            TF_TYPE, ros_version=2)[0].encode())
        tf_channel = writer.register_channel(TF_TOPIC, 'cdr', schema)
        other = writer.register_channel('/other', 'cdr', schema)
        for log_ns, data in numbered([0, 1, 2, 3]):
            writer.add_message(tf_channel, log_ns, data, log_ns)
            writer.add_message(other, log_ns - 300_000_000, data, log_ns)  # late, not audited
        writer.add_message(tf_channel, T0 * 10 ** 9 + 50_000_000, numbered([0])[0][1],
                           T0 * 10 ** 9)  # one /tf stored after later-logged messages
        writer.finish()
    (note,) = order_notes(path)
    assert ' 1 message of the audited topics is stored after messages logged up to 0.250 s' \
        in note, note


def test_a_recorders_own_sub_10_ms_disorder_is_not_said(tmp_path: Path) -> None:
    """
    rosbag2's threads store a message 0.4 ms after one logged later (round E's PX4 flight).

    Every reader plays an indexed file in log-time order: nothing to say. The twins: stored
    20 ms out of order, and 0.4 ms in a file played as stored (no message indexes), are said.
    """
    def stored(apart_ns: int) -> Logged:
        messages = numbered([0, 1, 2, 3])
        late = (messages[1][0] - apart_ns, messages[2][1])  # logged before the one before it
        return messages[:2] + [late] + messages[3:]
    assert order_notes(write_mcap(tmp_path / 'jitter.mcap', stored(400_000), 1 << 20)) == []
    (note,) = order_notes(write_mcap(tmp_path / 'late.mcap', stored(20_000_000), 1 << 20))
    assert 'stored after messages logged up to 0.020 s later' in note
    (note,) = order_notes(write_mcap(tmp_path / 'as_stored.mcap', stored(400_000), 1 << 20,
                                     indexed=False))
    assert 'up to 0.400 ms later' in note and 'plays it in file order' in note


def test_a_chunk_is_scanned_as_the_mcap_library_reads_it_or_left_to_it(tmp_path: Path) -> None:
    """
    Issue 34: a chunk's Message records are read from its bytes, not record by record.

    Every chunk of a recording (Schema and Channel records inside, as the mcap library's
    writer puts them) gives the library's messages in its order; a chunk cut or garbled
    anywhere is either scanned to the same messages or left to the library (_Irregular),
    whose error the report gives.
    """
    from mcap.records import Chunk
    from mcap.stream_reader import get_chunk_data_stream, StreamReader
    from frame_audit.recordings.play_order import _Irregular, _library_records, _scan

    path = tmp_path / 'drive.mcap'
    write_bag(path, drive(5.0, seed=3), pose_types=POSE_TYPES)
    chunks = [r for r in StreamReader(io.BytesIO(path.read_bytes()), emit_chunks=True).records
              if isinstance(r, Chunk)]
    assert len(chunks) > 1

    def messages(records: List[Tuple[int, int, int, bytes]]) -> List[Tuple[int, int, bytes]]:
        places = [record[0] for record in records]
        assert places == sorted(places)  # the chunk's order, whatever a place counts
        return [record[1:] for record in records]

    rng, scanned, left = random.Random(4), 0, 0
    for chunk in chunks:
        assert messages(_scan(chunk)) == messages(_library_records(chunk))
        stream, size = get_chunk_data_stream(chunk)
        data = stream.read(size)
        for _ in range(30):
            damaged = bytearray(data)
            if rng.random() < 0.5:
                del damaged[rng.randrange(len(damaged)):]
            else:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            cut = Chunk(compression='', data=bytes(damaged), message_start_time=0,
                        message_end_time=0, uncompressed_crc=0,
                        uncompressed_size=len(damaged))
            try:
                found = messages(_scan(cut))
            except _Irregular:
                left += 1
                continue
            scanned += 1
            assert found == messages(_library_records(cut))
    assert scanned > 10 and left > 10
