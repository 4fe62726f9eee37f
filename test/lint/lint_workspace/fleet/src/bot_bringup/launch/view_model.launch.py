# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Look at a model in RViz, without the robot: its body and a joint slider."""
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import ThisLaunchFileDir
from launch_ros.actions import Node


def generate_launch_description():
    """Include the description and start the joint slider and RViz."""
    return LaunchDescription([
        IncludeLaunchDescription(PythonLaunchDescriptionSource(
            [ThisLaunchFileDir(), '/description.launch.py'])),
        Node(package='joint_state_publisher_gui', executable='joint_state_publisher_gui'),
        Node(package='rviz2', executable='rviz2', name='rviz2'),
    ])
