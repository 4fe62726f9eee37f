# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The robot: its body, the LiDAR, the IMU filter and the EKF's odom -> base_footprint."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    """Include the description, then start the drivers and the EKF."""
    share = get_package_share_directory('bot_bringup')
    params = os.path.join(share, 'params')
    return LaunchDescription([
        DeclareLaunchArgument('model', default_value='burger'),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(os.path.join(share, 'launch',
                                                       'description.launch.py')),
            launch_arguments={'model': LaunchConfiguration('model')}.items()),
        Node(package='sllidar_ros2', executable='sllidar_node', name='sllidar_node',
             parameters=[{'frame_id': 'base_scan', 'serial_port': '/dev/ttyUSB0'}]),
        Node(package='imu_filter_madgwick', executable='imu_filter_madgwick_node',
             name='imu_filter', parameters=[os.path.join(params, 'imu.yaml')]),
        Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
             parameters=[os.path.join(params, 'ekf.yaml')]),
    ])
