# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Robot descriptions as robot_state_publisher loads them, on made-up workspaces with twins.

URDF and xacro (run through FindExecutable, macros placed at their calls, a package xacro cannot
find), and the frame_prefix put before every link.
"""
from pathlib import Path
from typing import Dict

from lint_helpers import CAR, cmake, gym_racecar, launch_py, line_of, lint, one_package, \
    only_problem, package, parents, problems, rsp, share, static_tf, urdf, write
import pytest


# an arm cell whose ros2_control launch runs xacro through FindExecutable

ARM_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="cell_arm">
  <link name="world"/><link name="base_link"/><link name="shoulder"/><link name="tool0"/>
  <joint name="base_joint" type="fixed">
    <parent link="world"/><child link="base_link"/><origin xyz="0 0 0"/>
  </joint>
  <joint name="shoulder_joint" type="revolute">
    <parent link="base_link"/><child link="shoulder"/><origin xyz="0 0 0.16"/>
    <axis xyz="0 0 1"/><limit effort="10" lower="-3" upper="3" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="shoulder"/><child link="tool0"/><origin xyz="0.4 0 0"/>
  </joint>
</robot>
"""


def _arm_cell(tmp_path: Path, table_child: str,
              xacro: str = 'PathJoinSubstitution([FindExecutable(name="xacro")])') -> Path:
    """Write an arm on a table: the description by FindExecutable's xacro, the table static."""
    description = ('Command([{}, " ", '
                   'PathJoinSubstitution([FindPackageShare("cell_arm"), "urdf", '
                   '"arm.urdf.xacro"])])'.format(xacro))
    imports = ('from launch.substitutions import Command, FindExecutable, '
               'PathJoinSubstitution\nfrom launch_ros.substitutions import ExecutableInPackage, '
               'FindPackageShare\n')
    return write(tmp_path / (table_child + str(len(xacro))), {
        'src/cell_arm/package.xml': package('cell_arm'),
        'src/cell_arm/CMakeLists.txt': cmake('cell_arm', 'description/urdf', 'bringup/launch'),
        'src/cell_arm/description/urdf/arm.urdf.xacro': ARM_XACRO,
        'src/cell_arm/bringup/launch/cell.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': {}}}])".format(description),
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--x', '0.5', '--frame-id', 'table', '--child-frame-id', "
            "'{}'])".format(table_child), imports=imports),
    })


def test_xacro_run_through_find_executable_is_read(tmp_path):
    """The common ros2_control launch: the lint reads the description, and its slips."""
    root = _arm_cell(tmp_path, 'base_link')  # the table also claims the arm's base
    report = lint(root)
    xacro = 'src/cell_arm/description/urdf/arm.urdf.xacro'
    assert problems(report) == {('parent_uniqueness', 'ERROR', xacro,
                                 line_of(root, xacro, '"base_joint"'))}, \
        [f.message for f in report.findings]
    assert 'base_link has 2 parents: world' in report.findings[0].message
    assert 'and table (static_transform_publisher' in report.findings[0].message
    # twin: the table holds the world the arm is fixed to: nothing to say, every joint read
    report = lint(_arm_cell(tmp_path, 'world'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame for row in report.frames} == {'table', 'world', 'base_link', 'shoulder',
                                                    'tool0'}


def test_xacro_run_through_executable_in_package_is_read(tmp_path):
    """ExecutableInPackage('xacro', 'xacro') is xacro too: the table's second parent found."""
    root = _arm_cell(tmp_path, 'base_link', xacro="ExecutableInPackage('xacro', 'xacro')")
    report = lint(root)
    assert [f.check for f in report.findings] == ['parent_uniqueness'], \
        [f.message for f in report.findings]


# a lifting-tray AMR: castors from a macro in its base file, drive wheels from one in another

AMR_BASE = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_footprint"/>
  <link name="base_link"/>
  <joint name="base_footprint_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.185"/>
  </joint>
  <xacro:macro name="castor_wheel" params="name x y">
    <link name="${name}_link"/>
    <joint name="${name}_joint" type="fixed">
      <parent link="base_link"/><child link="${name}_link"/><origin xyz="${x} ${y} -0.14"/>
    </joint>
  </xacro:macro>
  <xacro:castor_wheel name="front_left_castor" x="0.25" y="0.18"/>
  <xacro:castor_wheel name="rear_left_castor" x="-0.25" y="0.18"/>
</robot>
"""

AMR_WHEELS = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="drive_wheel" params="name y_reflect">
    <link name="${name}_link"/>
    <joint name="${name}_joint" type="continuous">
      <parent link="base_link"/><child link="${name}_link"/>
      <origin xyz="0 ${y_reflect * 0.18} -0.085"/><axis xyz="0 1 0"/>
    </joint>
  </xacro:macro>
  <xacro:drive_wheel name="left_wheel" y_reflect="1"/>
  <xacro:drive_wheel name="right_wheel" y_reflect="-1"/>
</robot>
"""

AMR_ROBOT = """<?xml version="1.0"?>
<robot name="tray_amr" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find tray_amr)/urdf/base.xacro"/>
  <xacro:include filename="$(find tray_amr)/urdf/wheels.xacro"/>
</robot>
"""


def test_a_macro_joint_is_placed_at_its_own_macros_call(tmp_path):
    """left_wheel_joint comes from drive_wheel's call, not from a castor call of another file."""
    root = write(tmp_path / 'amr', {
        'src/tray_amr/package.xml': package('tray_amr'),
        'src/tray_amr/CMakeLists.txt': cmake('tray_amr', 'launch', 'urdf'),
        'src/tray_amr/urdf/base.xacro': AMR_BASE,
        'src/tray_amr/urdf/wheels.xacro': AMR_WHEELS,
        'src/tray_amr/urdf/robot.urdf.xacro': AMR_ROBOT,
        'src/tray_amr/launch/display.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{'robot_description': Command(['xacro ', " +
            share('tray_amr', 'urdf', 'robot.urdf.xacro') + '])}])',
            "Node(package='joint_state_publisher', executable='joint_state_publisher')",
            imports='from launch.substitutions import Command\n'),
    })
    rows = {row.frame: ' '.join(row.publishers) for row in lint(root).frames}
    wheels, base = 'src/tray_amr/urdf/wheels.xacro', 'src/tray_amr/urdf/base.xacro'
    for wheel in ('left_wheel', 'right_wheel'):
        assert '{}:{}'.format(wheels, line_of(root, wheels, 'name="{}"'.format(wheel))) \
            in rows[wheel + '_link'], rows
    # twin: a castor is still placed at its own call
    assert '{}:{}'.format(base, line_of(root, base, 'name="rear_left_castor"')) \
        in rows['rear_left_castor_link'], rows


LIDAR_MACRO = """<?xml version="1.0"?>
<robot name="rover" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="lidar" params="name x">
    <link name="${name}"/>
    <joint name="${name}_joint" type="fixed">
      <parent link="base_link"/><child link="${name}"/>
      <origin xyz="${x} 0 0.11"/>
    </joint>
  </xacro:macro>
  <link name="base_link"/>
  <xacro:lidar name="laser" x="X"/>
</robot>
"""


def _macro_rover(tmp_path: Path, x: str) -> Path:
    return write(tmp_path / ('x' + x), {
        'src/rover/package.xml': package('rover'),
        'src/rover/urdf/rover.urdf.xacro': LIDAR_MACRO.replace('X', x),
        'src/rover/launch/rover.launch.py': launch_py(
            rsp('rover', 'rover.urdf.xacro', name='robot_state_publisher')),
    })


def test_a_joint_a_macro_makes_is_placed_at_the_call(tmp_path):
    root = _macro_rover(tmp_path, '0.30')
    xacro = 'src/rover/urdf/rover.urdf.xacro'
    (offset,) = [f for f in lint(root, CAR).findings if f.check == 'laser_offset']
    assert (offset.values['file'], offset.values['line']) == (
        xacro, line_of(root, xacro, '<xacro:lidar name='))
    assert not [f for f in lint(_macro_rover(tmp_path, '0.26'), CAR).findings
                if f.check == 'laser_offset']


# a mobile manipulator whose xacro includes a base package the workspace lacks

ARM_ON_BASE = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="moma">
  <xacro:include filename="$(find agv_description)/urdf/agv.urdf.xacro"/>
  <link name="mount_link"/>
  <joint name="mount_joint" type="fixed">
    <parent link="base_link"/><child link="mount_link"/><origin xyz="0 0 0.35"/>
  </joint>
</robot>
"""


def _moma(tmp_path: Path, with_base: bool) -> Path:
    """Write the arm's description over a base package, in the workspace or not."""
    files: Dict[str, str] = {
        'src/moma/package.xml': package('moma'),
        'src/moma/CMakeLists.txt': cmake('moma', 'launch', 'urdf'),
        'src/moma/urdf/moma.urdf.xacro': ARM_ON_BASE,
        'src/moma/launch/rsp.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': Command(['xacro ', {}])}}])".format(
                share('moma', 'urdf', 'moma.urdf.xacro')),
            imports='from launch.substitutions import Command\n'),
    }
    if with_base:
        files.update({
            'src/agv_description/package.xml': package('agv_description'),
            'src/agv_description/CMakeLists.txt': cmake('agv_description', 'urdf'),
            'src/agv_description/urdf/agv.urdf.xacro':
                '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                '<link name="base_link"/></robot>\n'})
    return write(tmp_path / str(with_base), files)


def test_a_package_missing_for_xacro_is_said_once(tmp_path):
    """A XacroException wraps its error and repeats it: say what is missing, once."""
    report = lint(_moma(tmp_path, False))
    (unread,) = [f.message for f in report.findings if f.check == 'lint_files']
    assert unread.count('package agv_description is not in the workspace') == 1, unread
    assert '<class' not in unread
    # twin: the base package in the workspace, the description is read and quiet
    report = lint(_moma(tmp_path, True))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['mount_link'] == ('base_link',)


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
    assert parents(report)['amr_3/lidar_front'] == ('amr_3/base_link',)
    assert parents(report)['amr_3/base_link'] == ('amr_3/base_footprint',)
    assert problems(report) == set(), report.findings
    # twin: no default, so the name is the launch's to know: said once, the edges unchecked
    root = _fleet(tmp_path, '')
    said = only_problem(lint(root), root, 'lint_files', 'WARN',
                        'src/amr_bringup/launch/amr.launch.py', "package='robot_state_publisher'")
    assert 'frame_prefix' in said.message and 'known only when the launch runs' in said.message


# a Neobotix-like bringup: frame_prefix is namespace + '/', and the namespace is empty

NEO_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.launch_context import LaunchContext
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    robot_namespace = LaunchConfiguration('robot_namespace', default='{ns}')
    context = LaunchContext()
    urdf = os.path.join(get_package_share_directory('neo_base'), 'urdf', 'base.urdf')
    with open(urdf, 'r') as infp:
        robot_desc = infp.read()
    return LaunchDescription([
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             namespace=robot_namespace,
             parameters=[{{'robot_description': robot_desc,
                          'frame_prefix': robot_namespace.perform(context) + '/'}}]),
        {static}
    ])
"""


def _neo(tmp_path: Path, static_parent: str) -> Path:
    """Write the base with frame_prefix namespace + '/', and a static edge from static_parent."""
    return write(tmp_path / static_parent.strip('/'), {
        'src/neo_base/package.xml': package('neo_base'),
        'src/neo_base/CMakeLists.txt': cmake('neo_base', 'launch', 'urdf'),
        'src/neo_base/urdf/base.urdf': urdf('base_link base_footprint 0',
                                            'base_footprint wheel_left_link 0.1'),
        'src/neo_base/launch/bringup.launch.py': NEO_LAUNCH.format(
            ns='', static=static_tf(static_parent, 'imu_link', '--x', '0') + ','),
    })


def test_a_bare_slash_frame_prefix_is_the_unprefixed_tree(tmp_path):
    """frame_prefix '/' (no namespace) sends /base_link; tf2 strips it: no finding at all."""
    report = lint(_neo(tmp_path, 'base_link'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['base_footprint'] == ('base_link',)
    # twin: a slash written by hand in a static publisher is still said, at its line
    root = _neo(tmp_path, '/base_link')
    file = 'src/neo_base/launch/bringup.launch.py'
    assert problems(lint(root)) == {('transform_values', 'WARN', file,
                                     line_of(root, file, "'/base_link'"))}


def test_a_description_without_the_prefix_the_simulator_places(tmp_path):
    """The bridge places ego_racecar/base_link; the URDF's base_link has no parent."""
    root = gym_racecar(tmp_path, '', '0.275')
    (split,) = [f for f in lint(root, measured=False).findings if f.check == 'connectivity']
    assert split.level == 'WARN' and 'ego_racecar/base_link' in split.message \
        and 'hangs from base_link' in split.message and 'frame_prefix: ego_racecar/' in \
        split.message
    assert split.values['file'] == 'src/gym/urdf/racecar.urdf'
    # twin: frame_prefix joins the model to the simulator's frames
    report = lint(gym_racecar(tmp_path, 'ego_racecar/', '0.275'), measured=False)
    assert not [f for f in report.findings if f.check == 'connectivity'], report.findings


# a description opened through pathlib.Path(share, 'urdf', file) (issue 31, class F)

def _pathlib_bot(tmp_path: Path, opened: str) -> Path:
    """Write a bot whose robot_state_publisher reads its URDF by open(<opened>)."""
    return write(tmp_path / 'pathlib', {
        'src/bot/package.xml': package('bot'),
        'src/bot/CMakeLists.txt': cmake('bot', 'urdf', 'launch'),
        'src/bot/urdf/bot.urdf': urdf('base_link laser 0.27'),
        'src/bot/launch/bot.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': open({}).read()}}])".format(opened),
            imports='from pathlib import Path\n'),
    })


def test_a_description_path_built_by_pathlib_of_several_parts_is_read(tmp_path):
    """Path(a, b, c) joins all three, as os.path.join does: the mount is read and judged."""
    for opened in ("Path(get_package_share_directory('bot'), 'urdf', 'bot.urdf')",
                   "Path(get_package_share_directory('bot')).joinpath('urdf', 'bot.urdf')",
                   share('bot', 'urdf', 'bot.urdf')):  # the os.path.join twin
        report = lint(_pathlib_bot(tmp_path / str(abs(hash(opened))), opened), CAR)
        assert parents(report).get('laser') == ('base_link',), (opened, report.findings)


# a home robot whose OpaqueFunction runs xacro in Python with the launch's own values

HOME_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="home_bot">
  <xacro:arg name="sim_mode" default="false"/>
  <xacro:arg name="use_ros2_control" default="false"/>
  <link name="base_link"/><link name="lidar_top"/>
  <xacro:if value="$(arg use_ros2_control)"><link name="ros2_control_marker"/></xacro:if>
  <xacro:if value="$(arg sim_mode)">
    <link name="odom"/>
    <joint name="sim_odom_joint" type="fixed">
      <parent link="odom"/><child link="base_link"/><origin xyz="0 0 0"/>
    </joint>
  </xacro:if>
  <joint name="lidar_top_joint" type="fixed">
    <parent link="base_link"/><child link="lidar_top"/><origin xyz="0.1 0 0.3"/>
  </joint>
</robot>
"""

HOME_LAUNCH = """
import os
import re
import xacro
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def launch_robot_state_publisher(context, file_name_var, use_sim_time):
    file_name = context.perform_substitution(file_name_var)
    path = os.path.join(get_package_share_directory('home_bot'), 'urdf', file_name)
    ros2_control = 'true' if use_sim_time.perform(context) == 'true' else 'false'
    urdf_as_xml = xacro.process_file(path, mappings={
        'use_ros2_control': ros2_control, 'sim_mode': use_sim_time.perform(context),
        'prefix': PREFIX}).toxml()
    REWRITE
    return [Node(package='robot_state_publisher', executable='robot_state_publisher',
                 parameters=[{'robot_description': urdf_as_xml}])]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('urdf_file_name', default_value='home_bot.urdf.xacro'),
        DeclareLaunchArgument('use_sim_time', default_value='SIM'),
        DeclareLaunchArgument('prefix', default_value=''),
        OpaqueFunction(function=launch_robot_state_publisher,
                       args=[LaunchConfiguration('urdf_file_name'),
                             LaunchConfiguration('use_sim_time')]),
        Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
             parameters=[{'publish_tf': True, 'world_frame': 'odom', 'odom_frame': 'odom',
                          'base_link_frame': 'base_link'}]),
    ])
"""


def _home_bot(tmp_path: Path, use_sim_time: str,
              prefix: str = "context.launch_configurations['prefix']",
              rewrite: str = 'pass') -> Path:
    """Write a home robot: xacro.process_file in an OpaqueFunction, sim_mode from the launch."""
    return write(tmp_path / (use_sim_time + str(len(prefix)) + str(len(rewrite))), {
        'src/home_bot/package.xml': package('home_bot'),
        'src/home_bot/CMakeLists.txt': cmake('home_bot', 'urdf', 'launch'),
        'src/home_bot/urdf/home_bot.urdf.xacro': HOME_XACRO,
        'src/home_bot/launch/home.launch.py':
            HOME_LAUNCH.replace('SIM', use_sim_time).replace('PREFIX', prefix).replace(
                'REWRITE', rewrite),
    })


def test_xacro_run_in_an_opaque_function_with_the_launchs_values_is_read(tmp_path):
    """
    An OpaqueFunction's xacro.process_file is expanded with the launch's values.

    context.perform_substitution(x), x.perform(context), context.launch_configurations[k] and
    `a if test else b` are known: the description is read and its mistake found.
    """
    root = _home_bot(tmp_path, 'true')  # simulation: the URDF's odom joint beside the EKF
    report = lint(root)
    launch = 'src/home_bot/launch/home.launch.py'
    assert problems(report) == {('parent_uniqueness', 'ERROR', launch,
                                 line_of(root, launch, "'base_link_frame'"))}, \
        [f.message for f in report.findings]
    assert "URDF fixed joint 'sim_odom_joint'" in report.findings[0].message
    # twin: the real robot (sim_mode false): one sender of odom → base_link, the mount read
    report = lint(_home_bot(tmp_path, 'false'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert parents(report).get('lidar_top') == ('base_link',)
    assert 'ros2_control_marker' not in parents(report)  # the conditional decided by the launch


def test_mesh_uris_rewritten_by_re_sub_leave_the_description_read(tmp_path):
    """re.sub over package:// URIs changes meshes, not frames; another pattern may: unknown."""
    meshes = "urdf_as_xml = re.sub(r'package://([^/]+)', 'file:///opt', urdf_as_xml)"
    report = lint(_home_bot(tmp_path, 'true', rewrite=meshes))
    assert [f.check for f in report.findings] == ['parent_uniqueness'], \
        [f.message for f in report.findings]
    frames = "urdf_as_xml = re.sub('base_link', 'chassis', urdf_as_xml)"
    report = lint(_home_bot(tmp_path, 'true', rewrite=frames))
    assert [f.check for f in report.findings] == ['lint_files'], \
        [f.message for f in report.findings]


def test_a_xacro_mapping_only_a_run_knows_leaves_the_description_unread_and_said(tmp_path):
    """An environment variable in the mappings is never handed to xacro as its own text."""
    root = _home_bot(tmp_path, 'true', prefix="os.environ['ROBOT_PREFIX']")
    report = lint(root)
    launch = 'src/home_bot/launch/home.launch.py'
    assert problems(report) == {('lint_files', 'WARN', launch,
                                 line_of(root, launch, 'return [Node('))}, \
        [f.message for f in report.findings]
    assert 'known only when the launch runs' in report.findings[0].message


MAPPINGS_LAUNCH = """
import os
import xacro
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def stage(context):
    extra = LaunchConfiguration('xacro_args').perform(context)
    mappings = {'sim_mode': 'false'}
    CHANGE
    path = os.path.join(get_package_share_directory('home_bot'), 'urdf', 'home_bot.urdf.xacro')
    return [Node(package='robot_state_publisher', executable='robot_state_publisher',
                 parameters=[{'robot_description':
                              xacro.process_file(path, mappings=mappings).toxml()}])]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('xacro_args', default_value=''),
        OpaqueFunction(function=stage),
        Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
             parameters=[{'publish_tf': True, 'world_frame': 'odom', 'odom_frame': 'odom',
                          'base_link_frame': 'base_link'}]),
    ])
"""


def test_mappings_changed_in_place_are_known_only_where_the_change_is_known(tmp_path):
    """`mappings['sim_mode'] = 'true'` is never dropped for the value before it."""
    def bot(name: str, change: str) -> Path:
        return write(tmp_path / name, {
            'src/home_bot/package.xml': package('home_bot'),
            'src/home_bot/CMakeLists.txt': cmake('home_bot', 'urdf', 'launch'),
            'src/home_bot/urdf/home_bot.urdf.xacro': HOME_XACRO,
            'src/home_bot/launch/home.launch.py': MAPPINGS_LAUNCH.replace('CHANGE', change)})

    report = lint(bot('changed', "mappings['sim_mode'] = 'true'"))
    assert [f.check for f in report.findings] == ['lint_files'], \
        [f.message for f in report.findings]  # the simulated odom joint may be there: unknown
    report = lint(bot('unchanged', "if extra:\n        mappings['sim_mode'] = 'true'"))
    assert problems(report) == set(), [f.message for f in report.findings]  # '' is false
    assert parents(report)['lidar_top'] == ('base_link',)


def test_a_frame_an_unread_description_may_hold_names_that_description_first(tmp_path):
    """The LiDAR's frame is a link of the description the lint could not expand: said first."""
    root = _home_bot(tmp_path, 'false', prefix="os.environ['ROBOT_PREFIX']")
    launch = root / 'src/home_bot/launch/home.launch.py'
    driver = ("Node(package='sllidar_ros2', executable='sllidar_node', "
              "parameters=[{'frame_id': 'lidar_top'}]),\n        ")
    launch.write_text(launch.read_text().replace('        OpaqueFunction(',
                                                 '        ' + driver + 'OpaqueFunction('))
    (unsent,) = [f for f in lint(root).findings if f.check == 'connectivity']
    assert unsent.level == 'WARN'
    assert 'lidar_top, but nothing in the workspace publishes it: no static transform, robot ' \
        'description or publisher the lint read declares it (docs/lint.md lists those it ' \
        'knows); the robot description robot_state_publisher loads, which the lint could not ' \
        'read (lint_files says why) at src/home_bot/launch/home.launch.py:' in unsent.message, \
        unsent.message


# a tilting LiDAR on a revolute joint, with nothing that publishes /joint_states

TILT_URDF = """<?xml version="1.0"?>
<robot name="tilt">
  <link name="base_link"/><link name="tilt_link"/><link name="imu_link"/>
  <joint name="imu_joint" type="fixed">
    <parent link="base_link"/><child link="imu_link"/><origin xyz="0 0 0.1"/>
  </joint>
  <joint name="tilt_joint" type="revolute">
    <parent link="base_link"/><child link="tilt_link"/><origin xyz="0.2 0 0.3"/>
    <axis xyz="0 1 0"/><limit effort="1" lower="-1" upper="1" velocity="1"/>
  </joint>
</robot>
"""


def _tilt(tmp_path: Path, states: str) -> Path:
    return one_package(tmp_path / str(bool(states)), 'tilt', {
        'urdf/tilt.urdf': TILT_URDF,
        'launch/tilt.launch.py': launch_py(
            rsp('tilt', 'tilt.urdf'),
            "Node(package='sllidar_ros2', executable='sllidar_node', "
            "parameters=[{'frame_id': 'tilt_link'}])", *([states] if states else [])),
    }, ('launch', 'urdf'))


def test_a_frame_of_a_moving_joint_without_joint_states_is_said_as_held_back(tmp_path):
    """The description is read: its tilt joint waits for /joint_states, which nothing sends."""
    report = lint(_tilt(tmp_path, ''))
    (unsent,) = report.findings
    assert unsent.check == 'connectivity' and unsent.level == 'ERROR', unsent.message
    assert 'tilt_link is a frame of a moving joint robot_state_publisher holds back (URDF ' \
        "revolute joint 'tilt_joint', src/tilt/urdf/tilt.urdf:" in unsent.message, unsent.message
    assert 'no launch the lint can follow loads' not in unsent.message
    # twin: joint_state_publisher gives the joint its position: the frame is sent
    report = lint(_tilt(tmp_path, "Node(package='joint_state_publisher', "
                                  "executable='joint_state_publisher')"))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert parents(report)['tilt_link'] == ('base_link',)


BOT_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="bot">
  <xacro:arg name="laser_x" default="0.24"/>
  <link name="base_link"/><link name="laser"/>
  <joint name="laser_joint" type="fixed">
    <parent link="base_link"/><child link="laser"/><origin xyz="$(arg laser_x) 0 0.14"/>
  </joint>
</robot>
"""

PARSED_LAUNCH = """
import os
import xacro
from ament_index_python.packages import get_package_share_path
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    path = os.path.join(get_package_share_path('bot'), 'urdf', 'bot.urdf.xacro')
    doc = xacro.parse(open(path))
    xacro.process_doc(doc MAPPINGS)
    return LaunchDescription([
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             parameters=[{'robot_description': doc.toxml()}]),
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['--frame-id', 'base_link', '--child-frame-id', 'laser']),
    ])
"""


@pytest.mark.parametrize('mappings, read', [('', True), (", mappings={'laser_x': x}", False)])
def test_xacro_parse_and_process_doc_is_read_unless_given_mappings(tmp_path, mappings, read):
    """get_package_share_path, xacro.parse(open(f)), process_doc(doc), doc.toxml(): read."""
    root = one_package(tmp_path / str(read), 'bot', {
        'urdf/bot.urdf.xacro': BOT_XACRO,
        'launch/bot.launch.py': PARSED_LAUNCH.replace('MAPPINGS', mappings)}, ('launch', 'urdf'))
    checks = [f.check for f in lint(root).findings]
    assert checks == (['parent_uniqueness', 'laser_offset'] if read else ['lint_files']), checks


CHANGED_UNDER_A_TWICE_ASSIGNED_TEST = """from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    nodes = []
    camera_name = 'zed'
    if camera_name == '':
        camera_name = 'zed_default'
        nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                          arguments=['--frame-id', 'base_link', '--child-frame-id', 'cam']))
    return LaunchDescription(nodes)
"""


def test_a_list_changed_under_a_test_of_a_twice_assigned_name_is_read(tmp_path):
    """
    The ZED launch file appends under `if camera_name == ''` after reassigning it (round L9).

    The lint ended in an AttributeError: deciding what was changed asked what was changed.
    The test reads camera_name before the `if` reassigns it: 'zed', decided false, the
    publisher never runs, as in the twin without the reassignment. In a loop the test also
    reads what the loop assigns after it: not known, so the publisher may run.
    """
    looped = CHANGED_UNDER_A_TWICE_ASSIGNED_TEST.replace(
        "    if camera_name == '':\n", "    for _ in range(2):\n      if camera_name == '':\n"
    ).replace("        camera_name = 'zed_default'\n", '').replace(
        '    return', "      camera_name = ''\n    return")
    for name, text, runs in (
            ('twice', CHANGED_UNDER_A_TWICE_ASSIGNED_TEST, False),
            ('once', CHANGED_UNDER_A_TWICE_ASSIGNED_TEST.replace(
                "        camera_name = 'zed_default'\n", ''), False),
            ('looped', looped, True)):
        report = lint(one_package(tmp_path / name, 'zed_bringup', {
            'launch/camera.launch.py': text}, ('launch',)))
        assert ('cam' in parents(report)) == runs, (name, text)


def test_one_descriptions_moving_joint_sent_twice_is_redundant_not_a_jump(tmp_path):
    """
    Two robot_state_publishers of one description send its tilt joint alike (round L9).

    Both follow the same /joint_states: a WARN that one is redundant, never "the frame jumps
    between them". The twin, a static publisher of that edge beside the description, is two
    values: an ERROR.
    """
    states = "Node(package='joint_state_publisher', executable='joint_state_publisher')"
    mount = ("Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
             "'--x', '0.2', '--z', '0.3', '--frame-id', 'base_link', '--child-frame-id', "
             "'tilt_link'])")
    for name, second in (('twice', rsp('tilt', 'tilt.urdf', name='rsp_2')), ('mount', mount)):
        report = lint(one_package(tmp_path / name, 'tilt', {
            'urdf/tilt.urdf': TILT_URDF,
            'launch/tilt.launch.py': launch_py(rsp('tilt', 'tilt.urdf'), second, states),
        }, ('launch', 'urdf')))
        tilt = [f for f in report.findings if f.check == 'parent_uniqueness'
                and 'base_link → tilt_link' in f.message]
        assert len(tilt) == 1, (name, [f.message for f in report.findings])
        assert (tilt[0].level == 'WARN') == (name == 'twice'), tilt[0].message
        assert ('jump' in tilt[0].message) == (name == 'mount'), tilt[0].message


def test_a_robot_description_that_is_no_urdf_text_is_said_to_stop_the_node(tmp_path):
    """
    `{'robot_description': 'file:///tmp/robot.urdf'}` beside a process writing that file (L9).

    robot_state_publisher parses the parameter as XML and stops at start: an ERROR naming the
    text, never "its robot_description is robot_description". Inline XML is said as such;
    the twin reads the URDF from the package and is quiet.
    """
    def robot(name: str, description: str) -> Path:
        return one_package(tmp_path / name, 'tilt', {
            'urdf/tilt.urdf': TILT_URDF,
            'launch/tilt.launch.py': launch_py(
                "Node(package='robot_state_publisher', executable='robot_state_publisher', "
                "parameters=[{{'robot_description': {}}}])".format(description),
                "Node(package='joint_state_publisher', executable='joint_state_publisher')"),
        }, ('launch', 'urdf'))
    (stops,) = [f for f in lint(robot('uri', "'file:///tmp/robot.urdf'")).findings
                if f.check == 'lint_files']
    assert stops.level == 'ERROR' and "the text 'file:///tmp/robot.urdf', which is no URDF" \
        in stops.message, stops.message
    for name, text in (('inline', "'<robot name=\"r\"/>'"), ('empty', "''")):
        said = [f.message for f in lint(robot(name, text)).findings]  # '' is no verdict
        assert any('its robot_description is an inline text' in m for m in said), said
    report = lint(robot('read', 'open({}).read()'.format(share('tilt', 'urdf', 'tilt.urdf'))))
    assert problems(report) == set(), [f.message for f in report.findings]


DOG_XACRO = """<?xml version="1.0"?>
<robot name="dog" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/><link name="trunk"/><link name="lidar"/>
  <joint name="floating_base" type="fixed">
    <parent link="base"/><child link="trunk"/><origin xyz="0 0 0"/>
  </joint>
  <joint name="lidar_joint" type="fixed">
    <parent link="trunk"/><child link="lidar"/><origin xyz="0.28 0 0.08"/>
  </joint>
</robot>
"""
DOG_LAUNCH = """import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch_ros.actions import Node
import xacro


def process_xacro(PARAMS):
    pkg_path = get_package_share_directory('dog')
    xacro_file = os.path.join(pkg_path, 'xacro', FILE)
    return xacro.process_file(xacro_file).toxml()


def setup(context):
    return [Node(package='robot_state_publisher', executable='robot_state_publisher',
                 parameters=[{'robot_description': process_xacro(ARGS)}])]


def generate_launch_description():
    return LaunchDescription([OpaqueFunction(function=setup)])
"""


@pytest.mark.parametrize('params, args, file, read', [
    ('', '', "'robot.xacro'", True),
    ('context', 'context', "'robot.xacro'", True),
    ('name', "'robot.xacro'", 'name', True),
    ('context, name', "context, LaunchConfiguration('model').perform(context)", 'name', False)])
def test_a_description_a_helper_of_the_launch_file_returns_is_read(tmp_path, params, args,
                                                                   file, read):
    """
    A quadruped's `process_xacro()` / `process_xacro(context)` returns its description (L9).

    The helper's names are literal: the description is read as if inlined; a parameter
    stands for the call's argument (a hexapod's `_cfg(pkg, robot)`, L10). An argument only
    the launch knows leaves the description unknown, said so.
    """
    launch = DOG_LAUNCH.replace('PARAMS', params).replace('ARGS', args).replace('FILE', file)
    if not read:
        launch = launch.replace('import xacro', 'import xacro\n'
                                'from launch.substitutions import LaunchConfiguration')
    report = lint(one_package(tmp_path / 'dog', 'dog', {
        'xacro/robot.xacro': DOG_XACRO, 'launch/dog.launch.py': launch}, ('launch', 'xacro')))
    said = [f.message for f in report.findings]
    assert (parents(report).get('lidar') == ('trunk',)) == read, said
    assert any('its robot_description is' in m and 'known only when the launch runs' in m
               for m in said) != read, said
