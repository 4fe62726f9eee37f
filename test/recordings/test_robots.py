# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Verdicts on other people's robots: each habit recorded, audited, and its healthy twin quiet.

Every recording is written by the project's own writer from test/robots.py; the audit runs
through the command line as a user would run it. Each fault test has a twin that differs
in that one habit and must stay quiet: a false alarm is as bad as a missed fault.
"""
from dataclasses import replace
import json
import math
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from frame_audit.cli import main
from frame_audit.engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from frame_audit.message_types import ODOMETRY, POSE_STAMPED, POSE_WITH_COVARIANCE
from frame_audit.recordings.write import write_bag
from frame_audit.sim.car import drive as drive_car, POSE_TYPES
import pytest
from robots import Audited, drive, FOXBOT, joints, MOCAP_CAR, RACECAR, record, Robot, T0, \
    TURTLESIM, variant

TURTLEBOT = Robot()


@pytest.fixture(scope='module')
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp('robots')


@pytest.fixture(scope='module')
def run(folder: Path):
    """Return a function that audits a robot's recording, each recording written once."""
    written: Dict[str, Path] = {}

    def audit(robot: Robot, config: Optional[Path] = None) -> Audited:
        if robot.name not in written:
            written[robot.name] = record(folder, robot)
        output = folder / (robot.name + '.json')
        args = ['audit', str(written[robot.name]), '--format', 'json', '--output', str(output)]
        code = main(args + (['--config', str(config)] if config else []))
        return Audited(code, json.loads(output.read_text()))
    return audit


@pytest.fixture(scope='module')
def configs(folder: Path) -> Dict[str, Path]:
    """Return each healthy robot's config, written by frame-audit init from its recording."""
    made = {}
    for robot in (TURTLEBOT, FOXBOT, RACECAR):
        path = record(folder, variant(robot, robot.name + '_reference'))
        made[robot.name] = folder / (robot.name + '.yaml')
        assert main(['init', str(path), '--output', str(made[robot.name])]) == 0
    return made


def quiet(audited: Audited) -> bool:
    """Return whether an audit found nothing at WARN or above and exited 0."""
    return audited.code == 0 and audited.findings() == []


# -- any robot, one command away ----------------------------------------------------------

@pytest.mark.parametrize('robot', [TURTLEBOT, FOXBOT, RACECAR], ids=lambda r: r.name)
def test_init_round_trip(robot: Robot, run, configs: Dict[str, Path]) -> None:
    audited = run(robot, configs[robot.name])
    assert quiet(audited), audited.findings()
    assert {c['level'] for c in audited.report['checks']} == {'OK'}


def test_init_describes_a_turtlebot_by_structure(configs: Dict[str, Path]) -> None:
    text = configs['turtlebot'].read_text()
    for line in ('base: base_footprint', 'laser: base_scan', 'translation: [-0.032, 0.0, 0.182]',
                 'topic: /amcl_pose', 'pose_frame: base_footprint',
                 'required: [map, odom, base_footprint, base_scan]'):
        assert line in text
    foxbot = configs['foxbot'].read_text()
    assert 'required: [odom, base_link, velodyne]' in foxbot  # no map in that recording
    assert 'topic: /odometry/filtered' in foxbot


def test_init_round_trip_on_the_f1tenth_car(folder: Path, capsys) -> None:
    healthy, later = folder / 'car.mcap', folder / 'car_later.mcap'
    write_bag(healthy, drive_car(12.0, seed=1), pose_types=POSE_TYPES, beams=16)
    write_bag(later, drive_car(12.0, seed=2, faults=['laser_027']), pose_types=POSE_TYPES,
              beams=16)
    assert main(['init', str(healthy), '--output', '-']) == 0
    config = folder / 'car.yaml'
    config.write_text(capsys.readouterr().out)
    text = config.read_text()
    assert 'pose_frame: laser' in text and 'pose_frame: base_link' in text
    assert main(['audit', str(healthy), '--config', str(config)]) == 0
    assert main(['audit', str(later), '--config', str(config)]) == 1
    assert 'laser_offset' in capsys.readouterr().out


def test_a_moved_lidar_or_a_wrong_pose_topic_fails_against_the_reference(
        run, configs: Dict[str, Path]) -> None:
    moved = variant(RACECAR, 'racecar_moved', body=(('base_link', 'lidar', (0.26, 0.0, 0.09),
                                                     0.0),))
    audited = run(moved, configs['racecar'])
    assert audited.code == 1 and [f['check'] for f in audited.findings()] == ['laser_offset']
    wrong = variant(RACECAR, 'racecar_wrong_pose', poses=(
        RACECAR.poses[0].__class__('/pf/pose', 'base_link', 40.0),))
    audited = run(wrong, configs['racecar'])
    assert audited.code == 1
    found = audited.findings('pose_frame')
    assert found and "but its poses are base_link's" in found[0]['message']


def with_empty_topic(source: Path, folder: Path, topic: str, msgtype: str) -> Path:
    """Copy a recording to a rosbag2 folder that also declares topic, with no message on it."""
    from rosbags.highlevel import AnyReader
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores
    store = get_typestore(Stores.ROS2_HUMBLE)
    with AnyReader([source]) as reader, Writer(folder, version=Writer.VERSION_LATEST,
                                               storage_plugin=StoragePlugin.MCAP) as writer:
        copied = {c.id: writer.add_connection(c.topic, c.msgtype, typestore=store)
                  for c in reader.connections}
        writer.add_connection(topic, msgtype, typestore=store)
        for connection, log_ns, data in reader.messages():
            writer.write(copied[connection.id], log_ns, data)
    return folder


def test_init_names_the_lidar_by_its_frame_when_no_scan_was_recorded(folder: Path, run) -> None:
    """No /scan recorded: the LiDAR is the frame named like one, said as such, and measured."""
    robot = variant(TURTLEBOT, 'turtlebot_no_scan', scan_frame=None)
    config = folder / 'turtlebot_no_scan.yaml'
    reference = record(folder, variant(robot, robot.name + '_reference'))
    assert main(['init', str(reference), '--output', str(config)]) == 0
    text = config.read_text()
    assert 'laser: base_scan  # named like a LiDAR; no scan topic was recorded: check it' in text
    assert 'translation: [-0.032, 0.0, 0.182]' in text  # its mount, measured, not the car's
    assert 'the LiDAR is taken to be base_scan, by its name' in text
    assert quiet(run(robot, config))
    # a /scan declared but never published (0 messages) is no scan recorded
    empty = with_empty_topic(reference, folder / 'turtlebot_empty_scan', '/scan',
                             'sensor_msgs/msg/LaserScan')
    assert main(['init', str(empty), '--output', str(folder / 'empty_scan.yaml')]) == 0
    text = (folder / 'empty_scan.yaml').read_text()
    assert 'laser: base_scan  # named like a LiDAR' in text and '/scan  # not in the' in text
    # the twin with two frames named like a LiDAR: neither is chosen, both are named
    two = variant(TURTLEBOT, 'turtlebot_two_lidars', scan_frame=None,
                  extra_edges=(('base_link', 'rear_laser', (-0.2, 0.0, 0.15), math.pi),))
    config = folder / 'turtlebot_two_lidars.yaml'
    assert main(['init', str(record(folder, two)), '--output', str(config)]) == 0
    text = config.read_text()
    assert "laser: ''" in text and 'laser_offset' not in text.split('# note')[0]
    assert 'base_scan, rear_laser are named like a LiDAR' in text


def test_a_scan_in_the_base_itself_has_no_mount_to_check(folder: Path, run) -> None:
    """
    A scan merged from two LiDARs into the base frame (round E's shelf robot): no mount.

    init wrote laser: base_link, and the audit then said base_link → base_link cannot be
    composed (an ERROR). Now init writes no laser_offset and says why, and laser_offset is
    not checked (STALE, saying so); the scan's lookups are still judged. The twin, a scan in
    a LiDAR's own frame below the base, keeps its mount (the test above).
    """
    merged = variant(TURTLEBOT, 'turtlebot_merged_scan', scan_frame='base_footprint')
    config = folder / 'turtlebot_merged_scan.yaml'
    reference = record(folder, variant(merged, merged.name + '_reference'))
    assert main(['init', str(reference), '--output', str(config)]) == 0
    text = config.read_text()
    assert "laser: base_footprint  # the scan's header frame: the base itself" in text
    assert 'laser_offset' not in text.split('# note')[0]
    assert 'the scan is in base_footprint itself' in text
    audited = run(merged, config)
    assert quiet(audited) and audited.level('laser_offset') == 'STALE'
    assert 'frames.laser in {} is base_footprint itself'.format(config) in \
        audited.message('laser_offset')
    assert audited.level('lookups') == 'OK', audited.message('lookups')


def test_lidars_of_other_names_sent_on_tf_get_the_pointer_not_a_lost_static(folder: Path) -> None:
    """
    No /tf_static at all, and laser_front and laser_rear on /tf (round E's shelf robot).

    The car's laser is missing because this robot names its LiDARs otherwise: the pointer,
    naming them. It was "no /tf_static was received". A robot with no frame named like a
    LiDAR and no header naming laser gets the pointer too (round F2's LOAM rig: the car's
    laser is nobody's claim there); the car with no /tf_static, its scan in laser, keeps the
    lost-static words (test_offline_faults' no_tf_static).
    """
    body = (('base_footprint', 'base_link', (0.0, 0.0, 0.01), 0.0),
            ('base_link', 'laser_front', (0.3, 0.0, 0.2), 0.0),
            ('base_link', 'laser_rear', (-0.3, 0.0, 0.2), math.pi))
    said = {}
    for name, mounts in (('shelf_lidars', body), ('shelf_no_lidar', body[:1])):
        robot = variant(TURTLEBOT, name, scan_frame=None, body=mounts, poses=())
        path = folder / (name + '.mcap')
        write_bag(path, [replace(m, topic=TF_TOPIC) if m.topic == TF_STATIC_TOPIC else m
                         for m in drive(robot)], beams=8)
        output = folder / (name + '.json')
        assert main(['audit', str(path), '--format', 'json', '--output', str(output)]) == 0
        (said[name],) = [f for f in json.loads(output.read_text())['findings']
                         if f['check'] == 'laser_offset']
    pointer = said['shelf_lidars']['message']
    assert 'but laser_front and laser_rear below base_link are named like a LiDAR' in pointer
    assert 'frame-audit init' in pointer and 'no /tf_static' not in pointer
    assert 'no frame below base_link is named like a LiDAR' in said['shelf_no_lidar']['message']
    assert 'frame-audit init' in said['shelf_no_lidar']['message']


def test_a_config_that_sets_no_laser_offset_compares_no_mount(run, folder: Path,
                                                              configs: Dict[str, Path]) -> None:
    """A robot's own file without laser_offset: STALE, never the F1TENTH car's 0.26 m."""
    lines = configs['turtlebot'].read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('    laser_offset:'))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith('      '))
    config = folder / 'turtlebot_no_mount.yaml'
    config.write_text('\n'.join(lines[:start] + lines[end:]) + '\n')
    audited = run(TURTLEBOT, config)
    assert audited.code == 0 and audited.findings() == [], audited.findings()
    assert audited.level('laser_offset') == 'STALE'
    message = audited.message('laser_offset')
    assert 'base_footprint → base_scan is' in message and '0.26' not in message
    assert '{} sets no laser_offset'.format(config) in message
    # the twin: the file that sets it compares it, and the car's defaults, chosen by giving
    # no file, still judge the car (test_init_round_trip_on_the_f1tenth_car)
    assert run(TURTLEBOT, configs['turtlebot']).level('laser_offset') == 'OK'


def test_the_car_without_config_still_fails_for_frames_its_own_data_names(folder: Path) -> None:
    """
    The pointer's twin: the car audited with no --config keeps its ERRORs (issue 32).

    Its LiDAR mount not sent while its scans name laser, and slam_toolbox's map -> odom not
    sent while its poses are in map: the recording's own messages name both frames.
    """
    def edit(message, change):
        if not isinstance(message.payload, tuple):
            return message
        kept = tuple(r for r in map(change, message.payload) if r is not None)
        return replace(message, payload=kept) if kept else None
    unmounted = (lambda r: replace(r, child='imu') if r.child == 'laser' else r)  # IMU's kept
    slam_down = (lambda r: None if r.child == 'odom' else r)
    for change, check in ((unmounted, 'laser_offset'), (slam_down, 'chain_order')):
        path = folder / 'car_without_{}.mcap'.format(check)
        messages = [m for m in (edit(m, change) for m in drive_car(12.0, seed=4)) if m]
        write_bag(path, messages, pose_types=POSE_TYPES, beams=16)
        assert main(['audit', str(path), '--format', 'json', '--output',
                     str(path.with_suffix('.json'))]) == 1
        found = [f for f in json.loads(path.with_suffix('.json').read_text())['findings']
                 if f['check'] == check]
        assert [f['level'] for f in found] == ['ERROR'], found
        assert 'frame-audit init' not in found[0]['message']


def _arm(seconds: float = 8.0) -> List[Message]:
    """Return a fixed-base arm: two joints turning in place under its root, a static hand."""
    return joints([('arm_link0', 'arm_link1', 0.333, lambda t: (0.0, 0.0, 0.8 * math.sin(t))),
                   ('arm_link1', 'arm_link2', 0.316, lambda t: (0.0, 0.0, 0.5 * math.cos(t)))],
                  [('arm_link2', 'arm_hand', (0.0, 0.0, 0.1), 0.0)], seconds)


def _drone(body: str = 'body', seconds: float = 8.0) -> List[Message]:
    """Return a drone under motion capture: world -> body, a camera on it, a setpoint too."""
    def flight(lead: float):
        return lambda t: (math.cos(0.5 * t) + lead, math.sin(0.5 * t), 0.5 * t)
    return joints([('world', body, 1.0, flight(0.0)), ('world', 'setpoint', 1.0, flight(0.05))],
                  [(body, 'camera', (0.1, 0.0, -0.05), 0.0)], seconds)


WITHOUT_ODOMETRY = {  # name -> (messages, (map, odom, base) init should find)
    'turtlesim': (lambda: drive(TURTLESIM), ('world', 'world', 'turtle1')),
    'mocap_car': (lambda: drive(MOCAP_CAR), ('map', 'map', 'car')),
    'drone': (_drone, ('world', 'world', 'body')),
    'arm': (_arm, ('arm_link0', 'arm_link0', 'arm_link0')),
}


@pytest.mark.parametrize('name', sorted(WITHOUT_ODOMETRY))
def test_init_measures_a_robot_without_odometry_by_its_root(name: str, folder: Path,
                                                            capsys) -> None:
    """
    No odometry: odom's role is the world-fixed root, the base what moves as a body under it.

    Round F3's drone, Vicon car and Panda were refused; now init writes their frames, says how
    each was chosen, and the same recording audited with that config is quiet. A drone's
    setpoint moves under world too: the body is the one with frames below it. An arm's joints
    turn in place, so nothing moves as a body: the base is the root.
    """
    messages, (map_frame, odom, base) = WITHOUT_ODOMETRY[name]
    path = folder / (name + '_measured.mcap')
    write_bag(path, messages(), pose_types={'/vicon/car': POSE_STAMPED})
    config = path.with_suffix('.yaml')
    assert main(['init', str(path), '--output', str(config)]) == 0, capsys.readouterr().err
    text = config.read_text()
    for key, frame in (('map', map_frame), ('odom', odom), ('base', base)):
        assert '      {}: {}  # '.format(key, frame) in text, text
    assert 'check frames.map, frames.odom and frames.base' in text
    output = path.with_suffix('.json')
    assert main(['audit', str(path), '--config', str(config), '--format', 'json',
                 '--output', str(output)]) == 0
    report = json.loads(output.read_text())
    assert report['findings'] == []
    odometry = next(c['message'] for c in report['checks'] if c['check'] == 'odometry')
    assert ('a fixed base, no edge between them' in odometry) == (odom == base), odometry
    assert main(['audit', str(path), '--format', 'json', '--output', str(output)]) == 0
    pointers = [f['message'] for f in json.loads(output.read_text())['findings']]
    assert pointers and all('by hand' not in message for message in pointers), pointers


def test_a_drone_whose_body_is_renamed_fails_against_its_init_config(folder: Path) -> None:
    """Its twin above is quiet: a later flight whose motion capture names another body is not."""
    reference, later = folder / 'drone_reference.mcap', folder / 'drone_renamed.mcap'
    write_bag(reference, _drone())
    write_bag(later, _drone('drone_1'))
    config = folder / 'drone.yaml'
    assert main(['init', str(reference), '--output', str(config)]) == 0
    output = folder / 'drone_renamed.json'
    assert main(['audit', str(later), '--config', str(config), '--format', 'json',
                 '--output', str(output)]) == 1
    found = json.loads(output.read_text())['findings']
    assert [(f['check'], f['level']) for f in found] == [('chain_order', 'ERROR')], found
    assert 'body is not in the tree' in found[0]['message']


def test_the_pointer_says_by_hand_where_inits_odometry_names_no_frame_of_the_tree(
        folder: Path, capsys) -> None:
    """
    A Husky's /husky_velocity_controller/odom names odom, which no transform carries (round F3).

    init takes that topic, finds no odom in the tree and stops: the pointer must say what to
    do instead, as init does. Its twin sends odom -> base_link: init measures it, and the
    pointer is init's alone.
    """
    husky = Robot(name='husky', map_frame=None, base='base_link', scan_frame=None, poses=(),
                  body=(('base_link', 'imu_link', (0.0, 0.0, 0.1), 0.0),),
                  odom_topic='/husky_velocity_controller/odom')
    for name, odom_on_tf in (('husky_odom_not_sent', False), ('husky', True)):
        path = folder / (name + '.mcap')
        write_bag(path, [m for m in drive(husky) if odom_on_tf or not (
            m.topic == TF_TOPIC and any(r.child == 'base_link' for r in m.payload))])
        output = path.with_suffix('.json')
        assert main(['audit', str(path), '--format', 'json', '--output', str(output)]) == 0
        pointers = [f['message'] for f in json.loads(output.read_text())['findings']
                    if 'frame-audit init' in f['message']]
        assert len(pointers) == 1
        assert ('set frames.* by hand' in pointers[0]) != odom_on_tf, pointers[0]
        capsys.readouterr()
        code = main(['init', str(path), '--output', str(path.with_suffix('.yaml'))])
        assert code == (0 if odom_on_tf else 2), capsys.readouterr().err


def test_init_names_each_required_frame_once_where_the_scan_is_in_the_base(folder: Path) -> None:
    """A ZED base merges its LiDARs' scans in base_link: the LiDAR is the base (round F3)."""
    merged = Robot(name='merged_scan', scan_frame='base_footprint')
    path = record(folder, merged)
    config = folder / 'merged_scan.yaml'
    assert main(['init', str(path), '--output', str(config)]) == 0
    required = next(line for line in config.read_text().splitlines() if 'required:' in line)
    assert required.split('#')[0].strip() == 'required: [map, odom, base_footprint]', required


def test_init_writes_the_lookups_it_did_not_measure_and_says_so(configs) -> None:
    """
    A wait is no recording's to measure: the car's stands in, in the file, marked check.

    Only into frames the recording has: the Foxbot has no map (round F4's TurtleBot3s got a
    lookup into a map they never had).
    """
    for robot in (TURTLEBOT, FOXBOT, RACECAR):
        text = configs[robot.name].read_text()
        assert "lookups:  # check: your nodes' TF waits; not measured" in text, robot
        entries = ["'/scan -> {} within 0.1'".format(frame) for frame in ('map', 'odom')
                   if frame != 'map' or robot.map_frame]
        assert 'entries: [{}]'.format(', '.join(entries)) in text, robot.name


# -- messages name config keys and tree facts ------------------------------------------------

def test_a_turtlebot_under_the_car_config_says_so_once(run) -> None:
    audited = run(TURTLEBOT)
    assert len(audited.findings()) == 1  # one cause: the config describes another robot
    once = audited.findings()[0]  # no --config: the car's file stood in, so it fails nothing
    assert once['check'] == 'laser_offset' and once['level'] == 'WARN' and audited.code == 0
    assert once['values']['checks'] == 'laser_offset, odometry'
    message = once['message']
    assert "/odom's child_frame_id is 'base_footprint'" in message
    assert 'frames.base in' in message and "is 'base_link'" in message
    assert 'it has odom → base_footprint (/tf, 30.0 Hz)' in message
    assert message.count('frame-audit init') == 1
    assert 'base_scan (/scan header) is in the tree' in message


def test_a_configured_topic_not_recorded_names_the_candidates(run) -> None:
    audited = run(TURTLEBOT)
    assert audited.level('pose_frame') == 'STALE'
    message = audited.message('pose_frame')
    assert 'not recorded: /pf/viz/inferred_pose' in message
    assert '/amcl_pose (PoseWithCovarianceStamped)' in message


def test_no_odometry_is_not_agreement(run, configs: Dict[str, Path]) -> None:
    silent = run(variant(TURTLEBOT, 'turtlebot_no_odom', odom_topic=None), configs['turtlebot'])
    assert silent.level('odometry') == 'STALE'
    assert 'agrees' not in silent.message('odometry')
    assert '/odom (odometry.topic in' in silent.message('odometry')
    assert 'is not recorded' in silent.message('odometry')
    healthy = run(TURTLEBOT, configs['turtlebot'])
    assert healthy.level('odometry') == 'OK'
    assert healthy.message('odometry').startswith('/odom agrees with TF over')


# -- lost /tf_static, short recordings -------------------------------------------------------

def test_a_ros1_recording_without_tf_static_and_without_map(run, configs) -> None:
    no_map = run(variant(TURTLEBOT, 'ros1_no_static_no_map', ros1=True, tf_static=False,
                         map_missing=True), configs['turtlebot'])
    assert no_map.code == 1
    chain = no_map.findings('chain_order')
    assert len(chain) == 1 and chain[0]['level'] == 'ERROR' and chain[0]['frames'] == ['map']
    twin = run(variant(TURTLEBOT, 'ros1_no_static', ros1=True, tf_static=False),
               configs['turtlebot'])
    assert twin.code == 0
    assert {f['level'] for f in twin.findings()} == {'WARN'}
    assert all('no /tf_static was received' in f['message'] for f in twin.findings())
    # a ROS 1 bag gets latched statics whenever it starts: left out, or never sent, is said too
    assert all('left out of the recorded topics, or nothing sent them' in f['message']
               for f in twin.findings())


def test_a_short_recording_of_another_robot_is_judged_at_its_end(run, folder: Path) -> None:
    audited = run(TURTLESIM)
    assert audited.code == 0  # no --config: the pointer to init is a WARN
    chain = audited.findings('chain_order')
    assert len(chain) == 1 and chain[0]['frames'] == ['map', 'odom', 'base_link']
    assert chain[0]['level'] == 'WARN'
    assert 'The tree has turtle1, world' in chain[0]['message']
    assert 'frame-audit init' in chain[0]['message']
    assert audited.level('laser_offset') == 'STALE'  # base_link is not there to measure from
    assert 'chain_order says why' in audited.message('laser_offset')
    short_car = folder / 'short_car.mcap'
    write_bag(short_car, drive_car(1.5, seed=3), pose_types=POSE_TYPES, beams=16)
    assert main(['audit', str(short_car)]) == 0  # the healthy twin: too short to say, not wrong


# -- one cause, one finding -------------------------------------------------------------------

def test_slash_prefixed_ids_are_one_finding(run, configs) -> None:
    audited = run(variant(TURTLEBOT, 'slashes', ros1=True, slash=True), configs['turtlebot'])
    values = audited.findings('transform_values')
    assert len(values) == 2  # /tf and /tf_static
    assert all(f['level'] == 'WARN' for f in values)
    static = next(f for f in values if f['topics'] == ['/tf_static'])
    assert 'on 3 edges' in static['message'] and static['values']['edges'] == 3
    assert [f['check'] for f in audited.findings()] == ['transform_values'] * 2
    assert quiet(run(variant(TURTLEBOT, 'no_slashes', ros1=True), configs['turtlebot']))


# -- clocks ---------------------------------------------------------------------------------

def test_stamps_lagging_five_seconds(run, configs) -> None:
    audited = run(variant(TURTLEBOT, 'lagging', lag_s=5.0), configs['turtlebot'])
    # one clock 5 s behind holds back both edges: one cause, one finding naming both (issue 32)
    (lag,) = [f for f in audited.findings('timing') if 'after their stamps' in f['message']]
    assert lag['level'] == 'ERROR' and lag['values']['edges'] == 2
    assert lag['frames'] == ['map', 'odom', 'base_footprint']
    # AMCL dates map -> odom 0.5 s ahead: that edge lags 4.5 s
    got = (lag['values']['lag_s'], lag['values']['lag_max_s'])
    assert got == pytest.approx((4.5, 5.0), abs=0.01)
    assert 'map → odom 4.5' in lag['message'] and 'odom → base_footprint 5.0' in lag['message']
    # its scan lags alike: the receiver's clock is ahead, or a replay without --clock was
    # recorded again (the data cannot tell those two apart); no one sender is behind
    assert "/scan lags alike (5.000 s): the receiving machine's clock is ahead" in \
        lag['message'] and 'or a recording replayed without --clock' in lag['message']
    assert {f['check'] for f in audited.findings()} == {'timing'}


def test_a_simulator_recorded_on_wall_time_is_no_lag(run, configs) -> None:
    # Webots or Gazebo stamps count from the simulation's start; a recorder without
    # use_sim_time logs wall time: billions of seconds apart, and no fault of the robot
    audited = run(variant(TURTLEBOT, 'simulated', lag_s=T0 - 100.0), configs['turtlebot'])
    assert quiet(audited), audited.findings()
    assert 'simulation clock' in audited.message('timing')


def test_a_loop_replayed_without_clock(run, configs) -> None:
    audited = run(variant(TURTLEBOT, 'looped', loop_at=10.0), configs['turtlebot'])
    back = [f for f in audited.findings('timing') if f['message'].startswith('stamps went back')]
    assert len(back) == 1 and 'odom → base_footprint by 10.0 s' in back[0]['message']
    assert audited.findings('odometry') == [] and audited.findings('parent_uniqueness') == []


# -- two sources, and a computer that stalls ----------------------------------------------

def test_two_odometry_nodes_at_50_and_25_hz(run, configs) -> None:
    audited = run(variant(TURTLEBOT, 'two_odometries', odom_hz=50.0, second_odom_hz=25.0),
                  configs['turtlebot'])
    sources = audited.findings('parent_uniqueness')
    assert len(sources) == 1 and 'comes from two sources' in sources[0]['message']
    assert 'one at 50.0 Hz and one at 25.0 Hz' in sources[0]['message']
    assert audited.findings('odometry') == [] or all(
        'jumped' not in f['message'] for f in audited.findings('odometry'))
    assert quiet(run(variant(TURTLEBOT, 'one_odometry', odom_hz=50.0), configs['turtlebot']))


def test_a_burst_after_a_stall_is_no_second_source(run, configs) -> None:
    audited = run(variant(TURTLEBOT, 'stalled', stall=(8.0, 3.0)), configs['turtlebot'])
    assert audited.findings('parent_uniqueness') == []
    assert audited.findings('odometry') == []
    # issue 32: every topic stopped at once is the computer's gap, not each edge stopping:
    # said once, about the recording, and the edges' stops it explains are withheld
    assert audited.findings('timing') == []
    (gap,) = audited.findings('recording')
    assert gap['message'].startswith('a gap in the recording: 3.0 s from 8.0 s. Every audited '
                                     "topic stopped at once, so the gap is the recorder's")


# -- the report -----------------------------------------------------------------------------

def test_report_covers_the_whole_recording(run, configs) -> None:
    audited = run(FOXBOT, configs['foxbot'])
    assert audited.report['duration_s'] == pytest.approx(20.0, abs=0.1)
    assert audited.report['audited_messages'] == audited.report['messages']


def test_output_dash_is_stdout(run, folder: Path, capsys) -> None:
    run(TURTLESIM)
    assert main(['audit', str(folder / 'turtlesim.mcap'), '--format', 'json',
                 '--output', '-']) == 0  # the pointer to init (no --config) fails nothing
    assert json.loads(capsys.readouterr().out)['source'] == 'turtlesim.mcap'
    assert not (Path.cwd() / '-').exists()


def test_the_tree_picture_shows_what_is_missing_and_whose_tree_it_is(run, folder: Path) -> None:
    run(TURTLESIM)
    picture = folder / 'turtlesim.dot'
    assert main(['audit', str(folder / 'turtlesim.mcap'), '--tree', str(picture)]) == 0
    source = picture.read_text()
    assert 'frame_audit: turtlesim.mcap' in source
    for frame in ('map', 'odom', 'base_link'):
        assert '{}\nmissing: required (frames.required'.format(frame) in source
    assert 'world -> turtle1' in source


def test_a_huge_tree_is_drawn_in_part_and_says_so(run, folder: Path, configs) -> None:
    crowd = tuple(('base_link', 'marker_{}'.format(i), (0.0, 0.01 * i, 0.0), 0.0)
                  for i in range(600))
    run(variant(TURTLEBOT, 'crowded', extra_edges=crowd), configs['turtlebot'])
    picture = folder / 'crowded.dot'
    assert main(['audit', str(folder / 'crowded.mcap'), '--config', str(configs['turtlebot']),
                 '--tree', str(picture)]) == 0
    source = picture.read_text()
    assert '150 of 606 frames drawn' in source
    assert 'odom -> base_footprint' in source and 'base_link -> base_scan' in source


# -- a robot's own odometry and LiDAR names (round F4) ---------------------------------------

def _lab_robot(path: Path, scan_frame: str, odometry: Dict[str, Tuple[str, str]],
               seconds: float = 6.0) -> Path:
    """
    Write a lab robot: an EKF's odom → base_link, a static LiDAR mount named base_laser.

    odometry maps each Odometry topic to its (header.frame_id, child_frame_id): a
    hand-written publisher fills odom_fake and leaves the child empty (round F4).
    """
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'base_laser', T0, (0.1, 0.0, 0.2), (0.0, 0.0, 0.0, 1.0)),))]
    for i in range(1, int(seconds * 20) + 1):
        t = T0 + i / 20.0
        pose = PoseRecord('odom', t, (0.1 * (t - T0), 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
        messages.append(Message(t, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', t, pose.position, pose.orientation),)))
        for topic, (parent, child) in odometry.items():
            messages.append(Message(t + 1e-4, topic, OdometryRecord(replace(
                pose, frame_id=parent), child)))
        if i % 2 == 0:
            messages.append(Message(t + 2e-4, '/scan', HeaderRecord(scan_frame, t)))
    write_bag(path, messages, pose_types={topic: ODOMETRY for topic in odometry}, beams=16)
    return path


def _audit(path: Path, *args: str) -> Tuple[int, dict]:
    output = path.with_suffix('.json')
    code = main(['audit', str(path), '--format', 'json', '--output', str(output), *args])
    return code, json.loads(output.read_text())


def test_an_empty_child_frame_id_is_said_once_and_as_what_it_is(folder: Path) -> None:
    """
    An Odometry with header odom_fake and child '' is no "empty header.frame_id" (round F4).

    The child is odometry's to say, once, as an empty child_frame_id; its twin, an empty
    header.frame_id, is connectivity's.
    """
    _, child = _audit(_lab_robot(folder / 'empty_child.mcap', 'base_laser',
                                 {'/odom': ('odom_fake', '')}))
    said = [f['message'] for f in child['findings']]
    assert not [m for m in said if 'empty header.frame_id' in m], said
    assert len([m for m in said if "child_frame_id is ''" in m]) == 1, said
    assert any('an empty child_frame_id names no frame, so consumers of /odom cannot place it'
               in m for m in said), said
    _, header = _audit(_lab_robot(folder / 'empty_header.mcap', 'base_laser',
                                  {'/odom': ('', 'base_link')}))
    assert [f['check'] for f in header['findings']
            if 'an empty header.frame_id on /odom' in f['message']] == ['connectivity']


def test_scans_naming_a_lidar_the_tree_lacks_are_an_error_for_any_robot(folder: Path) -> None:
    """
    Scans in laser, the static mount named base_laser: none can be placed (round F4's miss).

    Without --config the car's frames.laser is laser too; the scans' own header names it, so
    its absence is an ERROR naming the frame the tree has, never "set frames.laser". The
    twin, scans in base_laser, gets the pointer alone.
    """
    code, wrong = _audit(_lab_robot(folder / 'scan_in_laser.mcap', 'laser',
                                    {'/odom': ('odom', 'base_link')}))
    laser = [f for f in wrong['findings'] if f['check'] == 'laser_offset']
    assert [f['level'] for f in laser] == ['ERROR'] and code == 1, wrong['findings']
    assert 'laser is not in the tree: nothing publishes base_link → laser' in \
        laser[0]['message'] and "/scan's header names it (60 messages)" in laser[0]['message']
    assert 'base_laser below base_link is named like a LiDAR' in laser[0]['message']
    assert 'set frames.laser' not in laser[0]['message']
    code, twin = _audit(_lab_robot(folder / 'scan_in_base_laser.mcap', 'base_laser',
                                   {'/odom': ('odom', 'base_link')}))
    assert [f['level'] for f in twin['findings']] == ['WARN'] and code == 0, twin['findings']
    assert 'set frames.laser' in twin['findings'][0]['message']


def test_init_takes_the_odometry_topic_the_tree_agrees_with(folder: Path) -> None:
    """
    Beside /odometry/filtered in odom, /odom in odom_fake: init took /odom (round F4).

    It takes the one whose header the tree has, and its config is quiet on its recording;
    the twin, /odom in odom too, keeps /odom.
    """
    for name, fake, chosen in (('two_odometry', 'odom_fake', '/odometry/filtered'),
                               ('two_odometry_agree', 'odom', '/odom')):
        path = _lab_robot(folder / (name + '.mcap'), 'base_laser', {
            '/odom': (fake, 'base_link'), '/odometry/filtered': ('odom', 'base_link')})
        config = path.with_suffix('.yaml')
        assert main(['init', str(path), '--output', str(config)]) == 0
        assert 'odometry:\n      topic: {}\n'.format(chosen) in config.read_text(), name
        code, report = _audit(path, '--config', str(config))
        assert [f for f in report['findings'] if f['check'] == 'odometry'] == [], name


def test_a_lookup_before_its_frame_first_came_is_its_sender_starting(run, folder: Path,
                                                                     configs) -> None:
    """
    The map AMCL first sent 2 s in: the scans before asked for a frame tf2 did not have yet.

    That is the sender starting, not a cause chain_order or connectivity says (round F4);
    the twin whose map never comes still points there.
    """
    def late_map(message: Message) -> bool:
        return not (message.topic == TF_TOPIC and message.received < T0 + 2.0
                    and any(r.child == 'odom' for r in message.payload))
    path = folder / 'map_late.mcap'
    write_bag(path, [m for m in drive(TURTLEBOT) if late_map(m)],
              pose_types={'/amcl_pose': POSE_WITH_COVARIANCE}, beams=16)
    _, late = _audit(path, '--config', str(configs['turtlebot']))
    lookups = next(c['message'] for c in late['checks'] if c['check'] == 'lookups')
    assert 'named a frame tf2 did not have yet: map (its sender starting)' in lookups, lookups
    assert 'never had' not in lookups
    never = run(variant(TURTLEBOT, 'turtlebot_map_missing', map_missing=True),
                configs['turtlebot'])
    assert 'named a frame tf2 never had: map (chain_order' in never.message('lookups')


def test_a_tree_tf2_refused_whole_is_no_robot_to_point_to_init(folder: Path, capsys) -> None:
    """
    Every transform a non-unit quaternion, so tf2 keeps none (round F5's tutorial robot).

    transform_values says why; chain_order cannot know, and no pointer sends the user to an
    init that has nothing to measure (init says the same). The twin, its quaternion unit,
    gets the pointer, and init measures it.
    """
    for name, rotation in (('talk_refused', (0.0, 0.0474, 0.0, 0.0)),
                           ('talk', (0.0, 0.0474, 0.0, math.sqrt(1 - 0.0474 ** 2)))):
        path = folder / (name + '.mcap')
        write_bag(path, [Message(T0 + i / 10.0, TF_STATIC_TOPIC, (TransformRecord(
            'world', 'talk', T0 + i / 10.0, (0.2, 0.0, 0.6), rotation),)) for i in range(90)])
        code, report = _audit(path)
        said = [(f['check'], f['level']) for f in report['findings']]
        capsys.readouterr()
        made = main(['init', str(path), '--output', str(path.with_suffix('.yaml'))])
        if name == 'talk':
            assert said == [('chain_order', 'WARN')] and code == 0 and made == 0, said
            continue
        assert said == [('transform_values', 'ERROR')] and code == 1, said
        chain = next(c for c in report['checks'] if c['check'] == 'chain_order')
        assert chain['level'] == 'STALE' and 'tf2 refused every transform' in chain['message']
        assert made == 2 and 'transform that tf2 accepts' in capsys.readouterr().err


def test_a_recording_with_no_moving_edge_says_so_of_the_whole_recording(folder: Path) -> None:
    """A drive-by-wire car's recording holds one static edge: not "yet" once it has ended (F5)."""
    path = folder / 'dbw_static.mcap'
    write_bag(path, [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_footprint', 'base_link', T0, (0.0, 0.0, 0.3), (0.0, 0.0, 0.0, 1.0)),)),
        Message(T0 + 30.0, TF_STATIC_TOPIC, (TransformRecord(
            'base_footprint', 'base_link', T0 + 30.0, (0.0, 0.0, 0.3), (0.0, 0.0, 0.0, 1.0)),))])
    _, report = _audit(path)
    timing = next(c['message'] for c in report['checks'] if c['check'] == 'timing')
    assert timing == 'nothing to judge: no edge sent on /tf 3 times in the recording', timing
