# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The declare stage on tiny workspaces: the edges each bringup says someone sends.

static_transform_publisher's arguments, robot_state_publisher's URDF joints and the table's
nodes with their parameter files; and the plan it was given is left as it was.
"""
import copy

from frame_audit.engine.config import AuditConfig
from frame_audit.lint.bringups.plan import plan
from frame_audit.lint.publishers.declare import declare
from lint_helpers import collected, package

HEADER = """
    import os
    from launch import LaunchDescription
    from launch_ros.actions import Node

    HERE = os.path.dirname(__file__)

"""
URDF = """
    <?xml version="1.0"?>
    <robot name="bot">
      <link name="base_link"/>
      <link name="laser"/>
      <joint name="laser_joint" type="fixed">
        <parent link="base_link"/>
        <child link="laser"/>
        <origin xyz="0.2 0 0.1" rpy="0 0 0"/>
      </joint>
    </robot>
"""
STATIC = HEADER + """
    def generate_launch_description():
        return LaunchDescription([Node(
            package='tf2_ros', executable='static_transform_publisher',
            arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser'])])
"""
DESCRIBED = HEADER + """
    def generate_launch_description():
        with open(os.path.join(HERE, '..', 'urdf', 'bot.urdf')) as urdf:
            description = urdf.read()
        return LaunchDescription([Node(
            package='robot_state_publisher', executable='robot_state_publisher',
            parameters=[{'robot_description': description}])])
"""
EKF = HEADER + """
    def generate_launch_description():
        return LaunchDescription([Node(
            package='robot_localization', executable='ekf_node', name='ekf_filter_node',
            parameters=[os.path.join(HERE, '..', 'config', 'ekf.yaml')])])
"""
EKF_PARAMS = """
    ekf_filter_node:
      ros__parameters:
        world_frame: odom
        publish_tf: {}
"""


def declared_edges(tmp_path, launch, extra=None):
    """Return the declare stage's edges, as (parent, child, via), for one launch file."""
    files = {'src/bot/package.xml': package('bot'), 'src/bot/launch/bot.launch.py': launch}
    read = collected(tmp_path, dict(files, **(extra or {})))
    (each,) = declare(read, plan(read, (), {}), AuditConfig()).bringups
    return [(e.parent, e.child, e.via) for e in each.declared.edges]


def test_a_static_transform_publisher_declares_its_edge(tmp_path):
    assert declared_edges(tmp_path, STATIC) == [
        ('base_link', 'laser', 'static_transform_publisher')]


def test_robot_state_publisher_declares_the_urdf_fixed_joints(tmp_path):
    edges = declared_edges(tmp_path, DESCRIBED, {'src/bot/urdf/bot.urdf': URDF})
    assert [(parent, child) for parent, child, _ in edges] == [('base_link', 'laser')]


def test_a_parameter_file_switching_publish_tf_off_declares_nothing(tmp_path):
    on = declared_edges(tmp_path / 'on', EKF,
                        {'src/bot/config/ekf.yaml': EKF_PARAMS.format('true')})
    off = declared_edges(tmp_path / 'off', EKF,
                         {'src/bot/config/ekf.yaml': EKF_PARAMS.format('false')})
    assert [(parent, child) for parent, child, _ in on] == [('odom', 'base_link')]
    assert off == []


def test_declaring_leaves_the_plan_as_it_was(tmp_path):
    read = collected(tmp_path, {'src/bot/package.xml': package('bot'),
                                'src/bot/launch/bot.launch.py': EKF,
                                'src/bot/config/ekf.yaml': EKF_PARAMS.format('true')})
    planned = plan(read, (), {})
    before = copy.deepcopy(planned)
    (each,) = declare(read, planned, AuditConfig()).bringups
    assert planned == before
    (node,) = each.launched
    assert [file for file, _ in node.param_files] == ['src/bot/config/ekf.yaml']
    assert [file for file, _ in planned.bringups[0].nodes[0].param_files] != \
        ['src/bot/config/ekf.yaml']
