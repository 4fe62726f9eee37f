# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on twelve more unseen workspaces (issue 20, round 7): false alarms quiet, misses found.

Made-up workspaces, each drawn from a habit met there:
- a GPS rover whose launch renames navsat_transform_node;
- a TurtleBot3-style mapping launch that renames the slam_toolbox node;
- an F1TENTH servo driver renamed in the car's namespace;
- a lane-keeping car whose one parameter file also holds another node's block;
- a fleet whose AMCL file is a Jinja template;
- a drone package whose CMakeLists.txt never builds the executables its launch file starts;
- a mecanum base with ros2_control beside robot_localization;
- a lifting-tray AMR whose castors and drive wheels come from two macros in two files;
- a simulated car whose simulator, outside the workspace, sends odom and base_link for a
  mapless Nav2.

Each has a twin: one that still fires, or a healthy one that stays quiet.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, package, problems, share, write


def lint(root: Path) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


def _of(report: Report, check: str) -> list:
    return [f for f in report.findings if f.check == check and f.level in ('WARN', 'ERROR')]


def _one_package(tmp_path: Path, name: str, folder: str, files: dict) -> Path:
    """Write a workspace of one ament_cmake package that installs launch/ and config/."""
    base = 'src/{}/'.format(name)
    return write(tmp_path / folder, dict({
        base + 'package.xml': package(name),
        base + 'CMakeLists.txt': cmake(name, 'launch', 'config'),
    }, **{base + path: text for path, text in files.items()}))


# a GPS rover: dual EKF with navsat_transform, the launch naming the navsat node `navsat`

ROVER_GPS = """
ekf_filter_node_odom:
  ros__parameters:
    world_frame: odom
    odom_frame: odom
    base_link_frame: base_link
ekf_filter_node_map:
  ros__parameters:
    world_frame: map
    map_frame: map
    odom_frame: odom
    base_link_frame: base_link
{NAVSAT}:
  ros__parameters:
    use_odometry_yaw: true
    broadcast_cartesian_transform: false
"""


def _rover(tmp_path: Path, block: str) -> Path:
    params = share('rover_localization', 'config', 'gps.yaml')
    return _one_package(tmp_path, 'rover_localization', block, {
        'config/gps.yaml': ROVER_GPS.replace('{NAVSAT}', block),
        'launch/gps.launch.py': launch_py(
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node_odom', parameters=[{}])".format(params),
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node_map', parameters=[{}])".format(params),
            "Node(package='robot_localization', executable='navsat_transform_node', "
            "name='navsat', parameters=[{}])".format(params)),
    })


def test_a_block_under_the_executables_name_misses_the_node_the_launch_renamed(tmp_path):
    """ROS 2 gives a node the blocks of its name: `navsat` never gets navsat_transform_node's."""
    root = _rover(tmp_path, 'navsat_transform_node')
    config = 'src/rover_localization/config/gps.yaml'
    assert problems(lint(root)) == {('lint_parameters', 'WARN', config,
                                     line_of(root, config, 'navsat_transform_node:'))}
    (lost,) = _of(lint(root), 'lint_parameters')
    assert "the block 'navsat_transform_node' is the name robot_localization/" \
        'navsat_transform_node gives its node, but the launch names that node navsat' \
        in lost.message and 'Name the block navsat' in lost.message
    # twin: the block under the launch's name reaches the node
    assert not problems(lint(_rover(tmp_path, 'navsat'))), lint(_rover(tmp_path, 'navsat'))


# a TurtleBot3-style mapping launch that names the slam_toolbox node after its executable

MAPPER = """
slam_toolbox:
  ros__parameters:
    odom_frame: odom
    map_frame: map
    base_frame: base_scan
    mode: mapping
"""


def _mapping(tmp_path: Path, name: str) -> Path:
    params = share('tb3_mapping', 'config', 'mapper_params_online_async.yaml')
    return _one_package(tmp_path, 'tb3_mapping', name, {
        'config/mapper_params_online_async.yaml': MAPPER,
        'launch/mapping.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--frame-id', 'odom', '--child-frame-id', 'base_scan'])",
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', name={!r}, "
            'parameters=[{}])'.format(name, params)),
    })


def test_slam_toolboxs_own_block_misses_a_renamed_slam_node(tmp_path):
    """The node is named async_slam_toolbox_node: it maps on its defaults (base_footprint)."""
    root = _mapping(tmp_path, 'async_slam_toolbox_node')
    config = 'src/tb3_mapping/config/mapper_params_online_async.yaml'
    (lost,) = _of(lint(root), 'lint_parameters')
    assert lost.values['line'] == line_of(root, config, 'slam_toolbox:')
    assert 'Name the block async_slam_toolbox_node' in lost.message
    # twin: the slam_toolbox launch files' own name, slam_toolbox, gets the block
    assert not _of(lint(_mapping(tmp_path, 'slam_toolbox')), 'lint_parameters')


# an F1TENTH car whose servo driver (the team's own code) runs renamed in the car's namespace

SERVO_NODE = """
import rclpy
from rclpy.node import Node


class Servo(Node):
    def __init__(self):
        super().__init__('steering_servo')
        self.declare_parameter('odom_frame', 'odom')
"""

SERVO_SETUP = """
from setuptools import setup
setup(name='car_control', packages=['car_control'], data_files=[
    ('share/car_control/launch', ['launch/car.launch.py']),
    ('share/car_control/config', ['config/car.yaml'])],
    entry_points={'console_scripts': ['steering_servo = car_control.servo:main']})
"""


def _car(tmp_path: Path, block: str) -> Path:
    return write(tmp_path / block, {
        'src/car_control/package.xml': package('car_control'),
        'src/car_control/setup.py': SERVO_SETUP,
        'src/car_control/car_control/servo.py': SERVO_NODE,
        'src/car_control/config/car.yaml': '/car/{}:\n  ros__parameters:\n'
                                           '    odom_frame: odom\n'.format(block),
        'src/car_control/launch/car.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--x', '0.27', '--frame-id', 'base_link', '--child-frame-id', 'laser'])",
            "Node(package='vesc_ackermann', executable='vesc_to_odom_node', "
            "name='vesc_to_odom_node', parameters=[{'odom_frame': 'odom', "
            "'base_frame': 'base_link', 'publish_tf': False}])",
            "Node(package='car_control', executable='steering_servo', name='servo', "
            "namespace='car', parameters=[{}])".format(
                share('car_control', 'config', 'car.yaml'))),
    })


def _unsent(report: Report) -> str:
    """Return what connectivity says of the odom nothing sends (one finding, every user)."""
    (odom,) = [f for f in _of(report, 'connectivity') if f.frames == ['odom']]
    return odom.message


def test_a_renamed_node_reads_no_frame_from_a_block_it_never_gets(tmp_path):
    """The block of the code's name does not reach `servo`: its odom_frame is not the node's."""
    report = lint(_car(tmp_path, 'steering_servo'))
    assert "vesc_to_odom_node's odom_frame" in _unsent(report)
    assert "servo's odom_frame" not in _unsent(report)
    (lost,) = _of(report, 'lint_parameters')
    assert 'car/servo' in lost.message and 'Name the block servo' in lost.message
    # twin: named for the node, the block reaches it, and its odom is sent by nothing too
    report = lint(_car(tmp_path, 'servo'))
    assert not _of(report, 'lint_parameters'), report.findings
    assert "servo's odom_frame" in _unsent(report)


# a lane-keeping car: one parameter file for all its nodes, some started by hand

LANE_PARAMS = """
camera_lane_follower:
  ros__parameters:
    output_frame: base_link
speed_planner:
  ros__parameters:
    max_speed: 2.0
{OTHER}:
  ros__parameters:
    roi_top: 240
"""


def _lane(tmp_path: Path, other: str) -> Path:
    params = share('lane_car', 'config', 'params.yaml')
    return _one_package(tmp_path, 'lane_car', other, {
        'config/params.yaml': LANE_PARAMS.replace('{OTHER}', other),
        'launch/drive.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--frame-id', 'odom', '--child-frame-id', 'base_link'])",
            "Node(package='lane_car', executable='camera_lane_follower', "
            "name='camera_lane_follower', parameters=[{}])".format(params),
            "Node(package='lane_car', executable='speed_planner', name='speed_planner', "
            'parameters=[{}])'.format(params)),
    })


def test_another_nodes_block_in_a_shared_file_is_no_typo(tmp_path):
    """camera_lane_detector is a node of its own (run by hand), not a slip of the follower."""
    report = lint(_lane(tmp_path, 'camera_lane_detector'))
    assert not _of(report, 'lint_parameters'), report.findings
    # twin: a typo of the follower's name is still one
    root = _lane(tmp_path, 'camera_lane_folower')
    (slip,) = _of(lint(root), 'lint_parameters')
    assert "did you mean 'camera_lane_follower'?" in slip.message
    assert slip.values['line'] == line_of(root, 'src/lane_car/config/params.yaml',
                                          'camera_lane_folower:')


# a fleet of TurtleBot3s whose AMCL file is a Jinja template the launch renders per robot

AMCL_TEMPLATE = """
{{ namespace }}/amcl:
  ros__parameters:
    base_frame_id: "{{ namespace }}/base_footprint"
    odom_frame_id: "{{ namespace }}/odom"
    global_frame_id: map
"""

FLEET_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from jinja2 import Template
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    config = os.path.join(get_package_share_directory('fleet_nav'), 'config')
    template = open(os.path.join(config, 'amcl_template.yaml')).read()
    actions = []
    for i in range(2):
        name = 'robot_{}'.format(i)
        path = os.path.join('/tmp', 'amcl_{}.yaml'.format(name))
        with open(path, 'w') as rendered:
            rendered.write(Template(template).render(namespace=name))
        actions.append(Node(package='nav2_amcl', executable='amcl', name='amcl',
                            namespace=name, parameters=[path]))
    {RAW}
    return LaunchDescription(actions)
"""


def _fleet(tmp_path: Path, raw: str) -> Path:
    return _one_package(tmp_path, 'fleet_nav', str(len(raw)), {
        'config/amcl_template.yaml': AMCL_TEMPLATE,
        'launch/fleet.launch.py': FLEET_LAUNCH.replace('{RAW}', raw),
    })


def test_a_jinja_template_is_no_unreadable_parameter_file(tmp_path):
    """The launch renders the template before any node reads it: nothing to warn of."""
    report = lint(_fleet(tmp_path, 'pass'))
    assert not [f for f in _of(report, 'lint_files') if 'amcl_template' in f.message], \
        report.findings
    # twin: passed to a node as it lies, unrendered, the template is a file ROS 2 cannot parse
    raw = ("actions.append(Node(package='nav2_amcl', executable='amcl', name='amcl', "
           "parameters=[os.path.join(config, 'amcl_template.yaml')]))")
    root = _fleet(tmp_path, raw)
    (unparsed,) = [f for f in _of(lint(root), 'lint_files') if 'amcl_template' in f.message]
    assert 'is a Jinja template' in unparsed.message and 'cannot parse it' in unparsed.message
    assert unparsed.values['line'] == line_of(root, 'src/fleet_nav/launch/fleet.launch.py',
                                              "'amcl_template.yaml')]))")


# a drone package whose launch file starts executables its CMakeLists.txt never builds

DRONE_CMAKE = """
cmake_minimum_required(VERSION 3.8)
project(drone_missions)
find_package(ament_cmake REQUIRED)
set(node_name offboard_control)
add_executable(${node_name} src/offboard_control.cpp)
{MORE}
install(TARGETS ${node_name} {TARGETS} DESTINATION lib/${PROJECT_NAME})
install(PROGRAMS scripts/telemetry_logger.py DESTINATION lib/${PROJECT_NAME})
install(DIRECTORY launch DESTINATION share/${PROJECT_NAME})
ament_package()
"""

DRONE_LAUNCH = launch_py(*[
    "Node(package='drone_missions', executable={!r}, name='{}_{}', namespace='uav{}')".format(
        executable, executable, n, n)
    for n in (1, 2) for executable in ('offboard_control', 'mission_runner')] + [
    "Node(package='drone_missions', executable='telemetry_logger.py', name='logger')"])


def _drone(tmp_path: Path, more: str, targets: str) -> Path:
    return write(tmp_path / str(len(more)), {
        'src/drone_missions/package.xml': package('drone_missions'),
        'src/drone_missions/CMakeLists.txt':
            DRONE_CMAKE.replace('{MORE}', more).replace('{TARGETS}', targets),
        'src/drone_missions/launch/swarm.launch.py': DRONE_LAUNCH,
    })


def test_an_executable_cmake_never_builds_is_said_once(tmp_path):
    """mission_runner is in no add_executable: `ros2 launch` stops at it, for both drones."""
    root = _drone(tmp_path, '', '')
    launch = 'src/drone_missions/launch/swarm.launch.py'
    (unbuilt,) = _of(lint(root), 'lint_nodes')
    assert "no executable 'mission_runner' (it installs offboard_control, telemetry_logger.py)" \
        in unbuilt.message
    assert unbuilt.values['line'] == line_of(root, launch, "name='mission_runner_1'")
    assert '{}:{}'.format(launch, line_of(root, launch, "name='mission_runner_2'")) \
        in unbuilt.message
    # twin: built and installed, it is there
    built = _drone(tmp_path, 'add_executable(mission_runner src/mission_runner.cpp)',
                   'mission_runner')
    assert not _of(lint(built), 'lint_nodes'), lint(built).findings
    # twin: a build the lint cannot read through (ament_cmake_auto) is never judged
    auto = _drone(tmp_path, 'find_package(ament_cmake_auto REQUIRED)\nament_auto_package()', '')
    assert not _of(lint(auto), 'lint_nodes'), lint(auto).findings


# a mecanum base: ros2_control's mecanum_drive_controller beside robot_localization's EKF

MECANUM_CONTROLLERS = """
controller_manager:
  ros__parameters:
    update_rate: 50
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
    mecanum_drive_controller:
      type: mecanum_drive_controller/MecanumDriveController
mecanum_drive_controller:
  ros__parameters:
    base_frame_id: base_link
    odom_frame_id: odom
    enable_odom_tf: {TF}
"""

MECANUM_EKF = """
ekf_filter_node:
  ros__parameters:
    two_d_mode: true
    publish_tf: true
    odom_frame: odom
    base_link_frame: base_link
    world_frame: odom
"""


def _mecanum(tmp_path: Path, tf: str) -> Path:
    return _one_package(tmp_path, 'mecanum_bringup', tf, {
        'config/controllers.yaml': MECANUM_CONTROLLERS.replace('{TF}', tf),
        'config/ekf.yaml': MECANUM_EKF,
        'launch/bringup.launch.py': launch_py(
            "Node(package='controller_manager', executable='ros2_control_node', "
            'parameters=[{}])'.format(share('mecanum_bringup', 'config', 'controllers.yaml')),
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['joint_state_broadcaster', 'mecanum_drive_controller'])",
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('mecanum_bringup', 'config', 'ekf.yaml'))),
    })


def test_a_mecanum_controller_sends_odometry_beside_the_ekf(tmp_path):
    """Its odometry (enable_odom_tf, on by default) and the EKF both send odom → base_link."""
    root = _mecanum(tmp_path, 'true')
    (twice,) = _of(lint(root), 'parent_uniqueness')
    assert twice.level == 'ERROR' and 'odom → base_link is declared by 2 sources' \
        in twice.message and 'mecanum_drive_controller (' in twice.message
    # twin: the controller's transform off, the EKF alone sends it
    assert not _of(lint(_mecanum(tmp_path, 'false')), 'parent_uniqueness')


# a lifting-tray AMR: castors from a macro in its base file, drive wheels from one in another

AMR_BASE = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_footprint"/>
  <link name="base_link"/>
  <joint name="base_footprint_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.185"/>
  </joint>
  <xacro:macro name="castor_wheel" params="name x y">
    <link name="${name}_link"/>
    <joint name="${name}_joint" type="fixed">
      <parent link="base_link"/><child link="${name}_link"/><origin xyz="${x} ${y} -0.14"/>
    </joint>
  </xacro:macro>
  <xacro:castor_wheel name="front_left_castor" x="0.25" y="0.18"/>
  <xacro:castor_wheel name="rear_left_castor" x="-0.25" y="0.18"/>
</robot>
"""

AMR_WHEELS = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="drive_wheel" params="name y_reflect">
    <link name="${name}_link"/>
    <joint name="${name}_joint" type="continuous">
      <parent link="base_link"/><child link="${name}_link"/>
      <origin xyz="0 ${y_reflect * 0.18} -0.085"/><axis xyz="0 1 0"/>
    </joint>
  </xacro:macro>
  <xacro:drive_wheel name="left_wheel" y_reflect="1"/>
  <xacro:drive_wheel name="right_wheel" y_reflect="-1"/>
</robot>
"""

AMR_ROBOT = """<?xml version="1.0"?>
<robot name="tray_amr" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find tray_amr)/urdf/base.xacro"/>
  <xacro:include filename="$(find tray_amr)/urdf/wheels.xacro"/>
</robot>
"""


def test_a_macro_joint_is_placed_at_its_own_macros_call(tmp_path):
    """left_wheel_joint comes from drive_wheel's call, not from a castor call of another file."""
    root = write(tmp_path / 'amr', {
        'src/tray_amr/package.xml': package('tray_amr'),
        'src/tray_amr/CMakeLists.txt': cmake('tray_amr', 'launch', 'urdf'),
        'src/tray_amr/urdf/base.xacro': AMR_BASE,
        'src/tray_amr/urdf/wheels.xacro': AMR_WHEELS,
        'src/tray_amr/urdf/robot.urdf.xacro': AMR_ROBOT,
        'src/tray_amr/launch/display.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{'robot_description': Command(['xacro ', " +
            share('tray_amr', 'urdf', 'robot.urdf.xacro') + '])}])',
            "Node(package='joint_state_publisher', executable='joint_state_publisher')",
            imports='from launch.substitutions import Command\n'),
    })
    rows = {row.frame: ' '.join(row.publishers) for row in lint(root).frames}
    wheels, base = 'src/tray_amr/urdf/wheels.xacro', 'src/tray_amr/urdf/base.xacro'
    for wheel in ('left_wheel', 'right_wheel'):
        assert '{}:{}'.format(wheels, line_of(root, wheels, 'name="{}"'.format(wheel))) \
            in rows[wheel + '_link'], rows
    # twin: a castor is still placed at its own call
    assert '{}:{}'.format(base, line_of(root, base, 'name="rear_left_castor"')) \
        in rows['rear_left_castor_link'], rows


# a simulated car: its simulator's bridge (another workspace) sends odom and base_link

MAPLESS_NAV2 = """
bt_navigator:
  ros__parameters:
    global_frame: odom
    robot_base_frame: base_link
behavior_server:
  ros__parameters:
    global_frame: {BEHAVIOR}
    robot_base_frame: base_link
goal_bridge:
  ros__parameters:
    odom_frame: odom
"""


def _mapless(tmp_path: Path, behavior: str) -> Path:
    params = share('sim_car_nav', 'config', 'nav2.yaml')
    return _one_package(tmp_path, 'sim_car_nav', behavior, {
        'config/nav2.yaml': MAPLESS_NAV2.replace('{BEHAVIOR}', behavior),
        'launch/nav.launch.py': launch_py(*[
            "Node(package='nav2_bt_navigator', executable='bt_navigator', name='bt_navigator', "
            'parameters=[{}])'.format(params),
            "Node(package='nav2_behaviors', executable='behavior_server', "
            "name='behavior_server', parameters=[{}])".format(params),
            "Node(package='sim_bridge', executable='goal_bridge', name='goal_bridge', "
            'parameters=[{}])'.format(params)]),
    })


def test_a_frame_nothing_sends_is_said_once_for_all_that_name_it(tmp_path):
    """Three nodes name odom, two base_link: one cause each, so one finding each."""
    report = lint(_mapless(tmp_path, 'odom'))
    unsent = _of(report, 'connectivity')
    assert sorted(f.frames for f in unsent) == [['base_link'], ['odom']], report.findings
    (odom,) = [f for f in unsent if f.frames == ['odom']]
    assert "behavior_server's global_frame" in odom.message \
        and "goal_bridge's odom_frame" in odom.message
    # twin: the behavior server plans in map, sent by nothing too: a finding of its own
    unsent = _of(lint(_mapless(tmp_path, 'map')), 'connectivity')
    assert sorted(f.frames for f in unsent) == [['base_link'], ['map'], ['odom']]
