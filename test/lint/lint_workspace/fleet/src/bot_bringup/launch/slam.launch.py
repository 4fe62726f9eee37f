# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""slam_toolbox in the mode its parameter file says (mapping by default)."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    """Start slam_toolbox with the chosen mode's parameters."""
    default = os.path.join(get_package_share_directory('bot_bringup'), 'params',
                           'slam_mapping.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('slam_params_file', default_value=default),
        Node(package='slam_toolbox', executable='async_slam_toolbox_node',
             name='slam_toolbox', parameters=[LaunchConfiguration('slam_params_file')]),
    ])
