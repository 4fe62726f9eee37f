# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Parameter files and their blocks: which block reaches which node, and what a slip of it costs.

Renamed nodes, one file for several nodes or robots, misspelled blocks, and parameters given as
a set, a template, a ReplaceString or built inline; each made-up workspace has its twin.
"""
from pathlib import Path

from frame_audit.reports.report import Report
from lint_helpers import cmake, EKF_PARAMS, flagged, launch_py, line_of, lint, \
    one_launch_package, one_package, package, parents, problems, share, vesc_racecar, write

GAINS = """
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

ROWS = [('stanley_gain', '1.5', float), ('maximum_speed_mps', '0.9', float)]


def generate_launch_description():
    gains = {GAINS}
    return LaunchDescription([
        *[DeclareLaunchArgument(name, default_value=value) for name, value, _ in ROWS],
        Node(package='lane_control', executable='lane_control_node', name='lane_control',
             parameters=[gains]),
    ])
"""


def _lane_car(tmp_path: Path, gains: str) -> Path:
    return one_launch_package(tmp_path / str(len(gains)), 'lane_bringup', 'drive.launch.py',
                              GAINS.replace('{GAINS}', gains))


def test_a_dict_comprehension_is_inline_parameters_not_a_file(tmp_path):
    """Gains built over launch arguments: unknown until the launch runs, and no file at all."""
    root = _lane_car(tmp_path, '{name: ParameterValue(LaunchConfiguration(name), value_type=kind)'
                               ' for name, _, kind in ROWS}')
    (said,) = [f for f in lint(root).findings if f.level == 'WARN']
    assert 'parameter file' not in said.message, said.message
    assert 'inline parameters built over ROWS' in said.message, said.message
    assert said.values.get('line') == line_of(root, 'src/lane_bringup/launch/drive.launch.py',
                                              'parameters=[gains]')


def test_a_literal_dict_of_gains_is_read(tmp_path):
    """The twin: the same gains written out are inline parameters the lint reads: no word."""
    report = lint(_lane_car(tmp_path, "{'stanley_gain': 1.5, 'maximum_speed_mps': 0.9}"))
    assert [f.message for f in report.findings if f.level in ('WARN', 'ERROR')] == []


# warehouse AMRs: one AMCL block per robot in one file, one launch file per robot

def _warehouse(tmp_path: Path, blocks: str, robots: int = 2) -> Path:
    files = {
        'src/amr_fleet/package.xml': package('amr_fleet'),
        'src/amr_fleet/CMakeLists.txt': cmake('amr_fleet', 'launch', 'config'),
        'src/amr_fleet/config/amcl.yaml': ''.join("""
            {0}:
              ros__parameters:
                global_frame_id: map
                odom_frame_id: {1}/odom
                base_frame_id: {1}/base_footprint
            """.format(block, 'amr' + block[-1]) for block in blocks.split()),
    }
    for n in range(1, robots + 1):
        files['src/amr_fleet/launch/amr{}.launch.py'.format(n)] = launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--frame-id', 'amr{0}/odom', '--child-frame-id', 'amr{0}/base_footprint'])".format(n),
            "Node(package='nav2_amcl', executable='amcl', name='amcl_amr{}', parameters=[{}])"
            .format(n, share('amr_fleet', 'config', 'amcl.yaml')))
    return write(tmp_path / (blocks.replace(' ', '_') + str(robots)), files)


def test_one_block_per_robot_in_one_file_is_no_lost_block(tmp_path):
    """amcl_amr2's block beside amcl_amr1's own: the other robot's, not a typo of amr1's."""
    report = lint(_warehouse(tmp_path, 'amcl_amr1 amcl_amr2'))
    assert not [f for f in report.findings if f.check == 'lint_parameters'], report.findings
    # even with robot 2's launch file not in the workspace
    report = lint(_warehouse(tmp_path, 'amcl_amr1 amcl_amr2', robots=1))
    assert not [f for f in report.findings if f.check == 'lint_parameters'], report.findings
    # twin: robot 1's block misspelled, its node has no block of its own: on its defaults
    root = _warehouse(tmp_path, 'acml_amr1 amcl_amr2')
    (slip,) = [f for f in lint(root).findings if f.check == 'lint_parameters']
    assert "did you mean 'amcl_amr1'" in slip.message and 'on its defaults' in slip.message
    assert slip.values['line'] == line_of(root, 'src/amr_fleet/config/amcl.yaml', 'acml_amr1')


# an orchard rover whose GPS localization renames its frames per robot only when namespaced

ROVER_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from nav2_common.launch import ReplaceString


def generate_launch_description():
    params = ReplaceString(
        condition=IfCondition(LaunchConfiguration('use_namespace')),
        source_file=os.path.join(get_package_share_directory('rover_localization'), 'config',
                                 'gps.yaml'),
        replacements={'odom_frame: odom': ['odom_frame: ', LaunchConfiguration('robot'), '/odom']})
    return LaunchDescription([
        DeclareLaunchArgument('use_namespace', default_value='{NAMESPACED}'),
        DeclareLaunchArgument('robot', default_value='rover_1'),
        Node(package='robot_localization', executable='ekf_node', name='ekf_global',
             parameters=[params]),
    ])
"""


def _orchard_rover(tmp_path: Path, namespaced: str) -> Path:
    return write(tmp_path / namespaced, {
        'src/rover_localization/package.xml': package('rover_localization'),
        'src/rover_localization/CMakeLists.txt': cmake('rover_localization', 'launch',
                                                       'config'),
        'src/rover_localization/config/gps.yaml': """
            /**/ekf_global:
              ros__parameters:
                map_frame: map
                odom_frame: odom
                base_link_frame: base_link
                world_frame: map
            """,
        'src/rover_localization/launch/gps.launch.py': ROVER_LAUNCH.replace(
            '{NAMESPACED}', namespaced),
    })


def test_a_replace_string_whose_condition_is_false_hands_its_file_on(tmp_path):
    """ReplaceString(condition=false) passes the source file: the EKF's map → odom is read."""
    report = lint(_orchard_rover(tmp_path, 'false'))
    assert parents(report)['odom'] == ('map',)
    assert not [f for f in report.findings if f.check == 'lint_files'], report.findings
    # twin: namespaced, the file the EKF reads is written by the launch: said, not guessed
    root = _orchard_rover(tmp_path, 'true')
    report = lint(root)
    launch = 'src/rover_localization/launch/gps.launch.py'
    (said,) = [f for f in report.findings if f.check == 'lint_files']
    assert said.values['file'] == launch and 'known only when the launch runs' in said.message
    assert 'odom' not in parents(report)


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
    return one_package(tmp_path / block, 'rover_localization', {
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
    (lost,) = flagged(lint(root), 'lint_parameters')
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
    return one_package(tmp_path / name, 'tb3_mapping', {
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
    (lost,) = flagged(lint(root), 'lint_parameters')
    assert lost.values['line'] == line_of(root, config, 'slam_toolbox:')
    assert 'Name the block async_slam_toolbox_node' in lost.message
    # twin: the slam_toolbox launch files' own name, slam_toolbox, gets the block
    assert not flagged(lint(_mapping(tmp_path, 'slam_toolbox')), 'lint_parameters')


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
    (odom,) = [f for f in flagged(report, 'connectivity') if f.frames == ['odom']]
    return odom.message


def test_a_renamed_node_reads_no_frame_from_a_block_it_never_gets(tmp_path):
    """The block of the code's name does not reach `servo`: its odom_frame is not the node's."""
    report = lint(_car(tmp_path, 'steering_servo'))
    assert "vesc_to_odom_node's odom_frame" in _unsent(report)
    assert "servo's odom_frame" not in _unsent(report)
    (lost,) = flagged(report, 'lint_parameters')
    assert 'car/servo' in lost.message and 'Name the block servo' in lost.message
    # twin: named for the node, the block reaches it, and its odom is sent by nothing too
    report = lint(_car(tmp_path, 'servo'))
    assert not flagged(report, 'lint_parameters'), report.findings
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
    return one_package(tmp_path / other, 'lane_car', {
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
    assert not flagged(report, 'lint_parameters'), report.findings
    # twin: a typo of the follower's name is still one
    root = _lane(tmp_path, 'camera_lane_folower')
    (slip,) = flagged(lint(root), 'lint_parameters')
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
    return one_package(tmp_path / str(len(raw)), 'fleet_nav', {
        'config/amcl_template.yaml': AMCL_TEMPLATE,
        'launch/fleet.launch.py': FLEET_LAUNCH.replace('{RAW}', raw),
    })


def test_a_jinja_template_is_no_unreadable_parameter_file(tmp_path):
    """The launch renders the template before any node reads it: nothing to warn of."""
    report = lint(_fleet(tmp_path, 'pass'))
    assert not [f for f in flagged(report, 'lint_files') if 'amcl_template' in f.message], \
        report.findings
    # twin: passed to a node as it lies, unrendered, the template is a file ROS 2 cannot parse
    raw = ("actions.append(Node(package='nav2_amcl', executable='amcl', name='amcl', "
           "parameters=[os.path.join(config, 'amcl_template.yaml')]))")
    root = _fleet(tmp_path, raw)
    (unparsed,) = [f for f in flagged(lint(root), 'lint_files') if 'amcl_template' in f.message]
    assert 'is a Jinja template' in unparsed.message and 'cannot parse it' in unparsed.message
    assert unparsed.values['line'] == line_of(root, 'src/fleet_nav/launch/fleet.launch.py',
                                              "'amcl_template.yaml')]))")


# the F1TENTH stack's vesc.yaml, passed to its VESC drivers (lint_helpers.vesc_racecar)

def test_a_vesc_file_shared_by_the_drivers_is_not_one_nodes(tmp_path):
    """The F1TENTH stack passes vesc.yaml to three nodes; an unstarted node's block is moot."""
    report = lint(vesc_racecar(tmp_path, 'shared', 'wheel_ekf'))
    assert problems(report) == set(), [f.message for f in report.findings]
    # the file reaches vesc_to_odom_node alone, which has its own block: the block of a
    # throttle_interpolator left out of the launch is moot, not a node on its defaults (a node
    # with no block of its own: test_one_block_per_robot_in_one_file_is_no_lost_block)
    root = vesc_racecar(tmp_path, 'alone', 'wheel_ekf', drivers_share=False)
    assert problems(lint(root)) == set()


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
    return write(tmp_path / block, {
        'src/nav/package.xml': package('nav'),
        'src/nav/params/nav2.yaml': NAV2_PARAMS.format(block),
        'src/nav/launch/map.launch.py': launch_py(
            "Node(package='nav2_map_server', executable='map_server', name='map_server', "
            "parameters=[os.path.join(get_package_share_directory('nav'), 'params', "
            "'nav2.yaml')])"),
    })


def test_nav2_standard_blocks_are_not_typos(tmp_path):
    """map_saver beside map_server, in a file passed to map_server alone: Nav2's own block."""
    report = lint(_nav2_maps(tmp_path, 'costmap_filter_info_server'), measured=False)
    assert not [f for f in report.findings if f.check == 'lint_parameters'], report.findings
    # twin: a slip of map_server's name is still one
    root = _nav2_maps(tmp_path, 'map_sever')
    (slip,) = [f for f in lint(root, measured=False).findings if f.check == 'lint_parameters']
    assert "did you mean 'map_server'" in slip.message
    assert slip.values['line'] == line_of(root, 'src/nav/params/nav2.yaml', 'map_sever:')


def _ekf_with_set(tmp_path: Path, publish: str, parameters: str) -> Path:
    return write(tmp_path / (publish + str(len(parameters))), {
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
    })


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


def _lidar_driver(tmp_path: Path, block: str, loaders: int) -> Path:
    nodes = ["Node(package='sick_scan_xd', executable='sick_generic_caller', name='lidar_{}', "
             "parameters=[os.path.join(get_package_share_directory('bot'), 'config', "
             "'lidar.yaml')])".format(i) for i in range(loaders)]
    return write(tmp_path / '{}{}'.format(block, loaders), {
        'src/bot/package.xml': package('bot'),
        'src/bot/config/lidar.yaml': """
            {}:
              ros__parameters:
                frame_id: laser
                min_ang: -2.35
            """.format(block),
        'src/bot/launch/lidar.launch.py': launch_py(*nodes),
    })


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
    # twin: the file also handed to Nav2's bringup, which the lint does not read, as a PX4
    # drone's nav.launch.py does with its container (round L10): that bringup may start it
    root = _lidar_driver(tmp_path / 'handed', 'sick_tim_5xx', 1)
    launch = root / 'src/bot/launch/lidar.launch.py'
    include = ('IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join('
               "get_package_share_directory('nav2_bringup'), 'launch', 'navigation_launch.py')), "
               "launch_arguments={'params_file': os.path.join(get_package_share_directory("
               "'bot'), 'config', 'lidar.yaml')}.items()), ")
    launch.write_text(launch.read_text().replace('LaunchDescription([',
                                                 'LaunchDescription([' + include))
    report = lint(root, measured=False)
    assert not [f for f in report.findings if f.check == 'lint_parameters'], report.findings


# CHAMP's ROS 2 bringup: two EKFs, an inline default before the file that overrides it

CHAMP_EKFS = """
base_to_footprint_ekf:
  ros__parameters:
    odom_frame: base_footprint
    world_frame: base_footprint
footprint_to_odom_ekf:
  ros__parameters:
    odom_frame: odom
    base_link_frame: base_footprint
    world_frame: odom
"""


def _champ(tmp_path: Path, inline_first: bool) -> Path:
    """Write two ekf_nodes, each given base_link_frame inline and the file, in this order."""
    ekfs = share('quad', 'config', 'ekfs.yaml')
    given = "{{'base_link_frame': 'base_link'}}, {}".format(ekfs) if inline_first else \
        "{}, {{'base_link_frame': 'base_link'}}".format(ekfs)
    return one_package(tmp_path / str(inline_first), 'quad', {
        'config/ekfs.yaml': CHAMP_EKFS,
        'launch/bringup.launch.py': launch_py(*(
            "Node(package='robot_localization', executable='ekf_node', name={!r}, "
            'parameters=[{}])'.format(name, given)
            for name in ('base_to_footprint_ekf', 'footprint_to_odom_ekf')))})


def test_a_parameter_file_after_an_inline_default_overrides_it(tmp_path):
    """
    ROS 2 applies a node's parameters in list order: the file given second wins.

    CHAMP's footprint_to_odom_ekf gets base_link_frame: base_link inline, then its file's
    base_footprint: odom → base_footprint → base_link, no second parent (it was a false
    ERROR). The twin: the inline dict last wins, and base_link has two parents.
    """
    report = lint(_champ(tmp_path, True))
    assert problems(report) == set(), report.findings
    assert parents(report)['base_footprint'] == ('odom',)
    report = lint(_champ(tmp_path, False))
    assert [f.level for f in report.findings if f.check == 'parent_uniqueness'] == ['ERROR']


# two LiDAR drivers of one name, each in its own namespace, their blocks in one file

TWIN_LIDARS = """
/**:
  lidar_front:
    sllidar_node:
      ros__parameters:
        frame_id: lidar_front
  lidar_rear:
    sllidar_node:
      ros__parameters:
        frame_id: lidar_rear
"""


def _twin_lidars(tmp_path: Path, name: str, mounts: list) -> Path:
    """Write two sllidar_nodes in namespaces lidar_front and lidar_rear, mounts as given."""
    lidar = ("Node(package='sllidar_ros2', executable='sllidar_node', name='sllidar_node', "
             'namespace={!r}, parameters=[' + share('lidars', 'config', 'lidars.yaml') + '])')
    return one_package(tmp_path / name, 'lidars', {
        'config/lidars.yaml': TWIN_LIDARS,
        'launch/lidars.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_link'])",
            *["Node(package='tf2_ros', executable='static_transform_publisher', "
              "arguments=['--x', '0.2', '--frame-id', 'base_link', '--child-frame-id', "
              '{!r}])'.format(mount) for mount in mounts],
            lidar.format('lidar_front'), lidar.format('lidar_rear')),
    })


def test_a_namespaced_block_reaches_only_the_node_in_its_namespace(tmp_path):
    """/**/lidar_front/sllidar_node is the front driver's: its frame, unpublished, is said."""
    root = _twin_lidars(tmp_path, 'front_unmounted', ['lidar_rear'])
    report = lint(root)
    config = 'src/lidars/config/lidars.yaml'
    assert problems(report) == {('connectivity', 'ERROR', config,
                                 line_of(root, config, 'frame_id: lidar_front'))}, \
        [f.message for f in report.findings]  # every sender read: nothing sends it
    # twin: both mounts published: each driver's frame is in the tree
    report = lint(_twin_lidars(tmp_path, 'both_mounted', ['lidar_front', 'lidar_rear']))
    assert problems(report) == set(), [f.message for f in report.findings]
