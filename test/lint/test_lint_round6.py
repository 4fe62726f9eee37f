# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on twelve more unseen workspaces (issue 20, round 6): false alarms quiet, wording true.

Made-up workspaces, each drawn from a habit met there: a legged robot whose mapping launch picks
its SLAM backend in a Python if/else (each branch with its own RViz), a fleet of warehouse AMRs
whose frame_prefix is a substitution list, and a tracked UGV whose 3D LiDAR mount has a
mistyped quaternion (0.7171 for 0.7071). Each has the twin that still fires, or the healthy twin
that stays quiet.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, one_launch_package, package, problems, write


def lint(root: Path) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


def _parents(report: Report) -> dict:
    return {row.frame: row.parents for row in report.frames}


def _only(report: Report, root: Path, check: str, level: str, file: str, text: str):
    """Return the report's one WARN or ERROR, asserting its check, level and place."""
    assert problems(report) == {(check, level, file, line_of(root, file, text))}, \
        report.findings
    (found,) = [f for f in report.findings if f.level in ('WARN', 'ERROR')]
    return found


# a legged robot whose mapping launch picks its SLAM backend from the environment

DOG_LAUNCH = """
import os
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    backend = os.environ.get('DOG_SLAM', 'fast_lio')
    actions = [Node(package='dog_driver', executable='lidar_node', name='lidar',
                    parameters=[{'frame_id': 'lidar_link'}])]
    if backend == 'kiss_icp':
        actions.append(Node(package='kiss_icp', executable='kiss_icp_node',
                            name='kiss_icp'))
        actions.append(Node(package='rviz2', executable='rviz2', name='rviz2',
                            arguments=['-d', 'kiss.rviz']))
    else:
        actions.append(Node(package='fast_lio', executable='fastlio_mapping',
                            name='laserMapping'))
        actions.append(Node(package='rviz2', executable='rviz2', name='rviz2',
                            arguments=['-d', 'lio.rviz']))
    {EXTRA}
    return LaunchDescription(actions)
"""


def _dog(tmp_path: Path, extra: str) -> Path:
    return one_launch_package(tmp_path / str(len(extra)), 'dog_bringup', 'mapping.launch.py',
                              DOG_LAUNCH.replace('{EXTRA}', extra))


def test_nodes_on_opposite_sides_of_a_python_if_may_share_a_name(tmp_path):
    """Only one backend's RViz runs: one name on both sides of an if/else is no clash."""
    report = lint(_dog(tmp_path, 'pass'))
    assert not [f for f in report.findings if f.check == 'lint_nodes'], report.findings
    # twin: a third RViz after the if/else runs beside whichever branch ran: a clash
    root = _dog(tmp_path, "actions.append(Node(package='rviz2', executable='rviz2', "
                          "name='rviz2', arguments=['-d', 'debug.rviz']))")
    launch = 'src/dog_bringup/launch/mapping.launch.py'
    (clash,) = [f for f in lint(root).findings if f.check == 'lint_nodes']
    assert clash.values['file'] == launch and 'named rviz2' in clash.message
    assert '{}:{}'.format(launch, line_of(root, launch, 'debug.rviz')) in clash.message


# a fleet of warehouse AMRs: each robot's frames prefixed with its name

AMR_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    urdf = os.path.join(get_package_share_directory('amr_description'), 'urdf', 'amr.urdf')
    return LaunchDescription([
        DeclareLaunchArgument('robot_name'{DEFAULT}),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             namespace=LaunchConfiguration('robot_name'),
             parameters=[{'frame_prefix': [LaunchConfiguration('robot_name'), '/'],
                          'robot_description': ParameterValue(Command(['xacro ', urdf]),
                                                              value_type=str)}]),
    ])
"""

AMR_URDF = """
<robot name="amr">
  <link name="base_footprint"/>
  <link name="base_link"/>
  <link name="lidar_front"/>
  <joint name="base_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/>
    <origin xyz="0 0 0.09"/>
  </joint>
  <joint name="lidar_front_joint" type="fixed">
    <parent link="base_link"/><child link="lidar_front"/>
    <origin xyz="0.42 0 0.18"/>
  </joint>
</robot>
"""


def _fleet(tmp_path: Path, default: str) -> Path:
    return write(tmp_path / ('named' if default else 'unnamed'), {
        'src/amr_description/package.xml': package('amr_description'),
        'src/amr_description/CMakeLists.txt': cmake('amr_description', 'urdf'),
        'src/amr_description/urdf/amr.urdf': AMR_URDF,
        'src/amr_bringup/package.xml': package('amr_bringup'),
        'src/amr_bringup/CMakeLists.txt': cmake('amr_bringup', 'launch'),
        'src/amr_bringup/launch/amr.launch.py': AMR_LAUNCH.replace('{DEFAULT}', default),
    })


def test_a_frame_prefix_written_as_a_substitution_list_is_joined(tmp_path):
    """[LaunchConfiguration('robot_name'), '/'] is one string to launch_ros: amr_3/."""
    report = lint(_fleet(tmp_path, ", default_value='amr_3'"))
    assert _parents(report)['amr_3/lidar_front'] == ('amr_3/base_link',)
    assert _parents(report)['amr_3/base_link'] == ('amr_3/base_footprint',)
    assert problems(report) == set(), report.findings
    # twin: no default, so the name is the launch's to know: said once, the edges unchecked
    root = _fleet(tmp_path, '')
    said = _only(lint(root), root, 'lint_files', 'WARN', 'src/amr_bringup/launch/amr.launch.py',
                 "package='robot_state_publisher'")
    assert 'frame_prefix' in said.message and 'known only when the launch runs' in said.message


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


def test_a_mistyped_quaternion_names_the_rotation_probably_meant(tmp_path):
    """(0, 0, 0.7171, 0.7171): tf2 drops it; normalized it is yaw 90 degrees."""
    root = _ugv(tmp_path, '0.7171')
    dropped = _only(lint(root), root, 'transform_values', 'ERROR',
                    'src/ugv_bringup/launch/sensors.launch.py', 'os_sensor')
    assert 'tf2 drops the transform' in dropped.message
    assert 'yaw 90.0 degrees' in dropped.message and '0.7071' in dropped.message
    # twin: the unit quaternion of that mount is taken: nothing to say
    report = lint(_ugv(tmp_path, '0.7071068'))
    assert problems(report) == set(), report.findings
    assert _parents(report)['os_sensor'] == ('base_link',)


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


# an orchard rover whose GPS localization renames its frames per robot only when namespaced

ROVER_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from nav2_common.launch import ReplaceString


def generate_launch_description():
    params = ReplaceString(
        condition=IfCondition(LaunchConfiguration('use_namespace')),
        source_file=os.path.join(get_package_share_directory('rover_localization'), 'config',
                                 'gps.yaml'),
        replacements={'odom_frame: odom': ['odom_frame: ', LaunchConfiguration('robot'), '/odom']})
    return LaunchDescription([
        DeclareLaunchArgument('use_namespace', default_value='{NAMESPACED}'),
        DeclareLaunchArgument('robot', default_value='rover_1'),
        Node(package='robot_localization', executable='ekf_node', name='ekf_global',
             parameters=[params]),
    ])
"""


def _rover(tmp_path: Path, namespaced: str) -> Path:
    return write(tmp_path / namespaced, {
        'src/rover_localization/package.xml': package('rover_localization'),
        'src/rover_localization/CMakeLists.txt': cmake('rover_localization', 'launch',
                                                       'config'),
        'src/rover_localization/config/gps.yaml': """
            /**/ekf_global:
              ros__parameters:
                map_frame: map
                odom_frame: odom
                base_link_frame: base_link
                world_frame: map
            """,
        'src/rover_localization/launch/gps.launch.py': ROVER_LAUNCH.replace(
            '{NAMESPACED}', namespaced),
    })


def test_a_replace_string_whose_condition_is_false_hands_its_file_on(tmp_path):
    """ReplaceString(condition=false) passes the source file: the EKF's map → odom is read."""
    report = lint(_rover(tmp_path, 'false'))
    assert _parents(report)['odom'] == ('map',)
    assert not [f for f in report.findings if f.check == 'lint_files'], report.findings
    # twin: namespaced, the file the EKF reads is written by the launch: said, not guessed
    root = _rover(tmp_path, 'true')
    report = lint(root)
    launch = 'src/rover_localization/launch/gps.launch.py'
    (said,) = [f for f in report.findings if f.check == 'lint_files']
    assert said.values['file'] == launch and 'known only when the launch runs' in said.message
    assert 'odom' not in _parents(report)


# a tracked tractor in Gazebo: its controllers come from the description's gz_ros2_control plugin

TRACTOR_URDF = """
<robot name="tractor">
  <link name="base_link"/>
  <link name="left_track"/>
  <link name="right_track"/>
  <joint name="left_track_joint" type="continuous">
    <parent link="base_link"/><child link="left_track"/><origin xyz="0 0.35 0"/>
  </joint>
  <joint name="right_track_joint" type="continuous">
    <parent link="base_link"/><child link="right_track"/><origin xyz="0 -0.35 0"/>
  </joint>
  <gazebo>
    <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin">
      <parameters>$(find tractor_sim)/config/controllers.yaml</parameters>
    </plugin>
  </gazebo>
</robot>
"""

TRACTOR_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import Command
from launch_ros.actions import Node


def generate_launch_description():
    urdf = os.path.join(get_package_share_directory('tractor_sim'), 'urdf', 'tractor.urdf')
    return LaunchDescription([
        IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join(
            get_package_share_directory('ros_gz_sim'), 'launch', 'gz_sim.launch.py'))),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             parameters=[{'robot_description': Command(['xacro ', urdf])}]),
        Node(package='ros_gz_sim', executable='create', arguments=['-topic', 'robot_description']),
        Node(package='controller_manager', executable='spawner', arguments=['tracks']),
    ])
"""


def _tractor(tmp_path: Path, installed: str) -> Path:
    return write(tmp_path / installed.replace(' ', '_'), {
        'src/tractor_sim/package.xml': package('tractor_sim'),
        'src/tractor_sim/CMakeLists.txt': cmake('tractor_sim', installed),
        'src/tractor_sim/urdf/tractor.urdf': TRACTOR_URDF,
        'src/tractor_sim/config/controllers.yaml': """
            controller_manager:
              ros__parameters:
                update_rate: 50
                tracks:
                  type: diff_drive_controller/DiffDriveController
            tracks:
              ros__parameters:
                left_wheel_names: [left_track_joint]
                right_wheel_names: [right_track_joint]
                odom_frame_id: odom
                base_frame_id: base_link
            """,
        'src/tractor_sim/launch/sim.launch.py': TRACTOR_LAUNCH,
    })


def test_a_gazebo_controller_file_its_package_does_not_install_is_said(tmp_path):
    """$(find tractor_sim)/config/...: CMake installs launch and urdf only: no controllers."""
    root = _tractor(tmp_path, 'launch urdf')
    report = lint(root)
    said = _only(report, root, 'lint_files', 'WARN', 'src/tractor_sim/launch/sim.launch.py',
                 "package='robot_state_publisher'")
    assert 'config/controllers.yaml but does not install it' in said.message, said.message
    assert _parents(report)['base_link'] == ()  # the controller's odom → base_link never runs
    # twin: config installed too: the controller's odom → base_link is read, nothing said
    report = lint(_tractor(tmp_path, 'launch urdf config'))
    assert problems(report) == set(), report.findings
    assert _parents(report)['base_link'] == ('odom',)
