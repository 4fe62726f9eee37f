# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on which launch files run together, on made-up workspaces each with its twin.

The bringups named with --launch and those left out, launch files a script starts at once,
alternatives behind conditions, one launch file reached by two paths (plan stage alone:
test_bringups.py).
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import Level
from frame_audit.lint.readers.scripts import Together, together
from lint_helpers import CAR, cmake, launch_py, lint, package, parents, problems, rsp, \
    static_tf, write
import pytest

TURTLE = AuditConfig(base_frame='base_footprint', laser_frame='base_scan',
                     laser_translation=(-0.032, 0.0, 0.182),
                     required_frames=('odom', 'base_footprint', 'base_scan'))  # no map yet


URDF_TURTLE = """<?xml version="1.0"?>
<robot name="turtle">
  <link name="base_footprint"/><link name="base_link"/><link name="base_scan"/>
  <joint name="base_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.010"/>
  </joint>
  <joint name="scan_joint" type="fixed">
    <parent link="base_link"/><child link="base_scan"/><origin xyz="-0.032 0 0.172"/>
  </joint>
</robot>
"""


def _turtle_bringup(tmp_path: Path, twice: bool) -> Path:
    """Write a TurtleBot-like bringup: an OpaqueFunction and the sim both include the robot."""
    include = ('IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join('
               "get_package_share_directory('turtle_bringup'), 'launch', '{}')))")
    robot = [rsp('turtle_description', 'turtle.urdf', name='robot_state_publisher'),
             "Node(package='tf2_ros', executable='static_transform_publisher', "
             "name='odom_tf', arguments=['--frame-id', 'odom', '--child-frame-id', "
             "'base_footprint'])"]
    if twice:  # a second declaration of the same name, on its own line: two nodes
        robot.append(rsp('turtle_description', 'turtle.urdf', name='robot_state_publisher'))
    bringup = launch_py('OpaqueFunction(function=setup)',
                        'IncludeLaunchDescription(PythonLaunchDescriptionSource('
                        "os.path.join(get_package_share_directory('turtle_bringup'), "
                        "'launch', 'sim.launch.py')))").replace(
        '\n\ndef generate', '\n\ndef setup(context):\n    return [{}]\n\n\ndef generate'.format(
            include.format('robot.launch.py')))
    return write(tmp_path / ('twice' if twice else 'once'), {
        'src/turtle_bringup/package.xml': package('turtle_bringup'),
        'src/turtle_description/package.xml': package('turtle_description'),
        'src/turtle_description/urdf/turtle.urdf': URDF_TURTLE,
        'src/turtle_bringup/launch/bringup.launch.py': bringup,
        'src/turtle_bringup/launch/sim.launch.py': launch_py(include.format('robot.launch.py')),
        'src/turtle_bringup/launch/robot.launch.py': launch_py(*robot),
    })


def test_one_declaration_reached_through_a_wrapper_and_an_include_is_one(tmp_path):
    """robot.launch.py reached by an OpaqueFunction and by sim.launch.py: one of each node."""
    report = lint(_turtle_bringup(tmp_path, twice=False), TURTLE)
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.count for row in report.frames}['base_scan'] == 1
    # twin: two declarations on two lines under one name are two nodes, and said so
    root = _turtle_bringup(tmp_path, twice=True)
    report = lint(root, TURTLE)
    names = [f for f in report.findings if f.check == 'lint_nodes']
    assert len(names) == 1 and '2 nodes are named robot_state_publisher' in names[0].message
    sources = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert sources and all('The same value twice' in f.message for f in sources)


@pytest.mark.parametrize('measured', [True, False])
def test_a_healthy_turtle_is_quiet_either_way(tmp_path, measured):
    """The healthy robot of the first test, with or without a measurement: nothing to say."""
    report = lint(_turtle_bringup(tmp_path, twice=False), TURTLE, measured=measured)
    assert problems(report) == set(), [f.message for f in report.findings]


# a racecar team starts its base bringup and, by hand beside it, its SLAM launch file

BASE = launch_py(
    "Node(package='tf2_ros', executable='static_transform_publisher', arguments=['--x', "
    "'0.26', '--z', '0.11', '--frame-id', 'base_link', '--child-frame-id', 'laser'])",
    "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
    "parameters=[{'world_frame': 'odom', 'odom_frame': 'odom', 'base_link_frame': "
    "'base_link', 'two_d_mode': True}])")
SLAM = launch_py(
    "Node(package='slam_toolbox', executable='async_slam_toolbox_node', name='slam_toolbox', "
    "parameters=[{'map_frame': 'map', 'odom_frame': 'odom', 'base_frame': 'base_link'}])")
TELEOP = launch_py("Node(package='joy', executable='joy_node', name='joy')")
OWN_MAPPER = launch_py("Node(package='car_slam', executable='lidar_mapper', name='mapper')")


def _racecar(root: Path, mapping: str) -> Path:
    """Write a base bringup and a second package's launch file (SLAM, or only teleop)."""
    return write(root, {
        'src/car_bringup/package.xml': package('car_bringup'),
        'src/car_bringup/CMakeLists.txt': cmake('car_bringup', 'launch'),
        'src/car_bringup/launch/base.launch.py': BASE,
        'src/car_slam/package.xml': package('car_slam'),
        'src/car_slam/CMakeLists.txt': cmake('car_slam', 'launch'),
        'src/car_slam/launch/mapping.launch.py': mapping,
    })


def _map_missing(root: Path):
    report = lint(root, AuditConfig(), 'car_bringup/base.launch.py')
    return [f for f in report.findings if f.check == 'chain_order' and 'map' in f.frames], report


def test_a_map_sent_by_a_launch_file_left_out_of_launch_is_a_warn_naming_it(tmp_path):
    (finding,), report = _map_missing(_racecar(tmp_path, SLAM))
    assert finding.level == 'WARN', finding.message
    assert 'map is in no transform the launch files given with --launch declare ' \
        '(frames.map lists it), but src/car_slam/launch/mapping.launch.py of the workspace ' \
        'declares it: if it runs beside them on the robot, give it with --launch too' \
        in finding.message
    assert report.worst() is Level.WARN  # the default --fail-on error: exit 0


def test_a_map_a_left_out_launch_files_unknown_node_may_send_is_a_warn_naming_it(tmp_path):
    (finding,), report = _map_missing(_racecar(tmp_path, OWN_MAPPER))
    assert finding.level == 'WARN', finding.message
    assert 'in launch files not given with --launch, the node mapper (car_slam/lidar_mapper) at ' \
        'src/car_slam/launch/mapping.launch.py:' in finding.message
    assert report.worst() is Level.WARN


def test_a_map_no_launch_file_of_the_workspace_sends_is_a_warn_naming_its_usual_senders(
        tmp_path):
    """
    Issue 31, class K: the map often comes from another workspace (the particle filter's).

    Nothing here sending it is said, with who usually does; no ERROR for what the workspace
    does not get wrong.
    """
    (finding,), report = _map_missing(_racecar(tmp_path, TELEOP))
    assert finding.level == 'WARN' and 'map is in no declared transform' in finding.message
    assert 'map usually comes from localization or SLAM, often from a workspace of its own (a ' \
        'particle filter, amcl, slam_toolbox, cartographer)' in finding.message
    assert report.worst() is Level.WARN  # exit 0 at the default --fail-on error


# two launch files that each send one edge, started together by a script

MOUNT = ("Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
         "'--x', '{}', '--frame-id', 'base_link', '--child-frame-id', 'laser'])")


def _two_launches(root: Path, extra: dict) -> Path:
    """Write a car whose driver and localization launch files each mount the LiDAR."""
    return write(root, dict({
        'src/car_stack/package.xml': package('car_stack'),
        'src/car_stack/CMakeLists.txt': cmake('car_stack', 'launch'),
        'src/car_stack/launch/driver.launch.py': launch_py(MOUNT.format('0.27')),
        'src/car_stack/launch/localize.launch.py': launch_py(MOUNT.format('0.30'))}, **extra))


def test_launch_files_a_script_starts_together_are_one_bringup(tmp_path):
    """`ros2 launch ... &` then another: both run, so their two LiDAR mounts are two senders."""
    script = ('#!/bin/bash\nsource install/setup.bash\nros2 launch car_stack driver.launch.py '
              '&\nsleep 2\nros2 launch car_stack localize.launch.py use_sim_time:=false\n')
    root = _two_launches(tmp_path / 'bg', {'scripts/race.sh': script})
    report = lint(root)
    localize = 'src/car_stack/launch/localize.launch.py'
    (twice,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert twice.level == 'ERROR' and twice.values['file'] == localize
    assert 'started together by scripts/race.sh:3' in twice.message
    assert 'src/car_stack/launch/driver.launch.py:' in twice.message
    # twins: one after the other (the first blocks until it ends), or a README naming both
    # (a README may list alternatives): each file alone, as before: quiet
    for name, extra in (
            ('after', {'scripts/race.sh': script.replace(' &\n', '\n')}),
            ('and', {'scripts/race.sh': 'ros2 launch car_stack driver.launch.py && ros2 '
                                        'launch car_stack localize.launch.py\n'}),
            ('readme', {'README.md': '```\nros2 launch car_stack driver.launch.py &\n'
                                     'ros2 launch car_stack localize.launch.py\n```\n'})):
        report = lint(_two_launches(tmp_path / name, extra))
        assert problems(report) == set(), (name, report.findings)


def test_what_a_script_runs_at_once():
    """`&` puts a launch in the background; `&&`, `2>&1` and a foreground launch do not."""
    assert together('ros2 launch a x.py > a.log 2>&1 &\nros2 launch b y.py m:=1\n') == [
        Together(1, (('a/x.py', ()), ('b/y.py', ('m:=1',))))]
    assert together('ros2 launch a x.py & ros2 launch b y.py & wait\n') == [
        Together(1, (('a/x.py', ()), ('b/y.py', ())))]
    assert together('ros2 launch a x.py 2>&1\nros2 launch b y.py\n') == []
    assert together('ros2 launch a x.py && ros2 launch b y.py &\n# ros2 launch c z.py\n') == []


def _slam_switch(tmp_path: Path, second: str, default: str = "'True'") -> Path:
    return write(tmp_path / str(abs(hash((second, default)))), {
        'src/slam/package.xml': package('slam'),
        'src/slam/launch/slam.launch.py': launch_py(
            "DeclareLaunchArgument('mapping', default_value={})".format(default),
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
            "name='slam_toolbox', condition=IfCondition([LaunchConfiguration('mapping')]))",
            "Node(package='slam_toolbox', executable='localization_slam_toolbox_node', "
            "name='slam_toolbox_localization'{})".format(second),
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_link'])"),
    })


NOT_MAPPING = ", condition=IfCondition(PythonExpression(['not ', LaunchConfiguration('mapping')" \
    ']))'


def test_conditions_written_as_lists_are_evaluated(tmp_path):
    """IfCondition([x]) and IfCondition(PythonExpression(['not ', x])): one slam node runs."""
    assert problems(lint(_slam_switch(tmp_path, NOT_MAPPING), measured=False)) == set()
    report = lint(_slam_switch(tmp_path, NOT_MAPPING), CAR,
                  ('slam/slam.launch.py', 'mapping:=false'), measured=False)
    assert problems(report) == set()
    assert [row.publishers for row in report.frames if row.frame == 'odom'][0][0].startswith(
        'slam_toolbox slam_toolbox_localization')
    # unknown (no default): opposite sides of one argument are alternatives
    assert problems(lint(_slam_switch(tmp_path, NOT_MAPPING, 'None'), measured=False)) == set()
    # twin: without the condition both run, and map → odom has two senders
    (two,) = [f for f in lint(_slam_switch(tmp_path, ''), measured=False).findings
              if f.check == 'parent_uniqueness']
    assert 'map → odom is declared by 2 sources' in two.message


# a car whose vehicle launch is included only when it does not map offline (the default)

def _offline_mapper(tmp_path: Path, name: str, mounts: list, condition: str) -> Path:
    """Write a mapping launch that includes the vehicle's only under a condition."""
    vehicle = ''.join(
        "        Node(package='tf2_ros', executable='static_transform_publisher', "
        "arguments=['--x', {!r}, '--frame-id', 'base_link', '--child-frame-id', 'lidar']),\n"
        .format(x) for x in mounts)
    return write(tmp_path / name, {
        'src/car/package.xml': package('car'),
        'src/car/CMakeLists.txt': cmake('car', 'launch'),
        'src/car/launch/mapping.launch.py': launch_py(
            "DeclareLaunchArgument('offline_mapping', default_value='True')",
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_link'])",
            'IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join('
            "get_package_share_directory('car'), 'launch', 'vehicle.launch.py')), "
            'condition={})'.format(condition)),
        'src/car/launch/vehicle.launch.py':
            'from launch import LaunchDescription\nfrom launch_ros.actions import Node\n\n\n'
            'def generate_launch_description():\n    return LaunchDescription([\n'
            + vehicle + '    ])\n',
    })


UNLESS_OFFLINE = "UnlessCondition(LaunchConfiguration('offline_mapping'))"


def test_a_launch_file_included_only_off_the_defaults_is_checked_with_the_argument(tmp_path):
    """vehicle.launch.py runs only with offline_mapping:=false: it is checked so, and said so."""
    report = lint(_offline_mapper(tmp_path, 'two_mounts', ['0.12', '0.30'], UNLESS_OFFLINE))
    vehicle = 'src/car/launch/vehicle.launch.py'
    assert {(check, file) for check, _, file, _ in problems(report)} == {
        ('parent_uniqueness', vehicle), ('laser_offset', vehicle)}, \
        [f.message for f in report.findings]
    when = 'when src/car/launch/mapping.launch.py with offline_mapping:=false (so the include ' \
        'of src/car/launch/vehicle.launch.py at src/car/launch/mapping.launch.py:'
    assert all(when in f.message for f in report.findings), report.findings[0].message
    # twin: one mount: quiet, and the vehicle's LiDAR is judged, not "no one LiDAR frame"
    report = lint(_offline_mapper(tmp_path, 'one_mount', ['0.12'], UNLESS_OFFLINE))
    assert problems(report) == set(), [f.message for f in report.findings]
    (offset,) = [r for r in report.checks if r.check == 'laser_offset']
    assert offset.level == 'OK' and 'base_link → lidar' in offset.message, offset.message


def test_a_launch_file_behind_a_condition_the_lint_cannot_invert_is_checked_on_its_own(
        tmp_path):
    """A PythonExpression over two arguments: the file is a bringup of its own, said so."""
    condition = ("IfCondition(PythonExpression([LaunchConfiguration('offline_mapping'), "
                 "' == \"False\" and \"car\" == \"car\"']))")
    report = lint(_offline_mapper(tmp_path, 'expression', ['0.12', '0.30'], condition))
    assert {check for check, _, _, _ in problems(report)} == {'parent_uniqueness',
                                                              'laser_offset'}
    assert 'src/car/launch/vehicle.launch.py (checked on its own: included at ' \
        'src/car/launch/mapping.launch.py:' in report.findings[0].message, \
        report.findings[0].message


# a ROS 1 include that hands its argument on as a default

def _ros1_description(tmp_path: Path, mark: str) -> Path:
    """Write a ROS 1 bringup that hands the description's xacro command down two includes."""
    return write(tmp_path / mark, {
        'src/bot/package.xml': package('bot'),
        'src/bot/CMakeLists.txt': cmake('bot', 'launch', 'urdf'),
        'src/bot/urdf/bot.urdf': '<?xml version="1.0"?>\n<robot name="bot"><link name='
        '"base_link"/><link name="laser"/><joint name="j" type="fixed"><parent link='
        '"base_link"/><child link="laser"/><origin xyz="0.1 0 0.2"/></joint></robot>\n',
        'src/bot/launch/bringup.launch': '<launch>\n  <include file="$(find bot)/launch/'
        'view.launch">\n    <arg name="model" {}="cat $(find bot)/urdf/bot.urdf"/>\n  '
        '</include>\n</launch>\n'.format(mark),
        'src/bot/launch/view.launch': '<launch>\n  <arg name="model"/>\n  <param name='
        '"robot_description" command="$(arg model)"/>\n  <node pkg="robot_state_publisher" '
        'type="robot_state_publisher" name="robot_state_publisher"/>\n</launch>\n',
    })


@pytest.mark.parametrize('mark', ['value', 'default'])
def test_a_ros1_include_hands_its_argument_on_as_value_or_default(tmp_path, mark):
    """Roslaunch sets an include's <arg default=...> in the child's context: the value."""
    report = lint(_ros1_description(tmp_path, mark))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}.get('laser') == ('base_link',)


def test_a_file_refused_on_the_way_to_one_included_off_the_defaults_is_said_not_fatal(tmp_path):
    """An entry includes a file the reader refuses, then one whose include is off: both said."""
    doubling = 'a0 = "x"\n' + ''.join('a{} = a{} + a{}\n'.format(i + 1, i, i) for i in range(60))
    include = 'IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join(' \
        'os.path.dirname(__file__), {!r})){})'
    sub = launch_py("DeclareLaunchArgument('extra', default_value='false')",
                    include.format('extra.launch.py',
                                   ", condition=IfCondition(LaunchConfiguration('extra'))"))
    main = launch_py(*[include.format(name, '')
                       for name in ('doubling.launch.py', 'sub.launch.py')])
    report = lint(write(tmp_path / 'ws', {
        'src/bot/package.xml': package('bot'),
        'src/bot/launch/main.launch.py': main, 'src/bot/launch/sub.launch.py': sub,
        'src/bot/launch/doubling.launch.py': doubling + 'from launch_ros.actions import Node\n'
        'Node(package="p", executable="e", arguments=[a60])\n',
        'src/bot/launch/extra.launch.py': launch_py(static_tf('base_link', 'laser'))}))
    (refused,) = [f.message for f in report.findings if f.check == 'lint_files']
    assert 'src/bot/launch/doubling.launch.py' in refused and 'without bound' in refused
    assert parents(report).get('laser') == ('base_link',)  # extra.launch.py still checked
