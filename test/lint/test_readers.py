# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The collect stage's readers on launch texts written here: what a launch file starts.

The Python launch evaluator reads, never runs: launch arguments, conditions and Python `if`s
are evaluated where their values are known, and a value only a running launch knows is
Unresolved (or a branch of the nodes it guards), never a guess.
"""
from frame_audit.lint.model import Unresolved
from frame_audit.lint.readers.launch_markup import read_launch, yaml_launch_root
from frame_audit.lint.readers.markup import load_xml, load_yaml
from lint_helpers import names, python_launch

HEADER = """
    import os
    from launch import LaunchDescription
    from launch.actions import DeclareLaunchArgument, GroupAction, IncludeLaunchDescription
    from launch.conditions import IfCondition, UnlessCondition
    from launch.launch_description_sources import PythonLaunchDescriptionSource
    from launch.substitutions import LaunchConfiguration, PythonExpression
    from launch_ros.actions import Node

"""
SIM = """
    def generate_launch_description():
        sim = LaunchConfiguration('sim')
        return LaunchDescription([
            DeclareLaunchArgument('sim', default_value='false'),
            Node(package='p', executable='real_node', name='real',
                 condition=UnlessCondition(sim)),
            Node(package='p', executable='sim_node', name='simmed', condition=IfCondition(sim)),
            Node(package='p', executable='expr_node', name='expr',
                 condition=IfCondition(PythonExpression(["'", sim, "' == 'true'"]))),
        ])
"""


def test_conditions_follow_the_launch_argument_default():
    read = python_launch(HEADER, SIM)
    assert names(read.nodes) == ['real']
    assert names(read.switched_off) == ['simmed', 'expr']


def test_conditions_follow_the_launch_argument_given():
    read = python_launch(HEADER, SIM, given={'sim': 'true'})
    assert names(read.nodes) == ['simmed', 'expr']
    assert names(read.switched_off) == ['real']


def test_an_include_keeps_its_target_and_launch_arguments():
    read = python_launch(HEADER, """
        def generate_launch_description():
            return LaunchDescription([IncludeLaunchDescription(
                PythonLaunchDescriptionSource('other.launch.py'),
                launch_arguments={'model': 'waffle'}.items())])
    """)
    (include,) = read.includes
    assert (include.target, include.arguments, include.runs) == (
        'other.launch.py', (('model', 'waffle'),), True)


def test_an_include_behind_a_false_condition_does_not_run():
    read = python_launch(HEADER, """
        def generate_launch_description():
            return LaunchDescription([IncludeLaunchDescription(
                PythonLaunchDescriptionSource('other.launch.py'),
                condition=IfCondition('false'))])
    """)
    assert [include.runs for include in read.includes] == [False]


def test_a_python_if_of_known_values_is_evaluated():
    text = """
        def generate_launch_description():
            mode = '{}'
            nodes = []
            if mode == 'fast':
                nodes.append(Node(package='p', executable='fast_node', name='fast'))
            return LaunchDescription(nodes)
    """
    assert names(python_launch(HEADER, text.format('fast')).nodes) == ['fast']
    assert names(python_launch(HEADER, text.format('slow')).nodes) == []


def test_a_name_assigned_in_two_branches_is_unresolved():
    read = python_launch(HEADER, """
        def generate_launch_description():
            if os.environ.get('ROBOT'):
                frame = 'laser_a'
            else:
                frame = 'laser_b'
            return LaunchDescription([Node(
                package='tf2_ros', executable='static_transform_publisher',
                arguments=['0', '0', '0', '0', '0', '0', 'base_link', frame])])
    """)
    (node,) = read.nodes
    assert [t.value for t in node.arguments][:7] == ['0'] * 6 + ['base_link']
    assert isinstance(node.arguments[7].value, Unresolved)


def test_nodes_inside_a_group_action_are_started():
    read = python_launch(HEADER, """
        def generate_launch_description():
            return LaunchDescription([GroupAction([
                Node(package='p', executable='a_node', name='a'),
                Node(package='p', executable='b_node', name='b')])])
    """)
    assert names(read.nodes) == ['a', 'b']


def test_the_xml_launch_reader_starts_nodes_and_follows_if():
    root = load_xml("""<launch>
  <arg name="sim" default="false"/>
  <node pkg="p" exec="real_node" name="real" unless="$(var sim)"/>
  <node pkg="p" exec="sim_node" name="simmed" if="$(var sim)"/>
  <include file="other.launch.xml"><arg name="model" value="waffle"/></include>
</launch>""")
    read = read_launch(root, 'launch/x.launch.xml', {}, {'sim': 'true'}, '/nowhere/launch')
    assert names(read.nodes) == ['simmed'] and names(read.switched_off) == ['real']
    assert [(i.target, i.arguments) for i in read.includes] == [
        ('other.launch.xml', (('model', 'waffle'),))]


def test_the_yaml_launch_reader_starts_its_nodes_at_their_package_lines():
    root = yaml_launch_root(load_yaml("""launch:
- node:
    pkg: p
    exec: a_node
    name: a
- node:
    pkg: p
    exec: b_node
    name: b
"""))
    read = read_launch(root, 'launch/x.launch.yaml', {}, {}, '/nowhere/launch')
    assert [(node.name, node.where.line) for node in read.nodes] == [('a', 3), ('b', 7)]
