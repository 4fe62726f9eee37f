# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on workspaces it had never seen (issue 20, measured again): each false alarm quiet.

Each test is a made-up workspace drawn from a habit met in public workspaces: a Kobuki-like
base whose cartographer sends its own odom frame as the published frame, an arm cell whose
ros2_control launch runs xacro through FindExecutable, a racecar team's own `ekf_node`, a
VESC parameter file shared by the drivers, a TurtleBot-like fleet whose base_footprint sits
above base_link. Each false alarm has the twin that still fires, or the healthy twin that
stays quiet.
"""
import json
from pathlib import Path
from typing import Dict

from frame_audit.cli import main
from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, package, problems, share, write
import pytest


def lint(root: Path) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


# cartographer sending its own odom frame as the published frame (a Kobuki-like base)

KOBUKI_LUA = """
include "map_builder.lua"
include "trajectory_builder.lua"
options = {{
  map_builder = MAP_BUILDER,
  trajectory_builder = TRAJECTORY_BUILDER,
  map_frame = "map",
  tracking_frame = "base_footprint",
  published_frame = "odom",
  odom_frame = "odom",
  provide_odom_frame = {},
  use_odometry = true,
}}
return options
"""


EKF = """
ekf_filter_node:
  ros__parameters:
    world_frame: odom
    odom_frame: odom
    base_link_frame: base_footprint
"""


def _kobuki_cartographer(tmp_path: Path, provide: str) -> Path:
    """Write cartographer publishing odom, the wheel EKF sending odom → base_footprint."""
    return write(tmp_path / provide, {
        'src/kobuki_slam/package.xml': package('kobuki_slam'),
        'src/kobuki_slam/CMakeLists.txt': cmake('kobuki_slam', 'config', 'launch'),
        'src/kobuki_slam/config/kobuki_2d.lua': KOBUKI_LUA.format(provide),
        'src/kobuki_slam/config/ekf.yaml': EKF,
        'src/kobuki_slam/launch/slam.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', "
            "name='cartographer_node', arguments=['-configuration_directory', "
            "{}, '-configuration_basename', 'kobuki_2d.lua'])".format(
                share('kobuki_slam', 'config')),
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('kobuki_slam', 'config', 'ekf.yaml'))),
    })


def test_cartographer_sending_its_odom_as_the_published_frame_is_one_finding(tmp_path):
    """published_frame = odom_frame with provide_odom_frame: odom → odom, which tf2 drops."""
    root = _kobuki_cartographer(tmp_path, 'true')
    lua = 'src/kobuki_slam/config/kobuki_2d.lua'
    report = lint(root)
    # one cause, one finding: the self-edge is no second parent of odom
    assert problems(report) == {('transform_values', 'ERROR', lua,
                                 line_of(root, lua, 'published_frame'))}, report.findings
    assert "'odom' → 'odom'" in report.findings[0].message
    # twin: cartographer publishing map → odom above the EKF's odometry, quietly
    report = lint(_kobuki_cartographer(tmp_path, 'false'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert [(row.frame, row.parents) for row in report.frames] == [
        ('base_footprint', ('odom',)), ('map', ()), ('odom', ('map',))]


# an arm cell whose ros2_control launch runs xacro through FindExecutable

ARM_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="cell_arm">
  <link name="world"/><link name="base_link"/><link name="shoulder"/><link name="tool0"/>
  <joint name="base_joint" type="fixed">
    <parent link="world"/><child link="base_link"/><origin xyz="0 0 0"/>
  </joint>
  <joint name="shoulder_joint" type="revolute">
    <parent link="base_link"/><child link="shoulder"/><origin xyz="0 0 0.16"/>
    <axis xyz="0 0 1"/><limit effort="10" lower="-3" upper="3" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="shoulder"/><child link="tool0"/><origin xyz="0.4 0 0"/>
  </joint>
</robot>
"""


def _arm_cell(tmp_path: Path, table_child: str) -> Path:
    """Write an arm on a table: the description by FindExecutable's xacro, the table static."""
    description = ('Command([PathJoinSubstitution([FindExecutable(name="xacro")]), " ", '
                   'PathJoinSubstitution([FindPackageShare("cell_arm"), "urdf", '
                   '"arm.urdf.xacro"])])')
    imports = ('from launch.substitutions import Command, FindExecutable, '
               'PathJoinSubstitution\nfrom launch_ros.substitutions import FindPackageShare\n')
    return write(tmp_path / table_child, {
        'src/cell_arm/package.xml': package('cell_arm'),
        'src/cell_arm/CMakeLists.txt': cmake('cell_arm', 'description/urdf', 'bringup/launch'),
        'src/cell_arm/description/urdf/arm.urdf.xacro': ARM_XACRO,
        'src/cell_arm/bringup/launch/cell.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': {}}}])".format(description),
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--x', '0.5', '--frame-id', 'table', '--child-frame-id', "
            "'{}'])".format(table_child), imports=imports),
    })


def test_xacro_run_through_find_executable_is_read(tmp_path):
    """The common ros2_control launch: the lint reads the description, and its slips."""
    root = _arm_cell(tmp_path, 'base_link')  # the table also claims the arm's base
    report = lint(root)
    xacro = 'src/cell_arm/description/urdf/arm.urdf.xacro'
    assert problems(report) == {('parent_uniqueness', 'ERROR', xacro,
                                 line_of(root, xacro, '"base_joint"'))}, \
        [f.message for f in report.findings]
    assert 'base_link has 2 parents: world' in report.findings[0].message
    assert 'and table (static_transform_publisher' in report.findings[0].message
    # twin: the table holds the world the arm is fixed to: nothing to say, every joint read
    report = lint(_arm_cell(tmp_path, 'world'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame for row in report.frames} == {'table', 'world', 'base_link', 'shoulder',
                                                    'tool0'}


# a racecar team's own ekf_node beside the VESC odometry

VESC = """
/**:
  ros__parameters:
    speed_to_erpm_gain: 4614.0
    port: /dev/vesc
vesc_to_odom_node:
  ros__parameters:
    odom_frame: odom
    base_frame: base_link
    publish_tf: true
throttle_interpolator:
  ros__parameters:
    max_acceleration: 2.5
"""


def _racecar(tmp_path: Path, name: str, ekf_package: str, drivers_share: bool = True) -> Path:
    """Write a racecar: the VESC drivers, its odometry, an ekf_node of ekf_package."""
    vesc = "parameters=[LaunchConfiguration('vesc_config')]"
    drivers = vesc if drivers_share else "parameters=[{'port': '/dev/vesc'}]"
    files: Dict[str, str] = {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/CMakeLists.txt': cmake('race_bringup', 'config', 'launch'),
        'src/race_bringup/config/vesc.yaml': VESC,
        'src/race_bringup/launch/car.launch.py': launch_py(
            "DeclareLaunchArgument('vesc_config', default_value={})".format(
                share('race_bringup', 'config', 'vesc.yaml')),
            "Node(package='vesc_driver', executable='vesc_driver_node', "
            "name='vesc_driver_node', {})".format(drivers),
            "Node(package='vesc_ackermann', executable='ackermann_to_vesc_node', "
            "name='ackermann_to_vesc_node', {})".format(drivers),
            "Node(package='vesc_ackermann', executable='vesc_to_odom_node', "
            "name='vesc_to_odom_node', {})".format(vesc),
            "Node(package='{}', executable='ekf_node', name='ekf_node')".format(ekf_package)),
    }
    return write(tmp_path / name, files)


def test_a_team_ekf_node_of_its_own_package_is_not_robot_localization(tmp_path):
    """wheel_ekf/ekf_node publishes an Odometry topic, no transform the lint can know."""
    report = lint(_racecar(tmp_path, 'team', 'wheel_ekf'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'robot_localization' not in ' '.join(row.publishers)
    # twin: robot_localization's ekf_node on its defaults sends odom → base_link too
    report = lint(_racecar(tmp_path, 'upstream', 'robot_localization'))
    launch = 'src/race_bringup/launch/car.launch.py'
    two = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert [(f.level, f.values['file']) for f in two] == [('ERROR', launch)], report.findings
    assert 'odom → base_link is declared by 2 sources' in two[0].message


def test_a_vesc_file_shared_by_the_drivers_is_not_one_nodes(tmp_path):
    """The F1TENTH stack passes vesc.yaml to three nodes; an unstarted node's block is moot."""
    report = lint(_racecar(tmp_path, 'shared', 'wheel_ekf'))
    assert problems(report) == set(), [f.message for f in report.findings]
    # the file reaches vesc_to_odom_node alone, which has its own block: the block of a
    # throttle_interpolator left out of the launch is moot, not a node on its defaults (round 5;
    # a node with no block of its own: test_lint_round5.py)
    root = _racecar(tmp_path, 'alone', 'wheel_ekf', drivers_share=False)
    assert problems(lint(root)) == set()


# a TurtleBot-like fleet: base_footprint above base_link, odometry from the simulator

FOOTPRINT_URDF = """<?xml version="1.0"?>
<robot name="tb">
  <link name="base_footprint"/><link name="base_link"/><link name="base_scan"/>
  <joint name="base_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.010"/>
  </joint>
  <joint name="scan_joint" type="fixed">
    <parent link="base_link"/><child link="base_scan"/><origin xyz="-0.064 0 0.122"/>
  </joint>
</robot>
"""
AMCL = """
amcl:
  ros__parameters:
    base_frame_id: base_footprint
    global_frame_id: map
    odom_frame_id: odom
"""


def _fleet(tmp_path: Path, odometry: str) -> Path:
    nodes = ['IncludeLaunchDescription(PythonLaunchDescriptionSource({}))'.format(
                 share('gazebo_ros', 'launch', 'gzserver.launch.py')),
             "Node(package='robot_state_publisher', executable='robot_state_publisher', "
             "namespace='tb1', arguments=[{}])".format(share('tb_fleet', 'urdf', 'tb.urdf')),
             "Node(package='nav2_amcl', executable='amcl', name='amcl', parameters=[{}])"
             .format(share('tb_fleet', 'params', 'amcl.yaml'))]
    if odometry:
        nodes.append("Node(package='tf2_ros', executable='static_transform_publisher', "
                     "arguments=['--frame-id', 'odom', '--child-frame-id', '{}'])".format(
                         odometry))
    return write(tmp_path / (odometry or 'none'), {
        'src/tb_fleet/package.xml': package('tb_fleet'),
        'src/tb_fleet/CMakeLists.txt': cmake('tb_fleet', 'launch', 'urdf', 'params'),
        'src/tb_fleet/urdf/tb.urdf': FOOTPRINT_URDF,
        'src/tb_fleet/params/amcl.yaml': AMCL,
        'src/tb_fleet/launch/fleet.launch.py': launch_py(*nodes),
    })


def test_odom_missing_above_a_footprint_names_the_edge_to_send(tmp_path):
    """Nothing here sends odom → base_footprint: say that edge, not odom → base_link."""
    report = lint(_fleet(tmp_path, ''))
    (chain,) = [f for f in report.findings if f.check == 'chain_order']
    assert chain.level == 'WARN'  # the simulator may send it: the lint cannot know
    assert 'Nothing declares odom → base_footprint, the top of that ancestry' in chain.message
    assert 'gzserver.launch.py' in chain.message
    # healthy twin: the odometry sends odom → base_footprint, as REP 105 allows
    report = lint(_fleet(tmp_path, 'base_footprint'))
    assert problems(report) == set(), [f.message for f in report.findings]


# a ros2_control diff drive whose controller and EKF both send the odometry

CONTROLLERS = """
controller_manager:
  ros__parameters:
    update_rate: 50
    base_controller:
      type: diff_drive_controller/DiffDriveController
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
base_controller:
  ros__parameters:
    left_wheel_names: ['left_wheel_joint']
    right_wheel_names: ['right_wheel_joint']
    base_frame_id: base_link
{}"""
FUSED_EKF = """
ekf_filter_node:
  ros__parameters:
    publish_tf: true
    world_frame: odom
    base_link_frame: base_link
"""


def _ros2_control_rover(tmp_path: Path, name: str, controller: str, spawned: bool = True) -> Path:
    """Write a rover: ros2_control's manager, spawners, and robot_localization fusing the IMU."""
    nodes = ["Node(package='controller_manager', executable='ros2_control_node', "
             'parameters=[{}])'.format(share('rover_bringup', 'config', 'controllers.yaml')),
             "Node(package='controller_manager', executable='spawner', "
             "arguments=['joint_state_broadcaster'])",
             "Node(package='robot_localization', executable='ekf_node', "
             "name='ekf_filter_node', parameters=[{}])".format(
                 share('rover_bringup', 'config', 'ekf.yaml'))]
    if spawned:
        nodes.append("Node(package='controller_manager', executable='spawner', "
                     "arguments=['base_controller', '--controller-manager', "
                     "'/controller_manager'])")
    return write(tmp_path / name, {
        'src/rover_bringup/package.xml': package('rover_bringup'),
        'src/rover_bringup/CMakeLists.txt': cmake('rover_bringup', 'config', 'launch'),
        'src/rover_bringup/config/controllers.yaml': CONTROLLERS.format(controller),
        'src/rover_bringup/config/ekf.yaml': FUSED_EKF,
        'src/rover_bringup/launch/rover.launch.py': launch_py(*nodes),
    })


def test_a_spawned_diff_drive_controller_sends_the_odometry(tmp_path):
    """diff_drive_controller's enable_odom_tf defaults to true: beside the EKF, two senders."""
    root = _ros2_control_rover(tmp_path, 'both', '')
    report = lint(root)
    controllers = 'src/rover_bringup/config/controllers.yaml'
    assert problems(report) == {('parent_uniqueness', 'ERROR', controllers,
                                 line_of(root, controllers, 'base_frame_id'))}, report.findings
    (two,) = report.findings
    assert 'odom → base_link is declared by 2 sources: robot_localization' in two.message
    assert 'diff_drive_controller base_controller (base_frame_id: base_link)' in two.message
    # healthy twins: the controller leaves the transform to the EKF; or it is never spawned
    for twin in (_ros2_control_rover(tmp_path, 'off', '    enable_odom_tf: false\n'),
                 _ros2_control_rover(tmp_path, 'unspawned', '', spawned=False)):
        report = lint(twin)
        assert problems(report) == set(), [f.message for f in report.findings]
        row = next(r for r in report.frames if r.frame == 'base_link')
        assert row.parents == ('odom',) and 'diff_drive_controller' not in str(row.publishers)


# the summary counts findings as well as checks

def _missing_files(tmp_path: Path) -> Path:
    """Write a car whose launch names two parameter files its package does not hold."""
    return write(tmp_path / 'gaps', {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/CMakeLists.txt': cmake('race_bringup', 'config', 'launch'),
        'src/race_bringup/config/mux.yaml': 'ackermann_mux:\n  ros__parameters: {}\n',
        'src/race_bringup/launch/car.launch.py': launch_py(
            "Node(package='urg_node', executable='urg_node_driver', name='urg_node', "
            'parameters=[{}])'.format(share('race_bringup', 'config', 'sensors.yaml')),
            "Node(package='vesc_ackermann', executable='vesc_to_odom_node', "
            "name='vesc_to_odom_node', parameters=[{}])".format(
                share('race_bringup', 'config', 'vesc.yaml'))),
    })


@pytest.mark.parametrize('output', ['text', 'markdown', 'json'])
def test_the_summary_counts_findings_as_well_as_checks(tmp_path, capsys, output):
    """One check may hold several findings: the summary says both counts."""
    root = _missing_files(tmp_path)
    main(['lint', str(root), '--format', output])
    text = capsys.readouterr().out
    report = lint(root)
    assert report.summary['WARN'] == 1 and report.finding_summary['WARN'] == 2, \
        [f.message for f in report.findings]  # two files missing, under lint_files
    if output == 'json':
        document = json.loads(text)
        assert document['summary'] == report.summary
        assert document['finding_summary'] == {'OK': 0, 'WARN': 2, 'ERROR': 0, 'STALE': 0}
    else:
        assert '(checks); 2 WARN (findings)' in text
    # twin: a healthy workspace's summary says there are no findings
    main(['lint', str(_racecar(tmp_path, 'team', 'wheel_ekf')), '--format', 'text'])
    assert '(checks); none (findings)' in capsys.readouterr().out
