# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Start frame_audit next to the car's bringup: `ros2 launch frame_audit bringup.launch.py`.

Arguments: config (the parameters file, default the package's config/frame_audit.yaml),
use_sim_time (true with `ros2 bag play --clock`), log_level, and aggregator (true also starts
diagnostic_aggregator with the package's analyzers, for rqt_robot_monitor on /diagnostics_agg).

Before anything starts, the config file must exist and read cleanly, and an aggregator asked
for must be installed: otherwise one line, and nothing runs. If the node exits at start (a
wrong parameter), the launch fails with it.
"""
import os

from ament_index_python.packages import get_package_share_directory
from frame_audit.ros.launch_checks import check_bringup, failed_at_start, LaunchError, \
    package_installed
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction, RegisterEventHandler
from launch.conditions import IfCondition
from launch.event_handlers import OnProcessExit
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

PACKAGE = 'frame_audit'


def _fail_with_node(event, context):
    """Fail the launch when the node exits on its own with an error."""
    reason = failed_at_start('frame_audit_node', event.returncode)
    if reason:
        raise LaunchError(reason)


def _nodes(context):
    """Check the arguments, then return the audit node and, when asked, the aggregator."""
    check_bringup(LaunchConfiguration('config').perform(context),
                  LaunchConfiguration('aggregator').perform(context), package_installed)
    share = get_package_share_directory(PACKAGE)
    use_sim_time = ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)
    audit = Node(package=PACKAGE, executable='frame_audit_node', name='frame_audit',
                 output='screen',
                 parameters=[LaunchConfiguration('config'), {'use_sim_time': use_sim_time}],
                 arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')])
    return [
        audit,
        RegisterEventHandler(OnProcessExit(target_action=audit, on_exit=_fail_with_node)),
        Node(package='diagnostic_aggregator', executable='aggregator_node', output='screen',
             parameters=[os.path.join(share, 'config', 'analyzers.yaml'),
                         {'use_sim_time': use_sim_time}],
             arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')],
             condition=IfCondition(LaunchConfiguration('aggregator'))),
    ]


def generate_launch_description() -> LaunchDescription:
    """Return the arguments, then the checked nodes."""
    share = get_package_share_directory(PACKAGE)
    return LaunchDescription([
        DeclareLaunchArgument(
            'config', default_value=os.path.join(share, 'config', 'frame_audit.yaml'),
            description="frame_audit's parameters file (frames, offsets, topics, tolerances)"),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='follow /clock (for `ros2 bag play --clock`)'),
        DeclareLaunchArgument('log_level', default_value='info',
                              description='the log level of the nodes'),
        DeclareLaunchArgument('aggregator', default_value='false',
                              description='also start diagnostic_aggregator (/diagnostics_agg)'),
        OpaqueFunction(function=_nodes),
    ])
