# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""AMCL as a composable node in a container, on a map from map_server."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import ComposableNodeContainer
from launch_ros.descriptions import ComposableNode


def generate_launch_description():
    """Start map_server and AMCL in one container."""
    params = os.path.join(get_package_share_directory('rover_bringup'), 'config',
                          'amcl.yaml')
    return LaunchDescription([
        ComposableNodeContainer(
            name='localization_container', namespace='', package='rclcpp_components',
            executable='component_container',
            composable_node_descriptions=[
                ComposableNode(package='nav2_map_server',
                               plugin='nav2_map_server::MapServer', name='map_server',
                               parameters=[params]),
                ComposableNode(package='nav2_amcl', plugin='nav2_amcl::AmclNode',
                               name='amcl', parameters=[params]),
            ]),
    ])
