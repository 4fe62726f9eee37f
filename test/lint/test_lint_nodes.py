# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The nodes a launch starts (lint_nodes), on made-up workspaces each with its twin.

Two of one name, one node added to the list twice, executables a package never builds or that
are misspelled, and two publishers of /joint_states.
"""
from pathlib import Path
from typing import Dict

from frame_audit.reports.report import Report
from lint_helpers import cmake, flagged, launch_py, line_of, lint, one_launch_package, package, \
    problems, share, summary, write
import pytest


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


# the same Node added twice to the returned list (a mobile manipulator's model switch)

ARM_SETUP = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch_ros.actions import Node


def _setup(context, *args, **kwargs):
    with open(os.path.join(get_package_share_directory('amr_arm_bringup'), 'config',
                           'robot.yaml')) as handle:
        robot = yaml.safe_load(handle)
    arm_driver = Node(package='amr_arm_bringup', executable='arm_driver.py',
                      name='arm_driver', parameters=[{'model': robot['model']}])
    rsp = Node(package='robot_state_publisher', executable='robot_state_publisher')
    nodes = [arm_driver, rsp]
    nodes += [Node(package='joy', executable='joy_node')]
    if robot['model'] == 'lift_v2':
        nodes {AGAIN}
    return nodes


def generate_launch_description():
    return LaunchDescription([OpaqueFunction(function=_setup)])
"""


def _arm(root: Path, launch: str) -> Path:
    """Write a manipulator bringup package: this launch file, its config and its driver."""
    return write(root, {
        'src/amr_arm_bringup/package.xml': package('amr_arm_bringup'),
        'src/amr_arm_bringup/CMakeLists.txt': cmake('amr_arm_bringup', 'launch', 'config') +
        'install(PROGRAMS scripts/arm_driver.py DESTINATION lib/${PROJECT_NAME})\n',
        'src/amr_arm_bringup/scripts/arm_driver.py': '#!/usr/bin/env python3\n',
        'src/amr_arm_bringup/config/robot.yaml': 'model: lift_v2\n',
        'src/amr_arm_bringup/launch/arm.launch.py': launch,
    })


def _names(report: Report) -> Dict[str, str]:
    """Return place → message of each 'nodes are named' finding."""
    return {f.message.split(': ')[0]: f.message for f in report.findings
            if f.check == 'lint_nodes' and 'nodes are named' in f.message}


def test_a_node_added_to_the_list_twice_is_two_nodes_of_one_name(tmp_path):
    root = _arm(tmp_path / 'arm', ARM_SETUP.replace('{AGAIN}', '+= [arm_driver]'))
    report = lint(root)
    file = 'src/amr_arm_bringup/launch/arm.launch.py'
    again = '{}:{}'.format(file, line_of(root, file, '+= [arm_driver]'))
    found = _names(report)
    assert list(found) == [again], found
    first = '{}:{}'.format(file, line_of(root, file, 'arm_driver = Node('))
    assert '2 nodes are named arm_driver' in found[again]
    assert 'the Node(...) at {} is put into the list of actions again at {}'.format(
        first, again) in found[again]
    assert found[again].endswith('add it once')


def test_appending_a_node_twice_is_found_too(tmp_path):
    root = _arm(tmp_path / 'arm', ARM_SETUP.replace('{AGAIN}', '.append(arm_driver)'))
    file = 'src/amr_arm_bringup/launch/arm.launch.py'
    found = _names(lint(root))
    assert list(found) == ['{}:{}'.format(file, line_of(root, file, '.append(arm_driver)'))]


def test_a_node_added_once_for_each_model_is_one_node(tmp_path):
    # the healthy twin: the model adds a node of its own, the driver is in the list once
    root = _arm(tmp_path / 'arm', ARM_SETUP.replace(
        '{AGAIN}', "+= [Node(package='amr_lift', executable='lift_node')]"))
    report = lint(root)
    assert _names(report) == {}
    assert 'lint_nodes' not in {check for check, _, _, _ in problems(report)}


def test_a_node_added_on_opposite_sides_of_an_if_is_one_node(tmp_path):
    # a driver put in the list on either side of one test: never twice in one run
    text = ARM_SETUP.replace('    nodes = [arm_driver, rsp]\n', '    nodes = [rsp]\n').replace(
        '        nodes {AGAIN}\n',
        '        nodes += [arm_driver]\n    else:\n        nodes.append(arm_driver)\n')
    assert _names(lint(_arm(tmp_path / 'arm', text))) == {}


# a GPS boat: robot_localization's executables, one misspelled

def _boat(tmp_path: Path, executable: str, package_name: str = 'robot_localization') -> Path:
    return write(tmp_path / executable, {
        'src/boat/package.xml': package('boat'),
        'src/boat/launch/gps.launch.py': launch_py(
            "Node(package={!r}, executable={!r}, name='navsat')".format(package_name,
                                                                        executable)),
    })


def test_a_misspelled_executable_of_a_known_package_stops_the_launch(tmp_path):
    """navsat_trasnform_node is no executable of robot_localization: ros2 launch stops."""
    root = _boat(tmp_path, 'navsat_trasnform_node')
    (slip,) = [f for f in lint(root).findings if f.check == 'lint_nodes']
    assert "robot_localization has no executable 'navsat_trasnform_node': did you mean " \
        "'navsat_transform_node'?" in slip.message
    assert slip.values['line'] == line_of(root, 'src/boat/launch/gps.launch.py', 'navsat_tras')
    # healthy twins: the real name; and a team's own package, whose executables nobody lists
    assert not [f for f in lint(_boat(tmp_path, 'navsat_transform_node')).findings
                if f.check == 'lint_nodes']
    assert not [f for f in lint(_boat(tmp_path, 'navsat_transfrom', 'boat')).findings
                if f.check == 'lint_nodes']


# a drone package whose launch file starts executables its CMakeLists.txt never builds

DRONE_CMAKE = """
cmake_minimum_required(VERSION 3.8)
project(drone_missions)
find_package(ament_cmake REQUIRED)
set(node_name offboard_control)
add_executable(${node_name} src/offboard_control.cpp)
{MORE}
install(TARGETS ${node_name} {TARGETS} DESTINATION lib/${PROJECT_NAME})
install(PROGRAMS scripts/telemetry_logger.py DESTINATION lib/${PROJECT_NAME})
install(DIRECTORY launch DESTINATION share/${PROJECT_NAME})
ament_package()
"""

DRONE_LAUNCH = launch_py(*[
    "Node(package='drone_missions', executable={!r}, name='{}_{}', namespace='uav{}')".format(
        executable, executable, n, n)
    for n in (1, 2) for executable in ('offboard_control', 'mission_runner')] + [
    "Node(package='drone_missions', executable='telemetry_logger.py', name='logger')"])


def _drone(tmp_path: Path, more: str, targets: str) -> Path:
    return write(tmp_path / str(len(more)), {
        'src/drone_missions/package.xml': package('drone_missions'),
        'src/drone_missions/CMakeLists.txt':
            DRONE_CMAKE.replace('{MORE}', more).replace('{TARGETS}', targets),
        'src/drone_missions/launch/swarm.launch.py': DRONE_LAUNCH,
    })


def test_an_executable_cmake_never_builds_is_said_once(tmp_path):
    """mission_runner is in no add_executable: `ros2 launch` stops at it, for both drones."""
    root = _drone(tmp_path, '', '')
    launch = 'src/drone_missions/launch/swarm.launch.py'
    (unbuilt,) = flagged(lint(root), 'lint_nodes')
    assert "no executable 'mission_runner' (it installs offboard_control, telemetry_logger.py)" \
        in unbuilt.message
    assert unbuilt.values['line'] == line_of(root, launch, "name='mission_runner_1'")
    assert '{}:{}'.format(launch, line_of(root, launch, "name='mission_runner_2'")) \
        in unbuilt.message
    # twin: built and installed, it is there
    built = _drone(tmp_path, 'add_executable(mission_runner src/mission_runner.cpp)',
                   'mission_runner')
    assert not flagged(lint(built), 'lint_nodes'), lint(built).findings
    # twin: a build the lint cannot read through (ament_cmake_auto) is never judged
    auto = _drone(tmp_path, 'find_package(ament_cmake_auto REQUIRED)\nament_auto_package()', '')
    assert not flagged(lint(auto), 'lint_nodes'), lint(auto).findings


@pytest.mark.parametrize('form', ['python', 'xml'])
def test_a_composable_nodes_plugin_is_no_executable_to_install(tmp_path, form):
    """
    A ComposableNode's plugin is loaded by its container, never looked for in lib/ (L10).

    The AUV's thruster component was "installs no executable 'ThrusterInterfaceAUVNode':
    ros2 launch stops there". The twin, a Node of that name, still stops the launch.
    """
    component = ("ComposableNodeContainer(name='thrusters', package='rclcpp_components', "
                 "executable='component_container', composable_node_descriptions=["
                 "ComposableNode(package='drone_missions', plugin='ThrusterInterfaceAUVNode')])"
                 ) if form == 'python' else None
    xml = ('<launch><node_container pkg="rclcpp_components" exec="component_container" '
           'name="thrusters" namespace=""><composable_node pkg="drone_missions" '
           'plugin="ThrusterInterfaceAUVNode"/></node_container></launch>\n')
    for name, launch in (('component', launch_py(component) if component else xml),
                         ('node', launch_py("Node(package='drone_missions', "
                                            "executable='ThrusterInterfaceAUVNode')"))):
        root = write(tmp_path / form / name, {
            'src/drone_missions/package.xml': package('drone_missions'),
            'src/drone_missions/CMakeLists.txt': DRONE_CMAKE.replace('{MORE}', '').replace(
                '{TARGETS}', ''),
            'src/drone_missions/launch/' + ('thrusters.launch.xml' if launch is xml else
                                            'thrusters.launch.py'): launch})
        said = [f.message for f in flagged(lint(root), 'lint_nodes')]
        assert bool([m for m in said if 'ThrusterInterfaceAUVNode' in m]) == (name == 'node'), \
            (form, name, said)


# An ament_python package's executables are its setup.py console_scripts (a racecar's state
# estimator whose entry point was never added: `ros2 launch` stops at "executable not found").

def _estimator(root: Path, entry_points: str, extra: str = '') -> Path:
    """Write an ament_python state estimator and the launch file that starts carstate_node."""
    setup = ("from setuptools import setup\n\npackage_name = 'state_estimation'\n\n"
             'setup(\n    name=package_name,\n    packages=[package_name],\n'
             "    data_files=[('share/' + package_name + '/launch', ['launch/ekf.launch.py'])],\n"
             '    entry_points={},\n{})\n'.format(entry_points, extra))
    return write(root, {
        'src/state_estimation/package.xml': package('state_estimation'),
        'src/state_estimation/setup.py': setup,
        'src/state_estimation/launch/ekf.launch.py': launch_py(
            "Node(package='state_estimation', executable='carstate_node', name='carstate')"),
    })


def _unbuilt(root: Path):
    report = lint(root)
    return [f for f in report.findings if f.check == 'lint_nodes' and f.level == 'WARN']


def test_an_entry_point_setup_py_never_declares_is_said(tmp_path):
    (finding,) = _unbuilt(_estimator(tmp_path, "{'console_scripts': []}"))
    assert "state_estimation's setup.py (console_scripts) installs no executable " \
        "'carstate_node' (it installs none)" in finding.message
    assert finding.values['file'] == 'src/state_estimation/launch/ekf.launch.py'


def test_an_entry_point_setup_py_declares_is_quiet(tmp_path):
    assert not _unbuilt(_estimator(tmp_path, "{'console_scripts': ["
                                             "'carstate_node = state_estimation.carstate:main']}"))


def test_entry_points_the_lint_cannot_read_are_no_finding(tmp_path):
    """Built at run time, or beside `scripts=`: the lint cannot know what is installed."""
    assert not _unbuilt(_estimator(tmp_path, 'make_entry_points()'))
    assert not _unbuilt(_estimator(tmp_path, "{'console_scripts': []}",
                                   "    scripts=['scripts/carstate_node'],\n"))


# joint_state_publisher beside ros2_control's joint_state_broadcaster

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
    assert problems(report) == set() and 'view.launch.py' in summary(report, 'lint_files')


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
            'src/rover_bringup/config/controllers.yaml': CONTROLLERS.replace(
                'joint_broad:', 'joint_state_broadcaster:'),  # the manager loads it by its type
            'src/rover_bringup/launch/arm.launch.xml': XML_BRINGUP.replace('{JSP}', jsp)})
    launch = 'src/rover_bringup/launch/arm.launch.xml'
    root = bringup('both', '')
    assert problems(lint(root)) == {('lint_nodes', 'WARN', launch,
                                     line_of(root, launch, '"joint_state_publisher_gui"'))}
    for name, jsp in (('remap', '<remap from="joint_states" to="joint_states_gui"/>'),
                      ('echo', '<param name="source_list" value="[/joint_states]"/>')):
        assert problems(lint(bringup(name, '\n    ' + jsp))) == set(), name


# a ROS 1 bringup choosing its SLAM by $(eval ...) groups (class H of issue 31)

ROS1_SLAM = """
<launch>
  <arg name="slam" default="gmapping"/>
  <arg name="laps" default="2"/>
  <group if="$(eval arg('slam') == 'gmapping')">
    <node pkg="gmapping" type="slam_gmapping" name="slam"/>
  </group>
  <group if="$(eval slam == 'hector')">
    <node pkg="hector_mapping" type="hector_mapping" name="slam"/>
  </group>
  <group unless="$(eval arg('slam') != 'cartographer' and laps == 2)">
    <node pkg="cartographer_ros" type="cartographer_node" name="slam"/>
  </group>
  {EXTRA}
</launch>
"""


def test_ros1_eval_conditions_pick_one_of_exclusive_groups(tmp_path):
    """
    The roslaunch $(eval ...) reads each argument by its name or by arg(NAME).

    With slam:=gmapping only the gmapping group runs: one node named slam. The twin: a fourth
    group whose condition holds as well (laps == 2, the argument's default read as a number)
    starts a second node of that name beside it.
    """
    files = {'src/rover/package.xml': package('rover'),
             'src/rover/CMakeLists.txt': 'project(rover)\nfind_package(catkin REQUIRED)\n'
                                         'catkin_package()\n'}
    quiet = write(tmp_path / 'quiet', dict(files, **{
        'src/rover/launch/slam.launch': ROS1_SLAM.replace('{EXTRA}', '')}))
    assert _names(lint(quiet)) == {}
    extra = '<group if="$(eval laps == 2)"><node pkg="karto" type="slam_karto" name="slam"/>' \
        '</group>'
    clash = write(tmp_path / 'clash', dict(files, **{
        'src/rover/launch/slam.launch': ROS1_SLAM.replace('{EXTRA}', extra)}))
    (found,) = _names(lint(clash)).values()
    assert '2 nodes are named slam (gmapping/slam_gmapping at' in found
    assert 'karto/slam_karto' in found


def _kept_ros1(root: Path, attribute: str) -> Path:
    """Write a CMake package that installs launch/ whole, and an XML launch of one node."""
    return write(root / attribute, {
        'src/rover/package.xml': package('rover'),
        'src/rover/CMakeLists.txt': cmake('rover', 'launch'),
        'src/rover/scripts/odom_node.py': '',
        'src/rover/launch/odom.launch': """
            <launch>
              <node pkg="rover" {}="odom_node.py" name="odom"/>
            </launch>
            """.format(attribute),
    })


def test_a_ros1_launch_files_node_is_not_judged_by_ros2_install_rules(tmp_path):
    """
    ROS 1's `<node type=...>` is found by roslaunch in the package's source folder.

    The package installs no program where `ros2 run` looks, but a ROS 1 launch file (kept
    from a port, installed with launch/) never asks there. The twin: ROS 2's `exec=` does.
    """
    assert not _unbuilt(_kept_ros1(tmp_path, 'type'))
    (finding,) = _unbuilt(_kept_ros1(tmp_path, 'exec'))
    assert "rover's CMakeLists.txt installs no executable 'odom_node.py'" in finding.message


def test_an_unbuilt_executable_is_one_finding_over_every_bringup_that_starts_it(tmp_path):
    """What a package installs is no fact of one bringup: two launch files, one finding."""
    root = _estimator(tmp_path, "{'console_scripts': []}")
    setup = root / 'src/state_estimation/setup.py'
    setup.write_text(setup.read_text().replace("['launch/ekf.launch.py']",
                                               "['launch/ekf.launch.py', 'launch/sim.launch.py']"))
    write(root, {'src/state_estimation/launch/sim.launch.py': launch_py(
        "Node(package='state_estimation', executable='carstate_node', name='carstate')")})
    (finding,) = _unbuilt(root)
    assert "installs no executable 'carstate_node'" in finding.message
    assert 'src/state_estimation/launch/sim.launch.py:' in finding.message
    assert 'launched)' not in finding.message


def _spawning(root: Path, *controllers: str) -> Path:
    """Write the rover whose bringup spawns these controllers (with their arguments)."""
    return write(root, {
        'src/rover_bringup/package.xml': package('rover_bringup'),
        'src/rover_bringup/CMakeLists.txt': cmake('rover_bringup', 'launch', 'config'),
        'src/rover_bringup/config/controllers.yaml': CONTROLLERS,
        'src/rover_bringup/launch/robot.launch.py': launch_py(
            MANAGER, *("Node(package='controller_manager', executable='spawner', "
                       'arguments={!r})'.format(list(c)) for c in controllers))})


def test_a_spawned_controller_the_managers_file_never_types_is_said(tmp_path):
    """
    A spawner names diffbot_base_controller; the manager's file types diff_cont alone.

    The manager loads a controller by `<name>.type`: the spawner fails and the odometry never
    comes (a student's diff drive, its launch copied from ros2_control's demo). The twins:
    the names the file types, and a spawner that gives its own --param-file.
    """
    (finding,) = [f for f in lint(_spawning(tmp_path / 'slip', ['joint_broad'],
                                            ['diffbot_base_controller'])).findings
                  if f.check == 'lint_nodes']
    assert "the spawner starts 'diffbot_base_controller', which the controller manager's " \
        'file src/rover_bringup/config/controllers.yaml gives no type' in finding.message
    assert 'it declares diff_cont, joint_broad' in finding.message
    for name, spawned in (('typed', (['joint_broad'], ['diff_cont'])),
                          ('own_file', (['diffbot_base_controller', '--param-file', 'a.yaml'],))):
        report = lint(_spawning(tmp_path / name, *spawned))
        assert not [f for f in report.findings if f.check == 'lint_nodes'], report.findings


# a node rewritten under the same variable name before the list reads it

REWRITTEN = """
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    steering = Node(package='rqt_robot_steering', executable='rqt_robot_steering',
                    name='rqt_robot_steering')
    FIRST
    steering = Node(package='rqt_robot_steering', executable='rqt_robot_steering',
                    name='rqt_robot_steering', output='screen')
    return LaunchDescription([steering, *KEPT])
"""


@pytest.mark.parametrize('first, kept, named_twice', [
    ('pass', '[]', False),  # the first value is never read: one node
    ('kept = [steering]', 'kept', True),  # read before the rewrite: both are added
])
def test_a_node_overwritten_before_it_is_read_never_starts(tmp_path, first, kept, named_twice):
    """Only what the variable holds where the list reads it starts."""
    root = one_launch_package(tmp_path / str(named_twice), 'demo', 'sim.launch.py',
                              REWRITTEN.replace('FIRST', first).replace('KEPT', kept))
    report = lint(root)
    assert bool(flagged(report, 'lint_nodes')) == named_twice, report.findings
