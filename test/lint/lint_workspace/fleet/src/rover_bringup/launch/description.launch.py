# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The rover's body from its xacro, for the car or for Gazebo (sim:=true)."""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Start robot_state_publisher with the xacro, expanded with the sim argument."""
    xacro_file = PathJoinSubstitution(
        [FindPackageShare('rover_description'), 'urdf', 'rover.urdf.xacro'])
    return LaunchDescription([
        DeclareLaunchArgument('sim', default_value='false'),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             parameters=[{'robot_description': Command(
                 ['xacro ', xacro_file, ' sim:=', LaunchConfiguration('sim')])}]),
    ])
