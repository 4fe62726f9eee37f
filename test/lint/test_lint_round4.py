# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on a fourth held-out set (issue 20): each false alarm found there, made up again.

A student racing team's bringup builds its static_transform_publisher nodes in a loop from a
YAML list, `arguments=[*xyz, *rpy, parent, child]`: four list items, but any number of
arguments once the launch runs. Its twin unpacks lists the file itself writes, which the lint
can count and read. A lane-keeping car passes its controller gains as a dict comprehension
over a table of launch arguments: inline parameters, no parameter file. A simulator team reads
the LiDAR mount from a YAML file in an OpaqueFunction (`--x str(mount['x'])`): the numbers are
the launch's, but base_link → laser is written out, so the frames are declared. A four-wheel
Ignition sim loads its controllers from the description's gz_ros2_control plugin, no
ros2_control_node: its diff_drive_controller sends odometry beside a fusing EKF. Each has the
twin that stays quiet. No --config, except where a test gives the robot's measured mount.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig, config_from_parameters, flatten
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, one_launch_package, package, problems, share, \
    write

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


def lint(root: Path) -> Report:
    """Lint as a new user would: no --config, the workspace judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


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


GAINS = """
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

ROWS = [('stanley_gain', '1.5', float), ('maximum_speed_mps', '0.9', float)]


def generate_launch_description():
    gains = {GAINS}
    return LaunchDescription([
        *[DeclareLaunchArgument(name, default_value=value) for name, value, _ in ROWS],
        Node(package='lane_control', executable='lane_control_node', name='lane_control',
             parameters=[gains]),
    ])
"""


def _lane_car(tmp_path: Path, gains: str) -> Path:
    return one_launch_package(tmp_path / str(len(gains)), 'lane_bringup', 'drive.launch.py',
                              GAINS.replace('{GAINS}', gains))


def test_a_dict_comprehension_is_inline_parameters_not_a_file(tmp_path):
    """Gains built over launch arguments: unknown until the launch runs, and no file at all."""
    root = _lane_car(tmp_path, '{name: ParameterValue(LaunchConfiguration(name), value_type=kind)'
                               ' for name, _, kind in ROWS}')
    (said,) = [f for f in lint(root).findings if f.level == 'WARN']
    assert 'parameter file' not in said.message, said.message
    assert 'inline parameters built over ROWS' in said.message, said.message
    assert said.values.get('line') == line_of(root, 'src/lane_bringup/launch/drive.launch.py',
                                              'parameters=[gains]')


def test_a_literal_dict_of_gains_is_read(tmp_path):
    """The twin: the same gains written out are inline parameters the lint reads: no word."""
    report = lint(_lane_car(tmp_path, "{'stanley_gain': 1.5, 'maximum_speed_mps': 0.9}"))
    assert [f.message for f in report.findings if f.level in ('WARN', 'ERROR')] == []


MOUNT = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch_ros.actions import Node


def _setup(context):
    path = os.path.join(get_package_share_directory('sim_car'), 'config', 'mount.yaml')
    with open(path) as handle:
        mount = yaml.safe_load(handle)['base_link_to_laser']
    return [Node(package='tf2_ros', executable='static_transform_publisher',
                 arguments=['--x', {X}, '--z', {Z},
                            '--frame-id', 'base_link', '--child-frame-id', 'laser'])]


def generate_launch_description():
    return LaunchDescription([OpaqueFunction(function=_setup)])
"""


def _sim_car(tmp_path: Path, x: str, z: str) -> Path:
    return write(tmp_path / x.replace("'", ''), {
        'src/sim_car/package.xml': package('sim_car'),
        'src/sim_car/CMakeLists.txt': cmake('sim_car', 'launch', 'config'),
        'src/sim_car/config/mount.yaml': 'base_link_to_laser:\n  x: 0.27\n  z: 0.11\n',
        'src/sim_car/launch/sim.launch.py': MOUNT.replace('{X}', x).replace('{Z}', z),
    })


def _measured() -> AuditConfig:
    """Return the robot's measured mount, as --config gives it: 0.27 m ahead, 0.11 m up."""
    return config_from_parameters(flatten({'frames': {'required': ['base_link', 'laser']},
                                           'laser_offset': {'translation': [0.27, 0.0, 0.11]},
                                           'pose_topics': []}))


def test_frames_written_beside_unknown_numbers_are_declared(tmp_path):
    """base_link → laser is sent, its numbers the launch's: not 'in no declared transform'."""
    root = _sim_car(tmp_path, "str(mount['x'])", "str(mount['z'])")
    report = lint_workspace(root, _measured())
    assert [f for f in report.findings if f.check == 'chain_order'] == [], \
        [f.message for f in report.findings]
    (said,) = [f for f in report.findings if f.level == 'WARN']
    assert "x is mount['x'], known only when the launch runs" in said.message, said.message
    (offset,) = [c for c in report.checks if c.check == 'laser_offset']
    assert offset.level == 'STALE', offset.message
    assert [f for f in report.findings if f.check == 'laser_offset'] == []


def test_written_numbers_are_judged_against_the_measured_mount(tmp_path):
    """The twin: the same mount written out is read, and agrees with the measurement."""
    report = lint_workspace(_sim_car(tmp_path, "'0.27'", "'0.11'"), _measured())
    assert [f.message for f in report.findings if f.level in ('WARN', 'ERROR')] == []
    (offset,) = [c for c in report.checks if c.check == 'laser_offset']
    assert offset.level == 'OK' and '(0.2700, 0.0000, 0.1100)' in offset.message, offset.message


SIM_BOT = """<?xml version="1.0"?>
<robot name="skid" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_link"/>
  <link name="chassis"/>
  <joint name="chassis_joint" type="fixed">
    <parent link="base_link"/><child link="chassis"/><origin xyz="0 0 0.15"/>
  </joint>
  <gazebo>
    <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin">
      <parameters>$(find skid_sim)/config/controllers.yaml</parameters>
    </plugin>
  </gazebo>
</robot>
"""

SKID_CONTROLLERS = """controller_manager:
  ros__parameters:
    update_rate: 50
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
    skid_controller:
      type: diff_drive_controller/DiffDriveController

skid_controller:
  ros__parameters:
    left_wheel_names: ['front_left_wheel_joint', 'rear_left_wheel_joint']
    right_wheel_names: ['front_right_wheel_joint', 'rear_right_wheel_joint']
    wheels_per_side: 2
{}"""

SKID_EKF = """ekf_filter_node:
  ros__parameters:
    publish_tf: {}
    world_frame: odom
    odom_frame: odom
    base_link_frame: base_link
    odom0: skid_controller/odom
"""


def _skid_sim(tmp_path: Path, name: str, controller: str, ekf_tf: str) -> Path:
    """Write an Ignition sim whose controller manager is the description's Gazebo plugin."""
    return write(tmp_path / name, {
        'src/skid_sim/package.xml': package('skid_sim'),
        'src/skid_sim/CMakeLists.txt': cmake('skid_sim', 'config', 'launch', 'urdf'),
        'src/skid_sim/urdf/skid.urdf.xacro': SIM_BOT,
        'src/skid_sim/config/controllers.yaml': SKID_CONTROLLERS.format(controller),
        'src/skid_sim/config/ekf.yaml': SKID_EKF.format(ekf_tf),
        'src/skid_sim/launch/sim.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': Command(['xacro ', {}])}}])".format(
                share('skid_sim', 'urdf', 'skid.urdf.xacro')),
            "Node(package='ros_gz_sim', executable='create', "
            "arguments=['-topic', 'robot_description'])",
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['joint_state_broadcaster'])",
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['skid_controller'])",
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('skid_sim', 'config', 'ekf.yaml')),
            imports='from launch.substitutions import Command\n'),
    })


def test_a_controller_gazebo_loads_from_the_description_sends_odometry(tmp_path):
    """The plugin's controllers.yaml makes skid_controller a diff_drive_controller: 2 senders."""
    root = _skid_sim(tmp_path, 'both', '', 'true')
    report = lint(root)
    controllers = 'src/skid_sim/config/controllers.yaml'
    assert problems(report) == {('parent_uniqueness', 'ERROR', controllers,
                                 line_of(root, controllers, 'diff_drive_controller/'))}, \
        [f.message for f in report.findings]
    (two,) = report.findings
    assert 'odom → base_link is declared by 2 sources' in two.message, two.message
    assert 'diff_drive_controller skid_controller' in two.message, two.message


def test_a_gazebo_controller_that_leaves_odometry_to_the_ekf_is_quiet(tmp_path):
    """The twin: enable_odom_tf false, the EKF alone sends odom → base_link."""
    report = lint(_skid_sim(tmp_path, 'ekf_only', '    enable_odom_tf: false\n', 'true'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'ekf_filter_node' in str(row.publishers), row


def test_the_gazebo_controller_alone_is_the_odometry(tmp_path):
    """The other twin: the EKF only filters; the controller the plugin loads sends odometry."""
    report = lint(_skid_sim(tmp_path, 'controller_only', '', 'false'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'skid_controller' in str(row.publishers), row
