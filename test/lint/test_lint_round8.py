# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint's wrong all-clears on ten unseen workspaces (issue 20, round 8), as made-up ones.

- a racecar bringup that includes a localizer's launch file from a package outside the
  workspace: parent_uniqueness and lint_files name the include instead of a plain all-clear;
- a racecar overlay whose OpaqueFunction includes the vendored stack's bringup through a local
  `get_package_share_directory` (the same local in generate_launch_description): the include
  is opened, so the localizer's second parent of the LiDAR is found (and a localizer whose
  /tf is remapped away, as teams run one for comparison, sends nothing on the tree, while a
  fleet robot's `/tf → tf` in its namespace still does);
- a mobile manipulator whose OpaqueFunction adds its arm driver to the list a second time for
  one model: two nodes of one name.

Each has a twin: the healthy one stays quiet.
"""
from pathlib import Path
from typing import Dict

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, one_launch_package, package, problems, share, \
    write


def lint(root: Path, *entries: str) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), entries, measured=False)


def _summary(report: Report, check: str) -> str:
    (line,) = [c for c in report.checks if c.check == check]
    assert line.level == 'OK', (line.level, line.message)
    return line.message


# C. an include of a package the workspace does not hold (an F1TENTH team's race launch)

LIDAR_MOUNT = ("Node(package='tf2_ros', executable='static_transform_publisher', "
               "arguments=['--x', '0.27', '--z', '0.11', '--frame-id', 'base_link', "
               "'--child-frame-id', 'laser'])")
LOCALIZER = ('IncludeLaunchDescription(PythonLaunchDescriptionSource({}))'.format(
    share('particle_filter', 'launch', 'localize_launch.py')))


def test_an_include_the_lint_cannot_open_is_named_beside_the_all_clear(tmp_path):
    root = one_launch_package(tmp_path / 'race', 'race_stack', 'race.launch.py',
                              launch_py(LIDAR_MOUNT, LOCALIZER))
    report = lint(root, 'race_stack/race.launch.py')
    include = 'src/race_stack/launch/race.launch.py:{}'.format(line_of(
        root, 'src/race_stack/launch/race.launch.py', 'localize_launch.py'))
    parents = _summary(report, 'parent_uniqueness')
    assert 'among the senders the lint read' in parents
    assert '<particle_filter>/launch/localize_launch.py, included at {} may send some, but ' \
        'the lint does not know what'.format(include) in parents
    files = _summary(report, 'lint_files')
    assert 'senders it cannot read: the launch file <particle_filter>/launch/' \
        'localize_launch.py, included at {}'.format(include) in files
    assert problems(report) == set()


def test_a_bringup_whose_every_sender_is_read_gets_the_plain_all_clear(tmp_path):
    # a TurtleBot3-style base: footprint → base → scan, every publisher in the file
    root = one_launch_package(tmp_path / 'tb', 'tb_bringup', 'base.launch.py', launch_py(
        "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
        "'--z', '0.010', '--frame-id', 'base_footprint', '--child-frame-id', 'base_link'])",
        "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
        "'--x', '-0.032', '--z', '0.172', '--frame-id', 'base_link', "
        "'--child-frame-id', 'base_scan'])"))
    report = lint(root, 'tb_bringup/base.launch.py')
    assert _summary(report, 'parent_uniqueness') == \
        'each of 3 declared frames has one parent and one source'
    assert 'cannot read' not in _summary(report, 'lint_files')
    assert problems(report) == set()


# A. an include inside an OpaqueFunction, through a local share directory (a team overlay)

CAR_SETUP = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def _setup(context, *args, **kwargs):
    stack_share = get_package_share_directory('car_stack')
    vendored = IncludeLaunchDescription(PythonLaunchDescriptionSource(
        os.path.join(stack_share, 'launch', 'base.launch.py')))
    localizer = Node(package='particle_filter', executable='particle_filter',
                     name='particle_filter', parameters=[{'max_particles': 4000}]{REMAP})
    return [vendored, localizer]


def generate_launch_description():
    stack_share = get_package_share_directory('car_stack')
    return LaunchDescription([
        DeclareLaunchArgument('sensors', default_value=os.path.join(
            stack_share, 'config', 'sensors.yaml')),
        OpaqueFunction(function=_setup),
    ])
"""


def _overlay(root: Path, remap: str) -> Path:
    """Write a team overlay whose OpaqueFunction includes the vendored stack's bringup."""
    return write(root, {
        'src/car_stack/package.xml': package('car_stack'),
        'src/car_stack/CMakeLists.txt': cmake('car_stack', 'launch'),
        'src/car_stack/launch/base.launch.py': launch_py(LIDAR_MOUNT),
        'src/car_overlay/package.xml': package('car_overlay'),
        'src/car_overlay/CMakeLists.txt': cmake('car_overlay', 'launch'),
        'src/car_overlay/launch/car.launch.py': CAR_SETUP.replace('{REMAP}', remap),
    })


def test_an_opaque_function_include_through_a_local_share_is_opened(tmp_path):
    root = _overlay(tmp_path / 'car', '')
    report = lint(root, 'car_overlay/car.launch.py')
    mount = ('src/car_stack/launch/base.launch.py',
             line_of(root, 'src/car_stack/launch/base.launch.py', 'static_transform_publisher'))
    parents = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert [(f.level, f.frames[0]) for f in parents] == [('ERROR', 'laser')], parents
    assert 'base_link' in parents[0].message and 'map' in parents[0].message
    assert str(mount[0]) in parents[0].message
    assert not [f for f in report.findings if 'known only when the launch runs' in f.message]


def test_the_opened_include_beside_a_localizer_remapped_away_from_tf_is_quiet(tmp_path):
    # the localizer sends on /pf/tf, as teams do to compare it with the odometry
    root = _overlay(tmp_path / 'car', ", remappings=[('/tf', '/pf/tf')]")
    report = lint(root, 'car_overlay/car.launch.py')
    assert problems(report) == set()
    assert _summary(report, 'parent_uniqueness').startswith(
        'each of 2 declared frames has one parent and one source')
    (laser,) = [row for row in report.frames if row.frame == 'laser']
    assert laser.parents == ('base_link',)


# D. the same Node added twice to the returned list (a mobile manipulator's model switch)

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


# the /tf remapping that keeps a fleet robot's edges: `/tf → tf` in the robot's namespace

def _slam(root: Path, namespace: str, remap: str) -> Path:
    """Write a mapping bringup: a LiDAR mount and slam_toolbox, remapped as given."""
    return one_launch_package(root, 'fleet_bringup', 'mapping.launch.py', launch_py(
        LIDAR_MOUNT.replace("'laser'", "'base_scan'"),
        "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
        "name='slam_toolbox', namespace={!r}, parameters=[{{'odom_frame': 'odom', "
        "'map_frame': 'map', 'base_frame': 'base_link'}}], remappings=[{}])".format(
            namespace, remap)))


def test_a_localizer_remapped_to_its_namespaces_tf_still_sends_on_the_tree(tmp_path):
    root = _slam(tmp_path / 'fleet', 'tb_1', "('/tf', 'tf'), ('/tf_static', 'tf_static')")
    report = lint(root, 'fleet_bringup/mapping.launch.py')
    (odom,) = [row for row in report.frames if row.frame == 'odom']
    assert odom.parents == ('map',)


def test_a_localizer_remapped_to_a_topic_of_its_own_sends_nothing_on_the_tree(tmp_path):
    root = _slam(tmp_path / 'fleet', '', "('tf', 'slam/tf')")
    report = lint(root, 'fleet_bringup/mapping.launch.py')
    assert 'odom' not in {row.frame for row in report.frames}
