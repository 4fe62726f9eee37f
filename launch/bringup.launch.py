# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Start frame_audit next to the car's bringup: `ros2 launch frame_audit bringup.launch.py`.

Arguments: config (the parameters file, default the package's config/frame_audit.yaml),
use_sim_time (true with `ros2 bag play --clock`), log_level, and aggregator (true also starts
diagnostic_aggregator with the package's analyzers, for rqt_robot_monitor on /diagnostics_agg).
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

PACKAGE = 'frame_audit'


def generate_launch_description() -> LaunchDescription:
    """Return the audit node and, when asked, the diagnostics aggregator."""
    share = get_package_share_directory(PACKAGE)
    use_sim_time = ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)
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
        Node(package=PACKAGE, executable='frame_audit_node', name='frame_audit', output='screen',
             parameters=[LaunchConfiguration('config'), {'use_sim_time': use_sim_time}],
             arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')]),
        Node(package='diagnostic_aggregator', executable='aggregator_node', output='screen',
             parameters=[os.path.join(share, 'config', 'analyzers.yaml'),
                         {'use_sim_time': use_sim_time}],
             arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')],
             condition=IfCondition(LaunchConfiguration('aggregator'))),
    ])
