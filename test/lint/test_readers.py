# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The collect stage's readers on launch texts written here: what a launch file starts.

The Python launch evaluator reads, never runs: launch arguments, conditions and Python `if`s
are evaluated where their values are known, and a value only a running launch knows is
Unresolved (or a branch of the nodes it guards), never a guess.
"""
import math

from frame_audit.lint.model import are_exclusive, Unresolved
from frame_audit.lint.readers.launch_markup import read_launch, yaml_launch_root
from frame_audit.lint.readers.markup import load_xml, load_yaml
from lint_helpers import names, python_launch
import pytest
import yaml

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


# -- what launch files run, as launch runs them: each with the twin that keeps its reading ------

def test_a_node_only_an_unstarted_event_handler_holds_is_not_started():
    """Start no rviz handed to OnProcessExit whose handler's place is commented out."""
    text = """
        from launch.actions import RegisterEventHandler
        from launch.event_handlers import OnProcessExit

        def generate_launch_description():
            spawner = Node(package='controller_manager', executable='spawner', name='spawner')
            rviz = Node(package='rviz2', executable='rviz2', name='rviz2')
            delay_rviz = RegisterEventHandler(event_handler=OnProcessExit(
                target_action=spawner, on_exit=[rviz]))
            nodes = [
                spawner,
                {}
            ]
            return LaunchDescription(nodes)
    """
    assert names(python_launch(HEADER, text.format('# delay_rviz,')).nodes) == ['spawner']
    assert names(python_launch(HEADER, text.format('delay_rviz,')).nodes) == ['spawner', 'rviz2']


def test_what_follows_an_if_that_returns_is_that_ifs_other_side():
    """Read `if env == 'TwoCar': ... return ...` then one more node as never both."""
    text = """
        def generate_launch_description():
            env = os.environ['ENV_NAME']
            nodes = []
            if {}:
                nodes.append(Node(package='rl', executable='train', name='train'))
                {}
            nodes.append(Node(package='rl', executable='train', name='train'))
            return LaunchDescription(nodes)
    """
    unknown, ends = "env == 'TwoCar'", 'return LaunchDescription(nodes)'
    car, main = python_launch(HEADER, text.format(unknown, ends)).nodes
    assert are_exclusive(car.branch, main.branch)
    # twins: no return, so both may run; a test known true, so what follows never runs
    car, main = python_launch(HEADER, text.format(unknown, 'pass')).nodes
    assert not are_exclusive(car.branch, main.branch)
    read = python_launch(HEADER, text.format('True', ends))
    assert [n.where.line for n in read.nodes] == [car.where.line]


def test_a_launch_argument_default_of_substitutions_is_one_string():
    """Join teleop_twist_joy's config_filepath: a folder, the joy_config argument, a suffix."""
    read = python_launch(HEADER, """
        from launch.substitutions import TextSubstitution

        def generate_launch_description():
            joy_config = LaunchConfiguration('joy_config')
            config_filepath = LaunchConfiguration('config_filepath')
            return LaunchDescription([
                DeclareLaunchArgument('joy_config', default_value='ps3'),
                DeclareLaunchArgument('config_filepath', default_value=[
                    TextSubstitution(text='/share/joy/config/'), joy_config,
                    TextSubstitution(text='.config.yaml')]),
                Node(package='teleop_twist_joy', executable='teleop_node', name='teleop',
                     parameters=[config_filepath, '/share/joy/config/extra.yaml'])])
    """)
    (node,) = read.nodes
    assert [path for path, _ in node.param_files] == [
        '/share/joy/config/ps3.config.yaml', '/share/joy/config/extra.yaml']


def test_a_ros1_rosparam_whose_if_is_false_is_never_loaded():
    """Skip the element as roslaunch does, before its file: an undeclared argument too."""
    text = """<launch>
  <arg name="load_origin" default="{}"/>
  <node pkg="piksi_multi_rtk" type="piksi_multi" name="piksi">
    <rosparam file="$(find rover)/cfg/settings.yaml"/>
    <rosparam file="$(arg origin_file)" if="$(arg load_origin)"/>
  </node>
</launch>"""
    (node,) = read_launch(load_xml(text.format('false')), 'launch/x.launch', {}, {},
                          '/nowhere/launch').nodes
    assert len(node.param_files) == 1
    (node,) = read_launch(load_xml(text.format('true')), 'launch/x.launch', {}, {},
                          '/nowhere/launch').nodes
    assert isinstance(node.param_files[1][0], Unresolved)


def test_a_ros1_description_param_named_by_an_argument_is_the_description():
    """Read champ's `<param name="$(arg description_name)" textfile=...>` by its default."""
    text = """<launch>
  <arg name="description_name" default="{}"/>
  <param name="$(arg description_name)" textfile="/nowhere/robot.urdf"/>
  <node name="robot_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher"/>
</launch>"""
    read = read_launch(load_xml(text.format('robot_description')), 'launch/x.launch', {}, {},
                       '/nowhere/launch')
    assert read.description is not None and read.description.where.line == 3
    read = read_launch(load_xml(text.format('arm_description')), 'launch/x.launch', {}, {},
                       '/nowhere/launch')
    assert read.description is None


def test_yaml_merge_keys_are_merged_as_pyyaml_merges_them():
    """Read `<<: *defaults` (docker-compose, CI files): the keys written there win."""
    document = load_yaml('a: &x {p: 1, q: 2}\nb:\n  <<: [*x, {r: 3, p: 9}]\n  q: 5\n')
    assert document['b'] == {'p': 1, 'q': 5, 'r': 3}
    assert document['b'].lines == {'p': 1, 'q': 4, 'r': 3}


def test_an_opaque_functions_parameters_are_its_args():
    """Bind `OpaqueFunction(function=stage, args=[...])` as launch calls stage(context, ...)."""
    text = """
        from launch.actions import OpaqueFunction

        def stage(context, robot_namespace, d435_enable):
            enabled = str(d435_enable.perform(context))
            return [Node(package='p', executable='x', name='cam',
                         parameters=[{{'use_d435': enabled}}])]

        def generate_launch_description():
            namespace = LaunchConfiguration('robot_namespace')
            d435 = LaunchConfiguration('d435_enable')
            return LaunchDescription([
                DeclareLaunchArgument('d435_enable', default_value='False'),
                OpaqueFunction(function=stage, args={})])
    """
    (node,) = python_launch(HEADER, text.format('[namespace, d435]')).nodes
    assert node.inline['use_d435'].value == 'False'
    (node,) = python_launch(HEADER, text.format('[namespace, d435]'),
                            given={'d435_enable': 'True'}).nodes
    assert node.inline['use_d435'].value == 'True'
    # the twin: arguments only the run builds stay unknown
    (node,) = python_launch(HEADER, text.format('make_arguments()')).nodes
    assert isinstance(node.inline['use_d435'].value, Unresolved)


def test_a_name_reassigned_under_a_known_if_takes_that_ifs_value():
    """Read `prefix = ''` then `if namespace != '/': prefix = namespace + '/'` in order."""
    text = """
        def generate_launch_description():
            prefix = ''
            if {}:
                prefix = 'robot1/'
            return LaunchDescription([Node(package='p', executable='x', name='n',
                                           parameters=[{{'frame_prefix': prefix}}])])
    """
    values = [python_launch(HEADER, text.format(test)).nodes[0].inline['frame_prefix'].value
              for test in ("'a' == 'a'", "'a' == 'b'", "os.environ.get('ROBOT') == 'a'")]
    assert values[:2] == ['robot1/', '']
    assert isinstance(values[2], Unresolved)  # the twin: only a run knows the test


def test_a_function_nothing_live_calls_starts_nothing():
    """
    Start no node of an old helper nothing calls, nor of one whose result nothing reads.

    warehouse_bot's old launch kept nav2_setup() and generate_amcl_node(), its AMCL's place
    in the list commented out. The twin: the helper's result in the list starts its node.
    """
    text = """
        def old_setup(context):
            return [Node(package='nav2_controller', executable='controller_server',
                         name='controller_server')]

        def make_amcl(namespace):
            return Node(package='nav2_amcl', executable='amcl', name='amcl',
                        namespace=namespace)

        def generate_launch_description():
            amcl_node = make_amcl('robot_1')
            return LaunchDescription([
                Node(package='demo_nodes_cpp', executable='talker', name='talker'),
                {}
            ])
    """
    assert names(python_launch(HEADER, text.format('# amcl_node,')).nodes) == ['talker']
    assert sorted(names(python_launch(HEADER, text.format('amcl_node,')).nodes)) == [
        'amcl', 'talker']
    tested = text.format('').replace('generate_launch_description', 'generate_test_description')
    assert names(python_launch(HEADER, tested).nodes) == ['talker']  # launch_testing's entry


def test_a_parameter_dict_given_by_name_is_inline_parameters():
    """
    Read `overrides = {}` then `if sync: overrides = {...}` as a dict, never a file named '{}'.

    Sigyn's camera launch (after depthai's) hands such names to parameters=[...]. Its twin:
    the flag on, the dict's nested keys are dotted as launch_ros flattens them.
    """
    text = """
        def generate_launch_description():
            sync = '{}'
            overrides = {{}}
            if sync == 'true':
                overrides = {{'rgb': {{'i_synced': True}}}}
            return LaunchDescription([Node(package='depthai_ros_driver', executable='camera',
                                           name='camera', parameters=[overrides])])
    """
    (node,) = python_launch(HEADER, text.format('false')).nodes
    assert node.param_files == [] and node.inline == {}
    (node,) = python_launch(HEADER, text.format('true')).nodes
    assert node.param_files == [] and node.inline['rgb.i_synced'].value is True


def test_find_package_share_find_names_its_own_package():
    """Read `FindPackageShare(package=' osr_gazebo').find('osr_gazebo')` as .find's package."""
    text = """
        from launch_ros.substitutions import FindPackageShare

        def generate_launch_description():
            share = FindPackageShare(package=' osr_gazebo').find({!r})
            return LaunchDescription([Node(package='p', executable='x', name='n',
                                           parameters=[os.path.join(share, 'a.yaml')])])
    """

    def files(name: str) -> list:
        read = python_launch(HEADER, text.format(name),
                             packages={'osr_gazebo': '/share/osr_gazebo'})
        return [path for path, _ in read.nodes[0].param_files]
    assert files('osr_gazebo') == ['/share/osr_gazebo/a.yaml']
    assert files('other_pkg') != ['/share/osr_gazebo/a.yaml']  # the twin: .find's own


def test_a_yaml_file_outside_the_shares_is_never_read(tmp_path):
    """Read a loaded YAML under a package's share only: `share/../../x.yaml` stays unknown."""
    share = tmp_path / 'share' / 'car'
    share.mkdir(parents=True)
    (share / 'car.yaml').write_text('algorithm: ftg\n')
    (tmp_path / 'secret.yaml').write_text('algorithm: leaked\n')
    text = """
        import yaml

        def generate_launch_description():
            config = yaml.safe_load(open({!r}))
            return LaunchDescription([Node(package='p', executable='x', name='n',
                                           parameters=[{{'alg': config['algorithm']}}])])
    """

    def algorithm(path: str) -> object:
        read = python_launch(HEADER, text.format(path), packages={'car': str(share)})
        return read.nodes[0].inline['alg'].value
    assert algorithm(str(share / 'car.yaml')) == 'ftg'
    assert isinstance(algorithm(str(share / '..' / '..' / 'secret.yaml')), Unresolved)


@pytest.mark.parametrize('text, value', [
    ('!degrees 17.6', math.radians(17.6)), ('!degrees deg(-45)', -math.pi / 4),
    ('!radians pi/2', math.pi / 2), ('!radians rad(2*pi)', 2 * math.pi),
    ('!radians 0.5', 0.5)])
def test_rosparams_angle_tags_are_read_as_rosparam_reads_them(text, value):
    """A ROS 1 parameter file with rosparam's !degrees/!radians is no unreadable file."""
    assert load_yaml('max_turn: {}\n'.format(text))['max_turn'] == pytest.approx(value)


def test_an_angle_tag_over_anything_but_arithmetic_is_refused_never_run():
    """The lint takes arithmetic of numbers and pi alone, where rosparam evals a !radians."""
    with pytest.raises(yaml.YAMLError, match='invalid angle'):
        load_yaml("max_turn: !radians __import__('os').getcwd()\n")
