# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
How the lint reads what a launch file starts, on made-up workspaces each with its twin.

OpaqueFunctions and the includes they make, includes it cannot open, nodes built by helpers of
the package's own modules, remappings of /tf: values only a running launch knows are said.
"""
from pathlib import Path

from lint_helpers import cmake, launch_py, line_of, lint, one_launch_package, one_package, \
    package, parents, problems, rsp, share, static_tf, summary, urdf, write
import pytest


# a mower whose launch reads its frame names from mower.yaml inside an OpaqueFunction

MOWER_LAUNCH = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def setup(context):
    share = get_package_share_directory('mower_bringup')
    with open(LaunchConfiguration('mower').perform(context)) as stream:
        mower = yaml.safe_load(stream)
    return [Node(package='robot_localization', executable='ekf_node', name='ekf_global',
                 parameters=[os.path.join(share, 'config', 'ekf_global.yaml'),
                             {WORLD}])]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('mower', default_value={MOWER}),
        OpaqueFunction(function=setup),
    ])
"""


IN_WORKSPACE = "os.path.join(get_package_share_directory('mower_bringup'), 'config', 'mower.yaml')"


def _mower(tmp_path: Path, world: str, mower: str = "'/etc/mower/mower.yaml'") -> Path:
    return write(tmp_path / (world.split("'")[3].replace('[', '_').strip(']') + str(len(mower))), {
        'src/mower_bringup/package.xml': package('mower_bringup'),
        'src/mower_bringup/CMakeLists.txt': cmake('mower_bringup', 'launch', 'config'),
        'src/mower_bringup/config/mower.yaml': 'frames: {map: map, odom: odom}\n',
        'src/mower_bringup/config/ekf_global.yaml': """
            ekf_global:
              ros__parameters:
                map_frame: map
                odom_frame: odom
                base_link_frame: base_link
                world_frame: map
            """,
        'src/mower_bringup/launch/mower.launch.py': MOWER_LAUNCH.replace(
            '{WORLD}', world).replace('{MOWER}', mower),
    })


def test_a_frame_known_only_at_launch_makes_the_edge_unknown_not_a_traceback(tmp_path):
    """
    Say world_frame: mower['frames']['map'] from a file outside the workspace is unknown.

    The EKF may send anything. The twins: the argument's default is the workspace's own
    mower.yaml, read as launch reads it; the frame written out.
    """
    world = "{'world_frame': mower['frames']['map'], 'publish_tf': True}"
    report = lint(_mower(tmp_path, world))
    assert 'map' not in parents(report).get('odom', ())  # never its defaults
    said = ' '.join(f.message for f in report.findings)
    assert 'ekf_global' in said and 'may send it' in said, report.findings
    assert not [f for f in report.findings if f.level == 'ERROR'], report.findings
    assert parents(lint(_mower(tmp_path, world, IN_WORKSPACE)))['odom'] == ('map',)
    # twin: the frame written out, the EKF's map → odom is declared; what stays unsaid is
    # odom → base_link, and nothing else could send it now: an ERROR at base_link_frame
    root = _mower(tmp_path, "{'world_frame': 'map', 'publish_tf': True}")
    report = lint(root)
    assert parents(report)['odom'] == ('map',)
    ekf = 'src/mower_bringup/config/ekf_global.yaml'
    assert problems(report) == {('connectivity', 'ERROR', ekf,
                                 line_of(root, ekf, 'base_link_frame'))}, report.findings


def _namespaced_mount(root: Path, child: str) -> Path:
    return one_launch_package(root, 'tb4_bringup', 'lidar.launch.py',
                              launch_py("Node(package='tf2_ros', executable="
                                        "'static_transform_publisher', arguments=['0', '0', "
                                        "'0', '0', '0', '0', 'rplidar_link', {}])".format(child)))


def test_a_list_among_a_nodes_arguments_is_one_argument(tmp_path):
    """
    A TurtleBot 4's `[robot_name, '/rplidar_link/rplidar']` is one argument (round L9).

    launch_ros joins a list's substitutions into one; read as two, the parent was called
    unknown. Unknown parts leave the child unknown, named as such; known parts join.
    """
    said = [f.message for f in lint(_namespaced_mount(
        tmp_path / 'unknown', "[LaunchConfiguration('namespace'), '/rplidar_link/rplidar']"))
        .findings]
    assert any('the child frame is [LaunchConfiguration' in m for m in said), said
    assert not [m for m in said if 'the parent frame' in m], said
    report = lint(_namespaced_mount(tmp_path / 'known', "['robot2', '/rplidar_link/rplidar']"))
    assert parents(report)['robot2/rplidar_link/rplidar'] == ('rplidar_link',)


# an include of a package the workspace does not hold (an F1TENTH team's race launch)

LIDAR_MOUNT = ("Node(package='tf2_ros', executable='static_transform_publisher', "
               "arguments=['--x', '0.27', '--z', '0.11', '--frame-id', 'base_link', "
               "'--child-frame-id', 'laser'])")
LOCALIZER = ('IncludeLaunchDescription(PythonLaunchDescriptionSource({}))'.format(
    share('particle_filter', 'launch', 'localize_launch.py')))


def test_an_include_the_lint_cannot_open_is_named_beside_the_all_clear(tmp_path):
    root = one_launch_package(tmp_path / 'race', 'race_stack', 'race.launch.py',
                              launch_py(LIDAR_MOUNT, LOCALIZER))
    report = lint(root, None, 'race_stack/race.launch.py')
    include = 'src/race_stack/launch/race.launch.py:{}'.format(line_of(
        root, 'src/race_stack/launch/race.launch.py', 'localize_launch.py'))
    parents = summary(report, 'parent_uniqueness', 'OK')
    assert 'among the senders the lint read' in parents
    assert '<particle_filter>/launch/localize_launch.py, included at {} may send some, but ' \
        'the lint does not know what'.format(include) in parents
    files = summary(report, 'lint_files', 'OK')
    assert 'senders it cannot read: the launch file <particle_filter>/launch/' \
        'localize_launch.py, included at {}'.format(include) in files
    assert problems(report) == set()


def test_a_bringup_whose_every_sender_is_read_gets_the_plain_all_clear(tmp_path):
    # a TurtleBot3-style base: footprint → base → scan, every publisher in the file
    root = one_launch_package(tmp_path / 'tb', 'tb_bringup', 'base.launch.py', launch_py(
        "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
        "'--z', '0.010', '--frame-id', 'base_footprint', '--child-frame-id', 'base_link'])",
        "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
        "'--x', '-0.032', '--z', '0.172', '--frame-id', 'base_link', "
        "'--child-frame-id', 'base_scan'])"))
    report = lint(root, None, 'tb_bringup/base.launch.py')
    assert summary(report, 'parent_uniqueness', 'OK') == \
        'each of 3 declared frames has one parent and one source'
    assert 'cannot read' not in summary(report, 'lint_files', 'OK')
    assert problems(report) == set()


# an include inside an OpaqueFunction, through a local share directory (a team overlay)

CAR_SETUP = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def _setup(context, *args, **kwargs):
    stack_share = get_package_share_directory('car_stack')
    vendored = IncludeLaunchDescription(PythonLaunchDescriptionSource(
        os.path.join(stack_share, 'launch', 'base.launch.py')))
    localizer = Node(package='particle_filter', executable='particle_filter',
                     name='particle_filter', parameters=[{'max_particles': 4000}]{REMAP})
    return [vendored, localizer]


def generate_launch_description():
    stack_share = get_package_share_directory('car_stack')
    return LaunchDescription([
        DeclareLaunchArgument('sensors', default_value=os.path.join(
            stack_share, 'config', 'sensors.yaml')),
        OpaqueFunction(function=_setup),
    ])
"""


def _overlay(root: Path, remap: str) -> Path:
    """Write a team overlay whose OpaqueFunction includes the vendored stack's bringup."""
    return write(root, {
        'src/car_stack/package.xml': package('car_stack'),
        'src/car_stack/CMakeLists.txt': cmake('car_stack', 'launch'),
        'src/car_stack/launch/base.launch.py': launch_py(LIDAR_MOUNT),
        'src/car_overlay/package.xml': package('car_overlay'),
        'src/car_overlay/CMakeLists.txt': cmake('car_overlay', 'launch'),
        'src/car_overlay/launch/car.launch.py': CAR_SETUP.replace('{REMAP}', remap),
    })


def test_an_opaque_function_include_through_a_local_share_is_opened(tmp_path):
    root = _overlay(tmp_path / 'car', '')
    report = lint(root, None, 'car_overlay/car.launch.py')
    mount = ('src/car_stack/launch/base.launch.py',
             line_of(root, 'src/car_stack/launch/base.launch.py', 'static_transform_publisher'))
    parents = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert [(f.level, f.frames[0]) for f in parents] == [('ERROR', 'laser')], parents
    assert 'base_link' in parents[0].message and 'map' in parents[0].message
    assert str(mount[0]) in parents[0].message
    assert not [f for f in report.findings if 'known only when the launch runs' in f.message]


def test_the_opened_include_beside_a_localizer_remapped_away_from_tf_is_quiet(tmp_path):
    # the localizer sends on /pf/tf, as teams do to compare it with the odometry
    root = _overlay(tmp_path / 'car', ", remappings=[('/tf', '/pf/tf')]")
    report = lint(root, None, 'car_overlay/car.launch.py')
    assert problems(report) == set()
    assert summary(report, 'parent_uniqueness', 'OK').startswith(
        'each of 2 declared frames has one parent and one source')
    (laser,) = [row for row in report.frames if row.frame == 'laser']
    assert laser.parents == ('base_link',)


# the /tf remapping that keeps a fleet robot's edges: `/tf → tf` in the robot's namespace

def _slam(root: Path, namespace: str, remap: str) -> Path:
    """Write a mapping bringup: a LiDAR mount and slam_toolbox, remapped as given."""
    return one_launch_package(root, 'fleet_bringup', 'mapping.launch.py', launch_py(
        LIDAR_MOUNT.replace("'laser'", "'base_scan'"),
        "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
        "name='slam_toolbox', namespace={!r}, parameters=[{{'odom_frame': 'odom', "
        "'map_frame': 'map', 'base_frame': 'base_link'}}], remappings=[{}])".format(
            namespace, remap)))


@pytest.mark.parametrize('remap', ["('/tf', 'tf'), ('/tf_static', 'tf_static')",
                                   "('/tf', '/tb_1/tf'), ('/tf_static', '/tb_1/tf_static')"])
def test_a_localizer_remapped_to_its_namespaces_tf_still_sends_on_the_tree(tmp_path, remap):
    """The namespace's own tf, relative or spelled whole (TurtleBot 4's, round L9)."""
    root = _slam(tmp_path / 'fleet', 'tb_1', remap)
    report = lint(root, None, 'fleet_bringup/mapping.launch.py')
    (odom,) = [row for row in report.frames if row.frame == 'odom']
    assert odom.parents == ('map',)


def test_a_localizer_remapped_to_a_topic_of_its_own_sends_nothing_on_the_tree(tmp_path):
    root = _slam(tmp_path / 'fleet', '', "('tf', 'slam/tf')")
    report = lint(root, None, 'fleet_bringup/mapping.launch.py')
    assert 'odom' not in {row.frame for row in report.frames}


# nodes built by helper functions of the package's own modules

MOUNT_HELPERS = """
from launch_ros.actions import Node

PARENT = 'base_link'


def lidar_mount(x, z, frame='base_scan'):
    return Node(package='tf2_ros', executable='static_transform_publisher',
                arguments=['--x', x, '--z', z, '--frame-id', PARENT,
                           '--child-frame-id', frame])


def footprint():
    return Node(package='tf2_ros', executable='static_transform_publisher',
                arguments=['--z', '0.01', '--frame-id', 'base_footprint',
                           '--child-frame-id', PARENT])
"""
SIBLING_LAUNCH = """
import os
import sys

from launch import LaunchDescription

sys.path.insert(0, os.path.dirname(__file__))
from mounts import footprint, lidar_mount  # noqa: E402


def generate_launch_description():
    return LaunchDescription([
        footprint(),
        lidar_mount('-0.064', '0.122'),{SECOND}
    ])
"""


def _sibling(root: Path, second: str) -> Path:
    """Write a TurtleBot-like bringup whose mounts come from a sibling module of its launch."""
    return write(root, {
        'src/tb_bringup/package.xml': package('tb_bringup'),
        'src/tb_bringup/CMakeLists.txt': cmake('tb_bringup', 'launch'),
        'src/tb_bringup/launch/mounts.py': MOUNT_HELPERS,
        'src/tb_bringup/launch/robot.launch.py': SIBLING_LAUNCH.replace('{SECOND}', second)})


def test_a_helper_of_a_sibling_module_is_read_as_the_launch_runs_it(tmp_path):
    """Two calls mount the LiDAR twice, with two values: found at the calls' lines."""
    launch = 'src/tb_bringup/launch/robot.launch.py'
    root = _sibling(tmp_path / 'twice', "\n        lidar_mount('-0.032', '0.172'),")
    report = lint(root)
    first, second = (line_of(root, launch, "'-0.064'"), line_of(root, launch, "'-0.032'"))
    assert ('parent_uniqueness', 'ERROR', launch, second) in problems(report), report.findings
    (twice,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert '{}:{}'.format(launch, first) in twice.message and 'base_scan' in twice.message
    assert not [f for f in report.findings if 'mounts.py' in f.message]  # no bringup alone
    # twin: one call, one mount, its values as the call gives them; quiet
    root = _sibling(tmp_path / 'once', '')
    report = lint(root)
    assert problems(report) == set(), report.findings
    rows = {row.frame: row for row in report.frames}
    assert rows['base_scan'].parents == ('base_link',)
    assert rows['base_link'].parents == ('base_footprint',)
    laser = summary(report, 'laser_offset')
    assert '(-0.0640, 0.0000, 0.1220)' in laser and '{}:{}'.format(launch, first) in laser


PACKAGE_HELPERS = """
from launch_ros.actions import Node


def make_nodes(prefix, x, use_sim=False):
    nodes = [Node(package='tf2_ros', executable='static_transform_publisher',
                  name=prefix + '_lidar_tf',
                  arguments=['--x', x, '--frame-id', prefix + '/base_link',
                             '--child-frame-id', prefix + '/laser'])]
    if use_sim:
        nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                          name=prefix + '_map_tf',
                          arguments=['--frame-id', 'map', '--child-frame-id', prefix + '/odom']))
    return nodes


def make_many(*prefixes):
    return [make_nodes(p, '0.27') for p in prefixes]


def sim_nodes(prefix):
    return make_nodes(prefix, '0.27', use_sim=True)
"""
RACE_LAUNCH = """
from launch import LaunchDescription
from launch_ros.actions import Node
from {MODULE} import {NAME}


def generate_launch_description():
    return LaunchDescription([
        Node(package='slam_toolbox', executable='async_slam_toolbox_node', name='slam_toolbox',
             parameters=[{'odom_frame': 'ego/odom', 'base_frame': 'ego/base_link'}]),
        *{CALL},
    ])
"""


def _race(root: Path, call: str, module: str = 'race_bringup.launch_helpers') -> Path:
    """Write an F1TENTH-like bringup whose nodes come from its package's Python module."""
    return write(root, {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/setup.py': "from setuptools import setup\nsetup(name='race_bringup', "
                                     "packages=['race_bringup'], data_files=[("
                                     "'share/race_bringup/launch', ['launch/race.launch.py'])])\n",
        'src/race_bringup/race_bringup/__init__.py': '',
        'src/race_bringup/race_bringup/launch_helpers.py': PACKAGE_HELPERS,
        'src/race_bringup/launch/race.launch.py': RACE_LAUNCH.replace('{MODULE}', module)
        .replace('{NAME}', call.split('(')[0]).replace('{CALL}', call)})


def test_a_helper_of_the_packages_module_is_read_and_an_unreadable_one_is_said(tmp_path):
    """The package's make_nodes sends map → ego/odom beside slam_toolbox: two senders."""
    launch = 'src/race_bringup/launch/race.launch.py'
    root = _race(tmp_path / 'sim', "make_nodes('ego', '0.27', use_sim=True)")
    report = lint(root)
    assert problems(report) == {('parent_uniqueness', 'ERROR', launch,
                                 line_of(root, launch, "'odom_frame'"))}, report.findings
    (twice,) = report.findings
    assert 'map → ego/odom is declared by 2 sources' in twice.message
    assert 'static_transform_publisher, {}:{}'.format(
        launch, line_of(root, launch, 'make_nodes(')) in twice.message
    rows = {row.frame: row for row in report.frames}
    assert rows['ego/laser'].parents == ('ego/base_link',)
    # the same through a helper that calls make_nodes in its module: one more level, read
    root = _race(tmp_path / 'nested', "sim_nodes('ego')")
    assert problems(lint(root)) == {('parent_uniqueness', 'ERROR', launch,
                                     line_of(root, launch, "'odom_frame'"))}
    # twin: on the real car (use_sim left False) make_nodes sends the mount alone: quiet
    report = lint(_race(tmp_path / 'car', "make_nodes('ego', '0.27')"))
    assert problems(report) == set(), report.findings
    assert 'ego/laser' in {row.frame for row in report.frames}
    # twin: a helper the lint cannot evaluate (a *args function) is named, never guessed
    report = lint(_race(tmp_path / 'many', "make_many('ego', 'opp')"))
    assert 'ego/laser' not in {r.frame for r in report.frames}
    unread = 'make_many() of src/race_bringup/race_bringup/launch_helpers.py, not a plain ' \
        'function of named parameters'
    assert unread in summary(report, 'laser_offset')
    (odom,) = [f for f in report.findings if f.level in ('WARN', 'ERROR')]
    assert odom.check == 'connectivity' and odom.level == 'WARN' and unread in odom.message
    # twin: a module of its own package the workspace does not hold: cannot know, said
    report = lint(_race(tmp_path / 'gone', "make_nodes('ego', '0.27')",
                        module='race_bringup.launch_tools'))
    assert 'ego/laser' not in {r.frame for r in report.frames}
    assert 'make_nodes() of race_bringup.launch_tools (not in the package)' in \
        summary(report, 'laser_offset')


def test_a_broken_or_endless_helper_is_named_never_a_traceback(tmp_path):
    """A helper module that does not parse is unread; one that calls itself stops, bounded."""
    broken = _race(tmp_path / 'broken', "make_nodes('ego', '0.27')")
    (broken / 'src/race_bringup/race_bringup/launch_helpers.py').write_text(
        'def make_nodes(prefix, x:\n', encoding='utf-8')
    report = lint(broken)
    assert 'make_nodes() of src/race_bringup/race_bringup/launch_helpers.py, which the lint ' \
        'cannot read' in summary(report, 'laser_offset')
    endless = _race(tmp_path / 'endless', "make_nodes('ego', '0.27')")
    (endless / 'src/race_bringup/race_bringup/launch_helpers.py').write_text(
        PACKAGE_HELPERS + '\n\ndef loop(prefix):\n    return loop(prefix) + loop(prefix)\n'
        .replace('loop(prefix) + loop(prefix)', 'loop(prefix) + loop(prefix) + make_nodes('
                 "prefix, '0.27')"), encoding='utf-8')
    (endless / 'src/race_bringup/launch/race.launch.py').write_text(RACE_LAUNCH.replace(
        '{MODULE}', 'race_bringup.launch_helpers').replace('{NAME}', 'loop').replace(
        '{CALL}', "loop('ego')"), encoding='utf-8')
    report = lint(endless)  # the launch itself would never end: read four deep, then stop
    assert {r.frame: r.parents for r in report.frames}['ego/laser'] == ('ego/base_link',)


def _built_not_started(tmp_path: Path, listed: str) -> Path:
    """Write a LiDAR launch file that builds its static publisher, listed or commented out."""
    static = ("tf_node = Node(package='tf2_ros', executable='static_transform_publisher', "
              "arguments=['0', '0', '0.02', '0', '0', '0', '1', 'base_link', 'laser_frame'])")
    text = launch_py(listed).replace('\n\ndef generate_launch_description():\n',
                                     '\n\ndef generate_launch_description():\n    {}\n'.format(
                                         static))
    return write(tmp_path / ('listed' if listed == 'tf_node' else 'commented'),
                 {'src/lidar/package.xml': package('lidar'),
                  'src/lidar/launch/lidar.launch.py': text})


def test_a_node_built_but_never_handed_to_the_launch_is_not_started(tmp_path):
    """tf_node = Node(...) with `# tf_node,` in the list: ros2 launch never starts it."""
    report = lint(_built_not_started(tmp_path, '# tf_node'), measured=False)
    assert not report.frames
    report = lint(_built_not_started(tmp_path, 'tf_node'), measured=False)
    assert {row.frame: row.parents for row in report.frames}['laser_frame'] == ('base_link',)


# Nav2's bringup rebinding its parameter file (issue 31, class A)

NAV2_BRINGUP = """import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.descriptions import ParameterFile
from nav2_common.launch import ReplaceString, RewrittenYaml


def generate_launch_description():
    namespace = LaunchConfiguration('namespace')
    use_namespace = LaunchConfiguration('use_namespace')
    params_file = LaunchConfiguration('params_file')
    declare_namespace = DeclareLaunchArgument('namespace', default_value='')
    declare_use_namespace = DeclareLaunchArgument('use_namespace', default_value='USE')
    declare_params = DeclareLaunchArgument('params_file', default_value=os.path.join(
        get_package_share_directory('bot'), 'config', 'nav2_params.yaml'))
    params_file = ReplaceString(source_file=params_file,
                                replacements={'<robot_namespace>': ('/', namespace)},
                                condition=IfCondition(use_namespace))
    configured_params = ParameterFile(RewrittenYaml(source_file=params_file, root_key=namespace,
                                                    param_rewrites={}, convert_types=True),
                                      allow_substs=True)
    return LaunchDescription([
        declare_namespace, declare_use_namespace, declare_params,
        Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
             parameters=[configured_params]),
    ])
"""


def test_nav2s_rebound_params_file_is_read_from_its_default(tmp_path):
    """
    `params_file = ReplaceString(source_file=params_file, ...)` reads the value before it.

    With use_namespace false (Nav2's default) ReplaceString hands the file on, and the EKF's
    publish_tf in it is read: odom → base_link. Its twin with use_namespace true: the file is
    one the launch writes, known only when it runs, and said so.
    """
    def bringup(use_namespace: str) -> Path:
        return write(tmp_path / use_namespace, {
            'src/bot/package.xml': package('bot'),
            'src/bot/CMakeLists.txt': cmake('bot', 'launch', 'config'),
            'src/bot/launch/bringup.launch.py': NAV2_BRINGUP.replace('USE', use_namespace),
            'src/bot/config/nav2_params.yaml': 'ekf_filter_node:\n  ros__parameters:\n'
            '    publish_tf: true\n    world_frame: odom\n    odom_frame: odom\n'
            '    base_link_frame: base_link\n'})
    read = lint(bringup('false'))
    assert parents(read).get('base_link') == ('odom',) and read.findings == [], read.findings
    written = lint(bringup('true'))
    assert 'base_link' not in parents(written)
    assert [f.check for f in written.findings] == ['lint_files']
    assert 'known only when the launch runs' in written.findings[0].message


def test_a_constant_imported_under_a_name_of_its_own_is_known(tmp_path):
    """Issue 31, class E: `from math import pi as PI` then `str(PI)`: the LiDAR mounted turned."""
    for imports, yaw in (('from math import pi as PI\n', 'str(PI)'),
                         ('import math\n', 'str(math.pi)')):  # the twin, known before
        root = one_launch_package(tmp_path / yaw, 'car', 'car.launch.py', launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.26', '0', '0.11', {}, '0', '0', 'base_link', 'laser'])".format(yaw),
            imports=imports))
        report = lint(root)
        assert parents(report).get('laser') == ('base_link',), report.findings
        assert not [f for f in report.findings if 'known only' in f.message], report.findings
        assert '3.1416' in summary(report, 'laser_offset'), summary(report, 'laser_offset')


# a racing team's launch that reads its own YAML to choose its controller

CHOOSER = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('car')
    config = yaml.load(open(os.path.join(share, 'config', '{file}')), Loader=yaml.Loader)
    alg = config['car']['ros__parameters']['algorithm']
    tracking = config['car']['ros__parameters'].get('tracking', False)
    if tracking:
        alg = Node(package='controllers', executable='track', name='track')
    elif f'{{alg}}' != 'rl':
        alg = Node(package='controllers', executable=f'{{alg}}_policy', name='policy')
    else:
        alg = IncludeLaunchDescription(PythonLaunchDescriptionSource(
            os.path.join(share, 'launch', f'{{alg}}.launch.py')))
    return LaunchDescription([alg])
"""


def _chooser(tmp_path: Path, algorithm: str, file: str = 'car.yaml') -> Path:
    """Write the team's package: its YAML names the algorithm, rl's launch sends a mount."""
    return one_package(tmp_path / (algorithm + file), 'car', {
        'config/car.yaml': 'car:\n  ros__parameters:\n    algorithm: {}\n'.format(algorithm),
        'launch/car.launch.py': CHOOSER.format(file=file),
        'launch/rl.launch.py': launch_py(static_tf('base_link', 'laser', '--x', '0.2'))})


def test_a_launch_decides_by_the_yaml_of_its_own_package(tmp_path):
    """
    Read yaml.load(open(share/config/car.yaml))'s algorithm, and the if/elif it decides.

    'ftg' starts ftg_policy, and the include is never reached (the held-out round's "known
    only when the launch runs" three times): rl.launch.py is a bringup of its own. The twins:
    'rl' includes it; a YAML file the workspace does not hold stays unknown.
    """
    report = lint(_chooser(tmp_path, 'ftg'))
    assert problems(report) == set(), report.findings
    assert '2 bringups' in summary(report, 'lint_files')  # rl.launch.py stands alone
    report = lint(_chooser(tmp_path, 'rl'))
    assert '1 bringup:' in summary(report, 'lint_files')  # car.launch.py includes it
    assert parents(report)['laser'] == ('base_link',), report.findings
    report = lint(_chooser(tmp_path, 'rl', 'elsewhere.yaml'))
    assert any('known only when the launch runs' in f.message for f in report.findings)


# a package whose launch folder is a Python package: launch/__init__.py beside the bringup

def test_a_launch_folders_init_is_no_helper_nor_bringup(tmp_path):
    """`from launch import LaunchDescription` is launch's own: nothing unread may send odom."""
    files = {
        'urdf/bot.urdf': urdf('base_link laser 0.1'),
        'launch/sim.launch.py': launch_py(
            rsp('bot', 'bot.urdf'),
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
            "name='slam_toolbox', parameters=[{'base_frame': 'base_link'}])"),
        'launch/__init__.py': '# makes launch/ a Python package\n',
    }
    report = lint(one_package(tmp_path / 'init', 'bot', files, ('launch', 'urdf')))
    assert [(f.check, f.level) for f in report.findings] == [('chain_order', 'ERROR')], \
        [f.message for f in report.findings]  # nothing sends odom → base_link, for sure
    assert '1 bringup: src/bot/launch/sim.launch.py' in summary(report, 'lint_files')


# a name a helper function assigns too, as its own local

SCOPED = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node


def resolve_world(context):
    SHARE = context.launch_configurations.get('world', '')
    return []


def generate_launch_description():
    pkg_share = get_package_share_directory('bot')
    return LaunchDescription([
        DeclareLaunchArgument('urdf_file', default_value=os.path.join(pkg_share, 'urdf',
                                                                      'bot.urdf')),
        OpaqueFunction(function=resolve_world),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             parameters=[{'robot_description': Command(['xacro ',
                                                        LaunchConfiguration('urdf_file')])}]),
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['--frame-id', 'base_link', '--child-frame-id', 'laser']),
    ])
"""


def test_a_local_of_another_function_is_not_the_readers_name(tmp_path):
    """pkg_share in a helper is its own local: generate_launch_description's is known."""
    def bot(local: str) -> Path:
        return one_package(tmp_path / local, 'bot', {
            'urdf/bot.urdf': urdf('base_link laser 0.1'),
            'launch/gz.launch.py': SCOPED.replace('SHARE', local)}, ('launch', 'urdf'))

    report = lint(bot('pkg_share'))
    said = [(f.check, f.level) for f in report.findings]  # the description read: two mounts
    assert said == [('parent_uniqueness', 'ERROR'), ('laser_offset', 'ERROR')], \
        [f.message for f in report.findings]
    assert 'base_link → laser is declared by 2 sources' in report.findings[0].message
    # twin: the helper's local has a name of its own: the same findings
    assert [f.message for f in lint(bot('world_share')).findings] == \
        [f.message for f in report.findings]


# a LiDAR chosen by an environment variable the launch gives a default

LIDAR_BY_ENV = """
import os
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    lidar_type = READ
    mount = {'x': '0.115', 'roll': '0'}
    if 'rplidar' in lidar_type:
        mount = {'x': '0.2', 'roll': '3.1416'}
    return LaunchDescription([
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['--x', mount['x'], '--roll', mount['roll'], '--frame-id', 'base_link',
                        '--child-frame-id', 'laser']),
    ])
"""


@pytest.mark.parametrize('read, x', [
    ("os.environ.get('ROBOT_LIDAR', 'osight_lidar')", '0.1150'),
    ("os.getenv('ROBOT_LIDAR', 'rplidar_a2')", '0.2000'),
    ("EnvironmentVariable('ROBOT_LIDAR', default_value='osight_lidar')", '0.1150'),
    ("os.environ['ROBOT_LIDAR']", None),  # no default: only the running launch knows
])
def test_an_environment_variable_is_read_at_the_default_the_file_gives_it(tmp_path, read, x):
    """Unset, the launch reads the file's own default: the mount is judged with it."""
    text = LIDAR_BY_ENV.replace('READ', read).replace(
        'import os\n', 'import os\nfrom launch.substitutions import EnvironmentVariable\n')
    report = lint(one_launch_package(tmp_path / str(abs(hash(read))), 'bot', 'bot.launch.py',
                                     text))
    if x is None:
        assert [f.check for f in report.findings] == ['lint_files'], report.findings
        assert 'known only when the launch runs' in report.findings[0].message
        return
    assert problems(report) == set(), [f.message for f in report.findings]
    (offset,) = [c.message for c in report.checks if c.check == 'laser_offset']
    assert offset.startswith('base_link → laser is ({}, 0.0000, 0.0000) m'.format(x)), offset


@pytest.mark.parametrize('written, x', [('$(optenv LIDAR_X 0.3)', '0.3000'),
                                        ('$(env LIDAR_X)', None)])
def test_an_xml_optenv_is_read_at_its_default(tmp_path, written, x):
    """$(optenv X default) unset is its default; $(env X) has none: the launch knows."""
    text = ('<launch>\n  <node pkg="tf2_ros" exec="static_transform_publisher" args="--x {} '
            '--frame-id base_link --child-frame-id laser"/>\n</launch>\n'.format(written))
    report = lint(one_launch_package(tmp_path / str(bool(x)), 'bot', 'bot.launch.xml', text))
    (offset,) = [c.message for c in report.checks if c.check == 'laser_offset']
    if x is None:
        assert [f.check for f in report.findings] == ['lint_files'], report.findings
    else:
        assert problems(report) == set(), [f.message for f in report.findings]
        assert offset.startswith('base_link → laser is ({}, 0.0000, 0.0000) m'.format(x))


def test_a_parameters_entry_only_a_run_knows_is_not_called_a_file(tmp_path):
    """
    `dict({'drive_topic': '/drive'}, **speeds)` among a node's parameters (round L9's team).

    Whether a file or a dict, only the run knows: said so, never "a parameter file"; the
    twin's written dict is read.
    """
    def team(name: str, entry: str) -> Path:
        return one_launch_package(tmp_path / name, 'racer', 'race.launch.py', launch_py(
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
            "name='slam_toolbox', parameters=[{}])".format(entry)))
    spread = "dict({'base_frame': 'base_link'}, **speeds)"
    said = [f.message for f in lint(team('spread', spread)).findings]
    assert any("an entry of its parameters (a file or a dict) is dict({'base_frame': "
               "'base_link'}, **speeds), known only when the launch runs" in m for m in said), said
    assert not [m for m in said if 'a parameter file' in m], said
    said = [f.message for f in lint(team('written', "{'base_frame': 'base_link'}")).findings]
    assert not [m for m in said if 'known only when the launch runs' in m], said


DEBUG_SETUP = """
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def setup(context, *args, **kwargs):
    quiet = LaunchConfiguration('quiet').perform(context) == 'true'
    drop = float(LaunchConfiguration('drop').perform(context))
    start_z = abs(drop) if drop >= 0.0 else 0.0  # a comparison it does not decide
    extra = {}
    if quiet:
        extra = {'publish_tf': False}
    return [Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
                 parameters=[{'odom_frame': 'odom', 'base_link_frame': 'base_link',
                              'world_frame': 'odom', 'spawn_z': start_z}, extra])]


def generate_launch_description():
    return LaunchDescription([DeclareLaunchArgument('quiet', default_value='DEFAULT'),
                              OpaqueFunction(function=setup)])
"""


def test_a_name_bound_to_a_comparison_of_a_known_argument_decides_its_if(tmp_path):
    """
    An AUV's `debug = LaunchConfiguration('debug').perform(context) == 'true'` (round L10).

    The comparison is known where the argument's default is: `if debug:` is decided, the
    dict it rebinds is known, and the EKF's transform with it; each default, its own verdict.
    A hexapod's `x if drop >= 0.0 else 0.0` is one it does not decide: unknown, never the
    RecursionError it first gave.
    """
    for default, sends in (('false', True), ('true', False)):
        report = lint(one_launch_package(tmp_path / default, 'auv', 'ekf.launch.py',
                                         DEBUG_SETUP.replace('DEFAULT', default)))
        assert not [f for f in report.findings if 'known only when the launch runs'
                    in f.message or 'cannot be read' in f.message], report.findings
        assert (parents(report).get('base_link') == ('odom',)) == sends, default


# an AUV's EKF, its parameter file named by a robot argument (round L10's vortex-auv)

AUV_COMMON = """
import os
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration


def declare_args():
    return [DeclareLaunchArgument('robot', default_value='nautilus')]


def resolve_robot(context):
    robot = LaunchConfiguration('robot').perform(context)
    return robot, RETURNED
"""

AUV_LAUNCH = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from auv_setup.common import declare_args, resolve_robot

SHARE = get_package_share_directory('auv_setup')


def setup(context, *args, **kwargs):
    SETUP
    return [Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node',
                 parameters=PARAMETERS)]


def generate_launch_description():
    return LaunchDescription(declare_args() + [
        DeclareLaunchArgument('extra_file', default_value=EXTRA),
        OpaqueFunction(function=setup)])
"""

AUV_EKF = """
ekf_filter_node:
  ros__parameters:
    odom_frame: odom
    base_link_frame: base_link
    world_frame: odom
"""


def _auv(root: Path, setup: str, parameters: str, returned: str = "'auv'",
         extra: str = "''") -> Path:
    return write(root, {
        'src/auv_setup/package.xml': package('auv_setup'),
        'src/auv_setup/CMakeLists.txt': cmake('auv_setup', 'launch', 'config'),
        'src/auv_setup/auv_setup/__init__.py': '',
        'src/auv_setup/auv_setup/common.py': AUV_COMMON.replace('RETURNED', returned),
        'src/auv_setup/config/ekf_nautilus.yaml': AUV_EKF,
        'src/auv_setup/config/extra.yaml': AUV_EKF.replace('odom_frame: odom', 'two_d_mode: true'),
        'src/auv_setup/launch/ekf.launch.py': AUV_LAUNCH.replace('SETUP', setup).replace(
            'PARAMETERS', parameters).replace('EXTRA', extra)})


ROBOT_FILE = "os.path.join(SHARE, 'config', f'ekf_{robot}.yaml')"
OPENED = """with open(os.path.join(SHARE, 'config', 'ekf_nautilus.yaml')) as f:
        first = yaml.safe_load(f)['ekf_filter_node']['ros__parameters']
    with open(os.path.join(SHARE, 'config', 'extra.yaml')) as f:
        second = yaml.safe_load(f)['ekf_filter_node']['ros__parameters']"""
GROWN = """parameters = [os.path.join(SHARE, 'config', 'ekf_nautilus.yaml')]
    extra_file = LaunchConfiguration('extra_file').perform(context)
    if extra_file:
        parameters.append(extra_file)"""


@pytest.mark.parametrize('name, setup, parameters, extra, read', [
    # the argument declared by a helper of the package, its value returned in a tuple
    ('returned', 'robot, namespace = resolve_robot(context)', '[{}]'.format(ROBOT_FILE),
     "''", True),
    ('inline', "robot = LaunchConfiguration('robot').perform(context)",
     '[{}]'.format(ROBOT_FILE), "''", True),
    # two `with open(...) as f:` blocks, each reading its own f
    ('opened', OPENED, '[first, second]', "''", True),
    # a list grown by `append` under an `if` the argument's default decides, both ways
    ('grown', GROWN, 'parameters', "os.path.join(SHARE, 'config', 'extra.yaml')", True),
    ('not grown', GROWN, 'parameters', "''", True),
    # what only the run knows stays said: an environment variable, a loop's appends
    ('environment', "robot = os.environ['AUV']", '[{}]'.format(ROBOT_FILE), "''", False),
    ('looped', GROWN.replace('if extra_file:', 'for _ in extra_file:'), 'parameters',
     "'x'", False)])
def test_a_launch_files_values_are_read_through_helpers_handles_and_appends(
        tmp_path, name, setup, parameters, extra, read):
    """
    An AUV's and a hexapod's launch values (round L10), computed as the launch computes them.

    What the lint said was "known only when the launch runs" is read from the files; the
    twins it cannot compute are said, never guessed.
    """
    report = lint(_auv(tmp_path / name.replace(' ', '_'), setup, parameters, extra=extra))
    unknown = [f.message for f in report.findings if 'known only when the launch runs'
               in f.message]
    assert (not unknown) == read, unknown
    assert (parents(report).get('base_link') == ('odom',)) == read, report.findings
    if name == 'grown':  # both files reach the node: extra.yaml's two_d_mode among them
        assert 'extra.yaml' in str([row for row in report.frames if row.frame == 'base_link'])
