# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit diff: two cars side by side, from recordings and configs.

Two simulated cars that differ only in the LiDAR's mount differ in exactly that; a recording
and its own `init` config agree; a TurtleBot-style robot whose LiDAR moved, or whose pose topic
carries another point, is told apart from its twin.
"""
from dataclasses import replace
import json
from pathlib import Path

from frame_audit.cli import main
from frame_audit.recordings.write import write_bag
from frame_audit.sim.car import drive, POSE_TYPES
import pytest
from robots import FOXBOT, PoseOut, RACECAR, record, Robot, TURTLESIM

TURTLEBOT = Robot()  # the defaults: a TurtleBot-style robot


def diff(capsys, a: Path, b: Path) -> tuple:
    code = main(['diff', str(a), str(b), '--format', 'json'])
    return code, json.loads(capsys.readouterr().out)['differences']


@pytest.fixture(scope='module')
def cars(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp('cars')
    write_bag(folder / 'car.mcap', drive(8.0, seed=1), pose_types=POSE_TYPES, beams=16)
    write_bag(folder / 'moved.db3', drive(8.0, seed=1, faults=('laser_027',)),
              pose_types=POSE_TYPES, beams=16)
    return folder


def test_two_cars_that_differ_in_the_lidar_mount_only(cars, capsys):
    code, found = diff(capsys, cars / 'car.mcap', cars / 'moved.db3')
    assert code == 1
    (difference,) = found
    assert difference['what'] == 'static base_link → laser'
    assert '(0.2600, 0.0000, 0.1100) m' in difference['a']
    assert '(0.2700, 0.0000, 0.1100) m' in difference['b']
    assert '0.0100 m apart' in difference['detail']
    assert main(['diff', str(cars / 'car.mcap'), str(cars / 'car.mcap')]) == 0
    assert 'agree on everything both say' in capsys.readouterr().out


def test_a_recording_against_its_own_init_config(cars, capsys, tmp_path):
    config = tmp_path / 'car.yaml'
    assert main(['init', str(cars / 'car.mcap'), '--output', str(config)]) == 0
    capsys.readouterr()
    assert diff(capsys, cars / 'car.mcap', config) == (0, [])
    code, found = diff(capsys, cars / 'moved.db3', config)  # the reference car's config
    assert code == 1 and [d['what'] for d in found] == ['the LiDAR mount (base_link → laser)']


def test_other_robots_and_their_twins(tmp_path, capsys):
    twin = record(tmp_path, TURTLEBOT, '.mcap')
    moved_body = tuple(mount if mount[1] != 'base_scan' else
                       ('base_link', 'base_scan', (-0.064, 0.0, 0.122), 0.0)
                       for mount in TURTLEBOT.body)
    waffle = record(tmp_path, replace(TURTLEBOT, name='waffle', body=moved_body), '.db3')
    code, found = diff(capsys, twin, waffle)
    assert code == 1 and [d['what'] for d in found] == ['static base_link → base_scan']
    assert found[0]['detail'].startswith('B − A: (-0.0320, 0.0000, -0.0500) m, 0.0594 m apart')
    # a racecar whose particle filter pose carries the rear axle, not the LiDAR 0.275 m ahead
    racecar = record(tmp_path, RACECAR, '.mcap')
    rear = replace(RACECAR, name='rear', poses=(PoseOut('/pf/pose', 'base_link', 40.0),))
    code, found = diff(capsys, racecar, record(tmp_path, rear, '.mcap'))
    assert code == 1 and found == [{'what': '/pf/pose carries', 'a': 'lidar', 'b': 'base_link',
                                    'detail': ''}]


def test_an_unreadable_side_is_one_line(tmp_path, capsys):
    broken = tmp_path / 'broken.mcap'
    broken.write_bytes(b'not a recording')
    assert main(['diff', str(broken), str(broken)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_robot_without_map_or_odom_is_still_compared(tmp_path, capsys):
    """A ROS 1 field robot with no map agrees with its init config; turtlesim's odom: its root."""
    foxbot = record(tmp_path, FOXBOT)
    config = tmp_path / 'foxbot.yaml'
    assert main(['init', str(foxbot), '--output', str(config)]) == 0
    capsys.readouterr()
    assert diff(capsys, foxbot, config) == (0, [])
    code, found = diff(capsys, foxbot, record(tmp_path, TURTLESIM))
    assert code == 1
    assert {'what': 'frames.odom', 'a': 'odom', 'b': 'world', 'detail': ''} in found
    assert {'what': 'frame turtle1', 'a': 'no such frame', 'b': 'child of world',
            'detail': ''} in found


def test_a_difference_of_exactly_the_tolerance_is_none():
    """
    Issue 33: 4,989 edges 1 mm apart were called different: float noise at the tolerance.

    0.261 and 0.260 are 0.0010000000000000009 m apart; past the tolerance by 0.1 mm they do
    differ, and the difference says the tolerances it was judged by.
    """
    from frame_audit.engine.compare import differences, ROLES, Side
    from frame_audit.engine.geometry import Transform

    def side(x: float) -> Side:
        imu = Transform((x, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
        return Side('side', dict(zip(ROLES, ('map', 'odom', 'base_link', 'laser'))), None, {},
                    static={('base_link', 'imu'): imu})

    assert 0.261 - 0.260 > 0.001  # what float arithmetic gives
    assert differences(side(0.260), side(0.261)) == []
    (past,) = differences(side(0.260), side(0.2611))
    assert past.detail.endswith('0.0011 m apart; rotations 0.0000 rad apart (tolerances '
                                '0.0010 m, 0.0010 rad)'), past.detail
