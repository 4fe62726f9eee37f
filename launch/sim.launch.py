# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The simulated car and frame_audit watching it: `ros2 launch frame_audit sim.launch.py`.

Arguments: faults (comma-separated names from frame_audit.sim.car.FAULTS, e.g.
faults:=laser_027,pf_rear_axle), fault_after_s (when they switch on), seed, gyro (the
odom_imu variant), and bringup.launch.py's config, log_level and aggregator. Faults can be
changed while it runs: `ros2 param set /frame_audit_sim faults odom_two_parents`.
"""
import os

from ament_index_python.packages import get_package_share_directory
from frame_audit.ros.launch_checks import check_sim, failed_at_start, LaunchError
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction, \
    RegisterEventHandler
from launch.event_handlers import OnProcessExit
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

PACKAGE = 'frame_audit'


def _fail_with_simulator(event, context):
    """Fail the launch when the simulator exits with an error (a bad fault or seed)."""
    reason = failed_at_start('frame_audit_sim', event.returncode)
    if reason:
        raise LaunchError(reason)


def _simulator(context):
    """Check the simulator's numbers, then return its node and what its exit does."""
    check_sim(LaunchConfiguration('seed').perform(context),
              LaunchConfiguration('fault_after_s').perform(context))
    # no name=: it would rename every node of the process (the car's seven nodes), and
    # the graph would lose who sends what; the simulator names its nodes itself
    simulator = Node(
        package=PACKAGE, executable='frame_audit_sim', output='screen', parameters=[{
            'faults': ParameterValue(LaunchConfiguration('faults'), value_type=str),
            'fault_after_s': ParameterValue(LaunchConfiguration('fault_after_s'),
                                            value_type=float),
            'seed': ParameterValue(LaunchConfiguration('seed'), value_type=int),
            'gyro': ParameterValue(LaunchConfiguration('gyro'), value_type=bool),
            'config': LaunchConfiguration('config')}],
        arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')])
    return [simulator, RegisterEventHandler(OnProcessExit(target_action=simulator,
                                                          on_exit=_fail_with_simulator))]


def generate_launch_description() -> LaunchDescription:
    """Return the simulated car's node and the bringup (the audit) watching it."""
    share = get_package_share_directory(PACKAGE)
    config = LaunchConfiguration('config')
    return LaunchDescription([
        DeclareLaunchArgument('faults', default_value='',
                              description='faults to inject, comma-separated'),
        DeclareLaunchArgument('fault_after_s', default_value='0.0',
                              description='seconds of clean driving before the faults'),
        DeclareLaunchArgument('seed', default_value='0', description='the seed of the drive'),
        DeclareLaunchArgument('gyro', default_value='false',
                              description='gyro odometry: map -> odom_imu -> odom'),
        DeclareLaunchArgument(
            'config', default_value=os.path.join(share, 'config', 'frame_audit.yaml'),
            description='the parameters file: the audit, and the frames and topics of the car'),
        DeclareLaunchArgument('log_level', default_value='info'),
        DeclareLaunchArgument('aggregator', default_value='false'),
        OpaqueFunction(function=_simulator),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(os.path.join(share, 'launch', 'bringup.launch.py')),
            launch_arguments={'config': config, 'use_sim_time': 'false',
                              'log_level': LaunchConfiguration('log_level'),
                              'aggregator': LaunchConfiguration('aggregator')}.items()),
    ])
