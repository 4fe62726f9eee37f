# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Cartographer maps and localizes; its .lua says it publishes map -> odom."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    """Start cartographer_node with the rover's .lua."""
    config = os.path.join(get_package_share_directory('rover_bringup'), 'config')
    return LaunchDescription([
        Node(package='cartographer_ros', executable='cartographer_node',
             name='cartographer_node',
             arguments=['-configuration_directory', config,
                        '-configuration_basename', 'rover_2d.lua']),
    ])
