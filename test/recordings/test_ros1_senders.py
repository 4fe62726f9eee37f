# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
ROS 1 bags name each connection's sender (its callerid): two senders of one edge are named.

Each bag is written here with rosbags' rosbag1 writer, one connection per publisher as rosbag
records them, beside its twin with one sender; the audit runs as a user runs it.
"""
import math
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from frame_audit.engine.records import TF_STATIC_TOPIC, TF_TOPIC
from rosbags.rosbag1 import Writer
from test_damaged import T0, TF_TYPE
from test_hostile import audit_json, check_of, frame_audit, ros1_types
import yaml

Edge = Tuple[str, str, Tuple[float, float, float], float]  # parent, child, xyz, yaw


def tf1(types, edges: List[Edge], stamp: float) -> object:
    """Return a ROS 1 tf2_msgs/TFMessage (std_msgs/Header with seq) of these edges."""
    t = types.types
    sec = int(stamp)
    return t[TF_TYPE](transforms=[t['geometry_msgs/msg/TransformStamped'](
        header=t['std_msgs/msg/Header'](seq=0, stamp=t['builtin_interfaces/msg/Time'](
            sec=sec, nanosec=int((stamp - sec) * 1e9)), frame_id=parent),
        child_frame_id=child, transform=t['geometry_msgs/msg/Transform'](
            translation=t['geometry_msgs/msg/Vector3'](x=xyz[0], y=xyz[1], z=xyz[2]),
            rotation=t['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=math.sin(yaw / 2),
                                                       w=math.cos(yaw / 2))))
        for parent, child, xyz, yaw in edges])


def ros1_bag(path: Path, body: List[Edge], moving: Tuple[str, str],
             senders: Dict[str, float], rate_hz: float = 30.0, seconds: float = 10.0,
             clock: Callable[[str, float], float] = lambda name, t: 0.0) -> Path:
    """
    Write a drive: the body latched by robot_state_publisher, moving sent by each sender.

    senders maps a callerid to its drift (m/s): two odometry nodes disagree slowly. clock
    gives how far ahead of its arrival a sender stamps at t (another computer's clock).
    """
    types = ros1_types()
    with Writer(path) as writer:
        static = writer.add_connection(TF_STATIC_TOPIC, TF_TYPE, typestore=types,
                                       callerid='/robot_state_publisher', latching=1)
        writer.write(static, int(T0 * 1e9), types.serialize_ros1(tf1(types, body, T0), TF_TYPE))
        connections = {name: writer.add_connection(TF_TOPIC, TF_TYPE, typestore=types,
                                                   callerid=name) for name in senders}
        for i in range(int(seconds * rate_hz)):
            t = i / rate_hz
            for name, drift in senders.items():
                received = T0 + t + 0.001 * list(senders).index(name)
                stamp = received + clock(name, t)
                pose = (1.5 * math.sin(0.15 * t) + drift * t, 1.5 - 1.5 * math.cos(0.15 * t),
                        0.0)
                writer.write(connections[name], int(received * 1e9), types.serialize_ros1(
                    tf1(types, [(moving[0], moving[1], pose, 0.15 * t)], stamp), TF_TYPE))
    return path


def config(path: Path, base: str, laser: str, offset: Tuple[float, float, float]) -> Path:
    path.write_text(yaml.safe_dump({'frame_audit': {'ros__parameters': {
        'frames': {'base': base, 'laser': laser, 'required': ['odom', base, laser]},
        'laser_offset': {'translation': list(offset)}, 'pose_topics': [],
        'lookups': {'entries': []}}}}))
    return path


TURTLEBOT3 = ([('base_footprint', 'base_link', (0.0, 0.0, 0.010), 0.0),
               ('base_link', 'base_scan', (-0.032, 0.0, 0.172), 0.0)],
              ('odom', 'base_footprint'), ('base_footprint', 'base_scan', (-0.032, 0.0, 0.182)))
HUSKY = ([('base_link', 'velodyne', (0.35, 0.0, 0.60), 0.0)],  # robot_localization's EKF
         ('odom', 'base_link'), ('base_link', 'velodyne', (0.35, 0.0, 0.60)))


def test_two_callerids_sending_odom_to_the_base_are_named(tmp_path: Path) -> None:
    for name, (body, moving, (base, laser, offset)), senders in (
            ('tb3', TURTLEBOT3, {'/turtlebot3_core': 0.0, '/ekf_localization': 0.01}),
            ('husky', HUSKY, {'/husky_velocity_controller': 0.0, '/ekf_se_odom': -0.02})):
        robot = config(tmp_path / (name + '.yaml'), base, laser, offset)
        code, two, _ = audit_json(ros1_bag(tmp_path / (name + '_two.bag'), body, moving,
                                           senders), '--config', robot)
        said = [f for f in two['findings'] if f['check'] == 'parent_uniqueness']
        first, second = sorted(senders)
        assert len(said) == 1 and code == 1, (name, two['findings'])
        assert said[0]['level'] == 'ERROR' and said[0]['values']['publishers'] == \
            '{}, {}'.format(first, second)
        assert '{} → {} is sent by 2 nodes at once: {} (300 messages), {} (300 messages)'.format(
            moving[0], moving[1], first, second) in said[0]['message']
        rows = {row['frame']: row for row in two['frames']}
        assert rows[moving[1]]['publishers'] == [first, second]
        assert rows[laser]['publishers'] == ['/robot_state_publisher']
        # the twin: one sender, named, and nothing to say
        one = dict(list(senders.items())[:1])
        code, twin, _ = audit_json(ros1_bag(tmp_path / (name + '_one.bag'), body, moving, one),
                                   '--config', robot)
        assert twin['findings'] == [] and code == 0, (name, twin['findings'])
        rows = {row['frame']: row for row in twin['frames']}
        assert rows[moving[1]]['publishers'] == list(one)


def test_two_senders_on_clocks_apart_are_no_loop(tmp_path: Path) -> None:
    """
    A sailboat's EKF stamping 20881.5 s ahead beside its camera's odometry, on one edge.

    Every switch between them sends the stamps back: two senders and the lag say what it
    is, never "a recording replayed in a loop". Its twin: one sender whose clock is set
    back 30 s half-way still gets that word.
    """
    body, moving, (base, laser, offset) = HUSKY
    robot = config(tmp_path / 'boat.yaml', base, laser, offset)
    ahead = {'/ekf_se': 20881.5, '/zed_node': 0.0}
    code, two, _ = audit_json(ros1_bag(tmp_path / 'boat_two_clocks.bag', body, moving,
                                       {'/ekf_se': 0.0, '/zed_node': 80.0},  # 800 m apart
                                       clock=lambda name, t: ahead[name]), '--config', robot)
    checks = {f['check'] for f in two['findings']}
    assert {'parent_uniqueness', 'timing'} <= checks and code == 1, two['findings']
    # the switches between them are neither a loop nor odometry's own jumps
    assert not [f for f in two['findings'] if 'stamps went back' in f['message']
                or 'jumped' in f['message']], two['findings']
    code, reset, _ = audit_json(ros1_bag(tmp_path / 'boat_reset.bag', body, moving,
                                         {'/ekf_se': 0.0}, clock=lambda name, t:
                                         -30.0 if t >= 5.0 else 0.0), '--config', robot)
    assert [f['check'] for f in reset['findings'] if 'stamps went back' in f['message']] == \
        ['timing'], reset['findings']


def stage_bag(path: Path, senders: Dict[str, float], seconds: float = 10.0) -> Path:
    """
    Write ROS 1 Stage: stageros sends the whole tree on /tf, the robot standing still.

    senders maps who sends base_footprint → base_link to its constant z: stageros its
    identity, robot_state_publisher the URDF's 1 cm (round F4's TurtleBot 2), at 10 and 5 Hz.
    """
    types = ros1_types()
    with Writer(path) as writer:
        connections = {name: writer.add_connection(TF_TOPIC, TF_TYPE, typestore=types,
                                                   callerid=name)
                       for name in dict.fromkeys(['/stageros', *senders])}
        for i in range(int(seconds * 10)):
            t = T0 + i / 10.0
            edges = [('odom', 'base_footprint', (0.0, 0.0, 0.0), 0.0),
                     ('base_link', 'base_laser_link', (-0.1, 0.0, 0.29), 0.0)]
            for name, z in senders.items():
                if name == '/stageros' or i % 2 == 0:
                    sent = edges if name == '/stageros' else []
                    writer.write(connections[name], int((t + 0.001) * 1e9), types.serialize_ros1(
                        tf1(types, sent + [('base_footprint', 'base_link', (0.0, 0.0, z), 0.0)],
                            t + (0.5 if name != '/stageros' else 0.0)), TF_TYPE))
    return path


def test_a_fixed_edge_two_nodes_send_apart_is_no_moving_joint(tmp_path: Path) -> None:
    """
    Two senders of base_footprint → base_link, each constant, 1 cm apart: not a joint.

    parent_uniqueness says it; the LiDAR mount through it has no one value, so laser_offset
    is STALE naming both, and init writes no mount and says why (it said "moves"). The twin,
    stageros alone, is measured (its mounts sent on /tf are said, as Stage's habit).
    """
    for name, senders in (('stage_two', {'/stageros': 0.0, '/robot_state_publisher': 0.0102}),
                          ('stage_one', {'/stageros': 0.0})):
        bag = stage_bag(tmp_path / (name + '.bag'), senders)
        robot = tmp_path / (name + '.yaml')
        done = frame_audit('init', bag, '--output', robot)
        assert done.returncode == 0, done.stderr
        code, report, _ = audit_json(bag, '--config', robot)
        laser = check_of(report, 'laser_offset')
        if len(senders) == 1:  # measured; Stage's mounts on /tf are its own true WARN
            assert {(f['check'], f['message'].split(' is sent on ')[-1][:4])
                    for f in report['findings']} == {('laser_offset', '/tf ')}, report
            assert 'laser_offset:' in robot.read_text() and code == 0
            continue
        assert [(f['check'], f['level']) for f in report['findings']] == \
            [('parent_uniqueness', 'ERROR')], report['findings']
        assert laser['level'] == 'STALE', laser
        assert 'base_footprint → base_link is sent by /robot_state_publisher and /stageros at ' \
            'once, with values apart' in laser['message']
        text = robot.read_text()
        assert 'laser_offset:' not in text and 'moves over the recording' not in text
        assert 'with values apart: the LiDAR mount has no one value' in text


def test_two_nodes_sending_one_value_are_redundant_not_a_jump(tmp_path: Path) -> None:
    """
    A Panda's world → panda_link0 from two nodes, both the identity (round F5).

    robot_state_publisher latches it and a static publisher node re-sends it on /tf: a WARN
    that one is redundant, never "the frame jumps". Its twin, the two 1 cm apart (Stage's),
    is the ERROR.
    """
    for name, z in (('alike', 0.0), ('apart', 0.0102)):
        types = ros1_types()
        path = tmp_path / (name + '.bag')
        with Writer(path) as writer:
            static = writer.add_connection(TF_STATIC_TOPIC, TF_TYPE, typestore=types,
                                           callerid='/robot_state_publisher', latching=1)
            writer.write(static, int(T0 * 1e9), types.serialize_ros1(
                tf1(types, [('world', 'panda_link0', (0.0, 0.0, 0.0), 0.0)], T0), TF_TYPE))
            moving = writer.add_connection(TF_TOPIC, TF_TYPE, typestore=types,
                                           callerid='/world_panda_frame')
            for i in range(1, 60):
                t = T0 + i / 10.0
                writer.write(moving, int(t * 1e9), types.serialize_ros1(
                    tf1(types, [('world', 'panda_link0', (0.0, 0.0, z), 0.0)], t), TF_TYPE))
        _, report, _ = audit_json(path)
        said = [f for f in report['findings'] if f['check'] == 'parent_uniqueness']
        assert len(said) == 1, report['findings']
        assert said[0]['level'] == ('WARN' if name == 'alike' else 'ERROR'), said
        assert ('jump between their estimates' in said[0]['message']) == (name == 'apart')
        assert '/robot_state_publisher (1 message)' in said[0]['message'], said
