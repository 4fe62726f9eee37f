# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint's leftovers of issue 20, each with its healthy twin.

No verdict without data, two /joint_states publishers, nodes built by helper functions, launch
files a script starts together. Made-up workspaces, each drawn from a habit of some robot: a
teleop-only bringup (joy and teleop_twist_joy, no frame at all), a manipulator's description
(world → link0, no map, odom nor base_link), a ros2_control diff drive (Python and XML) whose
bringup starts joint_state_publisher beside the joint_state_broadcaster, a TurtleBot-like
bringup importing its mounts from a sibling module, an F1TENTH-like one whose nodes come from
its package's launch_helpers, a car whose start script runs two launch files at once.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.lint.readers.scripts import Together, together
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, one_launch_package, package, problems, share, \
    write


def lint(root: Path) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


def _levels(report: Report) -> dict:
    return {check.check: check.level for check in report.checks}


def _message(report: Report, check: str) -> str:
    return next(c.message for c in report.checks if c.check == check)


# 1. agreement without data

TELEOP = ("Node(package='joy', executable='joy_node', name='joy_node')",
          "Node(package='teleop_twist_joy', executable='teleop_node', name='teleop')")
RIG = ("Node(package='tf2_ros', executable='static_transform_publisher', "
       "arguments=['0', '0', '0', '0', '0', '0', 'odom', 'base_link'])",
       "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
       "name='slam_toolbox', parameters=[{'base_frame': 'base_link'}])")


def test_a_workspace_that_declares_no_frame_gets_no_ok_for_its_tree(tmp_path):
    """A teleop bringup sends no transform: the tree checks cannot know, and say why."""
    root = one_launch_package(tmp_path / 'teleop', 'pad_teleop', 'teleop.launch.py',
                              launch_py(*TELEOP))
    report = lint(root)
    levels = _levels(report)
    for check in ('parent_uniqueness', 'chain_order', 'transform_values', 'connectivity',
                  'pose_frame', 'lint_parameters'):
        assert levels[check] == 'STALE', (check, _message(report, check))
    for check in ('parent_uniqueness', 'chain_order', 'transform_values'):
        message = _message(report, check)
        assert message.startswith('not judged: the files declare no transform'), message
        assert 'joy_node, teleop' in message and 'teleop_twist_joy/teleop_node' in message
    assert levels['lint_nodes'] == 'OK' and problems(report) == set()
    # twin: a test rig whose static odom → base_link and slam_toolbox's map → odom are data
    root = one_launch_package(tmp_path / 'rig', 'rig_bringup', 'rig.launch.py',
                              launch_py(*RIG))
    report = lint(root)
    levels = _levels(report)
    assert levels['parent_uniqueness'] == levels['chain_order'] == 'OK', report.checks
    assert levels['transform_values'] == 'OK'
    assert _message(report, 'chain_order') == 'base_link ancestry: base_link ← odom ← map'


def test_a_workspace_of_parameter_files_alone_is_no_robot_without_frames(tmp_path):
    """A config package (an EKF's YAML, no launch file): without --config nothing is required."""
    root = write(tmp_path / 'cfg', {
        'src/rover_config/package.xml': package('rover_config'),
        'src/rover_config/config/ekf.yaml': 'ekf_filter_node:\n  ros__parameters:\n'
                                            '    world_frame: odom\n'
                                            '    base_link_frame: base_footprint\n'})
    report = lint(root)
    assert problems(report) == set(), report.findings  # was an ERROR: map, odom... required
    assert _levels(report)['chain_order'] == 'STALE'
    assert 'no launch file the lint follows' in _message(report, 'chain_order')
    # twin: with the robot's config (--config), its required frames are data: still an ERROR
    measured = lint_workspace(root, AuditConfig(), measured=True)
    assert ('chain_order', 'ERROR', None, None) in problems(measured)


ARM_URDF = """
<robot name="arm">
  <link name="world"/>
  <link name="link0"/>
  <link name="link1"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="link0"/></joint>
  <joint name="j1" type="fixed"><parent link="link0"/><child link="link1"/>
    <origin xyz="0 0 0.333"/></joint>
</robot>
"""


def test_a_tree_without_two_of_the_chain_has_no_order_to_judge(tmp_path):
    """A manipulator's world → link0 has no map, odom nor base_link: no REP 105 verdict."""
    root = write(tmp_path / 'arm', {
        'src/arm_description/package.xml': package('arm_description'),
        'src/arm_description/CMakeLists.txt': cmake('arm_description', 'urdf'),
        'src/arm_description/urdf/arm.urdf': ARM_URDF})
    report = lint(root)
    chain = _message(report, 'chain_order')
    assert _levels(report)['chain_order'] == 'STALE', chain
    assert 'the files declare none, so their order cannot be known' in chain
    assert 'not declared here: map, odom, base_link' in chain
    assert _levels(report)['parent_uniqueness'] == 'OK'  # its two edges are data
    assert problems(report) == set()
    # twin: a mobile base's description under a static odom → base_footprint orders two
    root = write(tmp_path / 'base', {
        'src/tb_description/package.xml': package('tb_description'),
        'src/tb_description/CMakeLists.txt': cmake('tb_description', 'urdf', 'launch'),
        'src/tb_description/urdf/base.urdf': ARM_URDF.replace('world', 'base_footprint')
        .replace('link0', 'base_link'),
        'src/tb_description/launch/base.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_footprint'])",
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{'robot_description': open(os.path.join(os.path.dirname(__file__), "
            "'..', 'urdf', 'base.urdf')).read()}])")})
    report = lint(root)
    assert _levels(report)['chain_order'] == 'OK', _message(report, 'chain_order')


# 2. joint_state_publisher beside ros2_control's joint_state_broadcaster

CONTROLLERS = """
controller_manager:
  ros__parameters:
    update_rate: 50
    diff_cont:
      type: diff_drive_controller/DiffDriveController
    joint_broad:
      type: joint_state_broadcaster/JointStateBroadcaster
"""
MANAGER = ("Node(package='controller_manager', executable='ros2_control_node', "
           'parameters=[{}])'.format(share('rover_bringup', 'config', 'controllers.yaml')))
SPAWN = "Node(package='controller_manager', executable='spawner', arguments=['{}']{})"


def _rover(root: Path, jsp: str, when: str = '') -> Path:
    """Write a ros2_control diff drive whose bringup starts this joint_state_publisher."""
    condition = ", condition=IfCondition(LaunchConfiguration('use_ros2_control'))" \
        if when else ''
    return write(root, {
        'src/rover_bringup/package.xml': package('rover_bringup'),
        'src/rover_bringup/CMakeLists.txt': cmake('rover_bringup', 'launch', 'config'),
        'src/rover_bringup/config/controllers.yaml': CONTROLLERS,
        'src/rover_bringup/launch/robot.launch.py': launch_py(
            "DeclareLaunchArgument('use_ros2_control', default_value='{}')".format(
                when or 'true'),
            jsp, MANAGER, SPAWN.format('diff_cont', condition),
            SPAWN.format('joint_broad', condition))})


LAUNCH = 'src/rover_bringup/launch/robot.launch.py'
JSP = "Node(package='joint_state_publisher', executable='joint_state_publisher'{})"


def test_joint_state_publisher_beside_the_broadcaster_is_two_publishers(tmp_path):
    """Both publish /joint_states: a WARN at the jsp's line naming the broadcaster's spawner."""
    root = _rover(tmp_path / 'both', JSP.format(''))
    report = lint(root)
    assert problems(report) == {('lint_nodes', 'WARN', LAUNCH,
                                 line_of(root, LAUNCH, 'joint_state_publisher'))}
    (found,) = [f for f in report.findings if f.level == 'WARN']
    assert 'joint_broad' in found.message and 'publish /joint_states' in found.message
    assert '{}:{}'.format(LAUNCH, line_of(root, LAUNCH, "'joint_broad'")) in found.message
    # the GUI under a name of its own is the same slip
    root = _rover(tmp_path / 'gui', "Node(package='joint_state_publisher_gui', "
                                    "executable='joint_state_publisher_gui', name='sliders')")
    (found,) = [f for f in lint(root).findings if f.level == 'WARN']
    assert found.message.count('sliders (joint_state_publisher_gui)') == 1, found.message


def test_joint_state_publisher_quiet_where_it_cannot_clash(tmp_path):
    """Opposite sides of use_ros2_control, a source_list of the topic, a remapping: quiet."""
    unless = JSP.format(", condition=UnlessCondition(LaunchConfiguration('use_ros2_control'))")
    for flag in ('true', 'false'):  # articubot's habit: one or the other, by the flag
        report = lint(_rover(tmp_path / flag, unless, when=flag))
        assert problems(report) == set(), (flag, report.findings)
    echo = JSP.format(", parameters=[{'source_list': ['/joint_states']}]")
    assert problems(lint(_rover(tmp_path / 'echo', echo))) == set()
    aside = JSP.format(", remappings=[('joint_states', 'joint_states_unactuated')]")
    assert problems(lint(_rover(tmp_path / 'aside', aside))) == set()
    # ros2_control_demos' habit: the sliders in a view launch of their own, apart: quiet
    root = _rover(tmp_path / 'view', "Node(package='rviz2', executable='rviz2')")
    write(root, {'src/rover_bringup/launch/view.launch.py': launch_py(
        "Node(package='joint_state_publisher_gui', executable='joint_state_publisher_gui')")})
    report = lint(root)
    assert problems(report) == set() and 'view.launch.py' in _message(report, 'lint_files')


XML_BRINGUP = """
<launch>
  <arg name="use_ros2_control" default="true"/>
  <node pkg="controller_manager" exec="ros2_control_node">
    <param from="$(find-pkg-share rover_bringup)/config/controllers.yaml"/>
  </node>
  <node pkg="controller_manager" exec="spawner" args="joint_state_broadcaster"/>
  <node pkg="joint_state_publisher_gui" exec="joint_state_publisher_gui">{JSP}
  </node>
</launch>
"""


def test_joint_state_publisher_in_an_xml_bringup(tmp_path):
    """An XML bringup: the broadcaster by its standard name; a <remap> or source_list: quiet."""
    def bringup(name: str, jsp: str) -> Path:
        return write(tmp_path / name, {
            'src/rover_bringup/package.xml': package('rover_bringup'),
            'src/rover_bringup/CMakeLists.txt': cmake('rover_bringup', 'launch', 'config'),
            'src/rover_bringup/config/controllers.yaml': CONTROLLERS,
            'src/rover_bringup/launch/arm.launch.xml': XML_BRINGUP.replace('{JSP}', jsp)})
    launch = 'src/rover_bringup/launch/arm.launch.xml'
    root = bringup('both', '')
    assert problems(lint(root)) == {('lint_nodes', 'WARN', launch,
                                     line_of(root, launch, '"joint_state_publisher_gui"'))}
    for name, jsp in (('remap', '<remap from="joint_states" to="joint_states_gui"/>'),
                      ('echo', '<param name="source_list" value="[/joint_states]"/>')):
        assert problems(lint(bringup(name, '\n    ' + jsp))) == set(), name


# 3. nodes built by helper functions of the package's own modules

MOUNT_HELPERS = """
from launch_ros.actions import Node

PARENT = 'base_link'


def lidar_mount(x, z, frame='base_scan'):
    return Node(package='tf2_ros', executable='static_transform_publisher',
                arguments=['--x', x, '--z', z, '--frame-id', PARENT,
                           '--child-frame-id', frame])


def footprint():
    return Node(package='tf2_ros', executable='static_transform_publisher',
                arguments=['--z', '0.01', '--frame-id', 'base_footprint',
                           '--child-frame-id', PARENT])
"""
SIBLING_LAUNCH = """
import os
import sys

from launch import LaunchDescription

sys.path.insert(0, os.path.dirname(__file__))
from mounts import footprint, lidar_mount  # noqa: E402


def generate_launch_description():
    return LaunchDescription([
        footprint(),
        lidar_mount('-0.064', '0.122'),{SECOND}
    ])
"""


def _sibling(root: Path, second: str) -> Path:
    """Write a TurtleBot-like bringup whose mounts come from a sibling module of its launch."""
    return write(root, {
        'src/tb_bringup/package.xml': package('tb_bringup'),
        'src/tb_bringup/CMakeLists.txt': cmake('tb_bringup', 'launch'),
        'src/tb_bringup/launch/mounts.py': MOUNT_HELPERS,
        'src/tb_bringup/launch/robot.launch.py': SIBLING_LAUNCH.replace('{SECOND}', second)})


def test_a_helper_of_a_sibling_module_is_read_as_the_launch_runs_it(tmp_path):
    """Two calls mount the LiDAR twice, with two values: found at the calls' lines."""
    launch = 'src/tb_bringup/launch/robot.launch.py'
    root = _sibling(tmp_path / 'twice', "\n        lidar_mount('-0.032', '0.172'),")
    report = lint(root)
    first, second = (line_of(root, launch, "'-0.064'"), line_of(root, launch, "'-0.032'"))
    assert ('parent_uniqueness', 'ERROR', launch, second) in problems(report), report.findings
    (twice,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert '{}:{}'.format(launch, first) in twice.message and 'base_scan' in twice.message
    assert not [f for f in report.findings if 'mounts.py' in f.message]  # no bringup alone
    # twin: one call, one mount, its values as the call gives them; quiet
    root = _sibling(tmp_path / 'once', '')
    report = lint(root)
    assert problems(report) == set(), report.findings
    rows = {row.frame: row for row in report.frames}
    assert rows['base_scan'].parents == ('base_link',)
    assert rows['base_link'].parents == ('base_footprint',)
    laser = _message(report, 'laser_offset')
    assert '(-0.0640, 0.0000, 0.1220)' in laser and '{}:{}'.format(launch, first) in laser


PACKAGE_HELPERS = """
from launch_ros.actions import Node


def make_nodes(prefix, x, use_sim=False):
    nodes = [Node(package='tf2_ros', executable='static_transform_publisher',
                  name=prefix + '_lidar_tf',
                  arguments=['--x', x, '--frame-id', prefix + '/base_link',
                             '--child-frame-id', prefix + '/laser'])]
    if use_sim:
        nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                          name=prefix + '_map_tf',
                          arguments=['--frame-id', 'map', '--child-frame-id', prefix + '/odom']))
    return nodes


def make_many(*prefixes):
    return [make_nodes(p, '0.27') for p in prefixes]


def sim_nodes(prefix):
    return make_nodes(prefix, '0.27', use_sim=True)
"""
RACE_LAUNCH = """
from launch import LaunchDescription
from launch_ros.actions import Node
from {MODULE} import {NAME}


def generate_launch_description():
    return LaunchDescription([
        Node(package='slam_toolbox', executable='async_slam_toolbox_node', name='slam_toolbox',
             parameters=[{'odom_frame': 'ego/odom', 'base_frame': 'ego/base_link'}]),
        *{CALL},
    ])
"""


def _race(root: Path, call: str, module: str = 'race_bringup.launch_helpers') -> Path:
    """Write an F1TENTH-like bringup whose nodes come from its package's Python module."""
    return write(root, {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/setup.py': "from setuptools import setup\nsetup(name='race_bringup', "
                                     "packages=['race_bringup'], data_files=[("
                                     "'share/race_bringup/launch', ['launch/race.launch.py'])])\n",
        'src/race_bringup/race_bringup/__init__.py': '',
        'src/race_bringup/race_bringup/launch_helpers.py': PACKAGE_HELPERS,
        'src/race_bringup/launch/race.launch.py': RACE_LAUNCH.replace('{MODULE}', module)
        .replace('{NAME}', call.split('(')[0]).replace('{CALL}', call)})


def test_a_helper_of_the_packages_module_is_read_and_an_unreadable_one_is_said(tmp_path):
    """The package's make_nodes sends map → ego/odom beside slam_toolbox: two senders."""
    launch = 'src/race_bringup/launch/race.launch.py'
    root = _race(tmp_path / 'sim', "make_nodes('ego', '0.27', use_sim=True)")
    report = lint(root)
    assert problems(report) == {('parent_uniqueness', 'ERROR', launch,
                                 line_of(root, launch, "'odom_frame'"))}, report.findings
    (twice,) = report.findings
    assert 'map → ego/odom is declared by 2 sources' in twice.message
    assert 'static_transform_publisher, {}:{}'.format(
        launch, line_of(root, launch, 'make_nodes(')) in twice.message
    rows = {row.frame: row for row in report.frames}
    assert rows['ego/laser'].parents == ('ego/base_link',)
    # the same through a helper that calls make_nodes in its module: one more level, read
    root = _race(tmp_path / 'nested', "sim_nodes('ego')")
    assert problems(lint(root)) == {('parent_uniqueness', 'ERROR', launch,
                                     line_of(root, launch, "'odom_frame'"))}
    # twin: on the real car (use_sim left False) make_nodes sends the mount alone: quiet
    report = lint(_race(tmp_path / 'car', "make_nodes('ego', '0.27')"))
    assert problems(report) == set(), report.findings
    assert 'ego/laser' in {row.frame for row in report.frames}
    # twin: a helper the lint cannot evaluate (a *args function) is named, never guessed
    report = lint(_race(tmp_path / 'many', "make_many('ego', 'opp')"))
    assert 'ego/laser' not in {r.frame for r in report.frames}
    unread = 'make_many() of src/race_bringup/race_bringup/launch_helpers.py, not a plain ' \
        'function of named parameters'
    assert unread in _message(report, 'laser_offset')
    (odom,) = [f for f in report.findings if f.level in ('WARN', 'ERROR')]
    assert odom.check == 'connectivity' and odom.level == 'WARN' and unread in odom.message
    # twin: a module of its own package the workspace does not hold: cannot know, said
    report = lint(_race(tmp_path / 'gone', "make_nodes('ego', '0.27')",
                        module='race_bringup.launch_tools'))
    assert 'ego/laser' not in {r.frame for r in report.frames}
    assert 'make_nodes() of race_bringup.launch_tools (not in the package)' in \
        _message(report, 'laser_offset')


# 4. two launch files that each send one edge, started together by a script

MOUNT = ("Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
         "'--x', '{}', '--frame-id', 'base_link', '--child-frame-id', 'laser'])")


def _two_launches(root: Path, extra: dict) -> Path:
    """Write a car whose driver and localization launch files each mount the LiDAR."""
    return write(root, dict({
        'src/car_stack/package.xml': package('car_stack'),
        'src/car_stack/CMakeLists.txt': cmake('car_stack', 'launch'),
        'src/car_stack/launch/driver.launch.py': launch_py(MOUNT.format('0.27')),
        'src/car_stack/launch/localize.launch.py': launch_py(MOUNT.format('0.30'))}, **extra))


def test_launch_files_a_script_starts_together_are_one_bringup(tmp_path):
    """`ros2 launch ... &` then another: both run, so their two LiDAR mounts are two senders."""
    script = ('#!/bin/bash\nsource install/setup.bash\nros2 launch car_stack driver.launch.py '
              '&\nsleep 2\nros2 launch car_stack localize.launch.py use_sim_time:=false\n')
    root = _two_launches(tmp_path / 'bg', {'scripts/race.sh': script})
    report = lint(root)
    localize = 'src/car_stack/launch/localize.launch.py'
    (twice,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert twice.level == 'ERROR' and twice.values['file'] == localize
    assert 'started together by scripts/race.sh:3' in twice.message
    assert 'src/car_stack/launch/driver.launch.py:' in twice.message
    # twins: one after the other (the first blocks until it ends), or a README naming both
    # (a README may list alternatives): each file alone, as before: quiet
    for name, extra in (
            ('after', {'scripts/race.sh': script.replace(' &\n', '\n')}),
            ('and', {'scripts/race.sh': 'ros2 launch car_stack driver.launch.py && ros2 '
                                        'launch car_stack localize.launch.py\n'}),
            ('readme', {'README.md': '```\nros2 launch car_stack driver.launch.py &\n'
                                     'ros2 launch car_stack localize.launch.py\n```\n'})):
        report = lint(_two_launches(tmp_path / name, extra))
        assert problems(report) == set(), (name, report.findings)


def test_what_a_script_runs_at_once():
    """`&` puts a launch in the background; `&&`, `2>&1` and a foreground launch do not."""
    assert together('ros2 launch a x.py > a.log 2>&1 &\nros2 launch b y.py m:=1\n') == [
        Together(1, (('a/x.py', ()), ('b/y.py', ('m:=1',))))]
    assert together('ros2 launch a x.py & ros2 launch b y.py & wait\n') == [
        Together(1, (('a/x.py', ()), ('b/y.py', ())))]
    assert together('ros2 launch a x.py 2>&1\nros2 launch b y.py\n') == []
    assert together('ros2 launch a x.py && ros2 launch b y.py &\n# ros2 launch c z.py\n') == []


def test_a_broken_or_endless_helper_is_named_never_a_traceback(tmp_path):
    """A helper module that does not parse is unread; one that calls itself stops, bounded."""
    broken = _race(tmp_path / 'broken', "make_nodes('ego', '0.27')")
    (broken / 'src/race_bringup/race_bringup/launch_helpers.py').write_text(
        'def make_nodes(prefix, x:\n', encoding='utf-8')
    report = lint(broken)
    assert 'make_nodes() of src/race_bringup/race_bringup/launch_helpers.py, which the lint ' \
        'cannot read' in _message(report, 'laser_offset')
    endless = _race(tmp_path / 'endless', "make_nodes('ego', '0.27')")
    (endless / 'src/race_bringup/race_bringup/launch_helpers.py').write_text(
        PACKAGE_HELPERS + '\n\ndef loop(prefix):\n    return loop(prefix) + loop(prefix)\n'
        .replace('loop(prefix) + loop(prefix)', 'loop(prefix) + loop(prefix) + make_nodes('
                 "prefix, '0.27')"), encoding='utf-8')
    (endless / 'src/race_bringup/launch/race.launch.py').write_text(RACE_LAUNCH.replace(
        '{MODULE}', 'race_bringup.launch_helpers').replace('{NAME}', 'loop').replace(
        '{CALL}', "loop('ego')"), encoding='utf-8')
    report = lint(endless)  # the launch itself would never end: read four deep, then stop
    assert {r.frame: r.parents for r in report.frames}['ego/laser'] == ('ego/base_link',)
