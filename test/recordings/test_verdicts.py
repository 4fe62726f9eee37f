# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Every verdict on a recording true (issue 21): each cause fires once, its healthy twin is quiet.

Each recording is made here from another robot's habits (a TurtleBot with base_footprint and
a robot_state_publisher, an F1TENTH car's particle filter replayed with --clock, a second
localization node) and written with rosbags as sqlite3 or MCAP; the audit, init and diff run
through the command line as a user runs them.
"""
from dataclasses import replace
import json
import math
from pathlib import Path
import random
from typing import Dict, Iterable, List, Optional, Tuple

from frame_audit.app.explain import lookup_in
from frame_audit.cli import main
from frame_audit.engine.audit import Audit
from frame_audit.engine.checks.common import source
from frame_audit.engine.checks.tree_summary import frame_rows
from frame_audit.engine.compare import side_of_recording
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import fmt
from frame_audit.engine.geometry import compose, inverse, quat_from_rpy
from frame_audit.engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from frame_audit.installed import default_config_file
from frame_audit.message_types import split_stamp
from frame_audit.recordings.write import write_bag
from frame_audit.reports.tree_picture import tree_source
import pytest
from robots import Audited, BOAT, drive, FOXBOT, PoseOut, RACECAR, record, Robot, T0, variant

TURTLEBOT = Robot()
Pose2D = Tuple[float, float, float]


def audit(path: Path, config: Optional[Path] = None) -> Audited:
    """Audit a recording as a user would, and read its JSON report."""
    output = path.with_suffix('.json')
    code = main(['audit', str(path), '--format', 'json', '--output', str(output)] +
                (['--config', str(config)] if config else []))
    return Audited(code, json.loads(output.read_text()))


def init(path: Path) -> Tuple[Path, str]:
    """Write the config `init` measures from a recording; return its path and text."""
    config = path.with_suffix('.yaml')
    assert main(['init', str(path), '--output', str(config)]) == 0
    return config, config.read_text()


def write(folder: Path, name: str, messages: Iterable[Message], robot: Robot = TURTLEBOT,
          suffix: str = '.mcap') -> Path:
    """Write messages as a recording with the project's writer."""
    path = folder / (name + suffix)
    write_bag(path, sorted(messages, key=lambda m: m.received),
              pose_types={p.topic: p.msgtype for p in robot.poses}, beams=16)
    return path


def tf_of(message: Message) -> Tuple[TransformRecord, ...]:
    return message.payload if isinstance(message.payload, tuple) else ()


def edit(messages: List[Message], topic: str, change) -> List[Message]:
    """Return messages with each message of topic replaced by change(message) (None: drop)."""
    out = []
    for message in messages:
        changed = change(message) if message.topic == topic else message
        if changed is not None:
            out.append(changed)
    return out


def pose2d(record: TransformRecord) -> Pose2D:
    x, y, _ = record.translation
    qx, qy, qz, qw = record.rotation
    return (x, y, math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz)))


def tf(parent: str, child: str, stamp: float, pose: Pose2D, z: float = 0.0) -> TransformRecord:
    return TransformRecord(parent, child, stamp, (pose[0], pose[1], z),
                           quat_from_rpy(0.0, 0.0, pose[2]))


@pytest.fixture(scope='module')
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp('verdicts')


@pytest.fixture(scope='module')
def turtlebot(folder: Path) -> Dict[str, Path]:
    """Return the healthy TurtleBot's recording and its init config."""
    path = record(folder, variant(TURTLEBOT, 'turtlebot_reference'), '.db3')
    return {'recording': path, 'config': init(path)[0]}


# -- 1. odometry on the wrong edge ------------------------------------------------------------

def motion_below_base(messages: List[Message]) -> List[Message]:
    """Move the robot's motion from odom → base_footprint to base_footprint → base_link."""
    def on_tf(message: Message) -> Message:
        records = []
        for r in tf_of(message):
            if r.child == 'base_footprint':  # the odometry: sent under the base instead
                records += [tf('odom', 'base_footprint', r.stamp, (0.0, 0.0, 0.0)),
                            tf('base_footprint', 'base_link', r.stamp, pose2d(r), 0.010)]
            else:
                records.append(r)
        return replace(message, payload=tuple(records))

    def on_static(message: Message) -> Message:
        return replace(message, payload=tuple(r for r in tf_of(message) if r.child != 'base_link'))
    return edit(edit(messages, TF_TOPIC, on_tf), TF_STATIC_TOPIC, on_static)


def wheels_on_tf(messages: List[Message]) -> List[Message]:
    """Add robot_state_publisher's wheel joints: they turn whole turns, in place."""
    def on_tf(message: Message) -> Message:
        records = list(tf_of(message))
        if any(r.child == 'base_footprint' for r in records):
            stamp = records[0].stamp
            spin = quat_from_rpy(0.0, 6.0 * (stamp - T0), 0.0)  # about the axle, 6 rad/s
            records += [TransformRecord('base_link', name, stamp, (0.0, y, 0.023), spin)
                        for name, y in (('wheel_left_link', 0.08), ('wheel_right_link', -0.08))]
        return replace(message, payload=tuple(records))
    return edit(messages, TF_TOPIC, on_tf)


def test_odometry_under_the_base_is_an_error_naming_both_edges(folder: Path, turtlebot) -> None:
    wrong = write(folder, 'tb3_motion_below_base', motion_below_base(drive(TURTLEBOT)))
    audited = audit(wrong, turtlebot['config'])
    (finding,) = audited.findings('chain_order')
    assert finding['level'] == 'ERROR' and audited.code == 1
    assert {'odom', 'base_footprint', 'base_link'} <= set(finding['frames'])
    assert 'odom → base_footprint stays within 0.000 m' in finding['message']
    assert 'base_footprint → base_link below it moves up to' in finding['message']
    # the moving edge on the way to the LiDAR is no fixed mount to move to /tf_static
    mounts = audited.findings('laser_offset')
    assert len(mounts) == 1, [f['message'] for f in mounts]
    (mount,) = mounts
    assert mount['level'] == 'WARN' and mount['message'].startswith(
        'base_footprint → base_scan cannot be checked: base_footprint → base_link moves up to')
    assert 'no mount but a joint or a vehicle' in mount['message']
    # issue 32: the car's default config (base_link, below base_footprint) sees it too
    (default,) = audit(wrong, None).findings('chain_order')
    assert default['level'] == 'ERROR' and default['message'].startswith(
        'odom → base_footprint stays within 0.000 m and 0.000 rad of its first value')
    assert "the robot's motion is below base_footprint" in default['message']
    assert audit(turtlebot['recording'], None).findings('chain_order') == []
    # init never writes the moving edge as the LiDAR's mount, and says why
    _, text = init(wrong)
    assert 'laser_offset:' not in text and 'translation:' not in text
    assert 'base_footprint → base_link between base_footprint and the LiDAR' in text
    # the healthy twin, and a robot_state_publisher turning its wheels on /tf, stay quiet
    twin = write(folder, 'tb3_wheels_on_tf', wheels_on_tf(drive(TURTLEBOT)), suffix='.db3')
    assert audit(twin, turtlebot['config']).findings() == []
    assert audit(turtlebot['recording'], turtlebot['config']).findings() == []
    _, text = init(twin)
    assert 'translation: [-0.032, 0.0, 0.182]' in text


def test_a_marker_moving_under_a_parked_robots_camera_is_no_vehicle(folder: Path,
                                                                    turtlebot) -> None:
    """
    A tag carried 2 m past a parked TurtleBot's camera is no vehicle.

    apriltag_ros sends camera_link → tag_0 on /tf: it moves metres below a still base, but no
    LiDAR, odometry or configured frame hangs there.
    """
    parked = variant(TURTLEBOT, 'tb3_parked_tag', speed=0.0, radius=0.1, extra_edges=(
        ('base_link', 'camera_link', (0.05, 0.0, 0.15), 0.0),))

    def tag_on_tf(message: Message) -> Message:
        records = tf_of(message)
        if any(r.child == 'base_footprint' for r in records):
            stamp = records[0].stamp
            tag = (1.0, 0.1 * (stamp - T0) - 1.0, 0.0)  # 2 m across the camera's view
            records += (tf('camera_link', 'tag_0', stamp, tag),)
        return replace(message, payload=records)
    audited = audit(write(folder, parked.name, edit(drive(parked), TF_TOPIC, tag_on_tf),
                          parked), turtlebot['config'])
    tag = next(f for f in audited.report['frames'] if f['frame'] == 'tag_0')
    assert tag['parents'] == ['camera_link'] and tag['count'] >= 590
    assert audited.findings('chain_order') == [] and audited.code == 0, audited.findings()


# -- 7. a particle filter's wobble is one source ----------------------------------------------

def racecar_pf(seed: int, seconds: float = 20.0, second_source: Optional[Pose2D] = None,
               radius: float = 15.0, update_every: int = 2) -> List[Message]:
    """
    Return an F1TENTH car's drive whose particle filter sends a noisy map → odom at 20 Hz.

    Its estimate of the car jitters 3 mm and 0.06° at each update (every update_every sends;
    between them the latest is re-sent); far from odom's origin that heading jitter moves
    map → odom 1–2 cm. second_source: another node also sends map → odom, this far off.
    """
    rng = random.Random(seed)
    noise, map_odom = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    messages = [Message(T0, TF_STATIC_TOPIC, (tf('base_link', 'laser', T0, (0.275, 0.0, 0.0),
                                                 0.09),))]

    def car(t: float) -> Pose2D:
        angle = 2.0 * (t - T0) / radius
        return (radius * math.cos(angle), radius * math.sin(angle), angle + math.pi / 2)

    for step in range(1, int(seconds * 200) + 1):
        t = T0 + step / 200.0
        if step % 4 == 0:  # 50 Hz odometry; odom coincides with map but for the filter's noise
            messages.append(Message(t, TF_TOPIC, (tf('odom', 'base_link', t, car(t)),)))
        if step % 10 == 0:  # 20 Hz particle filter
            if step % (10 * update_every) == 0:  # an update; between them, re-sent as it was
                noise = (rng.gauss(0, 0.003), rng.gauss(0, 0.003),
                         rng.gauss(0, math.radians(0.06)))
                map_odom = compose(compose(car(t), noise), inverse(car(t)))
            messages.append(Message(t, TF_TOPIC, (tf('map', 'odom', t, map_odom),)))
            laser = compose(compose(car(t), noise), (0.275, 0.0, 0.0))
            messages.append(Message(t, '/pf/pose', PoseRecord(
                'map', t, (laser[0], laser[1], 0.0), quat_from_rpy(0.0, 0.0, laser[2]))))
        if second_source and step % 10 == 5:  # a second node, 25 ms later
            messages.append(Message(t, TF_TOPIC, (tf('map', 'odom', t, second_source),)))
        if step % 5 == 0:
            messages.append(Message(t, '/scan', HeaderRecord('laser', t)))
    return messages


PF_CAR = replace(RACECAR, name='pf_car', poses=(PoseOut('/pf/pose', 'laser', 20.0),))


@pytest.fixture(scope='module')
def pf_config(folder: Path) -> Path:
    path = write(folder, 'pf_reference', racecar_pf(seed=100), PF_CAR)
    config, text = init(path)
    assert 'pose_frame: laser' in text and 'laser: laser' in text
    return config


@pytest.mark.parametrize('seed', range(6))
def test_a_particle_filters_wobble_is_one_source(folder: Path, pf_config: Path,
                                                 seed: int) -> None:
    path = write(folder, 'pf_wobble_{}'.format(seed), racecar_pf(seed), PF_CAR,
                 suffix='.db3' if seed % 2 else '.mcap')
    audited = audit(path, pf_config)
    assert audited.findings() == [], audited.findings()


def test_two_localization_nodes_stand_out_from_the_wobble(folder: Path,
                                                          pf_config: Path) -> None:
    path = write(folder, 'pf_and_ekf', racecar_pf(7, second_source=(0.15, -0.10, 0.0)), PF_CAR)
    audited = audit(path, pf_config)
    two = [f for f in audited.findings('parent_uniqueness') if f['frames'][:2] == ['map', 'odom']]
    assert two and two[0]['level'] == 'ERROR' and audited.code == 1


# -- 2 and 3. a replay with --clock: re-sent stamps, stamps judged against /clock -------------

REPLAYED_FROM = T0 - 33_194_320.0  # the recording replayed was made a year before


def replayed_pf(clock: bool, two_senders: bool = False, behind_s: float = 0.0) -> List[Message]:
    """
    Return a particle filter replayed with --clock: map → odom at 20 Hz, /clock at 18.8 Hz.

    Each send is stamped with the latest /clock tick, so a send between two ticks re-sends
    that stamp with the filter's newer value: one node. two_senders: another node sends the
    same stamps, 0.3 m off. behind_s: the stamps lag the /clock by that much.
    """
    messages = [Message(T0, TF_STATIC_TOPIC, (tf('base_link', 'laser', REPLAYED_FROM,
                                                 (0.275, 0.0, 0.0), 0.09),))]
    sim = REPLAYED_FROM
    for step in range(1, 20 * 200 + 1):
        wall = T0 + step / 200.0
        tick = REPLAYED_FROM + math.floor((wall - T0) * 18.8) / 18.8
        if clock and tick > sim:
            messages.append(Message(wall, '/clock', HeaderRecord('', tick)))
        sim = tick
        stamp = sim - behind_s
        car = (2.0 * (wall - T0), 0.0, 0.0)
        if step % 4 == 0:
            messages.append(Message(wall, TF_TOPIC, (tf('odom', 'base_link', stamp, car),)))
        if step % 10 == 0:
            drift = (0.002 * (wall - T0), 0.001 * (wall - T0), 0.0005 * (wall - T0))
            messages.append(Message(wall, TF_TOPIC, (tf('map', 'odom', stamp, drift),)))
            if two_senders:
                other = (drift[0] + 0.3, drift[1], drift[2])
                messages.append(Message(wall + 1e-4, TF_TOPIC, (tf('map', 'odom', stamp,
                                                                   other),)))
    return messages


CLOCK = 'rosgraph_msgs/msg/Clock'


def write_with_clock(path: Path, messages: List[Message], clock: Optional[str] = CLOCK) -> Path:
    """
    Write /tf, /tf_static and /clock as a rosbag2 file with rosbags (write_bag has none).

    clock: the /clock topic's type (None: no /clock), its connection made even where no message
    is on it; a std_msgs/msg/String carries each time as text (a node that took the name).
    """
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores
    store = get_typestore(Stores.ROS2_HUMBLE)
    types = store.types

    def time(seconds: float) -> object:
        sec, nanosec = split_stamp(seconds)
        return types['builtin_interfaces/msg/Time'](sec=sec, nanosec=nanosec)

    def tf_message(records: Tuple[TransformRecord, ...]) -> object:
        return types['tf2_msgs/msg/TFMessage'](transforms=[
            types['geometry_msgs/msg/TransformStamped'](
                header=types['std_msgs/msg/Header'](stamp=time(r.stamp), frame_id=r.parent),
                child_frame_id=r.child,
                transform=types['geometry_msgs/msg/Transform'](
                    translation=types['geometry_msgs/msg/Vector3'](
                        x=r.translation[0], y=r.translation[1], z=r.translation[2]),
                    rotation=types['geometry_msgs/msg/Quaternion'](
                        x=r.rotation[0], y=r.rotation[1], z=r.rotation[2], w=r.rotation[3])))
            for r in records])

    plugin = StoragePlugin.MCAP if path.suffix == '.mcap' else StoragePlugin.SQLITE3
    with Writer(path, version=Writer.VERSION_LATEST, storage_plugin=plugin) as writer:
        connections = {'/clock': writer.add_connection('/clock', clock, typestore=store)} \
            if clock else {}
        for message in sorted(messages, key=lambda m: m.received):
            kind = clock if message.topic == '/clock' else 'tf2_msgs/msg/TFMessage'
            if message.topic not in connections:
                connections[message.topic] = writer.add_connection(message.topic, kind,
                                                                   typestore=store)
            if message.topic != '/clock':
                data = tf_message(message.payload)
            elif kind == CLOCK:
                data = types[kind](clock=time(message.payload.stamp))
            else:
                data = types[kind](data='{:.3f}'.format(message.payload.stamp))
            writer.write(connections[message.topic], int(round(message.received * 1e9)),
                         store.serialize_cdr(data, kind))
    return path


def test_a_replay_with_clock_is_judged_against_clock(folder: Path) -> None:
    replay = audit(write_with_clock(folder / 'pf_replay', replayed_pf(clock=True)))
    assert not [f for f in replay.findings() if f['check'] in ('timing', 'parent_uniqueness')], \
        replay.findings()
    assert 'judged against the recorded /clock' in replay.message('timing')
    summary = replay.message('parent_uniqueness')
    assert 'map → odom re-sent' in summary and 'one sender' in summary
    assert 'TimeCache::insertData' in summary and 'TF_REPEATED_DATA' in summary
    # the twin recorded without /clock: its stamps are a year behind the recorder's clock
    wall = audit(write_with_clock(folder / 'pf_replay_no_clock', replayed_pf(clock=False),
                                  None))
    assert any('after its stamp' in f['message'] or 'after their stamps' in f['message']
               for f in wall.findings('timing'))
    # and against /clock, a sender 2 s behind it is still a lag
    behind = audit(write_with_clock(folder / 'pf_replay_behind',
                                    replayed_pf(clock=True, behind_s=2.0)))
    lag = [f for f in behind.findings('timing') if 'after its stamp' in f['message'] or
           'after their stamps' in f['message']]
    assert lag and all(f['values']['lag_s'] == pytest.approx(2.0, abs=0.06) for f in lag)


def test_lookups_on_a_replay_with_clock_tell_lags_against_clock(folder: Path) -> None:
    """
    Issue 30: `lookup` on a replay with /clock said the stamps ran 33,194,320 s behind.

    Arrivals are told on the recorded /clock: odom → base_link runs within a tick of it; a
    sender 2 s behind /clock is 2 s behind. The twin recorded without /clock is told against
    arrival. Each asks past the last stamp, so the limiting edge's numbers are printed.
    """
    def limiting_edge(path: Path):
        edge = lookup_in(path, 'map', 'base_link', at=str(REPLAYED_FROM + 20.5)).one.edge
        assert edge is not None and edge.name == 'odom → base_link', edge
        return edge
    on_clock = write_with_clock(folder / 'pf_lookup', replayed_pf(clock=True))
    assert 0.0 <= limiting_edge(on_clock).usual_s < 0.06
    behind = write_with_clock(folder / 'pf_lookup_behind', replayed_pf(True, behind_s=2.0))
    assert limiting_edge(behind).usual_s == pytest.approx(2.0, abs=0.06)
    wall = write_with_clock(folder / 'pf_lookup_wall', replayed_pf(clock=False), None)
    assert limiting_edge(wall).usual_s == pytest.approx(33_194_320.0, abs=1.0)


def test_only_a_clock_read_turns_off_judging_stamps_by_arrival(folder: Path) -> None:
    """
    Only a /clock read turns off judging stamps by their arrival.

    A TurtleBot stamped 2 s behind: a /clock of another type is no clock, and a /clock of
    which nothing was read cannot vouch for the stamps. The twin on time stays quiet.
    """
    def tf_only(robot: Robot, ticks: bool) -> List[Message]:
        messages = [m for m in drive(robot) if m.topic in (TF_TOPIC, TF_STATIC_TOPIC)]
        return messages + ([Message(T0 + i * 0.1, '/clock', HeaderRecord('', T0 + i * 0.1))
                            for i in range(200)] if ticks else [])
    behind = variant(TURTLEBOT, 'tb3_behind', lag_s=2.0, map_future_s=0.0)
    lags = {}
    for name, clock, ticks in (('no_clock', None, False), ('string', 'std_msgs/msg/String',
                                                           True)):
        audited = audit(write_with_clock(folder / ('tb3_behind_' + name + '.mcap'),
                                         tf_only(behind, ticks), clock))
        lags[name] = sorted((tuple(f['frames']), f['level'], f['values']['lag_s'])
                            for f in audited.findings('timing'))
    # one clock behind on both edges: one cause, one finding naming both (issue 32)
    assert lags['string'] == lags['no_clock'] and len(lags['string']) == 1, lags
    (frames, level, lag), = lags['string']
    assert frames == ('map', 'odom', 'base_footprint') and level == 'ERROR'
    assert lag == pytest.approx(2.0, abs=0.01)
    silent = audit(write_with_clock(folder / 'tb3_behind_silent_clock.mcap',
                                    tf_only(behind, False)))
    assert silent.level('timing') == 'STALE'
    assert silent.message('timing') == (
        '/clock (rosgraph_msgs/msg/Clock) is in the recording but none of its messages was '
        'read, so whether the stamps of 2 moving edges are on time cannot be known')
    on_time = audit(write_with_clock(folder / 'tb3_string_clock.mcap',
                                     tf_only(variant(TURTLEBOT, 'tb3_on_time'), True),
                                     'std_msgs/msg/String'))
    assert on_time.findings('timing') == [] and on_time.message('timing') == \
        '2 moving edges on time'


def test_two_senders_of_one_stamp_are_two_sources(folder: Path) -> None:
    both = audit(write_with_clock(folder / 'pf_two.mcap', replayed_pf(True, two_senders=True)))
    two = [f for f in both.findings('parent_uniqueness') if f['frames'][:2] == ['map', 'odom']]
    assert two and two[0]['level'] == 'ERROR'


# -- 4. existence over the whole recording ----------------------------------------------------

def test_a_late_start_is_said_as_such(folder: Path, turtlebot) -> None:
    late = edit(drive(TURTLEBOT), TF_TOPIC,
                lambda m: m if m.received >= T0 + 9.2 else None)
    audited = audit(write(folder, 'tb3_tf_from_9s', late), turtlebot['config'])
    assert not [f for f in audited.findings() if 'not in the tree' in f['message']], \
        audited.findings()
    assert 'odom from 9.2 s' in audited.message('chain_order')
    # the twin that never sends map → odom: map is missing over the whole recording
    never = audit(record(folder, variant(TURTLEBOT, 'tb3_no_map', map_missing=True)),
                  turtlebot['config'])
    (missing,) = never.findings('chain_order')
    assert missing['level'] == 'ERROR' and 'map is not in the tree' in missing['message']


def test_a_recorder_started_before_the_odometry_is_no_split_tree(folder: Path) -> None:
    """
    A boat's odom → base_link starting 1.36 s in: the tree is whole from then on (issue 32).

    Before its first message the chain waited (STALE); the verdict names the edge's start.
    Its twins: the edge never sent is a split tree from the warm-up on, and a tree that
    splits 30 s in (a buoy's frames with no parent) is dated from then.
    """
    config, _ = init(record(folder, variant(BOAT, 'boat_reference')))
    late = audit(record(folder, variant(BOAT, 'boat_late_ekf', odom_from=1.36)), config)
    assert late.findings() == [] and late.code == 0, late.findings()
    assert 'odom → base_link from 1.4 s' in late.message('chain_order')
    assert late.level('connectivity') == 'OK'
    never = audit(record(folder, variant(BOAT, 'boat_no_ekf', odom_from=1e9)), config)
    said = {(f['check'], f['level'], f['first_seen_s']) for f in never.findings()}
    assert said == {('chain_order', 'ERROR', 2.0), ('connectivity', 'ERROR', 2.0)}, said
    assert 'odom is not above base_link' in never.message('chain_order')

    def buoy(message: Message) -> Optional[Message]:
        return replace(message, received=T0 + 30.0, payload=(tf(
            'buoy', 'buoy_light', T0 + 30.0, (0.0, 0.0, 0.0)),)) \
            if message.topic == TF_STATIC_TOPIC else message
    messages = drive(variant(BOAT, 'boat_buoy'))
    messages += [m for m in (buoy(m) for m in messages) if m.topic == TF_STATIC_TOPIC]
    split = audit(write(folder, 'boat_buoy', messages, BOAT, '.bag'), config)
    (trees,) = split.findings('connectivity')
    assert '2 separate trees' in trees['message'] and trees['first_seen_s'] == 30.0


# -- 8. one finding per cause -----------------------------------------------------------------

def odometry_ahead(messages: List[Message], ahead_s: float) -> List[Message]:
    """Stamp odom → base_footprint and /odom ahead_s in the future (a clock ahead)."""
    def on_tf(message: Message) -> Message:
        return replace(message, payload=tuple(
            replace(r, stamp=r.stamp + ahead_s) if r.child == 'base_footprint' else r
            for r in tf_of(message)))

    def on_odom(message: Message) -> Message:
        odom = message.payload
        return replace(message, payload=OdometryRecord(
            replace(odom.pose, stamp=odom.pose.stamp + ahead_s), odom.child_frame_id))
    return edit(edit(messages, TF_TOPIC, on_tf), '/odom', on_odom)


def test_future_stamped_odometry_is_one_timing_finding(folder: Path, turtlebot) -> None:
    ahead = audit(write(folder, 'tb3_odom_3s_ahead', odometry_ahead(drive(TURTLEBOT), 3.0)),
                  turtlebot['config'])
    assert ahead.checks() == ['timing'], ahead.findings()
    (future,) = ahead.findings('timing')
    assert future['frames'] == ['odom', 'base_footprint']
    assert 'cannot say' in ahead.message('pose_frame')
    assert 'agrees with TF' in ahead.message('odometry')


def test_an_edge_still_for_a_while_then_moving_is_no_mount_on_tf(folder: Path, turtlebot):
    """
    base_footprint → base_link on /tf, still for 10 s, then carrying the robot (round E).

    A Unity robot's was first called "a fixed mount [that] belongs on /tf_static", then "no
    mount": a recording is judged whole, so only the second is said. The twin: the same edge
    still to the end is a mount sent on /tf.
    """
    def body_on_tf(moves_from: float):
        def on_tf(message: Message) -> Message:
            stamp = tf_of(message)[0].stamp
            x = max(0.0, stamp - T0 - moves_from) * 0.3
            return replace(message, payload=tf_of(message) + (
                tf('base_footprint', 'base_link', stamp, (x, 0.0, 0.0), 0.010),))

        def without(message: Message) -> Message:
            return replace(message, payload=tuple(r for r in tf_of(message)
                                                  if r.child != 'base_link'))
        return edit(edit(drive(TURTLEBOT), TF_STATIC_TOPIC, without), TF_TOPIC, on_tf)
    later = audit(write(folder, 'tb3_body_moves_later', body_on_tf(10.0)), turtlebot['config'])
    said = [f['message'] for f in later.findings('laser_offset')]
    assert len(said) == 1 and said[0].startswith('base_footprint → base_scan cannot be '
                                                 'checked: base_footprint → base_link moves'), said
    still = audit(write(folder, 'tb3_body_still', body_on_tf(1e9)), turtlebot['config'])
    said = [f['message'] for f in still.findings('laser_offset')]
    assert len(said) == 1 and said[0].startswith('base_footprint → base_link is sent on /tf') \
        and 'a fixed mount belongs on /tf_static' in said[0], said


def test_an_edge_sent_in_bursts_is_no_edge_that_stopped(folder: Path, turtlebot) -> None:
    """
    The map → odom of AMCL arriving in bursts every 1.1 s (round E's cart): its pace.

    At 10 Hz its rate says it stopped after a second of silence, and it is silent 1.1 s each
    time. The twin: the same edge silent from 14 s to the end stopped.
    """
    def bursts(until: float):
        def held(message: Message) -> Optional[Message]:
            if tf_of(message)[0].child != 'odom':
                return message
            since = message.received - T0
            if since >= until:
                return None
            return replace(message, received=T0 + (math.floor(since / 1.1) + 1) * 1.1 +
                           since * 1e-4)
        return edit(drive(TURTLEBOT), TF_TOPIC, held)
    paced = audit(write(folder, 'tb3_map_bursts', bursts(1e9)), turtlebot['config'])
    assert not [f for f in paced.findings('timing') if 'stopped' in f['message']], \
        paced.findings('timing')
    stopped = audit(write(folder, 'tb3_map_bursts_stop', bursts(14.0)), turtlebot['config'])
    (stop,) = [f for f in stopped.findings('timing') if 'stopped' in f['message']]
    assert stop['message'].startswith('map → odom stopped') and stop['level'] == 'ERROR'


# -- 9. map → odom on /tf_static while SLAM sends it on /tf -----------------------------------

def test_a_static_map_odom_beside_slam_is_two_sources(folder: Path, turtlebot) -> None:
    def static_map(message: Message) -> Message:
        return replace(message, payload=tf_of(message) + (
            tf('map', 'odom', T0, (0.0, 0.0, 0.0)),))
    both = audit(write(folder, 'tb3_static_map', edit(drive(TURTLEBOT), TF_STATIC_TOPIC,
                                                      static_map)), turtlebot['config'])
    mine = [f for f in both.findings() if f['check'] != 'lookups']  # the lookups it fails
    assert [f['check'] for f in mine] == ['parent_uniqueness'] and both.code == 1, mine
    (finding,) = mine
    assert finding['frames'] == ['map', 'odom'] and 'the static one is the mistake' in \
        finding['message']
    # the twin: a fixed mount sent on /tf too is static_transforms' WARN alone

    def laser_on_tf(message: Message) -> Message:
        stamp = tf_of(message)[0].stamp
        return replace(message, payload=tf_of(message) + (
            tf('base_link', 'base_scan', stamp, (-0.032, 0.0, 0.0), 0.172),))
    mount = audit(write(folder, 'tb3_scan_on_tf', edit(drive(TURTLEBOT), TF_TOPIC, laser_on_tf)),
                  turtlebot['config'])
    assert 'parent_uniqueness' not in mount.checks()
    assert 'static_transforms' in mount.checks()


# -- faults missed before ---------------------------------------------------------------------

def test_odometry_that_stops_while_tf_goes_on(folder: Path, turtlebot) -> None:
    stopped = edit(drive(TURTLEBOT), '/odom', lambda m: m if m.received < T0 + 10.0 else None)
    audited = audit(write(folder, 'tb3_odom_stops', stopped, suffix='.db3'),
                    turtlebot['config'])
    (finding,) = audited.findings('odometry')
    assert finding['level'] == 'ERROR' and '/odom stopped' in finding['message']
    assert 'odom → base_footprint goes on' in finding['message']
    assert audited.checks() == ['odometry']


def test_a_slash_in_the_scan_header(folder: Path, turtlebot) -> None:
    slashed = edit(drive(TURTLEBOT), '/scan',
                   lambda m: replace(m, payload=HeaderRecord('/base_scan', m.payload.stamp)))
    audited = audit(write(folder, 'tb3_scan_slash', slashed), turtlebot['config'])
    (finding,) = audited.findings()  # the lookups place every scan, as a message filter does
    assert finding['check'] == 'connectivity' and finding['level'] == 'WARN'
    assert "names '/base_scan'" in finding['message'] and "message filters strip the '/' " \
        'and place the scan, but a node that asks lookupTransform with the id as sent is ' \
        'refused' in finding['message']


def test_two_static_publishers_that_disagree_in_init_and_diff(folder: Path, capsys,
                                                              turtlebot) -> None:
    messages = drive(TURTLEBOT)
    other = Message(T0 + 0.5, TF_STATIC_TOPIC, (tf('base_link', 'imu_link', T0,
                                                   (0.05, 0.0, 0.0), 0.068),))
    path = write(folder, 'tb4_two_static', messages + [other])
    _, text = init(path)
    assert 'two static publishers disagree on 1 edge (the first value, then the last): ' \
        'base_link → imu_link ((-0.0320' in text
    capsys.readouterr()
    assert main(['diff', str(turtlebot['recording']), str(path), '--format', 'json']) == 1
    found = json.loads(capsys.readouterr().out)['differences']
    disagree = [d for d in found if d['what'] == 'static publishers that disagree']
    assert len(disagree) == 1 and disagree[0]['a'] == 'one value per static edge'
    assert disagree[0]['b'].startswith('1 edge: base_link → imu_link ((-0.0320')
    assert 'tb4_two_static.mcap' in disagree[0]['detail']
    # the twin: one static publisher, no such difference
    assert main(['diff', str(turtlebot['recording']), str(turtlebot['recording'])]) == 0


def shifted_poses(messages: List[Message], ahead_m: float, noise_m: float = 0.0,
                  seed: int = 0) -> List[Message]:
    """Move each /amcl_pose ahead_m along the robot's heading (a point between frames)."""
    rng = random.Random(seed)

    def on_pose(message: Message) -> Message:
        p = message.payload
        qx, qy, qz, qw = p.orientation
        yaw = math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
        x = p.position[0] + ahead_m * math.cos(yaw) + rng.gauss(0.0, noise_m)
        y = p.position[1] + ahead_m * math.sin(yaw) + rng.gauss(0.0, noise_m)
        return replace(message, payload=replace(p, position=(x, y, 0.0)))
    return edit(messages, '/amcl_pose', on_pose)


def test_a_pose_steadily_at_another_point_of_the_robot(folder: Path, turtlebot) -> None:
    axle = audit(write(folder, 'tb3_pose_ahead', shifted_poses(drive(TURTLEBOT), 0.07)),
                 turtlebot['config'])
    (finding,) = axle.findings()
    assert finding['check'] == 'pose_frame' and finding['level'] == 'WARN'
    assert 'ahead of base_footprint along the car' in finding['message']
    assert finding['values']['ahead_m'] == pytest.approx(0.07, abs=0.005)
    # the twins: AMCL's own scatter of 2 cm about the right point, and a clean drive
    noisy = audit(write(folder, 'tb3_pose_noisy', shifted_poses(drive(TURTLEBOT), 0.0, 0.02),
                        suffix='.db3'), turtlebot['config'])
    assert noisy.findings() == [] and 'as declared' in noisy.message('pose_frame')


NEATO = variant(  # a Neato in Gazebo: base_footprint, no localization, base_laser_link
    TURTLEBOT, 'neato', map_frame=None, scan_frame='base_laser_link', poses=(), body=(
        ('base_footprint', 'base_link', (0.0, 0.0, 0.010), 0.0),
        ('base_link', 'base_laser_link', (-0.1, 0.0, 0.090), 0.0)))


def test_odometry_jumps_are_judged_against_the_robots_own_motion(folder: Path) -> None:
    """
    A Neato's own motion is no jump, though its odometry is sparse (issue 32).

    Reversing its turn at 2.6 rad/s with odometry at 4 Hz, stamps 0.75 s then 0.15 s apart,
    and 1.2 s of lost odometry samples. Its twin: the spinning Neato whose odometry resets
    0.6 m at 10 s jumps, once.
    """
    config, _ = init(record(folder, variant(NEATO, 'neato_jump_reference')))
    spinning = variant(NEATO, 'neato_spinning', spin=2.6, odom_hz=4.0)
    irregular = variant(NEATO, 'neato_irregular', odom_periods=(0.75, 0.15, 0.15, 0.15),
                        speed=0.3, radius=0.5)

    def lost(message: Message) -> Optional[Message]:
        held = T0 + 8.0 <= message.received < T0 + 9.2 and tf_of(message)[0].child == NEATO.base
        return None if held else message
    hole = write(folder, 'neato_lost_samples', edit(drive(irregular), TF_TOPIC, lost), NEATO)
    said = []
    for path in (record(folder, spinning), record(folder, irregular), hole):
        said.append(audit(path, config))
        audited = said[-1]
        assert audited.findings('odometry') == [], (path.name, audited.findings())
    # the lost samples: the edge stopped, and scans then could not be placed; both true
    assert set(audited.checks()) == {'timing', 'lookups'}, audited.findings()
    # the irregular stamps are a timing finding about the stamps; the steady spin has none
    (uneven,) = [f for f in said[1].findings('timing')
                 if 'stamped unevenly' in f['message']]
    assert uneven['level'] == 'WARN' and uneven['values']['long_s'] == pytest.approx(0.75)
    assert uneven['values']['short_s'] == pytest.approx(0.15), uneven
    assert uneven['message'].startswith('odom → base_footprint is stamped unevenly')

    def with_wheel(message: Message) -> Message:  # the stalled computer's joint states too
        (one,) = tf_of(message)
        return replace(message, payload=(one, tf('base_link', 'left_wheel', one.stamp, (
            0.0, 0.1, 3.0 * (one.stamp - T0)))))
    wheeled = audit(write(folder, 'neato_irregular_wheel', edit(
        drive(variant(irregular, 'neato_irregular_wheel')), TF_TOPIC, with_wheel), NEATO), config)
    (both,) = [f for f in wheeled.findings('timing') if 'stamped unevenly' in f['message']]
    assert both['message'].startswith('base_link → left_wheel, odom → base_footprint are '
                                      'stamped unevenly') and both['values']['edges'] == 2
    assert said[0].findings('timing') == []
    # a recorder catching up at its start: a backlog of old samples, far apart by stamp and
    # taken in one burst at 5 s, then the edge at its own pace: no sender stalled
    steady = variant(NEATO, 'neato_backlog', odom_hz=10.0)

    def backlog(message: Message) -> Optional[Message]:
        (one,) = tf_of(message)
        if one.child != NEATO.base or message.received >= T0 + 5.0:
            return message
        kept = round((message.received - T0) * 10.0) % 7 in (0, 3)
        return replace(message, received=T0 + 5.0 + (message.received - T0) * 1e-3) \
            if kept else None
    caught_up = audit(write(folder, 'neato_backlog', edit(drive(steady), TF_TOPIC, backlog),
                            NEATO), config)
    assert not [f for f in caught_up.findings('timing') if 'unevenly' in f['message']], \
        caught_up.findings()
    # a Unity robot: stamps 0.1 s and 0.28 s apart in turn, delivered two at a time: the
    # bunched arrivals are the link's, and the stamps' own steps are even enough
    bunched = variant(NEATO, 'neato_bunched', odom_periods=(0.1, 0.28))
    held: List[float] = []

    def in_pairs(message: Message) -> Message:
        (one,) = tf_of(message)
        if one.child != NEATO.base:
            return message
        held.append(message.received)  # the second of each pair comes 0.1 s after the first
        return replace(message, received=held[-2] + 1e-4) if len(held) % 2 and len(held) > 1 \
            else message
    paired = audit(write(folder, 'neato_bunched', edit(drive(bunched), TF_TOPIC, in_pairs),
                         NEATO), config)
    assert not [f for f in paired.findings('timing') if 'unevenly' in f['message']], \
        paired.findings()

    def reset(message: Message) -> Message:
        (one,) = tf_of(message)
        if one.child != NEATO.base or message.received < T0 + 10.0:
            return message
        x, y, yaw = pose2d(one)
        return replace(message, payload=(tf(one.parent, one.child, one.stamp,
                                            (x + 0.6, y, yaw)),))
    jumped = audit(write(folder, 'neato_reset', edit(drive(spinning), TF_TOPIC, reset), NEATO),
                   config)
    jumps = [f for f in jumped.findings('odometry') if 'jumped once' in f['message']]
    assert len(jumps) == 1 and jumps[0]['level'] == 'ERROR', jumped.findings()


def test_odometry_at_2_hz_stepping_past_jump_m_is_motion(folder: Path) -> None:
    """
    Odometry at 2 Hz, each step 0.3 m on a wide arc or 0.75 m and 0.5 rad on a tight one (F5).

    Every step left the one-sample track it started, so no track ever measured a speed and
    every sample was a jump, at "0.00 m/s the fastest seen". The steps from sample to sample
    show the motion: none is a jump, with the car's config or the robot's own. The twin: the
    line reset by 3 m at 8 s jumps, once.
    """
    line = variant(NEATO, 'neato_2hz_line', odom_hz=2.0, speed=0.6, radius=10.0,
                   seconds=15.0, odom_topic=None)
    curve = variant(line, 'neato_2hz_curve', speed=1.5, radius=1.5)
    config = None
    for robot in (curve, line):
        path = record(folder, robot)
        config, _ = init(record(folder, variant(robot, robot.name + '_reference')))
        for used in (None, config):
            assert audit(path, used).findings('odometry') == [], (robot.name, used)

    def reset(message: Message) -> Message:
        (one,) = tf_of(message)
        if one.child != NEATO.base or message.received < T0 + 8.0:
            return message
        x, y, yaw = pose2d(one)
        return replace(message, payload=(tf(one.parent, one.child, one.stamp, (x + 3.0, y, yaw)),))
    jumped = audit(write(folder, 'neato_2hz_reset', edit(drive(line), TF_TOPIC, reset), NEATO),
                   config)
    said = [f['message'] for f in jumped.findings('odometry')]
    assert len(said) == 1 and 'jumped once' in said[0], said


def test_a_turn_after_standing_still_is_judged_by_the_turns_after_it(folder: Path) -> None:
    """
    Still for 5 s, then driving at 0.2 m/s and turning at 0.35 rad/s, odometry at 0.9 Hz.

    Round E's cart: its first moving step (0.39 rad) came before the edge had shown any turn
    and was one jump, though every later step is the same. A step is judged against the
    motion the edge shows by the time of the verdict. The twin: the same drive set back by
    1 m at 12 s has one jump.
    """
    robot = variant(NEATO, 'neato_slow_odom', odom_hz=0.9, odom_topic=None, seconds=30.0)
    config, _ = init(record(folder, variant(robot, 'neato_slow_odom_reference')))

    def starting(reset_at: float):
        def on_tf(message: Message) -> Message:
            (one,) = tf_of(message)
            if one.child != NEATO.base:
                return message
            moving = max(0.0, one.stamp - T0 - 5.0)
            back = 1.0 if one.stamp - T0 >= reset_at else 0.0
            return replace(message, payload=(tf(one.parent, one.child, one.stamp, (
                0.2 * moving - back, 0.0, 0.35 * moving)),))
        return edit(drive(robot), TF_TOPIC, on_tf)
    smooth = audit(write(folder, 'neato_starts_late', starting(1e9), robot), config)
    assert smooth.findings('odometry') == [], smooth.findings()
    reset = audit(write(folder, 'neato_start_reset', starting(12.0), robot), config)
    (jump,) = reset.findings('odometry')
    assert 'jumped once' in jump['message'] and jump['level'] == 'ERROR', jump


def test_the_configs_limits_for_jumps_stand_in_for_the_recordings(folder: Path) -> None:
    """
    The config's odometry.top_turn_rad_s, where given, is what a jump is judged against.

    The Neato spins at 2.6 rad/s with odometry at 4 Hz: 0.65 rad a step, beyond jump_rad. Its
    own turns explain that; a config saying it cannot turn faster than 1 rad/s makes each step
    a jump, named by the key. Its twin: a limit of 3 rad/s, which the spin keeps within.
    """
    config, text = init(record(folder, variant(NEATO, 'neato_limits_reference')))
    spinning = record(folder, variant(NEATO, 'neato_limits_spinning', spin=2.6, odom_hz=4.0))
    found = {}
    for limit in (1.0, 3.0):
        limited = folder / 'neato_top_turn_{}.yaml'.format(limit)
        limited.write_text(text.replace('odometry:\n', 'odometry:\n      top_turn_rad_s: {}\n'
                                        .format(limit), 1))
        found[limit] = audit(spinning, limited).findings('odometry')
    (jumps,) = found[1.0]
    assert jumps['level'] == 'ERROR', jumps
    assert 'odometry.top_turn_rad_s in {}'.format(folder / 'neato_top_turn_1.0.yaml') \
        in jumps['message'], jumps
    assert found[3.0] == []
    assert audit(spinning, config).findings('odometry') == []


# mavros latches each of these apart from the robot's tree: one point in ENU and in NED
MAVROS_PAIRS = (('fcu', 'fcu_frd', (0.0, 0.0, 0.0), math.pi),
                ('local_origin', 'local_origin_ned', (0.0, 0.0, 0.0), math.pi / 2))


def test_convention_pairs_nothing_names_are_no_second_tree(folder: Path) -> None:
    """
    The static pairs mavros keeps apart from the tree are conventions, not a split (round D).

    No message or config names them and they hold no offset: no node asks tf2 to join them
    to the robot. The twin: a body latched under a root odometry does not drive (a URDF's
    chassis → gps_antenna 1 m up) is a second tree, an ERROR as before.
    """
    config, _ = init(record(folder, variant(BOAT, 'boat_pairs_reference')))
    paired = audit(record(folder, variant(BOAT, 'boat_mavros_pairs', extra_edges=MAVROS_PAIRS)),
                   config)
    assert paired.findings() == [], paired.findings()
    assert '2 trees of fixed rotations alone (one point in two conventions) that no message or ' \
        'config names' in paired.message('connectivity')
    assert '{fcu, fcu_frd}; {local_origin, local_origin_ned}' in paired.message('connectivity')
    apart = audit(record(folder, variant(BOAT, 'boat_body_apart', extra_edges=(
        ('chassis', 'gps_antenna', (0.2, 0.0, 1.0), 0.0),) + MAVROS_PAIRS)), config)
    (split,) = apart.findings()
    assert split['check'] == 'connectivity' and split['level'] == 'ERROR', split
    assert split['message'].startswith('2 separate trees: ') and \
        '{chassis, gps_antenna}' in split['message'], split


SONAR_BOAT = variant(BOAT, 'sonar_boat', scan_frame='sonar', body=BOAT.body + (
    ('base_link', 'sonar', (0.3, 0.0, -0.2), 0.0),))


def second_sensor(messages: List[Message], topic: str, frame: str) -> List[Message]:
    """Add a sensor the config does not audit: a header in frame with each /scan's stamp."""
    return messages + [Message(m.received + 0.01, topic, HeaderRecord(frame, m.payload.stamp))
                       for m in messages if m.topic == '/scan']


@pytest.mark.parametrize('robot, suffix', [(TURTLEBOT, '.mcap'), (TURTLEBOT, '.db3'),
                                           (SONAR_BOAT, '.bag')])
def test_a_frame_only_an_unaudited_topic_names_is_said_when_nothing_places_it(
        folder: Path, robot: Robot, suffix: str) -> None:
    """
    A sensor the config does not read, stamped in a frame no transform reaches (round D).

    As mavros stamps eleven topics in a base_link nobody sends; here a rear LiDAR's rear_laser.
    The first messages' headers are read: one WARN naming the frame and the topic. The twins:
    the same topic in a frame the tree has, and in no frame at all (''), stay quiet.
    """
    name = '{}_{}'.format(robot.name, suffix.lstrip('.'))
    config, _ = init(write(folder, name + '_reference', drive(robot), robot, suffix))
    missing = audit(write(folder, name + '_rear_missing', second_sensor(
        drive(robot), '/scan_rear', 'rear_laser'), robot, suffix), config)
    (one,) = missing.findings()
    assert one['check'] == 'connectivity' and one['level'] == 'WARN', one
    assert 'not in the tree: rear_laser (named by /scan_rear (in the first 5 messages read))' \
        in one['message']
    assert one['frames'] == ['rear_laser'] and one['topics'] == ['/scan_rear']
    for frame in (robot.body[-1][1], ''):
        healthy = audit(write(folder, '{}_rear_{}'.format(name, frame or 'none'), second_sensor(
            drive(robot), '/scan_rear', frame), robot, suffix), config)
        assert healthy.findings() == [], (frame, healthy.findings())


UTM = (512345.0, 4512345.0, 0.0)  # a survey's origin in UTM zone coordinates, m


def test_a_georeference_at_the_root_is_no_far_value(folder: Path) -> None:
    """
    A fixed datum at the tree's root is a position on the Earth, not a value gone wrong.

    navsat_transform's utm → map, and a survey boat's map → odom at its UTM origin (round D),
    are kept in doubles by tf2. The twin: the same numbers on a sensor's mount below the root
    (base_link → gps) put the GPS 4,500 km from the boat: a WARN, as before.
    """
    config, _ = init(record(folder, variant(BOAT, 'boat_utm_reference')))
    for robot in (variant(BOAT, 'boat_utm_map', extra_edges=(('utm', 'map', UTM, 0.0),)),
                  variant(BOAT, 'boat_utm_odom', map_frame=None,
                          extra_edges=(('map', 'odom', UTM, 0.0),))):
        audited = audit(record(folder, robot), config)
        assert audited.findings('transform_values') == [], (robot.name, audited.findings())
        assert 'a fixed position on the Earth at the root' in \
            audited.message('transform_values'), robot.name
    far = audit(record(folder, variant(BOAT, 'boat_utm_gps', body=(
        ('base_link', 'gps', UTM, 0.0), ('base_link', 'imu', (0.0, 0.0, 0.3), 0.0)))), config)
    (mount,) = far.findings('transform_values')
    assert mount['level'] == 'WARN' and 'base_link → gps' in mount['message'], mount
    assert mount['message'].startswith('A translation beyond 1,000 km on /tf_static')


def test_another_robot_under_the_car_config_is_pointed_to_init(folder: Path) -> None:
    """
    Every robot whose frames are not the config's gets one finding, pointing to init.

    With no --config the car's file only stands in: the pointer is a WARN and the audit passes.
    Named with --config, the car's frames are the user's claim: the same pointer is an ERROR.
    """
    robots = {variant(TURTLEBOT, 'tb3_default_config'): ['laser_offset', 'odometry'],
              variant(TURTLEBOT, 'tb3_base_link', base='base_link', body=(
                  ('base_link', 'base_scan', (-0.032, 0.0, 0.172), 0.0),),
                  poses=(PoseOut('/amcl_pose', 'base_link', 5.0),)): ['laser_offset'],
              variant(RACECAR, 'racecar_default_config'): ['laser_offset'],
              NEATO: ['chain_order', 'laser_offset', 'odometry'],
              FOXBOT: ['chain_order', 'laser_offset']}
    for robot, checks in robots.items():
        path = record(folder, robot)
        for config, level, code in ((None, 'WARN', 0), (default_config_file(), 'ERROR', 1)):
            audited = audit(path, config)
            assert len(audited.findings()) == 1, (robot.name, audited.findings())
            one = audited.findings()[0]
            assert one['message'].count('frame-audit init') == 1 and one['level'] == level
            assert one['values'].get('checks', one['check']) == ', '.join(checks)
            assert audited.code == code
            assert ('no --config was given' in one['message']) == (config is None)
    neato = audit(folder / 'neato.mcap').findings()[0]['message']
    assert 'map is not in the tree' in neato and 'but base_laser_link (/scan header) is in ' \
        'the tree' in neato and "/odom's child_frame_id is 'base_footprint'" in neato


OTHER_ROBOTS = (  # as their public recordings look (issue 32)
    variant(TURTLEBOT, 'turtlebot2', ros1=True, slash=True, map_frame=None, poses=(),
            scan_frame='camera_depth_frame', body=(  # the scan from a depth camera
                ('base_footprint', 'base_link', (0.0, 0.0, 0.0102), 0.0),
                ('base_link', 'camera_rgb_frame', (-0.087, -0.0125, 0.287), 0.0),
                ('camera_rgb_frame', 'camera_depth_frame', (0.0, 0.025, 0.0), 0.0))),
    variant(TURTLEBOT, 'tb3_webots', map_frame=None, base='base_link', poses=(),
            scan_frame=None, body=(('base_link', 'LDS-01', (-0.032, 0.0, 0.172), 0.0),)),
    variant(TURTLEBOT, 'tb4_nav2', base='base_link', scan_frame='rplidar_link',
            poses=(PoseOut('/amcl_pose', 'base_link', 5.0),), body=(
                ('base_link', 'shell_link', (0.0, 0.0, 0.09), 0.0),
                ('shell_link', 'rplidar_link', (-0.04, 0.0, 0.098), math.pi / 2))),
    variant(FOXBOT, 'two_lasers', scan_frame='front_laser', poses=(), body=(
        ('base_link', 'front_laser', (0.3, 0.0, 0.2), 0.0),
        ('base_link', 'rear_laser', (-0.3, 0.0, 0.2), math.pi))),
    variant(TURTLEBOT, 'tb3_no_scan', scan_frame=None),  # its LiDAR known by name only
    variant(TURTLEBOT, 'evo_tf_example', map_frame=None, odom_topic=None, scan_frame=None,
            poses=(), body=(('base_footprint', 'base_link', (0.0, 0.0, 0.01), 0.0),)),
    variant(BOAT, 'sailboat'),  # the car's map -> odom -> base_link, and no LiDAR at all
    variant(TURTLEBOT, 'jetacker', scan_frame='laser', poses=(), body=(  # laser beside the base
        ('base_footprint', 'base_link', (0.0, 0.0, 0.0), 0.0),
        ('base_footprint', 'laser', (0.0, 0.0, 0.0), 0.0))))
LIDAR_SAID = {'tb3_no_scan': 'base_scan below base_link is named like a LiDAR',
              'tb3_webots': 'LDS-01 below base_link is named like a LiDAR',
              'evo_tf_example': 'no frame below base_link is named like a LiDAR',
              'sailboat': 'no frame below base_link is named like a LiDAR',
              'jetacker': 'laser is not below base_link'}


@pytest.mark.parametrize('robot', OTHER_ROBOTS, ids=lambda robot: robot.name)
def test_other_robots_get_their_pointer_and_nothing_else(folder: Path, robot: Robot) -> None:
    """
    With no --config, another robot gets one WARN pointing to init, and nothing else.

    Its twin under its own config gets nothing. TurtleBot2's ROS 1 '/' ids stay findings of
    their own: they are true.
    """
    audited = audit(record(folder, robot))
    pointer = [f for f in audited.findings() if 'frame-audit init' in f['message']]
    assert len(pointer) == 1 and pointer[0]['level'] == 'WARN', audited.findings()
    assert audited.code == 0 and 'ERROR' not in {f['level'] for f in audited.findings()}
    assert {f['check'] for f in audited.findings()} - {pointer[0]['check']} <= \
        ({'transform_values'} if robot.slash else set()), audited.findings()
    assert LIDAR_SAID.get(robot.name, '(/scan header) is in the tree') in pointer[0]['message']
    config, _ = init(folder / '{}{}'.format(robot.name, '.bag' if robot.ros1 else '.mcap'))
    twin = audit(record(folder, variant(robot, robot.name + '_twin')), config)
    assert twin.code == 0 and {f['check'] for f in twin.findings()} <= \
        ({'transform_values'} if robot.slash else set()), twin.findings()


def test_a_turtlebot2_with_no_tf_static_gets_one_pointer(folder: Path) -> None:
    """
    A Kobuki recorded without /tf_static, its scan '/camera_depth_frame': another robot.

    The scan names its own LiDAR and the tree has neither that nor the car's laser: the
    pointer says so, and laser_offset adds no WARN of the car's laser beside it. The slash is
    a WARN: message filters strip it. The twin, the car with no /tf_static (its scan names
    laser), keeps its laser_offset WARN (test_offline_faults' no_tf_static).
    """
    kobuki = variant(OTHER_ROBOTS[0], 'kobuki_no_static', slash=False, tf_static=False,
                     scan_frame='/camera_depth_frame')  # base_link: the wheels' parent
    audited = audit(write(folder, kobuki.name, wheels_on_tf(drive(kobuki)), kobuki, '.bag'))
    assert audited.code == 0 and not audited.findings('laser_offset'), audited.findings()
    (pointer,) = [f for f in audited.findings() if 'frame-audit init' in f['message']]
    assert "/scan's header names camera_depth_frame, which the tree lacks too" in \
        pointer['message']
    (slash,) = [f for f in audited.findings() if "'/camera_depth_frame'" in f['message']]
    assert slash['level'] == 'WARN' and '(the tree has no camera_depth_frame either)' in \
        slash['message']


def test_one_pointer_to_init_leaves_other_causes_their_own(folder: Path) -> None:
    """The Neato under its own config is quiet; a second odometry node stays its own ERROR."""
    config, _ = init(record(folder, variant(NEATO, 'neato_reference')))
    assert audit(record(folder, variant(NEATO, 'neato_twin')), config).findings() == []
    faulty = audit(record(folder, variant(NEATO, 'neato_two_odom', second_odom_hz=30.0)))
    pointers = [f for f in faulty.findings() if 'frame-audit init' in f['message']]
    assert len(pointers) == 1 and pointers[0]['check'] == 'chain_order'
    assert [f['level'] for f in faulty.findings('parent_uniqueness')] == ['ERROR']


def test_faults_under_the_robots_own_config_are_not_pointed_to_init(folder: Path) -> None:
    """
    Two faults on a robot's own config are two findings, neither pointing to init.

    A racecar under its init-made config, SLAM down and the LiDAR mount not launched: each
    its own ERROR. The twin with both running is quiet.
    """
    car = variant(RACECAR, 'racecar_imu', extra_edges=(('base_link', 'imu', (0.1, 0.0, 0.05),
                                                        0.0),))
    config, _ = init(record(folder, car))

    def unmounted(message: Message) -> Message:
        return replace(message, payload=tuple(r for r in tf_of(message) if r.child != 'lidar'))
    down = variant(car, 'racecar_slam_down', map_missing=True)
    faulty = audit(write(folder, down.name, edit(drive(down), TF_STATIC_TOPIC, unmounted), down),
                   config)
    said = [(f['check'], f['level'], f['frames']) for f in faulty.findings()]
    assert said == [('chain_order', 'ERROR', ['map']),
                    ('laser_offset', 'ERROR', ['base_link', 'lidar'])], faulty.findings()
    assert not any('frame-audit init' in f['message'] for f in faulty.findings())
    # absent from the start, judged once the warm-up (2 × timing.stale_after_s) had passed
    assert [f['first_seen_s'] for f in faulty.findings()] == [2.0, 2.0]
    assert [f['values']['judged_from_s'] for f in faulty.findings()] == [2.0, 2.0]
    assert faulty.findings('laser_offset')[0]['message'].startswith(
        'lidar is not in the tree: nothing publishes base_link → lidar')
    twin = audit(record(folder, variant(car, 'racecar_imu_twin')), config)
    assert twin.code == 0 and twin.findings() == []


def test_lost_tf_static_is_said_only_where_a_static_edge_is_missing(folder: Path,
                                                                    turtlebot) -> None:
    """The LiDAR's edge came on /tf: nothing static was lost, the config names another frame."""
    def scan_on_tf(message: Message) -> Message:
        stamp = tf_of(message)[0].stamp
        return replace(message, payload=tf_of(message) + tuple(
            tf(p, c, stamp, (xyz[0], xyz[1], yaw), xyz[2]) for p, c, xyz, yaw in TURTLEBOT.body))
    robot = variant(TURTLEBOT, 'tb3_no_static', tf_static=False)
    on_tf = audit(write(folder, 'tb3_body_on_tf', edit(drive(robot), TF_TOPIC, scan_on_tf)))
    lost = [f for f in on_tf.findings() if 'no /tf_static was received' in f['message']]
    assert lost == [] and any('set frames.laser' in f['message'] for f in on_tf.findings())
    # the twin: the body was on /tf_static, and the recorder started after it
    missing = audit(record(folder, robot))
    assert any('no /tf_static was received' in f['message'] for f in missing.findings())


def slowed_ekf(message: Message) -> Optional[Message]:
    """Slow an EKF at 30 Hz to 15 Hz halfway (a loaded computer): 22.5 Hz over the drive."""
    late = message.received >= T0 + 10.0
    if late and any(r.child == 'base_footprint' for r in tf_of(message)) \
            and round((message.received - T0) * 30.0) % 2:
        return None
    return message


def test_rates_are_over_the_whole_recording(folder: Path, turtlebot) -> None:
    """An EKF at 30 Hz slows to 15 Hz halfway (a loaded computer): 22.5 Hz came over the drive."""
    halved = audit(write(folder, 'tb3_slowed_ekf', edit(drive(TURTLEBOT), TF_TOPIC,
                                                        slowed_ekf)), turtlebot['config'])
    rates = {f['frame']: f['rate_hz'] for f in halved.report['frames']}
    assert rates['base_footprint'] == pytest.approx(449 / 19.97, abs=0.3)  # the last 100: 15
    steady = audit(turtlebot['recording'], turtlebot['config'])
    rates = {f['frame']: f['rate_hz'] for f in steady.report['frames']}
    assert rates['base_footprint'] == pytest.approx(30.0, abs=0.2)
    assert rates['odom'] == pytest.approx(10.0, abs=0.2) and rates['base_scan'] is None


def test_one_edge_has_one_rate_in_every_part_of_a_report() -> None:
    """The Frames row, a finding's source, the picture and diff: 22.5 Hz for the slowed EKF."""
    audit = Audit(AuditConfig(), recorded={})
    messages = edit(drive(TURTLEBOT), TF_TOPIC, slowed_ekf)
    for message in messages[:-1]:
        audit.add(message)
    edge = audit.store.edges[('odom', 'base_footprint')]

    def rates() -> List[str]:
        row = next(r for r in frame_rows(audit.tree) if r.frame == 'base_footprint')
        side = side_of_recording(None, audit.tree, 'drive')
        label = next(line for line in tree_source(audit.tree, []).splitlines()
                     if line.endswith('tooltip="odom → base_footprint"]'))  # '22.5 Hz" ...'
        return [fmt(row.rate_hz, 1), fmt(side.moving[edge.key][1], 1),
                source(edge).split(', ')[1], label.split(' Hz"')[0]]
    reading = rates()  # still being read (as live): the recent window, 15 Hz
    assert reading == ['15.0', '15.0', '15.0 Hz', '15.0'], reading
    audit.add(messages[-1])
    audit.check(final=True)  # read to its end: over the whole drive, everywhere
    assert rates() == ['22.5', '22.5', '22.5 Hz', '22.5'], rates()


def test_rates_are_messages_over_time(folder: Path, turtlebot) -> None:
    """A sender whose clock runs 11 % fast stretches its stamps; 30 messages a second came."""
    def fast_clock(message: Message) -> Message:
        return replace(message, payload=tuple(
            replace(r, stamp=T0 + (r.stamp - T0) * 1.11) if r.child == 'base_footprint' else r
            for r in tf_of(message)))
    stretched = audit(write(folder, 'tb3_fast_clock', edit(drive(TURTLEBOT), TF_TOPIC,
                                                           fast_clock)), turtlebot['config'])
    rates = {f['frame']: f['rate_hz'] for f in stretched.report['frames']}
    assert rates['base_footprint'] == pytest.approx(30.0, abs=0.3)  # by stamps: 27.0
    assert rates['odom'] == pytest.approx(10.0, abs=0.2)


def test_an_edge_that_stops_and_comes_again_is_gone_by_the_end(folder: Path, turtlebot) -> None:
    """
    Say AMCL's map → odom silent for 3 s mid-drive, odometry going on, as an ERROR then.

    The report keeps it (the robot had it at that time) and says it was gone by the end: the
    last check that had it, in JSON `cleared_after_s`. The twin: silent to the end, no such
    time.
    """
    def silent(since: float, until: float):
        def drop(message: Message) -> Optional[Message]:
            kept = tuple(r for r in tf_of(message) if r.child != 'odom'
                         or not since <= message.received - T0 < until)
            return replace(message, payload=kept) if kept else None
        return drop
    stopped = {}
    for name, until in (('amcl_gap', 11.0), ('amcl_gone', 99.0)):
        messages = edit(drive(TURTLEBOT), TF_TOPIC, silent(8.0, until))
        audited = audit(write(folder, name, messages), turtlebot['config'])
        (stopped[name],) = [f for f in audited.findings('timing') if 'stopped' in f['message']]
    assert 8.0 < stopped['amcl_gap']['first_seen_s'] < stopped['amcl_gap']['cleared_after_s'] \
        < 12.0
    assert stopped['amcl_gone']['cleared_after_s'] is None


def test_a_static_transform_sent_once_is_never_gone_by_the_end(folder: Path, turtlebot) -> None:
    """
    Keep a finding about a /tf_static edge in force: tf2 holds it though it is not sent again.

    A sailboat's '/base_link' → '/gps' on /tf_static, sent once: transform_values' window of
    its last messages empties, but the '/' ids stay in tf2's buffer (round F2 read "gone by
    the end"). The twin: the /tf edge that stops and comes again still says it went.
    """
    def slashed(message: Message) -> Message:
        return replace(message, payload=tuple(
            replace(r, parent='/' + r.parent, child='/' + r.child) for r in tf_of(message)))
    audited = audit(write(folder, 'static_slash', edit(drive(TURTLEBOT), TF_STATIC_TOPIC,
                                                       slashed)), turtlebot['config'])
    (slash,) = [f for f in audited.findings('transform_values') if "'/'" in f['message']]
    assert slash['cleared_after_s'] is None, slash
