# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The car's body for robot_state_publisher, a sample for frame-audit lint."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    """Start robot_state_publisher with the URDF's fixed joints (base_link → front_axle)."""
    urdf = os.path.join(get_package_share_directory('f1tenth_description'), 'urdf',
                        'racecar.urdf')
    with open(urdf, 'r') as infp:
        robot_description = infp.read()
    return LaunchDescription([
        Node(
            package='robot_state_publisher',
            executable='robot_state_publisher',
            name='robot_state_publisher',
            parameters=[{'robot_description': robot_description}]),
    ])
