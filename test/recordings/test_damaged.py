# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Broken and hostile input: a partial audit or one clear line, never a traceback or a hang.

Each recording is written here (rosbags, then damaged by hand); the command runs in a
subprocess as a user runs it, with a time bound, so a hang fails the test instead of the run.
"""
import json
import os
from pathlib import Path
import subprocess
import sys
from typing import List, Optional, Tuple

from frame_audit.engine.records import TF_TOPIC
from frame_audit.recordings.write import write_bag
from frame_audit.sim.car import drive, POSE_TYPES
from hypothesis import example, given, HealthCheck, settings, strategies as st
import pytest
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import get_typestore, Stores

T0 = 1_700_000_000
TYPESTORE = get_typestore(Stores.ROS2_HUMBLE)
TF_TYPE = 'tf2_msgs/msg/TFMessage'


def frame_audit(*args: object, timeout: float = 60.0,
                cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    """Run the command as a user would; a hang beyond timeout fails the test."""
    return subprocess.run([sys.executable, '-m', 'frame_audit'] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, PYTHONIOENCODING='utf-8'))


def one_line_error(done: subprocess.CompletedProcess, reason: str) -> bool:
    """Return whether the command exited 2 with one stderr line holding reason."""
    return done.returncode == 2 and done.stderr.count('\n') == 1 and reason in done.stderr \
        and 'Traceback' not in done.stderr


def tf_message(parent: str, child: str, stamp: float, x: float = 0.0) -> bytes:
    types = TYPESTORE.types
    sec = int(stamp)
    message = types[TF_TYPE](transforms=[types['geometry_msgs/msg/TransformStamped'](
        header=types['std_msgs/msg/Header'](
            stamp=types['builtin_interfaces/msg/Time'](sec=sec, nanosec=int((stamp - sec) * 1e9)),
            frame_id=parent),
        child_frame_id=child,
        transform=types['geometry_msgs/msg/Transform'](
            translation=types['geometry_msgs/msg/Vector3'](x=x, y=0.0, z=0.0),
            rotation=types['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0)))])
    return TYPESTORE.serialize_cdr(message, TF_TYPE)


def write_tf(folder: Path, payloads: List[bytes], rate_hz: float = 50.0) -> Path:
    """Write raw /tf payloads, one per period, as a rosbag2 MCAP folder."""
    with Writer(folder, version=Writer.VERSION_LATEST, storage_plugin=StoragePlugin.MCAP) as w:
        connection = w.add_connection(TF_TOPIC, TF_TYPE, typestore=TYPESTORE)
        for index, payload in enumerate(payloads):
            w.write(connection, int((T0 + index / rate_hz) * 1e9), payload)
    return folder


def odom_drive(count: int = 200) -> List[bytes]:
    return [tf_message('odom', 'base_link', T0 + i / 50.0, 0.02 * i) for i in range(count)]


# -- one bad message does not lose the audit ----------------------------------------------

def test_one_undecodable_message_is_skipped_and_reported(tmp_path: Path) -> None:
    payloads = odom_drive()
    payloads[50] = b'\x00\x01\x00\x00garbage'
    bad_utf8 = bytearray(payloads[60])
    at = bad_utf8.index(b'base_link')
    bad_utf8[at:at + 2] = b'\xff\xfe'
    payloads[60] = bytes(bad_utf8)
    done = frame_audit('audit', write_tf(tmp_path / 'one_bad', payloads), '--format', 'json')
    assert done.returncode in (0, 1) and done.stderr == ''
    report = json.loads(done.stdout)
    values = [f for f in report['findings'] if f['check'] == 'transform_values']
    assert len(values) == 1 and values[0]['level'] == 'WARN'
    assert values[0]['message'].startswith('2 messages on /tf could not be read')
    assert values[0]['values']['first_at_s'] == pytest.approx(1.0)
    assert report['frames'][0]['frame'] == 'base_link'  # the rest was audited


def test_a_huge_finite_value_is_taken_and_reported(tmp_path: Path) -> None:
    payloads = odom_drive()
    payloads[100] = tf_message('odom', 'base_link', T0 + 2.0, 1e200)
    done = frame_audit('audit', write_tf(tmp_path / 'huge', payloads), '--format', 'json')
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    report = json.loads(done.stdout)
    assert any(f['message'].startswith('A translation beyond 1,000 km on /tf')
               for f in report['findings'])
    assert not any(f['check'] == 'timing' and 'stopped' in f['message']
                   for f in report['findings'])  # the edge kept arriving, and was kept


def test_stamps_at_zero_are_a_timing_finding(tmp_path: Path) -> None:
    payloads = [tf_message('odom', 'base_link', 0.0, 0.02 * i) for i in range(200)]
    done = frame_audit('audit', write_tf(tmp_path / 'zero', payloads), '--format', 'json')
    report = json.loads(done.stdout)
    timing = [f for f in report['findings'] if f['check'] == 'timing']
    assert timing and 'stamped at time zero or before' in timing[0]['message']


def test_hostile_frame_ids_are_escaped_in_text_and_exact_in_json(tmp_path: Path) -> None:
    hostile = 'evil\x1b[2J\nERROR forged line'
    long_id = 'x' * 300
    payloads = [tf_message('odom', 'base_link', T0 + i / 50.0, 0.02 * i) for i in range(100)]
    payloads += [tf_message('base_link', hostile, T0 + 2.0),
                 tf_message('base_link', long_id, T0 + 2.0)]
    folder = write_tf(tmp_path / 'hostile', payloads)
    text = frame_audit('audit', folder).stdout
    assert '\x1b' not in text and '\\x1b[2J\\nERROR forged line' in text
    assert long_id not in text and '(300 characters)' in text
    assert not any(line.startswith('ERROR forged') for line in text.splitlines())
    report = json.loads(frame_audit('audit', folder, '--format', 'json').stdout)
    assert {hostile, long_id} <= {row['frame'] for row in report['frames']}


# -- refused at once ------------------------------------------------------------------------

def test_a_pipe_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / 'pipe.mcap'
    os.mkfifo(pipe)
    assert one_line_error(frame_audit('audit', pipe, timeout=20), 'not a regular file')
    device = tmp_path / 'zero.mcap'
    device.symlink_to('/dev/zero')
    assert one_line_error(frame_audit('audit', device, timeout=20), 'not a regular file')
    folder = tmp_path / 'folder'
    folder.mkdir()
    os.mkfifo(folder / 'stuck.mcap')
    write_bag(folder / 'drive.mcap', drive(3.0, seed=1), pose_types=POSE_TYPES, beams=16)
    assert frame_audit('audit', folder, timeout=30).returncode == 0  # the pipe is passed over
    lint = frame_audit('lint', folder, timeout=30)  # read at once, the pipe passed over
    assert one_line_error(lint, 'no launch, parameter or robot description files found')


def test_an_mcap_of_only_its_magic(tmp_path: Path) -> None:
    magic = tmp_path / 'magic.mcap'
    magic.write_bytes(b'\x89MCAP0\r\n')
    assert one_line_error(frame_audit('audit', magic), 'cannot read')


@pytest.mark.parametrize('content, reason', [
    (b'\x89PNG\r\n\x1a\n\x00\x00\xff\xfe', 'not a YAML text file'),
    (('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + ''.join(
        '{}: &{} [{}]\n'.format(chr(98 + i), chr(98 + i), ','.join(['*' + chr(97 + i)] * 9))
        for i in range(12))).encode(), 'YAML aliases'),
])
def test_a_config_that_is_binary_or_a_bomb(tmp_path: Path, content: bytes, reason: str) -> None:
    config = tmp_path / 'config.yaml'
    config.write_bytes(content)
    recording = write_tf(tmp_path / 'drive', odom_drive(20))
    assert one_line_error(frame_audit('audit', recording, '--config', config, timeout=20),
                          reason)


# -- random damage --------------------------------------------------------------------------

@pytest.fixture(scope='module')
def small(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp('small')
    recordings = {}
    for suffix in ('.mcap', '.db3'):
        path = folder / ('drive' + suffix)
        write_bag(path, drive(2.0, seed=4), pose_types=POSE_TYPES, beams=8)
        recordings[suffix] = path.read_bytes()
    return recordings


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(suffix=st.sampled_from(['.mcap', '.db3']), damage=st.sampled_from(['cut', 'flip', 'swap']),
       where=st.floats(0.0, 1.0), bits=st.integers(0, 7))
@example(suffix='.db3', damage='flip', where=0.07328535147235261, bits=1)  # a NULL topic type
def test_random_damage_never_gives_a_traceback(tmp_path: Path, small: dict, suffix: str,
                                               damage: str, where: float, bits: int) -> None:
    data = bytearray(small[suffix])
    at = min(int(where * len(data)), len(data) - 2)
    if damage == 'cut':
        data = data[:at]
    elif damage == 'flip':
        data[at] ^= 1 << bits
    else:
        data[at], data[at + 1] = data[at + 1], data[at]
    path = tmp_path / ('damaged' + suffix)
    path.write_bytes(bytes(data))
    done = frame_audit('audit', path, timeout=60)
    assert done.returncode in (0, 1, 2), done.stderr
    assert 'Traceback' not in done.stderr and done.stderr.count('\n') <= 1, done.stderr


# -- recordings cut short -------------------------------------------------------------------

def unfinished_mcap(source: Path, target: Path, chunk_size: int = 64 * 1024) -> int:
    """Copy a recording into an MCAP whose recorder 'died': chunks flushed, no footer."""
    from mcap.writer import Writer as McapWriter
    from rosbags.highlevel import AnyReader

    stream = open(target, 'wb')
    writer = McapWriter(stream, chunk_size=chunk_size)
    writer.start(profile='ros2', library='test')
    channels = {}
    with AnyReader([source]) as reader:
        for connection, log_ns, data in reader.messages():
            if connection.id not in channels:
                schema = writer.register_schema(connection.msgtype, 'ros2msg',
                                                connection.msgdef.data.encode())
                channels[connection.id] = writer.register_channel(connection.topic, 'cdr',
                                                                  schema)
            writer.add_message(channels[connection.id], log_ns, data, log_ns)
    stream.flush()
    stream.close()  # killed: no writer.finish(), so the last chunk, summary and footer are lost
    return target.stat().st_size


def test_a_recording_cut_before_its_footer_is_audited_as_far_as_it_goes(tmp_path: Path) -> None:
    whole = tmp_path / 'whole.mcap'
    messages = list(drive(20.0, seed=5, faults=['pf_rear_axle']))
    write_bag(whole, messages, pose_types=POSE_TYPES, beams=16)
    cut = tmp_path / 'cut.mcap'
    unfinished_mcap(whole, cut)
    done = frame_audit('audit', cut, '--format', 'json')
    assert done.returncode == 1 and done.stderr == ''
    report = json.loads(done.stdout)
    note = [f for f in report['findings'] if f['check'] == 'recording']
    assert len(note) == 1 and note[0]['level'] == 'WARN'
    assert 'has no MCAP footer' in note[0]['message'] and 'mcap recover' in note[0]['message']
    recovered = report['messages']
    assert 0 < recovered < len(messages)
    # the same faults as the whole file up to the cut
    upto = tmp_path / 'upto.mcap'
    write_bag(upto, messages[:recovered], pose_types=POSE_TYPES, beams=16)
    reference = json.loads(frame_audit('audit', upto, '--format', 'json').stdout)

    def faults(r: dict) -> set:
        return {(f['check'], f['level'], tuple(f['frames'])) for f in r['findings']
                if f['check'] != 'recording'}
    assert faults(report) == faults(reference)
    assert ('pose_frame', 'ERROR', ('laser', 'base_link')) in faults(report)


def test_a_file_with_nothing_recoverable_is_one_line(tmp_path: Path) -> None:
    empty = tmp_path / 'empty.mcap'
    empty.write_bytes(b'\x89MCAP0\r\n\x01' + b'\x00' * 4)
    assert one_line_error(frame_audit('audit', empty), 'cannot read')


def test_a_corrupt_zstd_chunk_is_one_line_or_a_partial_audit(tmp_path: Path) -> None:
    whole = tmp_path / 'whole.mcap'
    write_bag(whole, drive(6.0, seed=6), pose_types=POSE_TYPES, beams=16)
    zstd = tmp_path / 'zstd.mcap'
    unfinished_mcap(whole, zstd)  # the mcap library compresses its chunks with zstd
    data = bytearray(zstd.read_bytes())
    for at in range(len(data) // 3, len(data) // 3 + 64):
        data[at] ^= 0x5a
    zstd.write_bytes(bytes(data))
    done = frame_audit('audit', zstd)
    assert done.returncode in (0, 1, 2) and 'Traceback' not in done.stderr
    assert done.stderr.count('\n') <= 1


def test_a_db3_row_with_text_for_data_or_time_is_skipped(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / 'rows.db3'
    write_bag(path, drive(4.0, seed=7), pose_types=POSE_TYPES, beams=16)
    with sqlite3.connect(str(path)) as db:
        db.execute("UPDATE messages SET data = 'not a message' WHERE id = 40")
        db.execute("UPDATE messages SET timestamp = 'soon' WHERE id = 41")
    done = frame_audit('audit', path, '--format', 'json')
    assert done.returncode in (0, 1) and done.stderr == ''
    skipped = [f for f in json.loads(done.stdout)['findings']
               if 'a row without a valid time or data' in f['message']]
    assert sum(f['values']['skipped'] for f in skipped) == 2


def test_a_db3_row_with_a_null_time_is_skipped_and_keeps_the_clock(tmp_path: Path) -> None:
    """A NULL sorts first in ORDER BY timestamp: it must not start the recording at 0 s."""
    import sqlite3

    path = tmp_path / 'nulls.db3'
    write_bag(path, drive(4.0, seed=7), pose_types=POSE_TYPES, beams=16)
    with sqlite3.connect(str(path)) as db:  # a schema without NOT NULL, as a hostile file has
        db.execute('CREATE TABLE loose AS SELECT * FROM messages')
        db.execute('DROP TABLE messages')
        db.execute('ALTER TABLE loose RENAME TO messages')
        db.execute('UPDATE messages SET timestamp = NULL WHERE id IN (40, 41, 42)')
    done = frame_audit('audit', path, '--format', 'json')
    assert done.returncode in (0, 1) and done.stderr == '', done.stderr
    report = json.loads(done.stdout)
    assert report['duration_s'] == pytest.approx(4.0, abs=0.1)
    skipped = [f for f in report['findings']
               if 'a row without a valid time or data' in f['message']]
    assert sum(f['values']['skipped'] for f in skipped) == 3
    assert not any('gap' in f['message'] for f in report['findings'])


# -- random hostile shapes: metadata and message definitions -----------------------------------

def audit_in_process(path: Path) -> Tuple[int, str, str]:
    """Run `frame-audit audit PATH --format json` here (an exception fails the example)."""
    import contextlib
    import io

    from frame_audit.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(['audit', str(path), '--format', 'json'])
    return code, out.getvalue(), err.getvalue()


HOSTILE_VALUES = st.sampled_from([[], {}, -5, 10 ** 30, 'x', None, float('inf'), [[[]]],
                                  {'a': [1]}, 2 ** 64, 'drive.mcap'])
METADATA_KEYS = st.sampled_from([
    ('message_count',), ('duration', 'nanoseconds'), ('starting_time', 'nanoseconds_since_epoch'),
    ('relative_file_paths',), ('version',), ('storage_identifier',), ('compression_mode',),
    ('topics_with_message_count', 0, 'message_count'),
    ('topics_with_message_count', 0, 'topic_metadata', 'offered_qos_profiles'),
    ('topics_with_message_count', 0, 'topic_metadata', 'type'), ('files',)])


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(key=METADATA_KEYS, value=HOSTILE_VALUES)
def test_random_metadata_never_gives_a_traceback(tmp_path: Path, key: tuple,
                                                 value: object) -> None:
    import shutil

    import yaml

    folder = tmp_path / 'drive'
    shutil.rmtree(folder, ignore_errors=True)
    write_tf(folder, odom_drive(30))
    document = yaml.safe_load((folder / 'metadata.yaml').read_text())
    place = document['rosbag2_bagfile_information']
    for step in key[:-1]:
        place = place[step]
    place[key[-1]] = value
    (folder / 'metadata.yaml').write_text(yaml.safe_dump(document))
    code, out, err = audit_in_process(folder)
    assert code in (0, 1, 2) and err.count('\n') <= 1, err
    if code != 2:
        assert json.loads(out)['messages'] == 30  # what the file holds, whatever was said


definition_lines = st.sampled_from([
    'std_msgs/Header header', 'uint32 seq', 'float32 x', 'float64 F=1e999', 'int8 C=-129',
    'uint8[2147483648] cells', 'string<=3 name', 'geometry_msgs/Vector3 v',
    'builtin_interfaces/Time stamp', 'bogus_msgs/Missing m', 'float64[] values',
    '=' * 80 + '\nMSG: std_msgs/Header', '=' * 80 + '\nMSG: geometry_msgs/Vector3',
    'string frame_id', 'unparsable line ((', 'uint64 N=18446744073709551616'])


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=st.lists(definition_lines, min_size=1, max_size=12))
def test_random_definitions_of_another_topic_never_change_the_tf_audit(
        tmp_path: Path, lines: List[str]) -> None:
    from test_hostile import raw_mcap, tf_channel

    healthy = raw_mcap(tmp_path / 'healthy.mcap', [tf_channel(odom_drive(100))])
    hostile = raw_mcap(tmp_path / 'hostile.mcap', [
        ('/other', 'other_msgs/msg/Thing', '\n'.join(lines) + '\n', [(T0 * 10 ** 9, bytes(8))]),
        tf_channel(odom_drive(100))])
    code_a, out_a, _ = audit_in_process(healthy)
    code_b, out_b, err_b = audit_in_process(hostile)
    assert code_a == code_b and err_b == ''
    findings = [json.loads(out)['findings'] for out in (out_a, out_b)]
    assert [(f['check'], f['level'], f['message']) for f in findings[0]] == \
        [(f['check'], f['level'], f['message']) for f in findings[1]]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=st.lists(definition_lines, max_size=6), at=st.integers(0, 40))
def test_random_definitions_of_tf_itself_are_said_never_a_traceback(
        tmp_path: Path, lines: List[str], at: int) -> None:
    from test_hostile import raw_mcap, TF_SCHEMA, tf_channel

    schema = TF_SCHEMA.splitlines()
    schema[at % len(schema):at % len(schema)] = lines
    channel = (TF_TOPIC, TF_TYPE, '\n'.join(schema) + '\n', tf_channel(odom_drive(50))[3])
    code, out, err = audit_in_process(raw_mcap(tmp_path / 'tf.mcap', [channel]))
    assert code in (0, 1) and err == ''
    report = json.loads(out)
    assert report['audited_messages'] == 50
