# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The robot's body: robot_state_publisher with the model's URDF."""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Start robot_state_publisher for the model named by the model argument."""
    model = LaunchConfiguration('model')
    urdf = PathJoinSubstitution(
        [FindPackageShare('bot_description'), 'models', ['bot_', model, '.urdf']])
    return LaunchDescription([
        DeclareLaunchArgument('model', default_value='burger',
                              description='burger, waffle or waffle_pi'),
        Node(
            package='robot_state_publisher',
            executable='robot_state_publisher',
            name='robot_state_publisher',
            parameters=[{'robot_description': ParameterValue(
                Command(['xacro ', urdf]), value_type=str)}]),
    ])
