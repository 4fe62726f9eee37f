# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The node's parameters as `ros2 param list/get/describe` show them: every one, with its value.

A key left out of the parameters file runs with its default (frames.required and the poses
follow the frames set), so each is declared with the value in force and a descriptor: what it
is, its range, and that it is read at start. Without that, `ros2 param get /frame_audit
frames.base` says "Parameter not set" while the node runs with base_link.
"""
import math
from typing import Any, Dict

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.node import Node

from ..engine.config import parameter_low_open, parameter_range

READ_AT_START = 'read at start: restart frame_audit to change it'
DESCRIPTIONS: Dict[str, str] = {
    'hardware_id': 'the hardware_id of every status on /diagnostics',
    'diagnostic_period': 's between two /diagnostics messages',
    'frames.map': 'the map frame (REP 105)',
    'frames.odom': 'the odometry frame (REP 105)',
    'frames.base': 'the base frame (the rear axle on the F1TENTH car)',
    'frames.laser': "the LiDAR's frame ('' for none: the LiDAR checks do not run)",
    'frames.required': 'frames that must exist',
    'laser_offset.translation': 'base_link -> laser as measured on the car [x, y, z] m',
    'laser_offset.rpy': 'base_link -> laser rotation [roll, pitch, yaw] rad',
    'laser_offset.tolerance_m': 'm the LiDAR offset may differ by, per axis',
    'laser_offset.tolerance_rad': 'rad the LiDAR rotation may differ by',
    'odometry.topic': 'the odometry topic (nav_msgs/Odometry)',
    'odometry.stamp_tolerance_s': "s between /odom's stamp and its TF's",
    'odometry.position_tolerance_m': "m between /odom's pose and TF odom -> base",
    'odometry.jump_m': 'm odom -> base may move in one step before it is a jump',
    'odometry.jump_rad': 'rad odom -> base may turn in one step before it is a jump',
    'odometry.top_speed_mps': "the robot's top speed m/s (0: the fastest it is seen to move)",
    'odometry.top_turn_rad_s': 'its top turn rate rad/s (0: the fastest it is seen to turn)',
    'scan.topic': 'the LiDAR scan topic (only its header is read)',
    'pose_topics': "the pose topics' names; each has poses.<name>.topic and .pose_frame",
    'pose_frame.min_samples': 'poses placed against TF before a verdict',
    'pose_frame.fit_m': 'median distance m at which a frame fits the poses',
    'pose_frame.margin_m': 'm the other frame must fit better to be called',
    'timing.history_s': 's of history kept and judged, like tf2 buffer',
    'timing.stale_after_s': 's a moving edge may be silent before it stopped',
    'timing.future_tolerance_s': 's a stamp may be ahead of its arrival',
    'timing.backwards_jump_s': 's time may go back before it is a restart (bag loop)',
    'timing.lag_tolerance_s': 's stamps may steadily be older than their arrival',
    'parent_uniqueness.alternation_fraction': 'share of samples jumping between two tracks',
    'parent_uniqueness.alternation_min_m': 'm apart two tracks must be',
    'limits.max_frames': 'frames stored; transforms to further frames are counted',
    'lookups.entries': "lookups the car's nodes make, each 'TOPIC -> FRAME within WAIT_S': "
                       'every message of TOPIC placed in FRAME at its stamp within WAIT_S s',
    'lookups.warn_share': "share of a topic's lookups tf2 may refuse before the lookups WARN",
    'lookups.tf2': "who answers the lookups: tf2_py (tf2 itself), model (the audit's model "
                   'of tf2), or auto (tf2_py where it imports, else the model)',
    'lint.exclude': 'globs of workspace paths the lint skips (frame-audit lint)',
    'lint.checks_off': 'check ids the lint turns off (frame-audit lint)',
    'lint.publishers': "your nodes and the edges each sends, 'name: parent -> child, ...' "
                       '(frame-audit lint)',
}
POSE_DESCRIPTIONS = {'topic': 'the topic of the pose named {}',
                     'pose_frame': 'the frame the consumers of pose {} take it for',
                     'laser_offset_x': 'm consumers of pose {} use to convert it to the base'}


def describe(key: str) -> str:
    """Return a parameter's description (every key has one: test_parameters holds to it)."""
    if key.startswith('poses.'):
        _, name, field = key.split('.', 2)
        return POSE_DESCRIPTIONS.get(field, '{}').format(name)
    return DESCRIPTIONS[key]


def descriptor(key: str) -> ParameterDescriptor:
    """
    Return a parameter's descriptor: description, range, read at start.

    Typing is dynamic: a file's `history_s: 10` (an integer) is as good as 10.0, the node's
    configuration checks every value and names the key.
    """
    result = ParameterDescriptor(description=describe(key), dynamic_typing=True,
                                 additional_constraints=READ_AT_START)
    bounds = parameter_range(key)
    if bounds and isinstance(bounds[0], int):
        result.integer_range = [IntegerRange(from_value=int(bounds[0]),
                                             to_value=int(bounds[1]), step=0)]
    elif bounds:  # an open lower bound (more than 0 s) starts at the next double above it
        low = math.nextafter(bounds[0], bounds[1]) if parameter_low_open(key) else bounds[0]
        result.floating_point_range = [FloatingPointRange(from_value=float(low),
                                                          to_value=float(bounds[1]), step=0.0)]
    return result


def declare_all(node: Node, values: Dict[str, Any]) -> None:
    """Declare every parameter with the value in force; give those set already a descriptor."""
    for key, value in values.items():
        if node.has_parameter(key):
            node.set_descriptor(key, descriptor(key))
        else:
            node.declare_parameter(key, value, descriptor(key))
