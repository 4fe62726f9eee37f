# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Nodes the lint knows, and the transforms their parameters make them send.

Odometry from ros2_control's controllers (spawned, or loaded by Gazebo's plugin) beside
robot_localization's EKF, the particle filter, the F1TENTH gym bridge; and a team's package,
vendored driver or tool that bears a known name. Made-up workspaces, each with its twin.
"""
from pathlib import Path

from lint_helpers import CAR, cmake, flagged, launch_py, line_of, lint, one_launch_package, \
    one_package, only_problem, package, parents, problems, rsp, share, summary, urdf, \
    vesc_racecar, write

SIM_BOT = """<?xml version="1.0"?>
<robot name="skid" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_link"/>
  <link name="chassis"/>
  <joint name="chassis_joint" type="fixed">
    <parent link="base_link"/><child link="chassis"/><origin xyz="0 0 0.15"/>
  </joint>
  <gazebo>
    <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin">
      <parameters>$(find skid_sim)/config/controllers.yaml</parameters>
    </plugin>
  </gazebo>
</robot>
"""

SKID_CONTROLLERS = """controller_manager:
  ros__parameters:
    update_rate: 50
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
    skid_controller:
      type: diff_drive_controller/DiffDriveController

skid_controller:
  ros__parameters:
    left_wheel_names: ['front_left_wheel_joint', 'rear_left_wheel_joint']
    right_wheel_names: ['front_right_wheel_joint', 'rear_right_wheel_joint']
    wheels_per_side: 2
{}"""

SKID_EKF = """ekf_filter_node:
  ros__parameters:
    publish_tf: {}
    world_frame: odom
    odom_frame: odom
    base_link_frame: base_link
    odom0: skid_controller/odom
"""


def _skid_sim(tmp_path: Path, name: str, controller: str, ekf_tf: str) -> Path:
    """Write an Ignition sim whose controller manager is the description's Gazebo plugin."""
    return write(tmp_path / name, {
        'src/skid_sim/package.xml': package('skid_sim'),
        'src/skid_sim/CMakeLists.txt': cmake('skid_sim', 'config', 'launch', 'urdf'),
        'src/skid_sim/urdf/skid.urdf.xacro': SIM_BOT,
        'src/skid_sim/config/controllers.yaml': SKID_CONTROLLERS.format(controller),
        'src/skid_sim/config/ekf.yaml': SKID_EKF.format(ekf_tf),
        'src/skid_sim/launch/sim.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': Command(['xacro ', {}])}}])".format(
                share('skid_sim', 'urdf', 'skid.urdf.xacro')),
            "Node(package='ros_gz_sim', executable='create', "
            "arguments=['-topic', 'robot_description'])",
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['joint_state_broadcaster'])",
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['skid_controller'])",
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('skid_sim', 'config', 'ekf.yaml')),
            imports='from launch.substitutions import Command\n'),
    })


def test_a_controller_gazebo_loads_from_the_description_sends_odometry(tmp_path):
    """The plugin's controllers.yaml makes skid_controller a diff_drive_controller: 2 senders."""
    root = _skid_sim(tmp_path, 'both', '', 'true')
    two = only_problem(lint(root), root, 'parent_uniqueness', 'ERROR',
                       'src/skid_sim/config/controllers.yaml', 'diff_drive_controller/')
    assert 'odom → base_link is declared by 2 sources' in two.message, two.message
    assert 'diff_drive_controller skid_controller' in two.message, two.message


def test_a_gazebo_controller_that_leaves_odometry_to_the_ekf_is_quiet(tmp_path):
    """The twin: enable_odom_tf false, the EKF alone sends odom → base_link."""
    report = lint(_skid_sim(tmp_path, 'ekf_only', '    enable_odom_tf: false\n', 'true'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'ekf_filter_node' in str(row.publishers), row


def test_the_gazebo_controller_alone_is_the_odometry(tmp_path):
    """The other twin: the EKF only filters; the controller the plugin loads sends odometry."""
    report = lint(_skid_sim(tmp_path, 'controller_only', '', 'false'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'skid_controller' in str(row.publishers), row


# a gz sim robot whose DiffDrive system publishes odometry's transform on a Gazebo topic

GZ_BOT = """<?xml version="1.0"?>
<robot name="gz_bot">
  <link name="base_link"/><link name="lidar"/>
  <joint name="lidar_joint" type="fixed">
    <parent link="base_link"/><child link="lidar"/><origin xyz="0.1 0 0.2"/>
  </joint>
  <gazebo>
    <plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">
      <left_joint>left_wheel_joint</left_joint><right_joint>right_wheel_joint</right_joint>
      <frame_id>odom</frame_id><child_frame_id>base_link</child_frame_id>{}
    </plugin>
    <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin">
      <parameters>$(find gz_bot)/config/controllers.yaml</parameters>
    </plugin>
  </gazebo>
</robot>
"""

GZ_BRIDGE = """- ros_topic_name: "odom"
  gz_topic_name: "odom"
  ros_type_name: "nav_msgs/msg/Odometry"
  gz_type_name: "gz.msgs.Odometry"
  direction: GZ_TO_ROS
- ros_topic_name: "tf"
  gz_topic_name: "tf"
  ros_type_name: "tf2_msgs/msg/TFMessage"
  gz_type_name: "gz.msgs.Pose_V"
  direction: {}
"""


def _gz_bot(tmp_path: Path, name: str, tf_topic: str, bridge: str, controller: str) -> Path:
    """Write a gz sim robot: a DiffDrive system, a bridge, and a ros2_control diff drive."""
    return write(tmp_path / name, {
        'src/gz_bot/package.xml': package('gz_bot'),
        'src/gz_bot/CMakeLists.txt': cmake('gz_bot', 'config', 'launch', 'urdf'),
        'src/gz_bot/urdf/gz_bot.urdf.xacro': GZ_BOT.format(tf_topic),
        'src/gz_bot/config/controllers.yaml': SKID_CONTROLLERS.format(controller),
        'src/gz_bot/config/gz_bridge.yaml': GZ_BRIDGE.format('GZ_TO_ROS'),
        'src/gz_bot/config/gz_bridge_odom.yaml': GZ_BRIDGE.format('ROS_TO_GZ'),
        'src/gz_bot/launch/sim.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': Command(['xacro ', {}])}}])".format(
                share('gz_bot', 'urdf', 'gz_bot.urdf.xacro')),
            "Node(package='ros_gz_sim', executable='create', "
            "arguments=['-topic', 'robot_description'])",
            "Node(package='controller_manager', executable='spawner', "
            "arguments=['skid_controller'])", bridge,
            imports='from launch.substitutions import Command\n'),
    })


def _config_bridge(file: str) -> str:
    """Return a parameter_bridge started with a config file, as Sigyn-like bringups do."""
    return ("Node(package='ros_gz_bridge', executable='parameter_bridge', arguments=["
            "'--ros-args', '-p', 'config_file:=' + {}])".format(share('gz_bot', 'config', file)))


def test_a_gazebo_drive_system_bridged_onto_tf_beside_the_controller_is_two_senders(tmp_path):
    """The DiffDrive system's odom → base_link reaches /tf through the bridge's config file."""
    root = _gz_bot(tmp_path, 'both', '\n      <tf_topic>/tf</tf_topic>',
                   _config_bridge('gz_bridge.yaml'), '')
    two = only_problem(lint(root), root, 'parent_uniqueness', 'ERROR',
                       'src/gz_bot/config/controllers.yaml', 'diff_drive_controller/')
    assert 'gz DiffDrive system in src/gz_bot/urdf/gz_bot.urdf.xacro (frame_id: odom, ' \
        'child_frame_id: base_link), bridged from the Gazebo topic /tf onto /tf by ' \
        'parameter_bridge' in two.message, two.message
    # twin: the bridge carries /tf the other way (ROS to Gazebo): the controller alone
    report = lint(_gz_bot(tmp_path, 'other_way', '\n      <tf_topic>/tf</tf_topic>',
                          _config_bridge('gz_bridge_odom.yaml'), ''))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert parents(report)['base_link'] == ('odom',)
    assert 'parameter_bridge' not in summary(report, 'parent_uniqueness')  # read: no unknown
    # a config file only the launch names: the bridge may send anything, and is named so
    unknown = ("Node(package='ros_gz_bridge', executable='parameter_bridge', arguments=["
               "'--ros-args', '-p', os.environ['BRIDGE_CONFIG']])")
    report = lint(_gz_bot(tmp_path, 'unknown', '', unknown, ''))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert 'parameter_bridge, whose bridge the lint cannot read' in \
        summary(report, 'parent_uniqueness'), summary(report, 'parent_uniqueness')


def test_a_bridge_argument_remapped_onto_tf_carries_the_systems_default_topic(tmp_path):
    """`/model/gz_bot/tf@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V` remapped to /tf: one sender."""
    bridge = ("Node(package='ros_gz_bridge', executable='parameter_bridge', arguments=["
              "'/model/gz_bot/tf@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V'], "
              "remappings=[('/model/gz_bot/tf', '/tf')])")
    root = _gz_bot(tmp_path, 'system_only', '', bridge, '    enable_odom_tf: false\n')
    report = lint(root)
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'gz DiffDrive system' in str(row.publishers), row
    # twin: not remapped, the bridge's ROS topic is /model/gz_bot/tf, no part of the tree
    report = lint(_gz_bot(tmp_path, 'not_remapped', '', bridge.split(', remappings')[0] + ')',
                          '    enable_odom_tf: false\n'))
    assert parents(report)['base_link'] == (), parents(report)


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
    return one_package(tmp_path / tf, 'mecanum_bringup', {
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
    (twice,) = flagged(lint(root), 'parent_uniqueness')
    assert twice.level == 'ERROR' and 'odom → base_link is declared by 2 sources' \
        in twice.message and 'mecanum_drive_controller (' in twice.message
    # twin: the controller's transform off, the EKF alone sends it
    assert not flagged(lint(_mecanum(tmp_path, 'false')), 'parent_uniqueness')


# rf2o's laser odometry beside an EKF (round L9's Ackermann car)

def _rf2o(tmp_path: Path, publish_tf: str) -> Path:
    return one_package(tmp_path / publish_tf, 'scan_odom', {
        'config/ekf.yaml': MECANUM_EKF,
        'launch/bringup.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.23', '0', '0.18', '0', '0', '0', 'base_link', 'base_laser'])",
            "Node(package='rf2o_laser_odometry', executable='rf2o_laser_odometry_node', "
            "name='rf2o', parameters=[{{'laser_scan_topic': '/scan', 'odom_frame_id': 'odom', "
            "'publish_tf': {}}}])".format(publish_tf),
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('scan_odom', 'config', 'ekf.yaml'))),
    }, ('config', 'launch'))


def test_rf2o_sends_its_laser_odometry_beside_the_ekf(tmp_path):
    """rf2o's publish_tf is on by default (its source): beside the EKF, two senders."""
    (twice,) = flagged(lint(_rf2o(tmp_path, 'True')), 'parent_uniqueness')
    assert twice.level == 'ERROR' and 'odom → base_link is declared by 2 sources' \
        in twice.message and 'rf2o_laser_odometry' in twice.message, twice.message
    # twin: its transform off, the EKF alone sends it; nothing is left unknown
    report = lint(_rf2o(tmp_path, 'False'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['base_link'] == ('odom',)


# rtabmap's map → odom (round L10's PX4 drone)

def _rtabmap(tmp_path: Path, name: str, params: str) -> Path:
    return one_launch_package(tmp_path / name, 'drone_slam', 'slam.launch.py', launch_py(
        "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
        "'--frame-id', 'odom', '--child-frame-id', 'base_link'])",
        "Node(package='rtabmap_slam', executable='rtabmap', parameters=[{{'frame_id': "
        "'base_link'{}}}])".format(params)))


def test_rtabmap_sends_map_to_the_odom_frame_it_is_given(tmp_path):
    """Its source: map_frame_id → odom_frame_id while publish_tf (on by default)."""
    report = lint(_rtabmap(tmp_path, 'given', ", 'odom_frame_id': 'odom'"))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert parents(report)['odom'] == ('map',)
    # twins: its transform off sends nothing; odom_frame_id unset is the odometry topic's
    # header frame, known to a run alone: a possible sender, never its guess
    for name, params in (('off', ", 'odom_frame_id': 'odom', 'publish_tf': False"),
                         ('from_topic', '')):
        report = lint(_rtabmap(tmp_path, name, params))
        assert 'map' not in parents(report).get('odom', ()), name
    # rtabmap_ros, its ROS 1 and Foxy package, has more executables than the table's one: its
    # rtabmapviz is no slip for rtabmap (the hexapod of round L8 has it)
    viz = one_launch_package(tmp_path / 'viz', 'drone_slam', 'viz.launch.py', launch_py(
        "Node(package='rtabmap_ros', executable='rtabmapviz', name='rtabmapviz')"))
    assert not flagged(lint(viz), 'lint_nodes'), lint(viz).findings


# a racecar team's own ekf_node beside the VESC odometry

def test_a_team_ekf_node_of_its_own_package_is_not_robot_localization(tmp_path):
    """wheel_ekf/ekf_node publishes an Odometry topic, no transform the lint can know."""
    report = lint(vesc_racecar(tmp_path, 'team', 'wheel_ekf'))
    assert problems(report) == set(), [f.message for f in report.findings]
    row = next(r for r in report.frames if r.frame == 'base_link')
    assert row.parents == ('odom',) and 'robot_localization' not in ' '.join(row.publishers)
    # twin: robot_localization's ekf_node on its defaults sends odom → base_link too
    report = lint(vesc_racecar(tmp_path, 'upstream', 'robot_localization'))
    launch = 'src/race_bringup/launch/car.launch.py'
    two = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert [(f.level, f.values['file']) for f in two] == [('ERROR', launch)], report.findings
    assert 'odom → base_link is declared by 2 sources' in two[0].message


# a buggy running the F1TENTH particle filter (its package not in the workspace)

def _buggy(tmp_path: Path, publish_tf: str) -> Path:
    return write(tmp_path / publish_tf, {
        'src/buggy/package.xml': package('buggy'),
        'src/buggy/CMakeLists.txt': cmake('buggy', 'launch', 'config'),
        'src/buggy/config/pf.yaml': """
            particle_filter:
              ros__parameters:
                max_particles: 3000
                publish_tf: {}
            """.format(publish_tf),
        'src/buggy/launch/race.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--x', '0.31', '--z', '0.09', '--frame-id', 'base_link', "
            "'--child-frame-id', 'laser'])",
            "Node(package='particle_filter', executable='particle_filter', "
            "name='particle_filter', parameters=[{}])".format(
                share('buggy', 'config', 'pf.yaml'))),
    })


def test_the_particle_filters_own_slashed_ids_are_one_cause_with_the_second_parent(tmp_path):
    """Its code writes '/map' → '/laser'; tf2 strips them: the finding is laser's 2 parents."""
    root = _buggy(tmp_path, 'true')
    report = lint(root)
    launch = 'src/buggy/launch/race.launch.py'
    assert problems(report) == {('parent_uniqueness', 'ERROR', 'src/buggy/config/pf.yaml',
                                 line_of(root, 'src/buggy/config/pf.yaml', 'publish_tf'))}
    (two,) = report.findings
    assert 'laser has 2 parents: map' in two.message and launch in two.message
    # twin: its transform switched off, the LiDAR mount stands alone
    report = lint(_buggy(tmp_path, 'false'))
    assert problems(report) == set(), report.findings
    assert parents(report)['laser'] == ('base_link',)


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
    return write(tmp_path / name, {
        'src/particle_filter/package.xml': package('particle_filter'),
        'src/particle_filter/src/particle_filter.' + ('cpp' if '#include' in source else 'py'):
            source,
        'src/rover/package.xml': package('rover'),
        'src/rover/launch/rover.launch.py': launch_py(
            "Node(package='particle_filter', executable='particle_filter', "
            "name='particle_filter')",
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.26', '0', '0.11', '0', '0', '0', 'base_link', 'lidar_link'])"),
    })


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


PF_SETUP = """
from setuptools import setup
setup(name='particle_filter', packages=['particle_filter'],
      entry_points={'console_scripts': ['particle_filter = particle_filter.particle_filter:main']})
"""
ROS2_FORK = """
class ParticleFilter(Node):
    def __init__(self):
        self.declare_parameter('publish_tf', False)
        self.declare_parameter('laser_frame', 'ego_racecar/laser')
"""


def test_a_fork_is_judged_by_the_code_it_runs_not_its_deprecated_original(tmp_path):
    """The ROS 1 original kept in deprecated/ quotes '/laser'; the node that runs does not."""
    def team(name: str, node_source: str) -> Path:
        root = _rover_with_own_filter(tmp_path, UPSTREAM_SOURCE, name)
        (root / 'src/particle_filter/src/particle_filter.py').unlink()
        return write(root, {'src/particle_filter/setup.py': PF_SETUP,
                            'src/particle_filter/deprecated/src/particle_filter.py':
                                UPSTREAM_SOURCE,
                            'src/particle_filter/particle_filter/__init__.py': '',
                            'src/particle_filter/particle_filter/particle_filter.py':
                                node_source})

    report = lint(team('fork', ROS2_FORK), measured=False)
    assert 'laser' not in {row.frame for row in report.frames}, report.frames
    assert 'whose source (src/particle_filter) the lint cannot tell is particle_filter' in \
        summary(report, 'parent_uniqueness')
    # twin: the node it runs is the upstream filter: the table speaks for it
    report = lint(team('upstream', UPSTREAM_SOURCE), measured=False)
    assert {row.frame: row.parents for row in report.frames}['laser'] == ('map',)


# a team driving the F1TENTH gym simulator, started from another workspace

def _sim_team(tmp_path: Path, base: str, bridge: bool) -> Path:
    nodes = ["Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
             "name='slam_toolbox', parameters=[{}])".format(
                 share('sim_team', 'config', 'slam.yaml'))]
    if bridge:
        nodes.append("Node(package='f1tenth_gym_ros', executable='gym_bridge', "
                     "name='bridge')")
    return write(tmp_path / '{}_{}'.format(base.replace('/', '_'), bridge), {
        'src/sim_team/package.xml': package('sim_team'),
        'src/sim_team/CMakeLists.txt': cmake('sim_team', 'launch', 'config'),
        'src/sim_team/config/slam.yaml': """
            slam_toolbox:
              ros__parameters:
                map_frame: map
                odom_frame: odom
                base_frame: {}
            """.format(base),
        'src/sim_team/launch/mapping.launch.py': launch_py(*nodes),
    })


def test_a_gym_bridge_frame_without_the_bridge_is_the_bridges_not_nobodys(tmp_path):
    """ego_racecar/base_link: the lint knows who sends it, and that it hangs from map."""
    root = _sim_team(tmp_path, 'ego_racecar/base_link', bridge=False)
    report = lint(root)
    (bridge,) = [f for f in report.findings if f.check == 'connectivity']
    assert bridge.level == 'WARN' and 'F1TENTH gym bridge' in bridge.message
    assert 'ego_racecar/base_link hangs from map (map → ego_racecar/base_link)' in bridge.message
    assert bridge.values['line'] == line_of(root, 'src/sim_team/config/slam.yaml', 'base_frame')
    # twin: the bridge started here declares the frame: nothing to say about it
    report = lint(_sim_team(tmp_path, 'ego_racecar/base_link', bridge=True))
    assert not [f for f in report.findings if f.check == 'connectivity'], report.findings
    # twin: a frame nobody the lint knows sends is still an ERROR, as before
    report = lint(_sim_team(tmp_path, 'racecar/base_link', bridge=False))
    (nobody,) = [f for f in report.findings if f.check == 'connectivity']
    assert nobody.level == 'ERROR' and 'nothing in the workspace publishes it' in nobody.message


def _vendored_driver(tmp_path: Path, source: str) -> Path:
    return write(tmp_path / str(abs(hash(source))), {
        'src/rplidar_ros/package.xml': package('rplidar_ros'),
        'src/rplidar_ros/src/rplidar_node.cpp': source,
        'src/rplidar_ros/launch/lidar.launch.py': launch_py(
            "Node(package='rplidar_ros', executable='rplidar_node', name='rplidar_node', "
            "parameters=[{'frame_id': 'laser'}])"),
    })


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


def _moveit_like(tmp_path: Path, executable: str) -> Path:
    return write(tmp_path / executable, {
        'src/arm/package.xml': package('arm'),
        'src/arm/launch/demo.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'--frame-id', 'world', '--child-frame-id', 'arm_link0'])",
            "Node(package='any', executable='{}', name='viewer', parameters=["
            'config.robot_description, config.planning_pipelines])'.format(executable)),
    })


def test_a_tool_whose_parameters_cannot_be_read_is_not_a_finding(tmp_path):
    """Rviz2 given computed dicts (MoveIt's demo) sends nothing: nothing to say."""
    assert problems(lint(_moveit_like(tmp_path, 'rviz2'), measured=False)) == set()
    # twin: a node the table does not know may send transforms: its unread sources are said
    unread = [f for f in lint(_moveit_like(tmp_path, 'arm_driver'), measured=False).findings
              if f.check == 'lint_files']
    assert len(unread) == 2 and all('known only when the launch runs' in f.message
                                    for f in unread)


def _slam(tmp_path: Path, executable: str) -> Path:
    """Write a bringup whose slam_toolbox node is this executable, with its frames given."""
    return one_package(tmp_path / executable, 'mapper', {'launch/slam.launch.py': launch_py(
        "Node(package='slam_toolbox', executable={!r}, name='slam_toolbox', parameters=["
        "{{'map_frame': 'map', 'odom_frame': 'odom', 'base_frame': 'base_link'}}])".format(
            executable))}, installs=('launch',))


def test_slam_toolboxs_map_and_localization_node_is_known(tmp_path):
    """
    Issue 31, class G: slam_toolbox has map_and_localization_slam_toolbox_node (Humble 2.6.10).

    It sends map -> odom, and no 'did you mean'; a true misspelling still gets one.
    """
    report = lint(_slam(tmp_path, 'map_and_localization_slam_toolbox_node'))
    assert parents(report).get('odom') == ('map',), report.findings
    assert not [f for f in report.findings if 'did you mean' in f.message]
    typo = lint(_slam(tmp_path, 'async_slam_toolbx_node'))
    assert [f for f in typo.findings if "did you mean 'async_slam_toolbox_node'" in f.message]


# a ROS 1 rover: gmapping and robot_localization's EKF, its parameters in rosparam files

ROS1_ROVER_LAUNCH = """<launch>
  <node pkg="robot_localization" type="ekf_localization_node" name="ekf">
    <rosparam command="load" file="$(find rover)/config/ekf.yaml"{NS}/>
  </node>
  <node pkg="gmapping" type="slam_gmapping" name="slam_gmapping">
    <param name="base_frame" value="base_footprint"/>
  </node>
  <node pkg="tf" type="static_transform_publisher" name="laser_mount"
        args="0.26 0 0.11 0 0 0 base_footprint laser 100"/>
</launch>
"""
ROS1_EKF = """frequency: 30
two_d_mode: true
base_link_frame: base_footprint
world_frame: odom
publish_tf: {}
"""


def _ros1_rover(root: Path, publish: str = 'true', ns: str = '') -> Path:
    return write(root, {
        'src/rover/package.xml': package('rover'),
        'src/rover/CMakeLists.txt': 'project(rover)\nfind_package(catkin REQUIRED)\n'
                                    'catkin_package()\n',
        'src/rover/config/ekf.yaml': ROS1_EKF.format(publish),
        'src/rover/launch/rover.launch': ROS1_ROVER_LAUNCH.replace('{NS}', ns),
    })


def test_ros1_nodes_read_their_rosparam_files(tmp_path):
    """
    A rosparam file loaded inside a node holds that node's own parameters, with no node name.

    The EKF (ROS 1's ekf_localization_node) sends odom → base_footprint as its file says,
    gmapping map → odom: one chain. The twins: publish_tf false in the file (no odom edge from
    the EKF at all), and the file loaded into another namespace (not the EKF's: its default
    base_link is the child, not base_footprint).
    """
    report = lint(_ros1_rover(tmp_path / 'rover'))
    assert problems(report) == set(), report.findings
    tree = parents(report)
    assert tree['odom'] == ('map',) and tree['base_footprint'] == ('odom',)
    assert tree['laser'] == ('base_footprint',)
    quiet = parents(lint(_ros1_rover(tmp_path / 'off', publish='false')))
    assert quiet['base_footprint'] == () and quiet['odom'] == ('map',), quiet
    elsewhere = parents(lint(_ros1_rover(tmp_path / 'ns', ns=' ns="other"')))
    assert elsewhere['base_link'] == ('odom',) and elsewhere['base_footprint'] == (), elsewhere


# a team's own nodes, whose code says what they send

WHEEL_ODOM = """
import rclpy
from geometry_msgs.msg import TransformStamped
from tf2_ros import TransformBroadcaster


class WheelOdometry:
    def __init__(self, node):
        self.broadcaster = TransformBroadcaster(node)
        self.odom_frame = node.declare_parameter('odom_frame', 'odom').value

    def tick(self, x):
        t = TransformStamped()
        t.header.frame_id = ODOM
        t.child_frame_id = 'base_link'
        t.transform.translation.x = x
        self.broadcaster.sendTransform(t)

    def reset(self):
        t = TransformStamped()
        t.header.frame_id = ODOM
        t.child_frame_id = 'base_link'
        self.broadcaster.sendTransform(t)


def main():
    rclpy.init()
"""

SETUP = """
from setuptools import setup
setup(name='wheel_odom', packages=['wheel_odom'],
      entry_points={'console_scripts': ['wheel_odom_node = wheel_odom.wheel_odom_node:main',
                                        'planner = wheel_odom.planner:main']})
"""


def _own_odometry(tmp_path: Path, name: str, odom: str) -> Path:
    """Write a robot whose own Python node sends odom → base_link, beside an EKF that does too."""
    return write(tmp_path / name, {
        'src/wheel_odom/package.xml': package('wheel_odom'),
        'src/wheel_odom/setup.py': SETUP,
        'src/wheel_odom/wheel_odom/__init__.py': '',
        'src/wheel_odom/wheel_odom/wheel_odom_node.py': WHEEL_ODOM.replace('ODOM', odom),
        'src/wheel_odom/wheel_odom/planner.py': 'def main():\n    print("plans")\n',
        'src/bot/package.xml': package('bot'),
        'src/bot/CMakeLists.txt': cmake('bot', 'launch'),
        'src/bot/launch/bot.launch.py': launch_py(
            "Node(package='wheel_odom', executable='wheel_odom_node')",
            "Node(package='wheel_odom', executable='planner')",
            "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
            "parameters=[{'publish_tf': True, 'world_frame': 'odom', 'odom_frame': 'odom', "
            "'base_link_frame': 'base_link'}])"),
    })


def test_a_teams_node_whose_code_sends_literal_frames_is_a_sender(tmp_path):
    """wheel_odom_node sends odom → base_link (twice in its code: one sender) beside the EKF."""
    root = _own_odometry(tmp_path, 'literal', "'odom'")
    report = lint(root)
    (two,) = report.findings
    assert two.check == 'parent_uniqueness' and two.level == 'ERROR', two.message
    assert 'odom → base_link is declared by 2 sources: wheel_odom_node (its own code: ' \
        'sendTransform), src/wheel_odom/wheel_odom/wheel_odom_node.py:' in two.message, \
        two.message
    # the planner's package code sends nothing where it runs: it is no possible sender
    assert 'planner' not in summary(report, 'parent_uniqueness')
    # twin: the frame comes from a parameter: the node may send it, the lint cannot tell
    report = lint(_own_odometry(tmp_path, 'parameter', 'self.odom_frame'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert 'wheel_odom/wheel_odom_node' in summary(report, 'parent_uniqueness')


CPP_LOCALIZER = """
#include <tf/transform_broadcaster.h>
#include <tf2_ros/transform_broadcaster.h>
void Localizer::publish() {
  // the map correction
  br_.sendTransform(tf::StampedTransform(map_to_odom_, ros::Time::now(), "map", "odom"));
  geometry_msgs::msg::TransformStamped t;
  t.header.frame_id = "odom";
  t.child_frame_id = CHILD;
  broadcaster_->sendTransform(t);
}
"""


def _cpp_localizer(tmp_path: Path, name: str, child: str) -> Path:
    """Write a C++ localizer of the workspace whose code sends map → odom and odom → base."""
    return write(tmp_path / name, {
        'src/loc/package.xml': package('loc'),
        'src/loc/CMakeLists.txt': 'project(loc)\nadd_executable(localizer src/localizer.cpp)\n'
                                  'install(TARGETS localizer DESTINATION lib/${PROJECT_NAME})\n'
                                  'install(DIRECTORY launch DESTINATION share/${PROJECT_NAME})\n',
        'src/loc/src/localizer.cpp': CPP_LOCALIZER.replace('CHILD', child),
        'src/loc/launch/loc.launch.py': launch_py(
            "Node(package='loc', executable='localizer')",
            "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
            "name='slam_toolbox')"),
    })


def test_a_cpp_node_of_the_workspace_sends_what_its_code_writes(tmp_path):
    """The tf StampedTransform and a TransformStamped with literal frames: map → odom twice."""
    report = lint(_cpp_localizer(tmp_path, 'literal', '"base_link"'))
    assert [(f.check, f.level) for f in report.findings] == [('parent_uniqueness', 'ERROR')]
    assert 'map → odom is declared by 2 sources: localizer (its own code: sendTransform), ' \
        'src/loc/src/localizer.cpp:5' in report.findings[0].message, report.findings[0].message
    assert parents(report)['base_link'] == ('odom',)
    # twin: a child only the running node knows: the whole node is unknown, never half read
    report = lint(_cpp_localizer(tmp_path, 'member', 'base_frame_'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert 'loc/localizer' in summary(report, 'parent_uniqueness')


# two Gazebo drive plugins in one description (round L10's mobile manipulator)

def _plugin(name: str) -> str:
    return ('<gazebo><plugin name="{}" filename="libgazebo_ros_diff_drive.so">'
            '<odometry_frame>odom</odometry_frame><robot_base_frame>base_link'
            '</robot_base_frame><publish_odom_tf>true</publish_odom_tf></plugin></gazebo>'
            .format(name))


def test_two_drive_plugins_of_one_description_are_told_apart(tmp_path):
    """Both send odom → base_link: the finding names each plugin, never one sender twice."""
    def robot(name: str, plugins: str) -> Path:
        return one_package(tmp_path / name, 'arm_base', {
            'urdf/base.urdf': urdf('base_link laser 0.1').replace('</robot>', plugins +
                                                                  '</robot>'),
            'launch/sim.launch.py': launch_py(
                'IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join('
                "get_package_share_directory('gazebo_ros'), 'launch', 'gazebo.launch.py')))",
                rsp('arm_base', 'base.urdf'),
                "Node(package='gazebo_ros', executable='spawn_entity.py', arguments=["
                "'-topic', 'robot_description', '-entity', 'arm_base'])")},
            ('launch', 'urdf'))
    (twice,) = flagged(lint(robot('two', _plugin('rear_wheel') + _plugin('front_wheel'))),
                       'parent_uniqueness')
    assert "Gazebo plugin 'rear_wheel' (libgazebo_ros_diff_drive.so)" in twice.message
    assert "Gazebo plugin 'front_wheel' (libgazebo_ros_diff_drive.so)" in twice.message
    assert not flagged(lint(robot('one', _plugin('rear_wheel'))), 'parent_uniqueness')
