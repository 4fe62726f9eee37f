# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""slam_toolbox in online async mode with the F1TENTH parameters, a sample for frame-audit lint."""
from launch import LaunchDescription
from launch.substitutions import PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Start slam_toolbox, which sends map → odom."""
    params = PathJoinSubstitution(
        [FindPackageShare('f1tenth_stack'), 'config', 'f1tenth_online_async.yaml'])
    return LaunchDescription([
        Node(
            package='slam_toolbox',
            executable='async_slam_toolbox_node',
            name='slam_toolbox',
            parameters=[params, {'use_sim_time': False}]),
    ])
