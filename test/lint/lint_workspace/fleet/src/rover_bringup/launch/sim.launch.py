# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The rover in Gazebo: the Gazebo drive plugin sends odom -> base_link."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node


def generate_launch_description():
    """Include Gazebo and the description with sim:=true, then spawn the rover."""
    gazebo = os.path.join(get_package_share_directory('gazebo_ros'), 'launch',
                          'gazebo.launch.py')
    share = get_package_share_directory('rover_bringup')
    return LaunchDescription([
        IncludeLaunchDescription(PythonLaunchDescriptionSource(gazebo)),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(os.path.join(share, 'launch',
                                                       'description.launch.py')),
            launch_arguments={'sim': 'true'}.items()),
        Node(package='gazebo_ros', executable='spawn_entity.py',
             arguments=['-topic', 'robot_description', '-entity', 'rover']),
    ])
