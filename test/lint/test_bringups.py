# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The plan stage on tiny workspaces: which bringups run, and what each starts.

A launch file no other includes is a bringup of its own; an entry named is followed through
its includes with the launch arguments given; nodes behind a condition only a running launch
knows are kept as alternatives (their branches), never as senders that run together.
"""
from frame_audit.errors import LintError
from frame_audit.lint.model import are_exclusive
from lint_helpers import names, package, planned
import pytest

HEADER = """
    import os
    from launch import LaunchDescription
    from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
    from launch.conditions import IfCondition, UnlessCondition
    from launch.launch_description_sources import PythonLaunchDescriptionSource
    from launch.substitutions import LaunchConfiguration
    from launch_ros.actions import Node

"""
ROBOT = HEADER + """
    def generate_launch_description():
        return LaunchDescription([
            DeclareLaunchArgument('lidar', default_value='true'),
            Node(package='bot', executable='driver', name='driver'),
            IncludeLaunchDescription(PythonLaunchDescriptionSource(
                os.path.join(os.path.dirname(__file__), 'sensors.launch.py')),
                launch_arguments={'lidar': LaunchConfiguration('lidar')}.items()),
        ])
"""
SENSORS = HEADER + """
    def generate_launch_description():
        return LaunchDescription([
            DeclareLaunchArgument('lidar', default_value='false'),
            Node(package='bot', executable='lidar_node', name='lidar',
                 condition=IfCondition(LaunchConfiguration('lidar'))),
            Node(package='bot', executable='imu_node', name='imu'),
        ])
"""
SIM = HEADER + """
    def generate_launch_description():
        return LaunchDescription([
            Node(package='bot', executable='real_odom', name='odom',
                 condition=UnlessCondition(os.environ['SIM'])),
            Node(package='bot', executable='sim_odom', name='odom',
                 condition=IfCondition(os.environ['SIM'])),
        ])
"""
WORKSPACE = {
    'src/bot/package.xml': package('bot'),
    'src/bot/launch/robot.launch.py': ROBOT,
    'src/bot/launch/sensors.launch.py': SENSORS,
    'src/bot/launch/sim.launch.py': SIM,
}


def test_each_launch_file_no_other_includes_is_a_bringup(tmp_path):
    plan = planned(tmp_path, WORKSPACE)
    assert [b.name for b in plan.bringups] == [
        'src/bot/launch/robot.launch.py', 'src/bot/launch/sim.launch.py']
    assert plan.problems == ()


def test_an_include_gets_the_launch_arguments_its_includer_passes(tmp_path):
    (robot, _) = planned(tmp_path, WORKSPACE).bringups
    assert robot.files == ['src/bot/launch/robot.launch.py', 'src/bot/launch/sensors.launch.py']
    assert names(robot.nodes) == ['driver', 'lidar', 'imu']


def test_an_entry_named_runs_with_the_arguments_given(tmp_path):
    plan = planned(tmp_path, WORKSPACE, ['src/bot/launch/robot.launch.py'], {'lidar': 'false'})
    (robot,) = plan.bringups
    assert names(robot.nodes) == ['driver', 'imu']
    assert names(robot.switched_off) == ['lidar']


def test_entries_named_together_are_one_bringup(tmp_path):
    (both,) = planned(tmp_path, WORKSPACE, ['src/bot/launch/robot.launch.py',
                                            'src/bot/launch/sim.launch.py']).bringups
    assert both.name == 'src/bot/launch/robot.launch.py + src/bot/launch/sim.launch.py'
    assert names(both.nodes) == ['driver', 'lidar', 'imu', 'odom', 'odom']


def test_an_entry_the_workspace_does_not_have_is_a_lint_error(tmp_path):
    with pytest.raises(LintError, match='no launch file nope.launch.py in package bot'):
        planned(tmp_path, WORKSPACE, ['bot/nope.launch.py'])


def test_nodes_behind_a_condition_only_a_running_launch_knows_are_alternatives(tmp_path):
    (_, sim) = planned(tmp_path, WORKSPACE).bringups
    real, simulated = sim.nodes
    assert (real.executable, simulated.executable) == ('real_odom', 'sim_odom')
    assert real.branch and are_exclusive(real.branch, simulated.branch)


@pytest.mark.parametrize('condition, given', [
    ('if="$(var mapping)"', 'mapping:=true'),
    ('unless="$(var localize)"', 'localize:=false'),
    ('if="$(eval \'\\\'$(var mode)\\\' == \\\'mapping\\\'\')"', 'mode:=mapping'),
    ("if=\"$(eval arg('mode') == 'mapping')\"", 'mode:=mapping'),
])
def test_a_file_an_xml_include_reaches_only_off_the_defaults_runs_with_its_argument(
        tmp_path, condition, given):
    """The entry runs once more with the argument that makes the include's condition hold."""
    top = ('<launch>\n  <arg name="mapping" default="false"/>\n  <arg name="localize" '
           'default="true"/>\n  <arg name="mode" default="localization"/>\n'
           '  <include file="$(dirname)/slam.launch.xml" {}/>\n</launch>\n'.format(condition))
    plan = planned(tmp_path, {
        'src/bot/package.xml': package('bot'),
        'src/bot/launch/top.launch.xml': top,
        'src/bot/launch/slam.launch.xml': '<launch>\n  <node pkg="slam_toolbox" '
        'exec="async_slam_toolbox_node" name="slam_toolbox"/>\n</launch>\n'})
    assert [b.name for b in plan.bringups] == [
        'src/bot/launch/top.launch.xml', 'src/bot/launch/top.launch.xml with {} (so the include '
        'of src/bot/launch/slam.launch.xml at src/bot/launch/top.launch.xml:5 runs)'.format(given)]
    assert names(plan.bringups[1].nodes) == ['slam_toolbox']
