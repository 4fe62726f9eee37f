# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Recordings written and read back: rosbag2 (.mcap, .db3, folders) and ROS 1 bags."""
import dataclasses
import math
from pathlib import Path
import shutil
from typing import Callable, Dict, List

from frame_audit.app.audit import audit_recording
from frame_audit.engine.geometry import distance
from frame_audit.engine.records import Message, TF_STATIC_TOPIC, TF_TOPIC
from frame_audit.message_types import TF1_MESSAGE
from frame_audit.recordings import BagError
from frame_audit.recordings.read import read_messages, Recording, recording_info
from frame_audit.recordings.write import write_bag
from frame_audit.sim.car import drive, FAULTS, POSE_TYPES
import pytest
from rosbags.highlevel import AnyReader
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import get_typestore, Stores

DURATION = 10.0
FORMATS = ['drive.mcap', 'drive.db3', 'folder_mcap', 'drive.bag', 'drive_tf1.bag']


@pytest.fixture(scope='module')
def clean() -> List[Message]:
    return list(drive(DURATION, seed=7))


@pytest.fixture(scope='module')
def written(tmp_path_factory: pytest.TempPathFactory, clean: List[Message]) -> Dict[str, Path]:
    """Write the clean drive once in every format."""
    folder = tmp_path_factory.mktemp('bags')
    paths = {}
    for name in FORMATS:
        tf_type = TF1_MESSAGE if name == 'drive_tf1.bag' else 'tf2_msgs/msg/TFMessage'
        paths[name] = folder / name
        assert write_bag(paths[name], clean, pose_types=POSE_TYPES, tf_type=tf_type) == len(clean)
    return paths


def close(a: object, b: object) -> bool:
    """Return whether two records are equal, floats to the nanosecond a bag stores."""
    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and close(dataclasses.astuple(a), dataclasses.astuple(b))
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(close, a, b))
    if isinstance(a, float):
        return math.isclose(a, b, abs_tol=1e-6) or (math.isnan(a) and math.isnan(b))
    return a == b


def same_records(read: List[Message], sent: List[Message]) -> bool:
    """Return whether messages read back are those written (publishers are not recorded)."""
    return len(read) == len(sent) and all(
        r.topic == s.topic and r.publisher is None and close(r.received, s.received)
        and close(r.payload, s.payload) for r, s in zip(read, sent))


@pytest.mark.parametrize('name', FORMATS)
def test_round_trip(written: Dict[str, Path], clean: List[Message], name: str) -> None:
    """Simulate, write, read: the same records, in the same order."""
    assert same_records(list(read_messages(written[name])), clean)


@pytest.mark.parametrize('name', FORMATS)
def test_recording_info(written: Dict[str, Path], clean: List[Message], name: str) -> None:
    """The summary gives start, duration, message count and topic types."""
    info = recording_info(written[name])
    assert info.message_count == len(clean)
    assert info.start_s == pytest.approx(clean[0].received, abs=1e-6)
    assert info.duration_s == pytest.approx(clean[-1].received - clean[0].received, abs=1e-6)
    assert info.ros1 == name.endswith('.bag')
    tf_type = TF1_MESSAGE if name == 'drive_tf1.bag' else 'tf2_msgs/msg/TFMessage'
    assert info.topics[TF_TOPIC][0] == tf_type
    assert info.topics[TF_STATIC_TOPIC] == ('tf2_msgs/msg/TFMessage', 1)
    assert info.topics['/slam_pose'][0] == 'geometry_msgs/msg/PoseWithCovarianceStamped'


def test_scans_are_realistic(written: Dict[str, Path]) -> None:
    """Scans carry 1080 finite ranges within the LiDAR's limits."""
    with AnyReader([written['drive.mcap']]) as reader:
        connection = next(c for c in reader.connections if c.topic == '/scan')
        _, _, raw = next(reader.messages([connection]))
        scan = reader.deserialize(raw, connection.msgtype)
    assert len(scan.ranges) == 1080 and scan.header.frame_id == 'laser'
    assert all(scan.range_min <= r <= scan.range_max for r in scan.ranges)


def test_static_is_latched(written: Dict[str, Path]) -> None:
    """/tf_static is offered transient local, so a late subscriber of `ros2 bag play` gets it."""
    with AnyReader([written['drive.mcap']]) as reader:
        connection = next(c for c in reader.connections if c.topic == TF_STATIC_TOPIC)
    assert connection.ext.offered_qos_profiles[0].durability.name == 'TRANSIENT_LOCAL'


def test_folder_with_one_file_and_no_metadata(written: Dict[str, Path], clean: List[Message],
                                              tmp_path: Path) -> None:
    """A folder holding one .mcap (metadata.yaml lost) is read through that file."""
    (tmp_path / 'copy.mcap').write_bytes(written['drive.mcap'].read_bytes())
    assert same_records(list(read_messages(tmp_path)), clean)


@pytest.mark.parametrize('suffix', ['.mcap', '.db3'])
def test_a_clock_going_back_is_played_by_log_time(tmp_path: Path, suffix: str) -> None:
    """A file whose clock jumps back is read as ros2 bag play plays it: by log time."""
    sent = list(drive(8.0, seed=2, faults=['time_loop']))
    write_bag(tmp_path / ('loop' + suffix), sent)
    with Recording(tmp_path / ('loop' + suffix)) as recording:
        read = list(recording.messages())
        notes = recording.notes()
    played = sorted(sent, key=lambda m: m.received)  # stable: a tie keeps the file's order
    assert same_records(read, played) and not same_records(read, sent)
    assert len(notes) == 1 and 'stored after messages logged up to 4.0' in notes[0]


def first(messages: List[Message], child: str, topic: str = TF_TOPIC) -> List[object]:
    """Return the transforms to child on topic."""
    return [t for m in messages if m.topic == topic for t in m.payload if t.child == child]


def tracks_apart(messages: List[Message]) -> float:
    """Return how far the two senders of odom -> base_link end up apart."""
    last: Dict[str, object] = {}
    for message in messages:
        for record in message.payload if message.topic == TF_TOPIC else ():
            if record.child == 'base_link':
                last[message.publisher] = record.translation
    return distance(*last.values())


# What each fault leaves in the recording, checked on the data read back.
PRESENT: Dict[str, Callable[[List[Message]], bool]] = {
    'pf_rear_axle': lambda ms: True,  # the poses' meaning: see test_offline_faults
    'slam_pose_laser': lambda ms: True,
    'odom_two_parents': lambda ms: {t.parent for t in first(ms, 'odom')} == {'map', 'odom_imu'},
    'pf_map_laser': lambda ms: any(t.parent == '/map' for t in first(ms, '/laser')),
    'ekf_odom_tf': lambda ms: len(first(ms, 'base_link')) > 1.4 * 50 * DURATION,
    'ekf_map_tf': lambda ms: len(first(ms, 'odom')) > 1.4 * 20 * DURATION,
    'laser_027': lambda ms: first(ms, 'laser', TF_STATIC_TOPIC)[0].translation[0] == 0.27,
    'reversed_edge': lambda ms: any(t.parent == 'base_link' for t in first(ms, 'odom')),
    'odom_reset': lambda ms: any(math.hypot(*t.translation[:2]) < 0.1
                                 for t in first(ms, 'base_link')[100:]),
    'odom_stops': lambda ms: max(t.stamp for t in first(ms, 'base_link'))
    < ms[0].received + DURATION / 2 + 0.1,
    'nan_transform': lambda ms: any(math.isnan(t.translation[0]) for t in first(ms, 'base_link')),
    'bad_quaternion': lambda ms: any(abs(sum(c * c for c in t.rotation) - 1) >= 0.01
                                     for t in first(ms, 'base_link')),
    'leading_slash': lambda ms: first(ms, '/laser', TF_STATIC_TOPIC)[0].parent == '/base_link',
    'static_changed': lambda ms: [t.translation[0] for t in first(ms, 'laser', TF_STATIC_TOPIC)]
    == [0.26, 0.27],
    'laser_on_tf': lambda ms: len(first(ms, 'laser')) >= 20 * DURATION - 1,
    'scan_frame_missing': lambda ms: {m.payload.frame_id for m in ms if m.topic == '/scan'}
    == {'laser_frame'},
    'time_loop': lambda ms: ms[-1].received - ms[0].received < 0.6 * DURATION,  # half overlaps
    'no_tf_static': lambda ms: not any(m.topic == TF_STATIC_TOPIC for m in ms),
    'map_odom_late': lambda ms: first(ms, 'odom') != [] and all(
        t.stamp < m.received - 0.2 for m in ms if m.topic == TF_TOPIC for t in m.payload
        if t.child == 'odom'),
}


def test_every_fault_has_a_presence_check() -> None:
    """Each fault of the simulator is checked below."""
    assert set(PRESENT) == set(FAULTS)


@pytest.mark.parametrize('fault', sorted(FAULTS))
def test_fault_present_in_written_data(tmp_path: Path, fault: str) -> None:
    """Each fault is in the recording as written and read back."""
    path = tmp_path / 'fault.mcap'
    write_bag(path, drive(DURATION, seed=3, faults=[fault]), pose_types=POSE_TYPES, beams=16)
    assert PRESENT[fault](list(read_messages(path)))


def test_ekf_drifts_away(tmp_path: Path) -> None:
    """The EKF's odom -> base_link ends up at least 0.3 m from vesc_to_odom's."""
    assert tracks_apart(list(drive(DURATION, seed=3, faults=['ekf_odom_tf']))) >= 0.3


def write_raw(path: Path, topics: Dict[str, str], messages: List[tuple]) -> None:
    """Write a rosbag2 .mcap folder from (topic, rosbags message) pairs."""
    typestore = get_typestore(Stores.ROS2_HUMBLE)
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        connections = {topic: writer.add_connection(topic, msgtype, typestore=typestore)
                       for topic, msgtype in topics.items()}
        for index, (topic, message) in enumerate(messages):
            writer.write(connections[topic], 1_000_000_000 + index,
                         typestore.serialize_cdr(message, topics[topic]))


def test_unknown_types_are_skipped_and_counted(tmp_path: Path) -> None:
    """A type the audit cannot read on an audited topic is counted and said, not an error."""
    types = get_typestore(Stores.ROS2_HUMBLE).types
    text = types['std_msgs/msg/String'](data='hello')
    tf = types['tf2_msgs/msg/TFMessage'](transforms=[])
    topics = {'/odom': 'std_msgs/msg/String', TF_TOPIC: 'tf2_msgs/msg/TFMessage',
              '/chatter': 'std_msgs/msg/String'}
    write_raw(tmp_path / 'odd', topics,
              [('/odom', text), (TF_TOPIC, tf), ('/odom', text), ('/chatter', text)])
    with Recording(tmp_path / 'odd') as recording:
        read = list(recording.messages())
    assert [m.topic for m in read] == ['/odom', TF_TOPIC, '/odom']
    assert [type(m.payload).__name__ for m in read] == ['Unreadable', 'tuple', 'Unreadable']
    assert 'recorded as std_msgs/msg/String' in read[0].payload.reason
    assert recording.stats.skipped == {('/odom', 'std_msgs/msg/String'): 2}
    report = audit_recording(tmp_path / 'odd').report()
    assert [(s.topic, s.count) for s in report.skipped] == [('/odom', 2)]
    odometry = [f for f in report.findings if f.check == 'odometry']
    assert odometry[0].level == 'WARN' and odometry[0].message.startswith(
        '2 messages on /odom could not be read and were skipped (2× recorded as '
        'std_msgs/msg/String')


def test_pose_topic_as_odometry(tmp_path: Path, clean: List[Message]) -> None:
    """A pose topic may be nav_msgs/Odometry: its pose is read."""
    path = tmp_path / 'odometry_pose.db3'
    write_bag(path, clean, pose_types={'/slam_pose': 'nav_msgs/msg/Odometry'})
    assert recording_info(path).topics['/slam_pose'][0] == 'nav_msgs/msg/Odometry'
    assert same_records(list(read_messages(path)), clean)


def test_missing_path(tmp_path: Path) -> None:
    """A path that does not exist says so."""
    with pytest.raises(BagError, match='no such file or folder'):
        recording_info(tmp_path / 'nothing.mcap')


def test_empty_folder(tmp_path: Path) -> None:
    """A folder without a recording says so, and no more."""
    (tmp_path / 'notes').mkdir()
    with pytest.raises(BagError, match=r'folder holds no recording \(no metadata.yaml, .mcap, '
                       r'.db3 or .bag\)$'):
        recording_info(tmp_path)


def test_a_folder_whose_recording_is_in_a_subfolder_names_it(written: Dict[str, Path],
                                                             tmp_path: Path) -> None:
    """Issue 32: 'holds no recording' gave no hint of the subfolder or of --recursive."""
    shutil.copytree(written['folder_mcap'], tmp_path / 'day1' / 'run')
    with pytest.raises(BagError, match=r'holds no recording .*; below it: day1/run: name it, '
                       'or audit them all with --recursive'):
        recording_info(tmp_path)
    (tmp_path / 'day2').mkdir()
    shutil.copy(written['drive.mcap'], tmp_path / 'day2' / 'a.mcap')
    with pytest.raises(BagError, match='below it: day1/run, day2/a.mcap: name one'):
        recording_info(tmp_path)


def test_not_a_recording(tmp_path: Path) -> None:
    """A file of another kind is named as such."""
    (tmp_path / 'notes.txt').write_text('hello')
    with pytest.raises(BagError, match='not a recording'):
        recording_info(tmp_path / 'notes.txt')


def test_truncated_mcap(tmp_path: Path, written: Dict[str, Path]) -> None:
    """A cut-off .mcap gives what its complete chunks hold; with none, it is a BagError."""
    data = written['drive.mcap'].read_bytes()
    for cut in (100, 10):
        path = tmp_path / 'cut{}.mcap'.format(cut)
        path.write_bytes(data[:cut])
        with pytest.raises(BagError, match='cannot read'):
            list(read_messages(path))
    half = tmp_path / 'half.mcap'
    half.write_bytes(data[:len(data) // 2])
    with Recording(half) as recording:
        read = list(recording.messages())
        assert recording.cut is not None and 'the file ends' in recording.cut.stopped
    assert 0 < len(read) < recording_info(written['drive.mcap']).message_count


def test_garbage_db3(tmp_path: Path) -> None:
    """A .db3 that is not SQLite is a BagError."""
    path = tmp_path / 'garbage.db3'
    path.write_bytes(b'this is not a database' * 100)
    with pytest.raises(BagError, match='cannot read'):
        list(read_messages(path))


def test_truncated_ros1_bag(tmp_path: Path, written: Dict[str, Path]) -> None:
    """A cut-off ROS 1 bag is a BagError."""
    path = tmp_path / 'cut.bag'
    path.write_bytes(written['drive.bag'].read_bytes()[:5000])
    with pytest.raises(BagError, match='cannot read'):
        list(read_messages(path))


def test_no_tf_at_all(tmp_path: Path) -> None:
    """A recording without /tf or /tf_static cannot be audited, and says why."""
    types = get_typestore(Stores.ROS2_HUMBLE).types
    write_raw(tmp_path / 'chatter', {'/chatter': 'std_msgs/msg/String'},
              [('/chatter', types['std_msgs/msg/String'](data='hi'))])
    with pytest.raises(BagError, match=r'no /tf or /tf_static topic.*/chatter'):
        recording_info(tmp_path / 'chatter')


def test_writing_never_overwrites(written: Dict[str, Path]) -> None:
    """An existing path is refused."""
    with pytest.raises(BagError, match='exists already'):
        write_bag(written['drive.mcap'], [])


@pytest.mark.parametrize('name', ['relative.mcap', 'relative.db3', 'relative.bag'])
def test_a_relative_tf_topic_is_tf_as_a_player_resolves_it(tmp_path: Path, clean, name) -> None:
    """
    Read `tf` and `tf_static` recorded without their '/' as /tf and /tf_static.

    A MiR's ROS 1 bag and a UR5's rosbag2 folder (round F2) named them so, and were refused
    with "no /tf or /tf_static topic"; played, they are /tf, where listeners hear them. The
    twin: the same drive under the full names reads the same records.
    """
    relative = [dataclasses.replace(m, topic=m.topic.lstrip('/'))
                if m.topic in (TF_TOPIC, TF_STATIC_TOPIC) else m for m in clean]
    path = tmp_path / name
    write_bag(path, relative, pose_types=POSE_TYPES)
    assert {TF_TOPIC, TF_STATIC_TOPIC} <= set(recording_info(path).topics)
    assert same_records(list(read_messages(path)), clean)
