# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Hostile recordings, round two: nothing dropped without a word, one topic never costs another.

Each file is written here, by rosbags or the mcap library record by record, beside its
healthy twin; the command runs in a subprocess as a user runs it (test_damaged.frame_audit).
A time or memory bound is set only where the code enforces a limit (a chunk's declared size,
metadata.yaml's size, the config's depth).
"""
import bz2
import json
import os
from pathlib import Path
import resource
import subprocess
import sys
from typing import List, Optional, Sequence, Tuple

from frame_audit.engine.records import TF_STATIC_TOPIC, TF_TOPIC
import pytest
from rosbags.typesys import get_typestore, Stores
from test_damaged import frame_audit, odom_drive, one_line_error, T0, tf_message, TF_TYPE, \
    TYPESTORE, write_tf
import yaml

TF_SCHEMA = TYPESTORE.generate_msgdef(TF_TYPE, ros_version=2)[0]


def ros1_types():
    """Return ROS 1 Noetic's types, with tf2_msgs/TFMessage (rosbags' Noetic store has none)."""
    from rosbags.typesys import get_types_from_msg

    store = get_typestore(Stores.ROS1_NOETIC)
    store.register(get_types_from_msg('geometry_msgs/TransformStamped[] transforms', TF_TYPE))
    return store


Channel = Tuple[str, str, str, List[Tuple[int, bytes]]]  # topic, type, definition, messages
LEGACY_HEADER = ('std_msgs/Header header\nfloat64 value\n' + '=' * 80 + '\nMSG: std_msgs/Header\n'
                 'uint32 seq\nbuiltin_interfaces/Time stamp\nstring frame_id\n' + '=' * 80 +
                 '\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n')
SHORT_VECTOR = ('geometry_msgs/Vector3 v\n' + '=' * 80 + '\nMSG: geometry_msgs/Vector3\n'
                'float32 x\nfloat32 y\n')


def raw_mcap(path: Path, channels: Sequence[Channel], orphans: Sequence[Tuple[int, int]] = (),
             qos: Optional[str] = None) -> Path:
    """Write an MCAP record by record: each channel's schema as given, orphans on none."""
    from mcap.writer import Writer

    with open(path, 'wb') as stream:
        writer = Writer(stream)
        writer.start(profile='ros2', library='test')
        for topic, msgtype, definition, messages in channels:
            schema = writer.register_schema(msgtype, 'ros2msg', definition.encode())
            channel = writer.register_channel(topic, 'cdr', schema, metadata={
                'offered_qos_profiles': qos} if qos is not None else {})
            for log_ns, data in messages:
                writer.add_message(channel, log_ns, data, log_ns)
        for channel_id, log_ns in orphans:
            writer.add_message(channel_id, log_ns, tf_message('odom2', 'base_link', T0 + 1.0),
                               log_ns)
        writer.finish()
    return path


def tf_channel(payloads: List[bytes], rate_hz: float = 50.0) -> Channel:
    return (TF_TOPIC, TF_TYPE, TF_SCHEMA,
            [(int((T0 + i / rate_hz) * 1e9), data) for i, data in enumerate(payloads)])


def audit_json(path: Path, *args: object) -> Tuple[int, dict, str]:
    done = frame_audit('audit', path, '--format', 'json', *args)
    assert 'Traceback' not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def check_of(report: dict, check: str) -> dict:
    """Return one check's verdict (level and message) from a JSON report."""
    return next(c for c in report['checks'] if c['check'] == check)


def verdicts(report: dict) -> set:
    return {(f['check'], f['level'], tuple(f['frames'])) for f in report['findings']}


# -- every message audited or counted with its reason --------------------------------------------

def test_a_message_logged_past_2_63_ns_is_counted_not_dropped(tmp_path: Path) -> None:
    second_parent = tf_message('odom2', 'base_link', T0 + 1.0)
    twin = raw_mcap(tmp_path / 'twin.mcap', [tf_channel(odom_drive(100))])
    at_1s = tf_channel(odom_drive(100))
    at_1s[3].append((int((T0 + 1.0) * 1e9), second_parent))
    late = tf_channel(odom_drive(100))
    late[3].append((1 << 63, second_parent))
    code_twin, healthy, _ = audit_json(twin)
    code_1s, fault, _ = audit_json(raw_mcap(tmp_path / 'at_1s.mcap', [at_1s]))
    code_late, hostile, _ = audit_json(raw_mcap(tmp_path / 'late.mcap', [late]))
    assert code_1s == 1 and any(f['check'] == 'parent_uniqueness' and f['level'] == 'ERROR'
                                for f in fault['findings'])
    said = [f for f in hostile['findings'] if 'past the 2^63 ns' in f['message']]
    assert [f['check'] for f in said] == ['transform_values']
    assert said[0]['level'] == 'WARN' and said[0]['values']['skipped'] == 1
    chain = check_of(hostile, 'chain_order')  # map may be in the message it could not read
    assert chain['level'] == 'STALE' and chain['message'].startswith(
        'map is not in the tree as read: 1 message on /tf could not be decoded (1× logged at')
    assert hostile['messages'] == 101
    assert not any('2^63' in f['message'] for f in healthy['findings'])
    # the twin's map is missing (the car's, assumed: a WARN pointing to init); here it may be
    # in the message not read
    assert check_of(healthy, 'chain_order')['level'] == 'WARN' and (code_twin, code_late) == (0, 0)


def test_a_message_on_a_channel_without_a_channel_record_is_counted(tmp_path: Path) -> None:
    twin = raw_mcap(tmp_path / 'twin.mcap', [tf_channel(odom_drive(100))])
    orphan = raw_mcap(tmp_path / 'orphan.mcap', [tf_channel(odom_drive(100))],
                      orphans=[(9, int((T0 + 1.0) * 1e9))] * 3)
    _, healthy, _ = audit_json(twin)
    _, hostile, _ = audit_json(orphan)
    notes = [f for f in hostile['findings'] if 'no Channel record' in f['message']]
    assert len(notes) == 1 and notes[0]['level'] == 'WARN'
    assert notes[0]['message'].startswith('3 messages on MCAP channel id 9')
    assert not any('Channel record' in f['message'] for f in healthy['findings'])
    assert verdicts(hostile) - verdicts(healthy) == {(notes[0]['check'], 'WARN', ())}


def test_a_db3_row_of_no_topic_is_counted(tmp_path: Path) -> None:
    import sqlite3

    from frame_audit.recordings.write import write_bag
    from frame_audit.sim.car import drive, POSE_TYPES

    twin, orphan = tmp_path / 'twin.db3', tmp_path / 'orphan.db3'
    for path in (twin, orphan):
        write_bag(path, drive(3.0, seed=2), pose_types=POSE_TYPES, beams=8)
    with sqlite3.connect(str(orphan)) as db:
        db.execute('UPDATE messages SET topic_id = 99 WHERE id IN (30, 31)')
    _, healthy, _ = audit_json(twin)
    _, hostile, _ = audit_json(orphan)
    said = [f for f in hostile['findings'] if 'name no topic' in f['message']]
    assert len(said) == 1 and said[0]['message'].startswith('2 rows of the messages table')
    assert not any('name no topic' in f['message'] for f in healthy['findings'])


# -- one topic's definitions never change how another is read ------------------------------------

HOSTILE_SCHEMAS = {
    'legacy_header': ('/legacy', 'legacy_msgs/msg/Reading', LEGACY_HEADER),
    'short_vector': ('/short', 'short_msgs/msg/Arrow', SHORT_VECTOR),
    'inf_constant': ('/const', 'const_msgs/msg/Limits', 'float64 F=1e999\nfloat64 value\n'),
    'huge_array': ('/array', 'big_msgs/msg/Grid', 'uint8[2147483648] cells\n'),
    'wide_schema': ('/wide', 'wide_msgs/msg/Row', ''.join(
        'float64 field_{}\n'.format(i) for i in range(100_000))),
}


@pytest.mark.parametrize('name', sorted(HOSTILE_SCHEMAS))
def test_other_topics_definitions_never_change_how_tf_is_read(tmp_path: Path,
                                                              name: str) -> None:
    topic, msgtype, definition = HOSTILE_SCHEMAS[name]
    twin = raw_mcap(tmp_path / 'twin.mcap', [tf_channel(odom_drive(200))])
    beside = raw_mcap(tmp_path / 'beside.mcap', [
        (topic, msgtype, definition, [(int(T0 * 1e9), b'\x00\x01\x00\x00' + bytes(16))]),
        tf_channel(odom_drive(200))])
    code_twin, healthy, _ = audit_json(twin)
    code, hostile, stderr = audit_json(beside)
    assert stderr == '' and code == code_twin
    assert verdicts(hostile) == verdicts(healthy)
    assert hostile['frames'] == healthy['frames']
    assert not any('could not be read' in f['message'] for f in hostile['findings'])


def test_a_copy_beside_the_diagnostics_reads_each_definition_alone(tmp_path: Path) -> None:
    legacy = HOSTILE_SCHEMAS['legacy_header']
    recording = raw_mcap(tmp_path / 'mixed.mcap', [
        legacy[:3] + ([(int(T0 * 1e9), bytes(24))],), tf_channel(odom_drive(100))])
    done = frame_audit('audit', recording, '--diagnostics', tmp_path / 'out.mcap',
                       '--with-recording')
    assert done.returncode == 0 and done.stderr.count('\n') == 1 and 'wrote' in done.stderr
    code, copied, _ = audit_json(tmp_path / 'out')
    assert copied['audited_messages'] == 100 and code == 0
    broken = raw_mcap(tmp_path / 'broken.mcap', [
        HOSTILE_SCHEMAS['inf_constant'][:3] + ([(int(T0 * 1e9), bytes(16))],),
        tf_channel(odom_drive(100))])
    refused = frame_audit('audit', broken, '--diagnostics', tmp_path / 'out2.mcap',
                          '--with-recording')
    assert one_line_error(refused, 'cannot copy /const (const_msgs/msg/Limits)')
    assert not (tmp_path / 'out2').exists()


@pytest.mark.parametrize('definition, reason', [
    (TF_SCHEMA.replace('geometry_msgs/TransformStamped[] transforms',
                       'float64 F=1e999\ngeometry_msgs/TransformStamped[] transforms', 1),
     'its message definition cannot be read'),
    (TF_SCHEMA + '#' * 300_000, 'its message definition is 293 KB'),
])
def test_a_tf_definition_that_cannot_be_used_is_said(tmp_path: Path, definition: str,
                                                     reason: str) -> None:
    channel = (TF_TOPIC, TF_TYPE, definition, tf_channel(odom_drive(100))[3])
    code, report, stderr = audit_json(raw_mcap(tmp_path / 'bad_tf.mcap', [channel]))
    assert stderr == '' and code == 1  # none of the tree could be read: CI must not pass
    said = [f for f in report['findings'] if reason in f['message']]
    assert [(f['check'], f['level']) for f in said] == [('transform_values', 'ERROR')]
    # one finding for the cause: the frames /tf held are unknown (STALE), not ERRORs of their own
    assert [f['check'] for f in report['findings'] if f['level'] == 'ERROR'] == \
        ['transform_values']
    assert said[0]['message'].startswith('100 messages on /tf could not be read')
    chain = check_of(report, 'chain_order')
    assert chain['level'] == 'STALE' and chain['message'].startswith(
        'map, odom, base_link are not in the tree as read: 100 messages on /tf could not be '
        'decoded') and reason in chain['message']


def missing_said(report: dict) -> List[str]:
    """Return what chain_order says of missing frames: its findings, or its STALE verdict."""
    chain = check_of(report, 'chain_order')
    return [f['message'] for f in report['findings']
            if f['check'] == 'chain_order' and 'not in the tree' in f['message']] + (
        [chain['message']] if chain['level'] == 'STALE' else [])


def test_frames_in_tf_that_cannot_be_decoded_are_never_said_unpublished(tmp_path: Path) -> None:
    """/tf whose definition is unusable: its frames are unknown, not absent (issue 24)."""
    unusable = TF_SCHEMA.replace('geometry_msgs/TransformStamped[] transforms',
                                 'float64 F=1e999\ngeometry_msgs/TransformStamped[] transforms', 1)
    _, broken, _ = audit_json(raw_mcap(tmp_path / 'bad_tf.mcap', [
        (TF_TOPIC, TF_TYPE, unusable, tf_channel(odom_drive(100))[3])]))
    said = missing_said(broken)
    assert len(said) == 1 and said[0].startswith('map, odom, base_link are not in the tree as '
                                                 'read: 100 messages on /tf could not be decoded')
    assert "name 'inf' is not defined" in said[0] and 'cannot be known' in said[0]
    assert not any('nothing publishes' in f['message'] or 'frame-audit init' in f['message']
                   for f in broken['findings'])
    assert any('None of /tf could be audited' in f['message'] for f in broken['findings'])
    # the twin, read: odom and base_link are there, and map is truly sent by nothing
    _, healthy, _ = audit_json(raw_mcap(tmp_path / 'twin.mcap', [tf_channel(odom_drive(100))]))
    assert [m.split(':')[0] for m in missing_said(healthy)] == ['map is not in the tree']
    assert 'nothing publishes a transform to or from it' in missing_said(healthy)[0]


def test_a_lidar_edge_only_an_undecodable_tf_static_could_hold_is_unknown(
        tmp_path: Path) -> None:
    """/tf reads, /tf_static's definition is unusable: base_link -> laser unknown, not unsent."""
    def laser_check(tf_static_schema: str) -> dict:
        static = (TF_STATIC_TOPIC, TF_TYPE, tf_static_schema,
                  [(int(T0 * 1e9), tf_message('base_link', 'laser', T0, 0.26))])
        odom = [tf_message('map', 'odom', T0)] + odom_drive(100)
        _, report, _ = audit_json(raw_mcap(tmp_path / 'static.mcap', [tf_channel(odom), static]))
        return next(c for c in report['checks'] if c['check'] == 'laser_offset')

    unusable = TF_SCHEMA.replace('geometry_msgs/TransformStamped[] transforms',
                                 'float64 F=1e999\ngeometry_msgs/TransformStamped[] transforms', 1)
    unknown = laser_check(unusable)
    assert unknown['level'] == 'STALE', unknown
    assert '1 message on /tf_static could not be decoded' in unknown['message']
    assert 'cannot be known' in unknown['message']
    assert 'nothing publishes' not in unknown['message']
    read = laser_check(TF_SCHEMA)  # the twin: the same mount, read and judged (z is off)
    assert read['level'] == 'ERROR', read
    assert 'base_link → laser is (0.2600, 0.0000, 0.0000) m' in read['message']


def test_a_frame_only_undecodable_messages_could_hold_is_unknown(tmp_path: Path) -> None:
    """A TurtleBot's AMCL sends map -> odom; its 20 messages are cut short in the file."""
    def drive(cut: bool) -> Channel:
        payloads = [tf_message('odom', 'base_footprint', T0 + i / 50.0, 0.004 * i)
                    for i in range(250)]
        for i in range(0, 250, 12):  # map -> odom at about 4 Hz, between odometry messages
            localized = tf_message('map', 'odom', T0 + i / 50.0)
            payloads.insert(i + 1, localized[:40] if cut else localized)
        return tf_channel(payloads)

    config = tmp_path / 'tb3.yaml'
    config.write_text(yaml.safe_dump({'frame_audit': {'ros__parameters': {'frames': {
        'base': 'base_footprint', 'laser': '', 'required': ['map', 'odom', 'base_footprint']},
        'pose_topics': []}}}))
    _, cut, _ = audit_json(raw_mcap(tmp_path / 'cut.mcap', [drive(True)]), '--config', config)
    said = missing_said(cut)
    assert len(said) == 1 and said[0].startswith('map is not in the tree as read: 21 messages '
                                                 'on /tf could not be decoded')
    assert 'The rest of /tf was audited (250 messages)' in ' '.join(
        f['message'] for f in cut['findings'])
    code, whole, _ = audit_json(raw_mcap(tmp_path / 'whole.mcap', [drive(False)]), '--config',
                                config)
    assert missing_said(whole) == [] and whole['findings'] == [] and code == 0


def test_a_ros1_bag_mixing_definitions_reads_its_tf(tmp_path: Path) -> None:
    from rosbags.rosbag1 import Writer

    ros1 = ros1_types()
    types = ros1.types

    def tf1(stamp: float, x: float) -> bytes:
        sec = int(stamp)
        message = types[TF_TYPE](transforms=[types['geometry_msgs/msg/TransformStamped'](
            header=types['std_msgs/msg/Header'](
                seq=0, stamp=types['builtin_interfaces/msg/Time'](
                    sec=sec, nanosec=int((stamp - sec) * 1e9)), frame_id='odom'),
            child_frame_id='base_link', transform=types['geometry_msgs/msg/Transform'](
                translation=types['geometry_msgs/msg/Vector3'](x=x, y=0.0, z=0.0),
                rotation=types['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0,
                                                               w=1.0)))])
        return ros1.serialize_ros1(message, TF_TYPE)

    def bag(path: Path, hostile: bool) -> Path:
        with Writer(path) as writer:
            if hostile:  # a node's own Vector3 of float32, and a constant no float holds
                other = writer.add_connection('/short', 'short_msgs/msg/Arrow',
                                              msgdef=SHORT_VECTOR.replace('=' * 80, '=' * 80),
                                              md5sum='0' * 32)
                writer.write(other, int(T0 * 1e9), bytes(8))
            connection = writer.add_connection(TF_TOPIC, TF_TYPE, typestore=ros1)
            for i in range(100):
                writer.write(connection, int((T0 + i / 50) * 1e9), tf1(T0 + i / 50, 0.02 * i))
        return path

    code_twin, healthy, _ = audit_json(bag(tmp_path / 'twin.bag', False))
    code, hostile, stderr = audit_json(bag(tmp_path / 'mixed.bag', True))
    assert stderr == '' and code == code_twin
    assert verdicts(hostile) == verdicts(healthy)
    assert hostile['audited_messages'] == 100


# -- metadata is checked before it is repeated ---------------------------------------------------

def edit_metadata(folder: Path, change) -> Path:
    path = folder / 'metadata.yaml'
    document = yaml.safe_load(path.read_text())
    change(document['rosbag2_bagfile_information'])
    path.write_text(yaml.safe_dump(document))
    return folder


@pytest.mark.parametrize('count', [-5, 10 ** 30])
def test_a_message_count_the_files_do_not_hold_is_not_repeated(tmp_path: Path,
                                                               count: int) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(100))
    _, healthy, _ = audit_json(folder)
    edit_metadata(folder, lambda info: info.update(message_count=count))
    _, hostile, _ = audit_json(folder)
    assert hostile['messages'] == healthy['messages'] == 100
    said = [f for f in hostile['findings'] if 'metadata.yaml says {} messages'.format(count)
            in f['message']]
    assert len(said) == 1 and 'its files hold 100' in said[0]['message']
    assert not any('metadata.yaml' in f['message'] for f in healthy['findings'])


def test_a_file_listed_fifty_times_is_audited_once(tmp_path: Path) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(100))
    _, healthy, _ = audit_json(folder)
    edit_metadata(folder, lambda info: info.update(
        relative_file_paths=info['relative_file_paths'] * 50))
    _, hostile, _ = audit_json(folder)
    assert hostile['messages'] == hostile['audited_messages'] == 100
    assert [f['message'] for f in hostile['findings'] if 'metadata.yaml' in f['message']] == [
        'metadata.yaml lists drive.mcap 50 times: it was read once']
    assert verdicts(hostile) - verdicts(healthy) == {('recording', 'WARN', ())}


def test_a_named_pipe_listed_in_metadata_is_refused_at_once(tmp_path: Path) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(20))
    os.mkfifo(folder / 'stuck.mcap')
    edit_metadata(folder, lambda info: info.update(
        relative_file_paths=info['relative_file_paths'] + ['stuck.mcap']))
    assert one_line_error(frame_audit('audit', folder, timeout=20),
                          'metadata.yaml lists stuck.mcap, which is not a regular file')


def test_a_huge_metadata_yaml_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(20))
    with open(folder / 'metadata.yaml', 'a') as metadata:
        metadata.write(('# ' + 'x' * 98 + '\n') * 340_000)  # 34 MB
    assert one_line_error(frame_audit('audit', folder, timeout=20),
                          'metadata.yaml is 34.')


@pytest.mark.parametrize('where', ['metadata', 'channel'])
def test_qos_of_the_wrong_shape_is_audited_or_one_line(tmp_path: Path, where: str) -> None:
    qos = yaml.safe_dump([{'history': 1, 'depth': 10, 'reliability': 1, 'durability': []}])
    if where == 'channel':
        path = raw_mcap(tmp_path / 'qos.mcap', [tf_channel(odom_drive(50))], qos=qos)
    else:
        path = edit_metadata(write_tf(tmp_path / 'drive', odom_drive(50)), lambda info: [
            topic['topic_metadata'].update(offered_qos_profiles=qos)
            for topic in info['topics_with_message_count']])
    done = frame_audit('audit', path, timeout=30)
    if where == 'channel':  # QoS does not change what was recorded: audited
        assert done.returncode == 0 and done.stderr == ''
        assert '50 messages, 50 of them audited' in done.stdout
    else:  # rosbags refuses the folder's index: one line
        assert one_line_error(done, 'Invalid bag metadata')


# -- a chunk never inflates past what its record declares ----------------------------------------

def limited(megabytes: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return limit


def bomb_bag(path: Path, compression: str, bomb_gb: int) -> Path:
    """Write a ROS 1 bag whose one chunk holds its messages, then gigabytes of zeros more."""
    import lz4.frame
    from rosbags.rosbag1 import Writer

    ros1 = ros1_types()
    writer = Writer(path)
    writer.set_compression(getattr(Writer.CompressionFormat, compression.upper()))
    if bomb_gb:
        zeros = b'\0' * 100_000_000
        extra = (bz2.compress(zeros) if compression == 'bz2'
                 else lz4.frame.compress(zeros)) * (10 * bomb_gb)
        honest = writer.compressor
        writer.compressor = lambda data: honest(data) + extra
    with writer:
        connection = writer.add_connection(TF_TOPIC, TF_TYPE, typestore=ros1)
        types = ros1.types
        for i in range(50):
            message = types[TF_TYPE](transforms=[])
            writer.write(connection, int((T0 + i / 50) * 1e9), ros1.serialize_ros1(message,
                                                                                   TF_TYPE))
    return path


@pytest.mark.parametrize('compression', ['bz2', 'lz4'])
def test_a_chunk_bomb_is_refused_at_its_declared_size(tmp_path: Path, compression: str) -> None:
    command = [sys.executable, '-m', 'frame_audit', 'audit']
    healthy = subprocess.run(command + [str(bomb_bag(tmp_path / 'twin.bag', compression, 0))],
                             capture_output=True, text=True, timeout=60,
                             preexec_fn=limited(1536))
    assert healthy.returncode in (0, 1) and healthy.stderr == '', healthy.stderr
    bomb = bomb_bag(tmp_path / 'bomb.bag', compression, 2)
    assert bomb.stat().st_size < 10_000_000
    done = subprocess.run(command + [str(bomb)], capture_output=True, text=True, timeout=60,
                          preexec_fn=limited(1536))
    assert one_line_error(done, 'chunk inflates past the'), done.stderr


# -- stamps --------------------------------------------------------------------------------------

def test_a_nanosec_of_a_billion_or_more_is_an_invalid_field(tmp_path: Path) -> None:
    payloads = odom_drive(100)
    types = TYPESTORE.types
    bad = TYPESTORE.deserialize_cdr(payloads[50], TF_TYPE)
    bad.transforms[0].header.stamp = types['builtin_interfaces/msg/Time'](
        sec=int(T0) + 1, nanosec=1_500_000_000)
    payloads[50] = TYPESTORE.serialize_cdr(bad, TF_TYPE)
    _, healthy, _ = audit_json(write_tf(tmp_path / 'twin', odom_drive(100)))
    _, hostile, _ = audit_json(write_tf(tmp_path / 'nanosec', payloads))
    said = [f for f in hostile['findings'] if 'an invalid field' in f['message']
            and f['check'] == 'transform_values']
    assert len(said) == 1 and 'header.stamp.nanosec is 1500000000' in said[0]['message']
    assert not any('sync' in f['message'] for f in hostile['findings'])
    assert not any('invalid field' in f['message'] for f in healthy['findings'])


# -- the tree picture never replaces the verdict -------------------------------------------------

HOSTILE_IDS = ['laser\\', 'x' * 1_000_000, '<b>html</b>', 'quote"inside', 'a\\"b', '\\',
               '<a>(<b>', '<x>', 'a:b', 'port:n', 'läser', 'tab\tid']


@pytest.mark.parametrize('suffix', ['.svg', '.dot', '.png'])
def test_hostile_ids_are_escaped_and_shortened_for_dot(tmp_path: Path, suffix: str) -> None:
    payloads = odom_drive(100) + [tf_message('base_link', frame, T0 + 2.0)
                                  for frame in HOSTILE_IDS]
    folder = write_tf(tmp_path / 'ids', payloads)
    plain = frame_audit('audit', folder)
    picture = tmp_path / ('tree' + suffix)
    drawn = frame_audit('audit', folder, '--tree', picture)
    assert drawn.returncode == plain.returncode and drawn.stderr == '', drawn.stderr
    assert picture.stat().st_size < (1_000_000 if suffix == '.png' else 100_000)  # shortened
    if suffix == '.dot':
        checked = subprocess.run(['dot', '-Tplain', str(picture)], capture_output=True,
                                 text=True, timeout=30)
        assert checked.returncode == 0 and not checked.stderr, checked.stderr
        assert '(1000000 characters)' in picture.read_text()
        # DOT took every id as one node of its own: `<...>` is no HTML label, `a:b` no port
        nodes = [line.split()[1].strip('"') for line in checked.stdout.splitlines()
                 if line.startswith('node ')]
        numbered = {'#{}'.format(n) for n in range(len(HOSTILE_IDS))}
        # the car's map and laser are drawn as missing; every hostile id is a node by number
        assert sorted(nodes) == sorted(['odom', 'base_link', 'map', 'laser', *numbered]), nodes


def test_a_picture_that_cannot_be_drawn_is_one_warning_line(tmp_path: Path) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(100))
    plain = frame_audit('audit', folder, '--fail-on', 'warn')
    assert plain.returncode == 1  # the car's map and LiDAR are missing: WARNs, no --config
    nowhere = frame_audit('audit', folder, '--fail-on', 'warn', '--tree',
                          tmp_path / 'no' / 'such' / 'tree.svg')
    no_graphviz = subprocess.run(
        [sys.executable, '-m', 'frame_audit', 'audit', str(folder), '--fail-on', 'warn', '--tree',
         str(tmp_path / 'tree.png')], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PATH=str(Path(sys.executable).parent)))
    for done in (nowhere, no_graphviz):
        assert done.returncode == plain.returncode and done.stdout == plain.stdout
        assert done.stderr.count('\n') == 1 and done.stderr.startswith(
            'frame-audit: warning: ') and 'Traceback' not in done.stderr
    assert 'Graphviz (the dot program) is not installed' in no_graphviz.stderr
    assert not (tmp_path / 'tree.png').exists()


# -- arguments -----------------------------------------------------------------------------------

def test_path_components_past_255_bytes_are_one_line_in_every_command(tmp_path: Path) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(20))
    long = str(tmp_path / ('n' * 300))
    for args in (['audit', long], ['audit', long, '--recursive'],
                 ['audit', folder, '--config', long], ['audit', folder, '--diagnostics', long],
                 ['audit', folder, '--tree', long + '.svg'], ['init', long],
                 ['diff', long, folder], ['diff', folder, long], ['lint', long],
                 ['simulate', long + '.mcap', '--duration', '1']):
        assert one_line_error(frame_audit(*args, timeout=30), 'a file name holds at most 255'), \
            args


@pytest.mark.parametrize('option', ['--tolerance-m', '--tolerance-rad', '--rate-tolerance'])
def test_diff_refuses_a_negative_tolerance(tmp_path: Path, option: str) -> None:
    folder = write_tf(tmp_path / 'drive', odom_drive(50))
    assert frame_audit('diff', folder, folder, option, '0.01').returncode == 0
    for value in ('-0.001', 'nan', 'inf'):
        assert one_line_error(frame_audit('diff', folder, folder, option + '=' + value),
                              'a tolerance is a finite number of at least 0')


def test_jobs_are_capped_and_a_negative_count_refused(tmp_path: Path) -> None:
    first = write_tf(tmp_path / 'one', odom_drive(20))
    second = write_tf(tmp_path / 'two', odom_drive(20))
    capped = frame_audit('audit', first, second, '--jobs', '1000')
    cores = os.cpu_count() or 1
    assert capped.returncode == 0 and capped.stderr.count('\n') == 1
    assert capped.stderr.startswith('frame-audit: --jobs 1000 is more than this machine runs at '
                                    'once: {} processes'.format(min(32, 2 * cores)))
    assert capped.stdout == frame_audit('audit', first, second, '--jobs', '2').stdout
    assert one_line_error(frame_audit('audit', first, second, '--jobs', '-3'),
                          '--jobs -3: give a number of processes')


# -- config bounds -------------------------------------------------------------------------------

@pytest.mark.parametrize('value, reason', [
    ('1' + '0' * 400, 'laser_offset.tolerance_m: expected a number, got 1000'),
    ('1.0e+400', 'laser_offset.tolerance_m: expected a number, got inf'),
    ('1' * 5000, 'a value cannot be read'),  # past Python's 4,300 digits
])
def test_a_config_number_past_a_float_is_one_line(tmp_path: Path, value: str,
                                                  reason: str) -> None:
    config = tmp_path / 'config.yaml'
    config.write_text('frame_audit:\n  ros__parameters:\n    laser_offset:\n      tolerance_m: '
                      '{}\n'.format(value))
    done = frame_audit('audit', write_tf(tmp_path / 'drive', odom_drive(20)), '--config', config)
    assert one_line_error(done, reason)
    assert len(done.stderr) < 300


@pytest.mark.parametrize('nesting', ['flow', 'block'])
def test_a_config_nested_50000_deep_is_one_line_at_once(tmp_path: Path, nesting: str) -> None:
    config = tmp_path / 'config.yaml'
    if nesting == 'flow':
        config.write_text('frame_audit: ' + '[' * 50_000 + ']' * 50_000 + '\n')
    else:
        config.write_text(''.join('{}k:\n'.format(' ' * i) for i in range(3000)))
    done = frame_audit('audit', write_tf(tmp_path / 'drive', odom_drive(20)), '--config', config,
                       timeout=20)
    assert one_line_error(done, 'config.yaml: nested more than 64 levels deep')
    assert 'cannot be read' not in done.stderr


def svg_size(source: str) -> Tuple[float, float]:
    """Return the width and height (pt) dot lays a DOT source out at."""
    import re

    svg = subprocess.run(['dot', '-Tsvg'], input=source, capture_output=True, text=True,
                         timeout=60).stdout
    width, height = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()
    return float(width), float(height)


def test_a_wide_tree_is_laid_out_to_be_read_on_a_screen(tmp_path: Path) -> None:
    from robots import Robot, record

    sensors = ['bump_front_center', 'bump_front_left', 'bump_front_right', 'bump_left',
               'bump_right', 'button_1', 'button_2', 'button_power', 'cliff_front_left',
               'cliff_front_right', 'cliff_side_left', 'cliff_side_right', 'front_caster_link',
               'imu_link', 'ir_intensity_front_center_left', 'ir_intensity_front_center_right',
               'ir_intensity_front_left', 'ir_intensity_front_right', 'ir_intensity_left',
               'ir_intensity_right', 'ir_intensity_side_left', 'ir_omni', 'left_wheel',
               'mouse', 'right_wheel', 'rplidar_link']
    cameras = ['oakd_lite_{}_camera_frame'.format(side) for side in ('left', 'right', 'rgb')]
    body = (('base_footprint', 'base_link', (0.0, 0.0, 0.01), 0.0),) + tuple(
        ('base_link', name, (0.01 * i, 0.0, 0.1), 0.0) for i, name in enumerate(sensors)) + (
        ('base_link', 'oakd_lite_camera_bracket', (0.1, 0.0, 0.2), 0.0),
        ('oakd_lite_camera_bracket', 'oakd_lite_link', (0.0, 0.0, 0.05), 0.0),
        ('oakd_lite_link', 'oakd_lite_imu_frame', (0.0, 0.0, 0.0), 0.0)) + tuple(
        ('oakd_lite_link', name, (0.0, 0.01 * i, 0.0), 0.0) for i, name in enumerate(cameras)) \
        + tuple((name, name.replace('_frame', '_optical_frame'), (0.0, 0.0, 0.0), 0.0)
                for name in cameras)
    wide = Robot(name='turtlebot4', map_frame=None, body=body, scan_frame='rplidar_link',
                 seconds=3.0)
    narrow = Robot(name='turtlebot3', seconds=3.0)
    sizes = {}
    for robot in (wide, narrow):
        picture = tmp_path / (robot.name + '.dot')
        done = frame_audit('audit', record(tmp_path, robot), '--tree', picture)
        assert done.stderr == '' and done.returncode in (0, 1)
        source = picture.read_text()
        sizes[robot.name] = (svg_size(source), 'rankdir=LR' in source,
                             svg_size(source.replace('rankdir=LR', 'rankdir=TB')))
    assert len(wide.frames()) == 38
    # Bounds relative to the same tree laid out top to bottom: dot's sizes follow the fonts
    # the machine has (1,573 pt wide here, 1,603 pt on CI's machine, 4,048 pt top to bottom).
    (width, height), across, (down_width, _) = sizes['turtlebot4']
    assert across and max(width, height) <= 0.45 * down_width, sizes
    assert max(width, height) <= 1.25 * min(width, height), sizes  # near square, to fit a screen
    (width, height), across, _ = sizes['turtlebot3']
    assert not across and width <= 1.25 * height, sizes  # a narrow tree stays top to bottom


def test_no_output_onto_a_file_of_the_recordings_folder(tmp_path: Path) -> None:
    """Issue 33: an output onto a rosbag2 folder's metadata.yaml or .mcap destroys it too."""
    folder = write_tf(tmp_path / 'drive', odom_drive(100))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    (tmp_path / 'hard.yaml').hardlink_to(folder / 'metadata.yaml')
    (tmp_path / 'soft.yaml').symlink_to(folder / 'metadata.yaml')
    for output in [folder / name for name in sorted(before)] + [tmp_path / 'hard.yaml',
                                                                tmp_path / 'soft.yaml']:
        done = frame_audit('audit', folder, '--output', output)
        assert one_line_error(done, 'is a file of the input'), done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    beside = frame_audit('audit', folder, '--output', folder / 'report.txt')  # a new file
    assert beside.returncode == 0 and (folder / 'report.txt').is_file(), beside.stderr


def test_markdown_shows_hostile_ids_as_written_never_as_markup(tmp_path: Path) -> None:
    """Issue 33: an id in markdown must never become emphasis, a link, HTML or a bidi trick."""
    hostile = '**bold**[link](http://e)<!--c--></script>\u202eevil'
    folder = write_tf(tmp_path / 'md', odom_drive(100) + [
        tf_message('base_link', hostile, T0 + 2.0)])
    done = frame_audit('audit', folder, '--format', 'markdown')
    assert done.returncode == 0 and 'Traceback' not in done.stderr, done.stderr
    for markup in ('**bold**', '[link](', '<!--', '</script>', '\u202e'):
        assert markup not in done.stdout, markup
    assert '\\*\\*bold\\*\\*\\[link\\](http://e)&lt;!--c--&gt;&lt;/script&gt;\\u202eevil' \
        in done.stdout
    text = frame_audit('audit', folder)
    assert '\u202e' not in text.stdout and '\\u202eevil' in text.stdout
