# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
static_transform_publisher as the lint reads it, on made-up workspaces each with its twin.

Its arguments (unpacked lists, a ROS 1 flag), quaternions tf2 drops or that hold an angle, and
the publisher run as a process.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from lint_helpers import CAR, cmake, launch_py, line_of, lint, only_problem, package, parents, \
    problems, write

LOOP = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch_ros.actions import Node


def _static_nodes(transforms):
    nodes = []
    for transform in transforms:
        xyz = [str(v) for v in transform.get('xyz', [0.0, 0.0, 0.0])]
        rpy = [str(v) for v in transform.get('rpy', [0.0, 0.0, 0.0])]
        nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                          arguments=[*xyz, *rpy, transform['parent'], transform['child']]))
    return nodes


def _setup(context):
    path = os.path.join(get_package_share_directory('race_bringup'), 'config', 'car.yaml')
    with open(path) as handle:
        return _static_nodes(yaml.safe_load(handle)['static_transforms'])


def generate_launch_description():
    return LaunchDescription([OpaqueFunction(function=_setup)])
"""

LITERAL = """
from launch import LaunchDescription
from launch_ros.actions import Node

LIDAR_XYZ = ['0.295', '0.0', '0.19']
LEVEL = ['0.0', '0.0', '0.0']


def generate_launch_description():
    return LaunchDescription([
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=[*LIDAR_XYZ, *LEVEL, 'base_link', 'lidar_link']),
    ])
"""

CAR_YAML = """
static_transforms:
  - parent: base_link
    child: zed_camera_link
    xyz: [0.295, 0.0, 0.19]
  - parent: map
    child: odom
"""


def _race_car(tmp_path: Path, launch_text: str) -> Path:
    return write(tmp_path / str(len(launch_text)), {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/CMakeLists.txt': cmake('race_bringup', 'launch', 'config'),
        'src/race_bringup/config/car.yaml': CAR_YAML,
        'src/race_bringup/launch/race.launch.py': launch_text,
    })


def test_unpacked_static_arguments_are_unknown_not_miscounted(tmp_path):
    """`[*xyz, *rpy, parent, child]` is no 4-argument call: its count is the launch's to know."""
    root = _race_car(tmp_path, LOOP)
    report = lint(root)
    (said,) = [f for f in report.findings if 'static_transform_publisher' in f.message]
    assert said.level == 'WARN'
    assert '4 arguments' not in said.message and 'positional forms' not in said.message, \
        said.message
    assert '*xyz, *rpy' in said.message and 'known only when the launch runs' in said.message, \
        said.message
    assert said.values.get('line') == line_of(root, 'src/race_bringup/launch/race.launch.py',
                                              "executable='static_transform_publisher'")
    assert [f for f in report.findings if f.level == 'ERROR'] == []
    assert not any(e for e in report.checks if e.check == 'laser_offset'
                   and '0.295' in e.message), 'no value may be invented for the unknown edge'


def test_unpacked_lists_the_file_writes_are_read(tmp_path):
    """The twin: `*LIDAR_XYZ` names a list the file holds: eight arguments, one edge read."""
    report = lint(_race_car(tmp_path, LITERAL))
    assert [f for f in report.findings if f.level in ('WARN', 'ERROR')] == [], \
        [f.message for f in report.findings]
    (offset,) = [c.message for c in report.checks if c.check == 'laser_offset']
    assert offset.startswith('base_link → lidar_link is (0.2950, 0.0000, 0.1900)'), offset


# a ROS 1 habit: '--disable-stdin' after the frames of a static transform

def _mount(tmp_path: Path, extra: str) -> Path:
    return write(tmp_path / ('flag' if extra else 'plain'), {
        'src/kart/package.xml': package('kart'),
        'src/kart/launch/mounts.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.29', '0.0', '0.1', '0.0', '0.0', '0.0', 'base_link', 'lidar'{}])".format(extra)),
    })


def test_a_ros1_flag_in_a_static_transform_stops_the_publisher(tmp_path):
    """Nine words read as x y z qx qy qz qw parent child: qw is 'base_link', it exits."""
    report = lint(_mount(tmp_path, ", '--disable-stdin'"))
    (flag,) = [f for f in report.findings if f.check == 'lint_files']
    assert "qw is 'base_link', not a number: static_transform_publisher stops there and " \
        'sends nothing' in flag.message
    assert 'lidar' not in parents(report)
    # healthy twin: eight words, the mount is declared
    report = lint(_mount(tmp_path, ''))
    assert problems(report) == set(), report.findings
    assert parents(report)['lidar'] == ('base_link',)


def _atof_mount(tmp_path: Path, attribute: str) -> Path:
    """Write tf's words with its period, handed to tf2_ros's publisher in an XML launch."""
    return write(tmp_path / attribute, {
        'src/champ/package.xml': package('champ'),
        'src/champ/launch/kinect.launch': """
            <launch>
              <node pkg="tf2_ros" {}="static_transform_publisher" name="laser_to_kinect"
                    args="0 0 0 0 0 0 /laser /camera_link 100"/>
            </launch>
            """.format(attribute),
    })


def test_tfs_period_handed_to_ros1_tf2_ros_is_read_by_atof(tmp_path):
    """
    Say what ROS 1's tf2_ros sends for nine words: atof makes '/laser' a qw of 0.

    Its program (tf2_ros/src/static_transform_broadcaster_program.cpp, Noetic) never stops:
    it sends /camera_link → 100 with a quaternion of length 0. The twin: ROS 2's program
    (std::stod) stops there.
    """
    (flag,) = [f for f in lint(_atof_mount(tmp_path, 'type')).findings
               if f.check == 'lint_files']
    assert "qw is '/laser', not a number, so ROS 1's static_transform_publisher reads it as 0 " \
        "(atof) and sends '/camera_link' → '100' with a quaternion of length 0" in flag.message
    assert "drop '100'" in flag.message and 'not checked' not in flag.message
    (flag,) = [f for f in lint(_atof_mount(tmp_path, 'exec')).findings
               if f.check == 'lint_files']
    assert flag.message.endswith("qw is '/laser', not a number: static_transform_publisher "
                                 'stops there and sends nothing')


# ROS 1's tf package: its own static_transform_publisher, with the period last

def _ros1_mount(tmp_path: Path, args: str) -> Path:
    return write(tmp_path / str(len(args.split())), {
        'src/rover/package.xml': package('rover'),
        'src/rover/launch/mounts.launch': '<launch>\n  <node pkg="tf" '
        'type="static_transform_publisher" name="laser_mount"\n        args="{}"/>\n'
        '</launch>\n'.format(args),
    })


def test_ros1_tf_static_transform_publisher_takes_its_period_last(tmp_path):
    """
    The tf package's x y z yaw pitch roll parent child period (or quaternion form) count.

    The lint read these as no sender at all. The twin: the tf2_ros count of words (no period)
    is not tf's form, which stops: said, and the mount not declared.
    """
    for args in ('0.26 0 0.11 1.5708 0 0 base_link laser 100',
                 '0.26 0 0.11 0 0 0.7071068 0.7071068 base_link laser 100'):
        report = lint(_ros1_mount(tmp_path, args))
        assert problems(report) == set(), report.findings
        assert parents(report)['laser'] == ('base_link',)
        (offset,) = [c.message for c in report.checks if c.check == 'laser_offset']
        assert offset.startswith('base_link → laser is (0.2600, 0.0000, 0.1100) m, yaw 1.5708')
    report = lint(_ros1_mount(tmp_path, '0.26 0 0.11 0 0 0 base_link laser'))
    (words,) = [f for f in report.findings if f.check == 'lint_files']
    assert '8 arguments, where the positional forms take 9 or 10' in words.message
    assert 'laser' not in parents(report)


# a tracked UGV whose 3D LiDAR is mounted turned a quarter to the left

def _ugv(tmp_path: Path, qz: str) -> Path:
    return write(tmp_path / qz, {
        'src/ugv_bringup/package.xml': package('ugv_bringup'),
        'src/ugv_bringup/CMakeLists.txt': cmake('ugv_bringup', 'launch'),
        'src/ugv_bringup/launch/sensors.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['0.31', '0', '0.42', '0', '0', '{0}', '{0}', 'base_link', "
            "'os_sensor'])".format(qz)),
    })


def test_a_mistyped_quaternion_names_the_rotation_it_scales_to(tmp_path):
    """(0, 0, 0.7171, 0.7171): tf2 drops it; normalized it is yaw 90 degrees."""
    root = _ugv(tmp_path, '0.7171')
    dropped = only_problem(lint(root), root, 'transform_values', 'ERROR',
                           'src/ugv_bringup/launch/sensors.launch.py', 'os_sensor')
    assert 'tf2 drops the transform' in dropped.message
    assert 'yaw 90.0 degrees' in dropped.message and '0.7071' in dropped.message
    assert 'an angle in radians' not in dropped.message  # no slot holds more than 1
    # twin: the unit quaternion of that mount is taken: nothing to say
    report = lint(_ugv(tmp_path, '0.7071068'))
    assert problems(report) == set(), report.findings
    assert parents(report)['os_sensor'] == ('base_link',)


def test_a_lidar_mount_tf2_drops_is_not_called_unknown(tmp_path):
    """With --config, the LiDAR's only mount is the dropped one: say so, not 'known at launch'."""
    config = AuditConfig(laser_frame='os_sensor', laser_translation=(0.31, 0.0, 0.42),
                         laser_rpy=(0.0, 0.0, 1.5708), tolerance_rad=0.01)
    report = lint_workspace(_ugv(tmp_path, '0.7171'), config, measured=True)
    (laser,) = [c for c in report.checks if c.check == 'laser_offset']
    assert laser.level == 'STALE' and 'tf2 drops' in laser.message, laser.message
    assert 'known only when the launch runs' not in laser.message
    # twin: the unit quaternion is judged against the measurement, and agrees
    report = lint_workspace(_ugv(tmp_path, '0.7071068'), config, measured=True)
    (laser,) = [c for c in report.checks if c.check == 'laser_offset']
    assert laser.level == 'OK' and 'as configured' in laser.message, laser.message


def test_an_angle_in_the_w_slot_is_named_as_one_not_as_the_roll_it_scales_to(tmp_path):
    """(0.05, 0, 0, 1.5707963), a SLAM tuner's IMU mount: qw is π/2, said as an angle."""
    root = _ugv(tmp_path, '0')
    launch = root / 'src/ugv_bringup/launch/sensors.launch.py'
    launch.write_text(launch.read_text().replace("'0', '0', '0', '0', 'base_link'",
                                                 "'0.05', '0', '0', '1.5707963', 'base_link'"))
    dropped = only_problem(lint(root), root, 'transform_values', 'ERROR',
                           'src/ugv_bringup/launch/sensors.launch.py', 'os_sensor')
    assert 'qw = 1.5708 is π/2 (90.0 degrees), an angle in radians' in dropped.message, \
        dropped.message
    assert 'probably' not in dropped.message


def _quaternion(tmp_path: Path, quaternion: str) -> Path:
    return write(tmp_path / str(abs(hash(quaternion))), {
        'src/q/package.xml': package('q'),
        'src/q/launch/q.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.26', '0', '0.11', {}, 'base_link', 'laser'])".format(quaternion)),
    })


def test_a_non_unit_quaternion_gives_the_angle_probably_meant(tmp_path):
    """A yaw of 90 degrees written in the quaternion's slot: qz = 1.5708 with qw = 1."""
    (values,) = [f for f in lint(_quaternion(tmp_path, "'0', '0', '1.5708', '1'"), CAR)
                 .findings if f.check == 'transform_values']
    assert 'A yaw of 1.5708 rad (90.0 degrees) given in the quaternion slots?' in \
        values.message and '(0.0000, 0.0000, 0.7071, 0.7071)' in values.message
    assert 'write it as --yaw 1.5708' in values.message
    assert not [f for f in lint(_quaternion(tmp_path, "'0', '0', '0.7071068', '0.7071068'"),
                                CAR).findings if f.check == 'transform_values']


# an underwater vehicle that runs static_transform_publisher through ExecuteProcess

AUV_LAUNCH = """
import math

from launch import LaunchDescription
from launch.actions import ExecuteProcess


def generate_launch_description():
    return LaunchDescription([
        ExecuteProcess(cmd=['ardusub', '-S', '-w', '-M', 'JSON'], output='screen'),
        ExecuteProcess(
            cmd=['/opt/ros/humble/lib/tf2_ros/static_transform_publisher',
                 '--x', '-0.15', '--z', '-0.0675', '--pitch', str(math.pi / 2),
                 '--frame-id', 'base_link', '--child-frame-id', '{child}'],
            output='screen'),
        ExecuteProcess(cmd=['ros2', 'run', 'tf2_ros', 'static_transform_publisher',
                            '--frame-id', 'map', '--child-frame-id', 'slam']),
    ])
"""


def _auv(tmp_path: Path, child: str) -> Path:
    """Write an AUV bringup whose camera mount is a process, not a Node."""
    return write(tmp_path / child, {
        'src/auv/package.xml': package('auv'),
        'src/auv/launch/bringup.launch.py': AUV_LAUNCH.format(child=child),
    })


def test_a_static_publisher_run_as_a_process_is_read(tmp_path):
    """ExecuteProcess(cmd=[.../static_transform_publisher ...]) sends its edge, pitch and all."""
    report = lint(_auv(tmp_path, 'left_camera_link'))
    rows = {row.frame: row.parents for row in report.frames}
    assert rows['left_camera_link'] == ('base_link',) and rows['slam'] == ('map',), rows
    assert problems(report) == set(), [f.message for f in report.findings]
    # twin: the same process giving base_link as its own child is dropped by tf2: an ERROR
    root = _auv(tmp_path, 'base_link')
    file = 'src/auv/launch/bringup.launch.py'
    assert problems(lint(root)) == {('transform_values', 'ERROR', file,
                                     line_of(root, file, "'base_link', '--child-frame-id'"))}
