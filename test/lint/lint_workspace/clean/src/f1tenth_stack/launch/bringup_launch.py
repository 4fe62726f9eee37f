# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The car's bringup, a sample for frame-audit lint: VESC odometry, the LiDAR and its mount."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    """Start the VESC nodes, the LiDAR driver, the static base_link → laser and the body."""
    config = os.path.join(get_package_share_directory('f1tenth_stack'), 'config')
    vesc_la = DeclareLaunchArgument(
        'vesc_config',
        default_value=os.path.join(config, 'vesc.yaml'),
        description='parameters of the VESC driver and vesc_to_odom_node')
    sensors_la = DeclareLaunchArgument(
        'sensors_config',
        default_value=os.path.join(config, 'sensors.yaml'),
        description='parameters of the LiDAR driver')
    vesc_to_odom_node = Node(
        package='vesc_ackermann',
        executable='vesc_to_odom_node',
        name='vesc_to_odom_node',
        parameters=[LaunchConfiguration('vesc_config')])
    vesc_driver_node = Node(
        package='vesc_driver',
        executable='vesc_driver_node',
        name='vesc_driver_node',
        parameters=[LaunchConfiguration('vesc_config')])
    urg_node = Node(
        package='urg_node',
        executable='urg_node_driver',
        name='urg_node',
        parameters=[LaunchConfiguration('sensors_config'),
                    {'laser_frame_id': 'laser'}])
    static_tf_node = Node(
        package='tf2_ros',
        executable='static_transform_publisher',
        name='static_baselink_to_laser',
        arguments=['0.26', '0.0', '0.11', '0.0', '0.0', '0.0', 'base_link', 'laser'])
    description = IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join(
        get_package_share_directory('f1tenth_description'), 'launch', 'description_launch.py')))
    return LaunchDescription([vesc_la, sensors_la, vesc_to_odom_node, vesc_driver_node,
                              urg_node, static_tf_node, description])
