# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on other robots' habits (issue 20): each false alarm quiet, each miss found, with twins.

Every workspace is made up here, from the habits of other robots' stacks: a TurtleBot-like
bringup behind an OpaqueFunction, a rover whose team forked the particle filter, a simulator
with no odom, Nav2's shared parameter file, robot_localization's file given as a set,
slam_toolbox's mapping/localization switch, cartographer on a diff drive, the F1TENTH gym's
prefixed frames. Each false-alarm test has the workspace that still fires beside it; each
miss, the workspace that stays quiet.
"""
import json
from pathlib import Path
from typing import Dict

from frame_audit.cli import main
from frame_audit.engine.config import AuditConfig
from frame_audit.installed import default_config_file
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import launch_py, line_of, package, problems, write
import pytest

CAR = AuditConfig()  # the F1TENTH car, measured (what --config gives)
TURTLE = AuditConfig(base_frame='base_footprint', laser_frame='base_scan',
                     laser_translation=(-0.032, 0.0, 0.182),
                     required_frames=('odom', 'base_footprint', 'base_scan'))  # no map yet


def lint(root: Path, config: AuditConfig = CAR, measured: bool = True, *entries: str,
         **given: str) -> Report:
    """Lint a made-up workspace: with a measured config (--config), or judged by itself."""
    return lint_workspace(root, config, list(entries), given, measured=measured)


def workspace(tmp_path: Path, files: Dict[str, str], name: str = 'ws') -> Path:
    """Write a made-up workspace under tmp_path/name."""
    return write(tmp_path / name, files)


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
LIDAR_URDF = """<?xml version="1.0"?>
<robot name="{name}">
  <link name="base_link"/><link name="{laser}"/>
  <joint name="laser_joint" type="fixed">
    <parent link="base_link"/><child link="{laser}"/><origin xyz="{x} 0 0.1"/>
  </joint>
</robot>
"""
RSP = ("Node(package='robot_state_publisher', executable='robot_state_publisher', "
       "name='robot_state_publisher', parameters=[{{'robot_description': open(os.path.join("
       "get_package_share_directory('{}'), 'urdf', '{}')).read()}}])")


# False alarms, each with the workspace that still fires.

def _turtle_bringup(tmp_path: Path, twice: bool) -> Path:
    """Write a TurtleBot-like bringup: an OpaqueFunction and the sim both include the robot."""
    include = ('IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join('
               "get_package_share_directory('turtle_bringup'), 'launch', '{}')))")
    robot = [RSP.format('turtle_description', 'turtle.urdf'),
             "Node(package='tf2_ros', executable='static_transform_publisher', "
             "name='odom_tf', arguments=['--frame-id', 'odom', '--child-frame-id', "
             "'base_footprint'])"]
    if twice:  # a second declaration of the same name, on its own line: two nodes
        robot.append(RSP.format('turtle_description', 'turtle.urdf'))
    bringup = launch_py('OpaqueFunction(function=setup)',
                        'IncludeLaunchDescription(PythonLaunchDescriptionSource('
                        "os.path.join(get_package_share_directory('turtle_bringup'), "
                        "'launch', 'sim.launch.py')))").replace(
        '\n\ndef generate', '\n\ndef setup(context):\n    return [{}]\n\n\ndef generate'.format(
            include.format('robot.launch.py')))
    return workspace(tmp_path, {
        'src/turtle_bringup/package.xml': package('turtle_bringup'),
        'src/turtle_description/package.xml': package('turtle_description'),
        'src/turtle_description/urdf/turtle.urdf': URDF_TURTLE,
        'src/turtle_bringup/launch/bringup.launch.py': bringup,
        'src/turtle_bringup/launch/sim.launch.py': launch_py(include.format('robot.launch.py')),
        'src/turtle_bringup/launch/robot.launch.py': launch_py(*robot),
    }, 'twice' if twice else 'once')


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


FORK_SOURCE = """
#include <rclcpp/rclcpp.hpp>
// our particle filter: a different motion model, and the LiDAR as the tracked frame
void PF::publish(const Pose & pose) {
  t.header.frame_id = "map";
  t.child_frame_id = "lidar_link";
  this->declare_parameter("num_particles", 2000);
}
"""
UPSTREAM_SOURCE = """
class ParticleFiler(Node):
    def __init__(self):
        self.declare_parameter('max_particles', 4000)
    def publish_tf(self, pose, stamp):
        t = TransformStamped()
        t.header.frame_id = '/map'
        t.child_frame_id = '/laser'
"""


def _rover_with_own_filter(tmp_path: Path, source: str, name: str) -> Path:
    return workspace(tmp_path, {
        'src/particle_filter/package.xml': package('particle_filter'),
        'src/particle_filter/src/particle_filter.' + ('cpp' if '#include' in source else 'py'):
            source,
        'src/rover/package.xml': package('rover'),
        'src/rover/launch/rover.launch.py': launch_py(
            "Node(package='particle_filter', executable='particle_filter', "
            "name='particle_filter')",
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.26', '0', '0.11', '0', '0', '0', 'base_link', 'lidar_link'])"),
    }, name)


def test_a_team_package_named_like_a_known_node_is_not_taken_for_it(tmp_path):
    """A C++ fork called particle_filter sends lidar_link → map, not the table's /map → /laser."""
    report = lint(_rover_with_own_filter(tmp_path, FORK_SOURCE, 'fork'), measured=False)
    assert not [f for f in report.findings if '/laser' in f.message]
    assert 'laser' not in {row.frame for row in report.frames}
    assert problems(report) == set(), [f.message for f in report.findings]
    report = lint(_rover_with_own_filter(tmp_path, FORK_SOURCE, 'fork_c'), CAR)
    (unknown,) = [f for f in report.findings if f.check == 'chain_order' and 'map' in f.message]
    assert unknown.level == 'WARN' and 'whose source (src/particle_filter) the lint cannot ' \
        'tell is particle_filter' in unknown.message
    # twin: the package is the F1TENTH particle filter itself, so the table speaks for it
    report = lint(_rover_with_own_filter(tmp_path, UPSTREAM_SOURCE, 'upstream'), measured=False)
    assert {row.frame: row.parents for row in report.frames}['laser'] == ('map',)
    assert 'transform_values' not in {f.check for f in report.findings}  # one cause


def _own_car(tmp_path: Path, urdf_x: str, follower_x: str, name: str,
             static_x: str = '') -> Path:
    static = ["Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
              "'{}', '0', '0.11', '0', '0', '0', 'base_link', 'laser'])".format(static_x)] \
        if static_x else []
    return workspace(tmp_path, {
        'src/car/package.xml': package('car'),
        'src/car/urdf/car.urdf': LIDAR_URDF.format(name='car', laser='laser', x=urdf_x),
        'src/car/config/follower.yaml': """
            follower:
              ros__parameters:
                laser_offset_x: {}
            """.format(follower_x),
        'src/car/launch/car.launch.py': launch_py(
            RSP.format('car', 'car.urdf'),
            "Node(package='car', executable='follower', name='follower', parameters=["
            "os.path.join(get_package_share_directory('car'), 'config', 'follower.yaml')])",
            *static),
    }, name)


def test_without_config_the_workspace_is_judged_against_itself(tmp_path, capsys):
    """A car whose files agree on x = 0.27 m, with no map nor odom: no ERROR, exit 0."""
    root = _own_car(tmp_path, '0.27', '0.27', 'agree')
    report = lint(root, CAR, measured=False)
    assert problems(report) == set(), [f.message for f in report.findings]
    chain = next(c for c in report.checks if c.check == 'chain_order')
    assert 'not declared here: map, odom (no --config, so no frame is required)' in chain.message
    assert main(['lint', str(root)]) == 0
    capsys.readouterr()
    # twin: the car's measured values apply once --config names them
    assert main(['lint', str(root), '--config', str(default_config_file())]) == 1
    assert 'but the car was measured at' in capsys.readouterr().out
    # twin: files that disagree with each other, without any config
    root = _own_car(tmp_path, '0.27', '0.26', 'consumer')
    urdf_line = line_of(root, 'src/car/urdf/car.urdf', '<joint')
    follower = 'src/car/config/follower.yaml'
    (finding,) = lint(root, measured=False).findings
    assert (finding.check, finding.level, finding.values['file'], finding.values['line']) == (
        'pose_frame', 'ERROR', follower, line_of(root, follower, 'laser_offset_x'))
    assert 'car.urdf:{}'.format(urdf_line) in finding.message
    root = _own_car(tmp_path, '0.27', '0.27', 'static', static_x='0.25')
    (disagree,) = [f for f in lint(root, measured=False).findings if f.check == 'laser_offset']
    assert disagree.level == 'ERROR' and 'The files disagree about where the LiDAR is' in \
        disagree.message and 'x is 0.2500 m, 0.2700 m expected' in disagree.message


NAV2_PARAMS = """
    map_server:
      ros__parameters:
        yaml_filename: map.yaml
        frame_id: map
    map_saver:
      ros__parameters:
        save_map_timeout: 5.0
    {}:
      ros__parameters:
        free_thresh_default: 0.25
    """


def _nav2_maps(tmp_path: Path, block: str) -> Path:
    return workspace(tmp_path, {
        'src/nav/package.xml': package('nav'),
        'src/nav/params/nav2.yaml': NAV2_PARAMS.format(block),
        'src/nav/launch/map.launch.py': launch_py(
            "Node(package='nav2_map_server', executable='map_server', name='map_server', "
            "parameters=[os.path.join(get_package_share_directory('nav'), 'params', "
            "'nav2.yaml')])"),
    }, block)


def test_nav2_standard_blocks_are_not_typos(tmp_path):
    """map_saver beside map_server, in a file passed to map_server alone: Nav2's own block."""
    report = lint(_nav2_maps(tmp_path, 'costmap_filter_info_server'), measured=False)
    assert not [f for f in report.findings if f.check == 'lint_parameters'], report.findings
    # twin: a slip of map_server's name is still one
    root = _nav2_maps(tmp_path, 'map_sever')
    (slip,) = [f for f in lint(root, measured=False).findings if f.check == 'lint_parameters']
    assert "did you mean 'map_server'" in slip.message
    assert slip.values['line'] == line_of(root, 'src/nav/params/nav2.yaml', 'map_sever:')


EKF_PARAMS = """
    ekf_filter_node:
      ros__parameters:
        world_frame: odom
        odom_frame: odom
        base_link_frame: base_link
        publish_tf: {}
    """


def _ekf_with_set(tmp_path: Path, publish: str, parameters: str) -> Path:
    return workspace(tmp_path, {
        'src/diff/package.xml': package('diff'),
        'src/diff/config/ekf.yaml': EKF_PARAMS.format(publish),
        'src/diff/launch/ekf.launch.py': launch_py(
            "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
            'parameters={})'.format(parameters),
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "name='wheel_odom', arguments=['--frame-id', 'odom', '--child-frame-id', "
            "'base_footprint'])",
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "name='footprint', arguments=['--frame-id', 'base_footprint', '--child-frame-id', "
            "'base_link'])"),
    }, publish + str(len(parameters)))


SET = "[{os.path.join(get_package_share_directory('diff'), 'config', 'ekf.yaml')}]"


def test_a_parameter_file_given_as_a_set_is_read_and_an_unread_one_invents_nothing(tmp_path):
    """{path}: robot_localization's publish_tf: false is read, never its default true."""
    assert problems(lint(_ekf_with_set(tmp_path, 'false', SET), measured=False)) == set()
    unread = lint(_ekf_with_set(tmp_path, 'false', "[LaunchConfiguration('ekf_params')]"),
                  measured=False)
    assert not [f for f in unread.findings if f.check == 'parent_uniqueness']
    assert [f for f in unread.findings if f.check == 'lint_files']  # said: not checked
    # twin: the file switches the transform on, so base_link has two parents
    root = _ekf_with_set(tmp_path, 'true', SET)
    (parents,) = [f for f in lint(root, measured=False).findings
                  if f.check == 'parent_uniqueness']
    assert parents.level == 'ERROR' and 'base_link has 2 parents' in parents.message


def _slam_switch(tmp_path: Path, second: str, default: str = "'True'") -> Path:
    return workspace(tmp_path, {
        'src/slam/package.xml': package('slam'),
        'src/slam/launch/slam.launch.py': launch_py(
            "DeclareLaunchArgument('mapping', default_value={})".format(default),
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
            "name='slam_toolbox', condition=IfCondition([LaunchConfiguration('mapping')]))",
            "Node(package='slam_toolbox', executable='localization_slam_toolbox_node', "
            "name='slam_toolbox_localization'{})".format(second),
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_link'])"),
    }, str(abs(hash((second, default)))))


NOT_MAPPING = ", condition=IfCondition(PythonExpression(['not ', LaunchConfiguration('mapping')" \
    ']))'


def test_conditions_written_as_lists_are_evaluated(tmp_path):
    """IfCondition([x]) and IfCondition(PythonExpression(['not ', x])): one slam node runs."""
    assert problems(lint(_slam_switch(tmp_path, NOT_MAPPING), measured=False)) == set()
    report = lint(_slam_switch(tmp_path, NOT_MAPPING), CAR, False, 'slam/slam.launch.py',
                  mapping='false')
    assert problems(report) == set()
    assert [row.publishers for row in report.frames if row.frame == 'odom'][0][0].startswith(
        'slam_toolbox slam_toolbox_localization')
    # unknown (no default): opposite sides of one argument are alternatives
    assert problems(lint(_slam_switch(tmp_path, NOT_MAPPING, 'None'), measured=False)) == set()
    # twin: without the condition both run, and map → odom has two senders
    (two,) = [f for f in lint(_slam_switch(tmp_path, ''), measured=False).findings
              if f.check == 'parent_uniqueness']
    assert 'map → odom is declared by 2 sources' in two.message


# Misses, each with the workspace that stays quiet.

CARTO_LUA = """
include "map_builder.lua"
include "trajectory_builder.lua"
options = {{
  map_builder = MAP_BUILDER,
  map_frame = "map",
  tracking_frame = "base_link",
  published_frame = "{}",
  odom_frame = "odom",
  provide_odom_frame = {},
  use_odometry = false,
}}
return options
"""


def _cartographer_diff_drive(tmp_path: Path, published: str, provide: str) -> Path:
    return workspace(tmp_path, {
        'src/carto/package.xml': package('carto'),
        'src/carto/config/diff.lua': CARTO_LUA.format(published, provide),
        'src/carto/config/ekf.yaml': EKF_PARAMS.format('false'),
        'src/carto/launch/carto.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', arguments=["
            "'-configuration_directory', os.path.join(get_package_share_directory('carto'), "
            "'config'), '-configuration_basename', 'diff.lua'])",
            "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
            "parameters=[os.path.join(get_package_share_directory('carto'), 'config', "
            "'ekf.yaml')])"),
    }, published + provide)


def test_cartographer_sending_the_base_beside_an_odom_frame(tmp_path):
    """published_frame = base_link, provide_odom_frame = false, and an EKF working in odom."""
    root = _cartographer_diff_drive(tmp_path, 'base_link', 'false')
    lua = 'src/carto/config/diff.lua'
    report = lint(root, measured=False)
    assert problems(report) == {('chain_order', 'ERROR', lua,
                                 line_of(root, lua, 'published_frame'))}, report.findings
    (finding,) = report.findings
    assert "ekf_filter_node's odom_frame at src/carto/config/ekf.yaml:" in finding.message
    assert 'odom is beside base_link, not above it' in finding.message
    # twin: cartographer provides odom, so map → odom → base_link
    assert problems(lint(_cartographer_diff_drive(tmp_path, 'base_link', 'true'),
                         measured=False)) == set()


def _gym(tmp_path: Path, prefix: str, distance: str, laser: str = 'laser_model') -> Path:
    rsp = RSP.format('gym', 'racecar.urdf')
    if prefix:
        rsp = rsp.replace('}])', ", 'frame_prefix': '{}'}}])".format(prefix))
    return workspace(tmp_path, {
        'src/gym/package.xml': package('gym'),
        'src/gym/urdf/racecar.urdf': LIDAR_URDF.format(name='racecar', laser=laser, x='0.275'),
        'src/gym/config/sim.yaml': """
            bridge:
              ros__parameters:
                ego_namespace: ego_racecar
                scan_distance_to_base_link: {}
            """.format(distance),
        'src/gym/launch/gym.launch.py': launch_py(
            "Node(package='gym', executable='gym_bridge', name='bridge', parameters=["
            "os.path.join(get_package_share_directory('gym'), 'config', 'sim.yaml')])", rsp),
    }, '{}{}{}'.format(prefix.strip('/'), distance, laser))


def test_a_description_without_the_prefix_the_simulator_places(tmp_path):
    """The bridge places ego_racecar/base_link; the URDF's base_link has no parent."""
    root = _gym(tmp_path, '', '0.275')
    (split,) = [f for f in lint(root, measured=False).findings if f.check == 'connectivity']
    assert split.level == 'WARN' and 'ego_racecar/base_link' in split.message \
        and 'hangs from base_link' in split.message and 'frame_prefix: ego_racecar/' in \
        split.message
    assert split.values['file'] == 'src/gym/urdf/racecar.urdf'
    # twin: frame_prefix joins the model to the simulator's frames
    report = lint(_gym(tmp_path, 'ego_racecar/', '0.275'), measured=False)
    assert not [f for f in report.findings if f.check == 'connectivity'], report.findings


def test_a_lidar_distance_parameter_against_the_description(tmp_path):
    """scan_distance_to_base_link: 0.0 while the description mounts the LiDAR at 0.275 m."""
    root = _gym(tmp_path, 'ego_racecar/', '0.0', laser='laser')
    offsets = [f for f in lint(root, measured=False).findings if f.check == 'pose_frame']
    assert len(offsets) == 1 and offsets[0].level == 'ERROR'
    assert 'scan_distance_to_base_link is 0.0000 m, but base_link → laser has x 0.2750 m' in \
        offsets[0].message and 'racecar.urdf' in offsets[0].message
    assert offsets[0].values['line'] == line_of(root, 'src/gym/config/sim.yaml',
                                                'scan_distance')
    # twin: the simulator scans from where the description mounts the LiDAR
    report = lint(_gym(tmp_path, 'ego_racecar/', '0.275', laser='laser'), measured=False)
    assert not [f for f in report.findings if f.check == 'pose_frame']


def _lidar_driver(tmp_path: Path, block: str, loaders: int) -> Path:
    nodes = ["Node(package='sick_scan_xd', executable='sick_generic_caller', name='lidar_{}', "
             "parameters=[os.path.join(get_package_share_directory('bot'), 'config', "
             "'lidar.yaml')])".format(i) for i in range(loaders)]
    return workspace(tmp_path, {
        'src/bot/package.xml': package('bot'),
        'src/bot/config/lidar.yaml': """
            {}:
              ros__parameters:
                frame_id: laser
                min_ang: -2.35
            """.format(block),
        'src/bot/launch/lidar.launch.py': launch_py(*nodes),
    }, '{}{}'.format(block, loaders))


def test_a_block_no_started_node_has_in_a_file_for_one_node(tmp_path):
    """sick_tim_5xx: in a file passed to lidar_0 alone, its parameters reach nothing."""
    root = _lidar_driver(tmp_path, 'sick_tim_5xx', 1)
    (lost,) = [f for f in lint(root, measured=False).findings if f.check == 'lint_parameters']
    assert lost.level == 'WARN' and 'passed to lidar_0 alone' in lost.message
    assert lost.values['line'] == line_of(root, 'src/bot/config/lidar.yaml', 'sick_tim_5xx:')
    # twins: the block names the node; a file shared by two nodes may serve others
    for block, loaders in (('lidar_0', 1), ('sick_tim_5xx', 2)):
        report = lint(_lidar_driver(tmp_path, block, loaders), measured=False)
        assert not [f for f in report.findings if f.check == 'lint_parameters']


# Also: places, counts, wording.

LIDAR_MACRO = """<?xml version="1.0"?>
<robot name="rover" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="lidar" params="name x">
    <link name="${name}"/>
    <joint name="${name}_joint" type="fixed">
      <parent link="base_link"/><child link="${name}"/>
      <origin xyz="${x} 0 0.11"/>
    </joint>
  </xacro:macro>
  <link name="base_link"/>
  <xacro:lidar name="laser" x="X"/>
</robot>
"""


def _macro_rover(tmp_path: Path, x: str) -> Path:
    return workspace(tmp_path, {
        'src/rover/package.xml': package('rover'),
        'src/rover/urdf/rover.urdf.xacro': LIDAR_MACRO.replace('X', x),
        'src/rover/launch/rover.launch.py': launch_py(RSP.format('rover', 'rover.urdf.xacro')),
    }, 'x' + x)


def test_a_joint_a_macro_makes_is_placed_at_the_call(tmp_path):
    root = _macro_rover(tmp_path, '0.30')
    xacro = 'src/rover/urdf/rover.urdf.xacro'
    (offset,) = [f for f in lint(root).findings if f.check == 'laser_offset']
    assert (offset.values['file'], offset.values['line']) == (
        xacro, line_of(root, xacro, '<xacro:lidar name='))
    assert not [f for f in lint(_macro_rover(tmp_path, '0.26')).findings
                if f.check == 'laser_offset']


def _quaternion(tmp_path: Path, quaternion: str) -> Path:
    return workspace(tmp_path, {
        'src/q/package.xml': package('q'),
        'src/q/launch/q.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.26', '0', '0.11', {}, 'base_link', 'laser'])".format(quaternion)),
    }, str(abs(hash(quaternion))))


def test_a_non_unit_quaternion_gives_the_angle_probably_meant(tmp_path):
    """A yaw of 90 degrees written in the quaternion's slot: qz = 1.5708 with qw = 1."""
    (values,) = [f for f in lint(_quaternion(tmp_path, "'0', '0', '1.5708', '1'")).findings
                 if f.check == 'transform_values']
    assert 'A yaw of 1.5708 rad (90.0 degrees) given in the quaternion slots?' in \
        values.message and '(0.0000, 0.0000, 0.7071, 0.7071)' in values.message
    assert 'write it as --yaw 1.5708' in values.message
    assert not [f for f in lint(_quaternion(tmp_path, "'0', '0', '0.7071068', '0.7071068'"))
                .findings if f.check == 'transform_values']


def _carto_alone(tmp_path: Path, share: str, basename: str) -> Path:
    """Write cartographer started alone, its folder and .lua named as these expressions."""
    return workspace(tmp_path, {
        'src/carto/package.xml': package('carto'),
        'src/carto/config/diff.lua': CARTO_LUA.format('base_link', 'true'),
        'src/carto/launch/carto.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', arguments=["
            "'-configuration_directory', os.path.join({}, 'config'), "
            "'-configuration_basename', {}])".format(share, basename)),
    }, str(abs(hash((share, basename)))))


SHARE = "get_package_share_directory('carto')"


def test_a_cartographer_argument_without_a_value_is_named(tmp_path):
    unknown = [f.message for f in lint(_carto_alone(tmp_path, SHARE, "LaunchConfiguration('lua')"),
                                       measured=False).findings if f.check == 'lint_files']
    assert any("its argument -configuration_basename is LaunchConfiguration('lua'), known "
               'only when the launch runs' in m for m in unknown), unknown
    assert not [f for f in lint(_carto_alone(tmp_path, SHARE, "'diff.lua'"),
                                measured=False).findings if f.check == 'lint_files']


def test_json_findings_carry_their_place_and_the_summary_counts_them(tmp_path, capsys):
    root = _cartographer_diff_drive(tmp_path, 'base_link', 'false')
    assert main(['lint', str(root), '--format', 'json']) == 1
    document = json.loads(capsys.readouterr().out)
    assert all(f['values'].get('file') and f['values'].get('line')
               for f in document['findings'])
    files = next(c for c in document['checks'] if c['check'] == 'lint_files')
    assert files['message'].endswith('findings: 1 ERROR')


@pytest.mark.parametrize('measured', [True, False])
def test_a_healthy_turtle_is_quiet_either_way(tmp_path, measured):
    """The healthy robot of the first test, with or without a measurement: nothing to say."""
    report = lint(_turtle_bringup(tmp_path, twice=False), TURTLE, measured)
    assert problems(report) == set(), [f.message for f in report.findings]


def _moveit_like(tmp_path: Path, executable: str) -> Path:
    return workspace(tmp_path, {
        'src/arm/package.xml': package('arm'),
        'src/arm/launch/demo.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--frame-id', 'world', '--child-frame-id', 'arm_link0'])",
            "Node(package='any', executable='{}', name='viewer', parameters=["
            'config.robot_description, config.planning_pipelines])'.format(executable)),
    }, executable)


def test_a_tool_whose_parameters_cannot_be_read_is_not_a_finding(tmp_path):
    """Rviz2 given computed dicts (MoveIt's demo) sends nothing: nothing to say."""
    assert problems(lint(_moveit_like(tmp_path, 'rviz2'), measured=False)) == set()
    # twin: a node the table does not know may send transforms: its unread sources are said
    unread = [f for f in lint(_moveit_like(tmp_path, 'arm_driver'), measured=False).findings
              if f.check == 'lint_files']
    assert len(unread) == 2 and all('known only when the launch runs' in f.message
                                    for f in unread)


def test_an_unnamed_node_gets_the_block_of_the_name_its_code_gives_it(tmp_path):
    """ekf_node without name= is ekf_filter_node: its block's publish_tf: false applies."""
    unnamed = "[os.path.join(get_package_share_directory('diff'), 'config', 'ekf.yaml')]"
    root = _ekf_with_set(tmp_path, 'false', unnamed)
    launch = root / 'src/diff/launch/ekf.launch.py'
    launch.write_text(launch.read_text().replace("name='ekf_filter_node', ", ''))
    assert problems(lint(root, measured=False)) == set()
    # twin: the same block switching the transform on gives base_link its second parent
    root = _ekf_with_set(tmp_path, 'true', unnamed)
    launch = root / 'src/diff/launch/ekf.launch.py'
    launch.write_text(launch.read_text().replace("name='ekf_filter_node', ", ''))
    (parents,) = [f for f in lint(root, measured=False).findings
                  if f.check == 'parent_uniqueness']
    assert 'publish_tf: true' in parents.message and 'ekf.yaml' in parents.message


def _built_not_started(tmp_path: Path, listed: str) -> Path:
    """Write a LiDAR launch file that builds its static publisher, listed or commented out."""
    static = ("tf_node = Node(package='tf2_ros', executable='static_transform_publisher', "
              "arguments=['0', '0', '0.02', '0', '0', '0', '1', 'base_link', 'laser_frame'])")
    text = launch_py(listed).replace('\n\ndef generate_launch_description():\n',
                                     '\n\ndef generate_launch_description():\n    {}\n'.format(
                                         static))
    return workspace(tmp_path, {'src/lidar/package.xml': package('lidar'),
                                'src/lidar/launch/lidar.launch.py': text},
                     'listed' if listed == 'tf_node' else 'commented')


def test_a_node_built_but_never_handed_to_the_launch_is_not_started(tmp_path):
    """tf_node = Node(...) with `# tf_node,` in the list: ros2 launch never starts it."""
    report = lint(_built_not_started(tmp_path, '# tf_node'), measured=False)
    assert not report.frames
    report = lint(_built_not_started(tmp_path, 'tf_node'), measured=False)
    assert {row.frame: row.parents for row in report.frames}['laser_frame'] == ('base_link',)


def test_cartographer_alone_with_its_own_unused_odom_option_is_quiet(tmp_path):
    """Publishing base_link with no odometry anywhere (LIMO's habit): map → base_link is fine."""
    root = _cartographer_diff_drive(tmp_path, 'base_link', 'false')
    (root / 'src/carto/config/ekf.yaml').unlink()
    launch = root / 'src/carto/launch/carto.launch.py'
    launch.write_text(launch.read_text().replace(
        "Node(package='robot_localization'", "# Node(package='robot_localization'").replace(
        "'ekf.yaml')]),", "'ekf.yaml')]),\n"))
    report = lint(root, measured=False)
    assert problems(report) == set(), [f.message for f in report.findings]


def test_find_package_share_by_keyword_leads_to_the_lua_file(tmp_path):
    """Find the .lua through FindPackageShare(package=...).find(...), as LIMO's launch does."""
    def carto(package: str) -> Path:
        share = "FindPackageShare(package={}).find('carto')".format(package)
        return _carto_alone(tmp_path, share, "'diff.lua'")

    report = lint(carto("'carto'"), measured=False)
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['odom'] == ('map',)
    unknown = [f.message for f in lint(carto("LaunchConfiguration('pkg')"), measured=False)
               .findings if f.check == 'lint_files']
    assert any('-configuration_directory' in m for m in unknown), unknown


def _vendored_driver(tmp_path: Path, source: str) -> Path:
    return workspace(tmp_path, {
        'src/rplidar_ros/package.xml': package('rplidar_ros'),
        'src/rplidar_ros/src/rplidar_node.cpp': source,
        'src/rplidar_ros/launch/lidar.launch.py': launch_py(
            "Node(package='rplidar_ros', executable='rplidar_node', name='rplidar_node', "
            "parameters=[{'frame_id': 'laser'}])"),
    }, str(abs(hash(source))))


def test_a_vendored_driver_that_reads_its_frame_parameter_is_the_known_driver(tmp_path):
    """The workspace holds rplidar_ros's source, which reads frame_id: the table speaks for it."""
    driver = 'this->declare_parameter<std::string>("frame_id", "laser_frame");\n'
    (unpublished,) = [f for f in lint(_vendored_driver(tmp_path, driver), measured=False)
                      .findings if f.check == 'connectivity']
    assert unpublished.level == 'ERROR'  # the driver sends nothing: nothing publishes laser
    # twin: a package of that name whose code reads no frame parameter may send anything
    other = 'int main() { publish_transform("base_link", "laser"); }\n'
    (unpublished,) = [f for f in lint(_vendored_driver(tmp_path, other), measured=False)
                      .findings if f.check == 'connectivity']
    assert unpublished.level == 'WARN' and 'whose source (src/rplidar_ros) the lint cannot ' \
        'tell is a LiDAR driver' in unpublished.message
