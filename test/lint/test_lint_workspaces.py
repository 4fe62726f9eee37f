# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit lint on workspaces laid out as other teams lay them out, not as the car's.

test/lint/lint_workspace/fleet holds two robots: a TurtleBot-like robot (three models, slam_toolbox
modes, robot_localization, an IMU filter, a deprecated ROS 1 folder, share paths that differ
from the source tree) and an Ackermann rover (xacro with macros and arguments, cartographer's
.lua, AMCL as a composable node, a Gazebo twin). Each false alarm the first lint gave on such
workspaces has a test here that keeps it quiet, and each new catch one that finds it at its
file and line. Small workspaces are written by the tests themselves.
"""
from pathlib import Path
import shutil
from typing import List

from frame_audit.cli import main
from frame_audit.engine.config import AuditConfig, config_from_parameters, ConfigError
from frame_audit.lint import LintError
from lint_helpers import line_of, lint, package, problems, write
import pytest

FLEET = Path(__file__).resolve().parent / 'lint_workspace' / 'fleet'
BOT = AuditConfig(base_frame='base_footprint', laser_frame='base_scan',
                  laser_translation=(-0.032, 0.0, 0.182))  # the burger, measured
ROVER = AuditConfig()  # the rover's LiDAR sits where the F1TENTH car's does
WAFFLE = 'src/bot_description/urdf/bot_waffle.urdf'
LUA = 'src/rover_bringup/config/rover_2d.lua'
ROVER_LAUNCH = 'src/rover_bringup/launch/rover.launch.xml'
SENSORS = 'src/rover_description/urdf/sensors.xacro'


def fleet_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """Copy the fleet and change one place in one file."""
    root = tmp_path / 'fleet'
    shutil.copytree(FLEET, root)
    path = root / file
    text = path.read_text(encoding='utf-8')
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding='utf-8')
    return root


# False alarms the first lint gave, each quiet now.

@pytest.mark.parametrize('config', [BOT, ROVER], ids=['bot', 'rover'])
def test_alternatives_modes_and_a_deprecated_folder_are_not_one_robot(config):
    """Three models, three slam modes, a ROS 1 copy: seven bringups, never 'three sources'."""
    report = lint(FLEET, config)
    assert not [f for f in report.findings if f.level == 'ERROR'], report.findings
    summary = next(c.message for c in report.checks if c.check == 'lint_files')
    assert '7 bringups' in summary  # description.launch.py is included, by ThisLaunchFileDir too,
    # and cartographer.launch.py only with mode:=mapping: the rover's launch runs so once more
    # what remains is one hedged WARN where the two robots' trees meet: true, and says so
    hedged = [f for f in report.findings if f.level == 'WARN']
    assert all('if they are alternatives, this is as meant' in f.message for f in hedged)


@pytest.mark.parametrize('config, launch', [
    (BOT, [('bot_bringup/robot.launch.py',), ('bot_bringup/slam.launch.py',)]),
    (BOT, [('bot_bringup/robot.launch.py',),
           ('bot_bringup/slam.launch.py', 'slam_params_file:=src/bot_bringup/param/'
            'slam_localization.yaml')]),
    (ROVER, [('rover_bringup/rover.launch.xml',)]),
    (ROVER, [('rover_bringup/rover.launch.xml', 'mode:=mapping')]),
], ids=['bot_mapping', 'bot_localization', 'rover_amcl_component', 'rover_cartographer'])
def test_each_robot_as_it_is_launched_is_quiet(config, launch):
    report = lint(FLEET, config, *launch)
    assert problems(report) == set(), [f.message for f in report.findings]
    tree = {row.frame: row.parents for row in report.frames}
    assert tree['odom'] == ('map',) and tree[config.base_frame] == ('odom',)
    assert tree[config.laser_frame] == ('base_link',)


def test_an_enum_named_world_frame_is_not_a_frame():
    """imu_filter_madgwick's world_frame: enu is a convention; the table knows its frames."""
    assert 'world_frame: enu' in (FLEET / 'src/bot_bringup/param/imu.yaml').read_text()
    report = lint(FLEET, BOT, ('bot_bringup/robot.launch.py',), ('bot_bringup/slam.launch.py',))
    assert not [f for f in report.findings if 'enu' in f.message]


def test_share_paths_lead_to_the_source_file_the_install_rules_name(tmp_path):
    """Share paths: CMake installs urdf/ as models/, setup.py param/ as params/."""
    report = lint(FLEET, BOT, ('bot_bringup/robot.launch.py', 'model:=waffle'),
                  ('bot_bringup/slam.launch.py',))
    assert problems(report) == {('laser_offset', 'ERROR', WAFFLE,
                                 line_of(FLEET, WAFFLE, '<origin xyz="-0.064 0 0.122"'))}
    root = fleet_copy(tmp_path, 'src/bot_bringup/param/ekf.yaml',
                      'base_link_frame: base_footprint', 'base_link_frame: base_link')
    report = lint(root, BOT, ('bot_bringup/robot.launch.py',), ('bot_bringup/slam.launch.py',))
    assert ('parent_uniqueness', 'ERROR', 'src/bot_bringup/param/ekf.yaml',
            line_of(root, 'src/bot_bringup/param/ekf.yaml', 'base_link_frame')) in problems(report)


def test_a_node_the_table_does_not_know_is_a_possible_sender(tmp_path):
    files = {
        'src/loc/package.xml': package('loc'),
        'src/loc/launch/loc.launch.py': """
            from launch import LaunchDescription
            from launch_ros.actions import Node

            def generate_launch_description():
                return LaunchDescription([
                    Node(package='loc', executable='my_localizer', name='localizer'),
                    Node(package='tf2_ros', executable='static_transform_publisher',
                         arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                    Node(package='vesc_ackermann', executable='vesc_to_odom_node',
                         parameters=[{'publish_tf': True}]),
                ])
            """}
    root = write(tmp_path, files)
    (finding,) = [f for f in lint(root, ROVER).findings if f.check == 'chain_order']
    assert finding.level == 'WARN' and 'map is in no declared transform' in finding.message
    assert 'the node localizer (loc/my_localizer) at src/loc/launch/loc.launch.py:6 may send' \
        in finding.message and 'lint.publishers' in finding.message
    told = config_from_parameters({'lint.publishers': ['my_localizer: map -> odom']})
    assert problems(lint(root, told)) == set()
    silent = config_from_parameters({'lint.publishers': ['my_localizer']})
    (nothing,) = lint(root, silent).findings  # told it sends nothing: no sender is hedged
    assert nothing.level == 'WARN' and 'may send' not in nothing.message
    assert 'map usually comes from localization or SLAM' in nothing.message


def test_lifecycle_and_composable_nodes_in_python_xml_and_yaml(tmp_path):
    files = {
        'src/nav/package.xml': package('nav'),
        'src/nav/config/amcl.yaml': """
            amcl:
              ros__parameters:
                base_frame_id: base_link
            ekf:
              ros__parameters:
                publish_tf: true
            """,
        'src/nav/launch/amcl.launch.py': """
            from launch import LaunchDescription
            from launch_ros.actions import LifecycleNode

            def generate_launch_description():
                return LaunchDescription([LifecycleNode(
                    package='nav2_amcl', executable='amcl', name='amcl', namespace='',
                    parameters=['src/nav/config/amcl.yaml'])])
            """,
        'src/nav/launch/ekf.launch.xml': """
            <launch>
              <node_container pkg="rclcpp_components" exec="component_container" name="c"
                              namespace="">
                <composable_node pkg="robot_localization" plugin="robot_localization::EkfFilter"
                                 name="ekf">
                  <param from="src/nav/config/amcl.yaml"/>
                </composable_node>
              </node_container>
              <node pkg="tf2_ros" exec="static_transform_publisher"
                    args="0.26 0 0.11 0 0 0 base_link laser"/>
            </launch>
            """,
    }
    root = write(tmp_path, files)
    report = lint(root, ROVER, ('nav/amcl.launch.py',), ('nav/ekf.launch.xml',))
    assert problems(report) == set(), [f.message for f in report.findings]
    tree = {row.frame: row.parents for row in report.frames}
    assert tree['odom'] == ('map',) and tree['base_link'] == ('odom',)


# What the lint newly catches.

def test_a_lidar_joint_in_the_xacro_that_disagrees_with_a_static_publisher(tmp_path):
    static = ('<node pkg="tf2_ros" exec="static_transform_publisher" '
              'args="0.30 0 0.11 0 0 0 base_link laser"/>\n  <arg name="mode"')
    root = fleet_copy(tmp_path, ROVER_LAUNCH, '<arg name="mode"', static)
    report = lint(root, ROVER, ('rover_bringup/rover.launch.xml',))
    static_line = line_of(root, ROVER_LAUNCH, 'args="0.30')
    assert problems(report) == {('laser_offset', 'ERROR', ROVER_LAUNCH, static_line),
                                ('parent_uniqueness', 'ERROR', ROVER_LAUNCH, static_line)}
    (sources,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    joint = '{}:{}'.format(SENSORS, line_of(root, SENSORS, '<joint name="laser_joint"'))
    assert joint in sources.message and "URDF fixed joint 'laser_joint'" in sources.message


def test_xacro_arguments_come_from_the_launch(tmp_path):
    """sim:=true turns on the Gazebo drive plugin's odom -> base_link, in the Gazebo bringup."""
    report = lint(FLEET, ROVER, ('rover_bringup/sim.launch.py',))
    rows = {row.frame: row for row in report.frames}
    assert rows['base_link'].parents == ('odom',)
    assert "Gazebo plugin 'drive' (libgazebo_ros_ackermann_drive.so)" in \
        rows['base_link'].publishers[0]
    # nothing in Gazebo's bringup sends map: the Gazebo launch it includes may (a WARN)
    (finding,) = [f for f in report.findings if f.level != 'OK']
    assert finding.check == 'chain_order' and finding.level == 'WARN'
    assert '<gazebo_ros>/launch/gazebo.launch.py' in finding.message


def test_cartographer_publishing_base_link_beside_odometry(tmp_path):
    root = fleet_copy(tmp_path, LUA, 'published_frame = "odom"', 'published_frame = "base_link"')
    report = lint(root, ROVER, ('rover_bringup/rover.launch.xml', 'mode:=mapping'))
    (finding,) = [f for f in report.findings if f.check == 'parent_uniqueness']
    assert finding.level == 'ERROR' and 'base_link has 2 parents' in finding.message
    assert (finding.values['file'], finding.values['line']) == (
        LUA, line_of(root, LUA, 'published_frame'))


def test_two_nodes_with_one_name(tmp_path):
    files = {
        'src/two/package.xml': package('two'),
        'src/two/launch/two.launch.py': """
            from launch import LaunchDescription
            from launch_ros.actions import Node

            def generate_launch_description():
                return LaunchDescription([
                    Node(package='robot_localization', executable='ekf_node',
                         name='ekf_filter_node', parameters=[{'world_frame': 'odom'}]),
                    Node(package='robot_localization', executable='ekf_node',
                         name='ekf_filter_node', parameters=[{'world_frame': 'map'}]),
                ])
            """,
    }
    root = write(tmp_path, files)
    (finding,) = [f for f in lint(root, ROVER).findings if f.check == 'lint_nodes']
    assert finding.level == 'WARN' and '2 nodes are named ekf_filter_node' in finding.message
    assert (finding.values['file'], finding.values['line']) == ('src/two/launch/two.launch.py', 8)


GYM = {
    'src/f1tenth_gym_ros/package.xml': package('f1tenth_gym_ros'),
    'src/f1tenth_gym_ros/config/sim.yaml': """
        bridge:
          ros__parameters:
            ego_namespace: 'ego_racecar'
            scan_distance_to_base_link: 0.275
            num_agent: 1
        """,
    'src/f1tenth_gym_ros/launch/gym_bridge_launch.py': """
        import os

        from ament_index_python.packages import get_package_share_directory
        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            config = os.path.join(get_package_share_directory('f1tenth_gym_ros'), 'config',
                                  'sim.yaml')
            return LaunchDescription([Node(package='f1tenth_gym_ros', executable='gym_bridge',
                                           name='bridge', parameters=[config])])
        """,
}


def test_a_simulator_that_prefixes_every_frame_is_named_once(tmp_path):
    root = write(tmp_path, GYM)
    report = lint(root, ROVER)
    (renamed,) = [f for f in report.findings if 'probably named otherwise' in f.message]
    assert renamed.level == 'WARN'
    assert 'frames.base: ego_racecar/base_link, frames.laser: ego_racecar/laser' \
        in renamed.message
    assert 'base_link, laser are in no declared transform' in renamed.message
    # odom is missing for real: the gym sends map -> ego_racecar/base_link directly
    (missing,) = [f for f in report.findings if f.check == 'chain_order' and f is not renamed]
    assert missing.level == 'WARN' and missing.message.startswith('odom is in no')
    configured = config_from_parameters({
        'frames.base': 'ego_racecar/base_link', 'frames.laser': 'ego_racecar/laser',
        'frames.required': ['map', 'ego_racecar/base_link', 'ego_racecar/laser'],
        'laser_offset.translation': [0.275, 0.0, 0.0]})
    assert problems(lint(root, configured)) == set()


def test_a_lidar_frame_with_another_name(tmp_path):
    root = write(tmp_path, {'launch/robot.launch.py': """
        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            return LaunchDescription([
                Node(package='tf2_ros', executable='static_transform_publisher',
                     arguments=['--x', '0.26', '--z', '0.11', '--frame-id', 'base_link',
                                '--child-frame-id', 'lidar']),
                Node(package='slam_toolbox', executable='async_slam_toolbox_node',
                     parameters=[{'base_frame': 'base_link'}]),
                Node(package='vesc_ackermann', executable='vesc_to_odom_node',
                     parameters=[{'publish_tf': True}]),
            ])
        """})
    (finding,) = [f for f in lint(root, ROVER).findings if f.level != 'OK']
    assert finding.check == 'chain_order' and finding.level == 'WARN'
    assert 'laser is in no declared transform, but the workspace declares lidar' \
        in finding.message and 'set frames.laser: lidar' in finding.message


# Control, and what the lint cannot read.

def test_lint_configuration_excludes_turns_off_and_declares(tmp_path):
    only_bot = config_from_parameters({
        'frames.base': 'base_footprint', 'frames.laser': 'base_scan',
        'laser_offset.translation': [-0.032, 0.0, 0.182],
        'lint.exclude': ['src/rover_*', '*/deprecated'], 'lint.checks_off': ['lint_nodes']})
    report = lint(FLEET, only_bot)
    assert problems(report) == set()
    assert '3 bringups' in next(c.message for c in report.checks if c.check == 'lint_files')
    assert next(c.message for c in report.checks if c.check == 'lint_nodes').startswith('off')
    with pytest.raises(ConfigError, match=r'lint.publishers\[0\]'):
        config_from_parameters({'lint.publishers': ['node: map odom']})


def test_a_description_xacro_cannot_expand_is_named(tmp_path):
    root = fleet_copy(tmp_path, SENSORS, '${x} 0 ${z}', '${x} 0 ${height}')
    report = lint(root, ROVER, ('rover_bringup/rover.launch.xml',))
    (unreadable,) = [f for f in report.findings if f.check == 'lint_files']
    assert 'cannot be expanded by xacro' in unreadable.message and 'height' in unreadable.message
    assert 'src/rover_description/urdf/rover.urdf.xacro' in unreadable.message
    # what robot_state_publisher would send is unknown: missing frames are WARNs naming it,
    # and the LiDAR's mount gets no verdict at all
    assert {f.level for f in report.findings if f.check == 'chain_order'} <= {'WARN'}
    laser = next(c for c in report.checks if c.check == 'laser_offset')
    assert laser.level == 'STALE' and laser.message.startswith('not judged')


@pytest.mark.parametrize('launch, error', [
    ('nope/x.launch.py', 'no package nope'),
    ('bot_bringup/nope.launch.py', 'no launch file nope.launch.py in package bot_bringup'),
    ('\n\n', r"^'\\n\\n': no package '\\n\\n' in"),  # a line break typed: still one line
    ('bot_bringup/x\ny', r"no launch file 'x\\ny' in package bot_bringup"),
])
def test_a_launch_the_workspace_does_not_have_is_one_line(launch, error):
    with pytest.raises(LintError, match=error) as raised:
        lint(FLEET, ROVER, (launch,))
    assert '\n' not in str(raised.value)


def test_cli_launch_with_arguments(capsys):
    assert main(['lint', str(FLEET), '--launch', 'rover_bringup/rover.launch.xml',
                 'mode:=mapping', '--format', 'json']) == 0
    assert main(['lint', str(FLEET), '--launch', 'rover_bringup/rover.launch.xml',
                 'mode:=mapping', '--launch', 'rover_bringup/localization.launch.py']) == 1
    assert 'map → odom is declared by 2 sources' in capsys.readouterr().out
    assert main(['lint', str(FLEET), '--launch', 'rover_bringup/rover.launch.xml', 'mode']) == 2
    assert "'mode' is not a launch argument (name:=value)" in capsys.readouterr().err


def relative(paths: List[str]) -> bool:
    """Return whether every path a message names is relative to the workspace."""
    return not any(p.startswith('/') for p in paths)


def test_every_place_is_named_relative_to_the_workspace():
    for config in (BOT, ROVER):
        for finding in lint(FLEET, config).findings:
            assert str(FLEET) not in finding.message
            assert relative([str(finding.values.get('file', ''))])


def test_a_xacro_that_expands_without_end_meets_a_bound(tmp_path, monkeypatch):
    from frame_audit.lint.readers import xacro_child

    monkeypatch.setattr(xacro_child, 'TIMEOUT_S', 3.0)  # the bound, shortened for the test
    root = write(tmp_path, {'urdf/bomb.urdf.xacro': """
        <?xml version="1.0"?>
        <robot name="bomb" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:macro name="grow" params="n">
            <xacro:if value="${n > 0}">
              <xacro:grow n="${n - 1}"/>
              <xacro:grow n="${n - 1}"/>
            </xacro:if>
            <link name="l${n}"/>
          </xacro:macro>
          <xacro:grow n="40"/>
        </robot>
        """})
    (finding,) = [f for f in lint(root, ROVER).findings if f.check == 'lint_files']
    assert finding.level == 'WARN' and 'urdf/bomb.urdf.xacro' in finding.message
    assert 'xacro ran past 3 s' in finding.message


FRONTENDS = {
    'src/p/package.xml': package('p'),
    'src/p/launch/top.launch.yaml': """
        launch:
        - arg:
            name: use_sim
            default: 'false'
        - include:
            file: $(find-pkg-share p)/launch/mid.launch.xml
            arg:
            - name: use_sim
              value: $(var use_sim)
        """,
    'src/p/launch/mid.launch.xml': """
        <launch>
          <arg name="use_sim" default="true"/>
          <group if="$(var use_sim)">
            <node pkg="tf2_ros" exec="static_transform_publisher" name="sim_laser"
                  args="0.30 0 0.11 0 0 0 base_link laser"/>
          </group>
          <group unless="$(var use_sim)">
            <node pkg="tf2_ros" exec="static_transform_publisher" name="laser"
                  args="0.26 0 0.11 0 0 0 base_link laser"/>
          </group>
          <include file="$(find-pkg-share p)/launch/odom.launch">
            <arg name="odom" value="odom"/>
          </include>
        </launch>
        """,
    'src/p/launch/odom.launch': """
        <launch>
          <arg name="odom" default="wrong"/>
          <node pkg="vesc_ackermann" type="vesc_to_odom_node" name="vesc_to_odom_node">
            <param name="publish_tf" value="true"/>
            <param name="odom_frame" value="$(arg odom)"/>
          </node>
          <node pkg="tf2_ros" type="static_transform_publisher" name="map_odom"
                args="0 0 0 0 0 0 map $(arg odom)"/>
        </launch>
        """,
}


def test_yaml_xml_and_ros1_includes_with_arguments_and_groups(tmp_path):
    root = write(tmp_path, FRONTENDS)
    report = lint(root, ROVER)
    assert problems(report) == set(), [f.message for f in report.findings]
    assert '1 bringup: src/p/launch/top.launch.yaml' in report.checks[-3].message
    simulated = lint(root, ROVER, ('p/top.launch.yaml', 'use_sim:=true'))
    mid = 'src/p/launch/mid.launch.xml'
    assert problems(simulated) == {('laser_offset', 'ERROR', mid, line_of(root, mid, '0.30'))}


# Found by reading real workspaces (TurtleBot3, Nav2, F1TENTH forks, the gym): each quiet now.

GYM_BODY = {
    'src/f1tenth_gym_ros/urdf/ego_racecar.urdf': """
        <robot name="ego_racecar">
          <link name="ego_racecar/base_link"/>
          <link name="ego_racecar/front_left_hinge"/>
          <link name="ego_racecar/front_left_wheel"/>
          <joint name="base_to_hinge" type="fixed">
            <parent link="ego_racecar/base_link"/>
            <child link="ego_racecar/front_left_hinge"/>
            <origin xyz="0.33 0.1 0"/>
          </joint>
          <joint name="hinge_to_wheel" type="continuous">
            <parent link="ego_racecar/front_left_hinge"/>
            <child link="ego_racecar/front_left_wheel"/>
          </joint>
        </robot>
        """,
    'src/f1tenth_gym_ros/launch/body_launch.py': """
        import os

        from ament_index_python.packages import get_package_share_directory
        from launch import LaunchDescription
        from launch.actions import IncludeLaunchDescription
        from launch.launch_description_sources import PythonLaunchDescriptionSource
        from launch_ros.actions import Node

        def generate_launch_description():
            share = get_package_share_directory('f1tenth_gym_ros')
            return LaunchDescription([
                IncludeLaunchDescription(PythonLaunchDescriptionSource(
                    os.path.join(share, 'launch', 'gym_bridge_launch.py'))),
                Node(package='robot_state_publisher', executable='robot_state_publisher',
                     parameters=[{'robot_description': open(
                         os.path.join(share, 'urdf', 'ego_racecar.urdf')).read()}]),
            ])
        """,
}


def test_a_simulator_that_sends_its_own_wheels_and_lidar(tmp_path):
    """Moving joints need a /joint_states source; a sender's own LiDAR offset is no consumer."""
    root = write(tmp_path, dict(GYM, **GYM_BODY))
    report = lint(root, ROVER, ('f1tenth_gym_ros/body_launch.py',))
    assert not [f for f in report.findings if f.check in ('parent_uniqueness', 'pose_frame')]
    rows = {row.frame: row for row in report.frames}
    assert rows['ego_racecar/front_left_wheel'].publishers[0].startswith('gym_bridge')
    assert len(rows['ego_racecar/front_left_wheel'].publishers) == 1


LIDAR_URDF = ('<robot name="r"><joint name="j" type="fixed"><parent link="base_link"/>'
              '<child link="laser"/><origin xyz="{x} 0 0.11"/></joint></robot>\n')


def test_python_expressions_branches_and_forks(tmp_path):
    root = write(tmp_path, {
        'src/r/package.xml': package('r'),
        'src/r/urdf/a.urdf': LIDAR_URDF.format(x=0.26),
        'src/r/urdf/b.urdf': LIDAR_URDF.format(x=0.5),
        'src/r/launch/r.launch.py': """
            import os

            from launch import LaunchDescription
            from launch.substitutions import PythonExpression
            from launch_ros.actions import Node

            def generate_launch_description():
                if os.environ.get('MODEL') == 'a':
                    urdf = 'src/r/urdf/a.urdf'
                else:
                    urdf = 'src/r/urdf/b.urdf'
                return LaunchDescription([
                    Node(package='robot_state_publisher', executable='robot_state_publisher',
                         name='by_branch', parameters=[{'robot_description': open(urdf).read()}]),
                    Node(package='robot_state_publisher', executable='robot_state_publisher',
                         name='prefixed', parameters=[{
                             'robot_description': open('src/r/urdf/a.urdf').read(),
                             'frame_prefix': PythonExpression(['"', 'robot1', '/"'])}]),
                    Node(package='particle_filter', executable='particle_filter',
                         parameters=[{'tf_child_frame': 'base_link', 'publish_tf': True}]),
                ])
            """})
    report = lint(root, ROVER)
    frames = {row.frame for row in report.frames}
    assert {'robot1/base_link', 'robot1/laser'} <= frames  # the expression's text, not 'true'
    assert not [f for f in report.findings if f.check == 'laser_offset']  # no branch picked
    (branch,) = [f for f in report.findings if f.check == 'lint_files']
    assert 'robot_description is open(urdf), known only when the launch runs' in branch.message
    # a particle filter fork that names its frames is a possible sender, not '/map' -> '/laser'
    assert not [f for f in report.findings if "'/map'" in f.message]
    assert any('particle_filter' in f.message and 'may send it' in f.message
               for f in report.findings)


NAV = {
    'src/nav/package.xml': package('nav'),
    'src/nav/setup.py': """
        from glob import glob

        from setuptools import setup

        setup(name='nav', data_files=[
            ('share/nav', ['package.xml']),
            ('share/nav/launch', glob('launch/*.py')),
            ('share/nav/params', ['params/nav2_params.yaml']),
        ])
        """,
    'src/nav/params/nav2_params.yaml': """
        /**:
          ros__parameters:
            use_sim_time: false
        amcl:
          ros__parameters:
            base_frame_id: base_link
        local_costmap:
          local_costmap:
            ros__parameters:
              global_frame: odom
        bt_navigator:
          ros__parameters:
            global_frame: map
        /**:
          ros__parameters:
            autostart: true
        amcl:
          ros__parameters:
            global_frame_id: /map
        """,
    'src/nav/launch/localization_launch.py': """
        import os

        from ament_index_python.packages import get_package_share_directory
        from launch import LaunchDescription
        from launch_ros.actions import Node
        from nav2_common.launch import RewrittenYaml

        def generate_launch_description():
            share = get_package_share_directory('nav')
            params = RewrittenYaml(source_file=os.path.join(share, 'params', 'nav2_params.yaml'),
                                   param_rewrites={'use_sim_time': 'false'},
                                   convert_types=True)
            return LaunchDescription([
                Node(package='nav2_amcl', executable='amcl', name='amcl', parameters=[params]),
                Node(package='tf2_ros', executable='static_transform_publisher',
                     arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                Node(package='nav', executable='odometry', name='odometry',
                     parameters=[os.path.join(share, 'config', 'odometry.yaml')]),
                Node(package='nav', executable='odometry', name='odometry_rear',
                     parameters=[os.path.join(share, 'config', 'odometry.yaml')]),
            ])
        """,
    'src/nav/config/odometry.yaml': """
        odometry:
          ros__parameters:
            publish_tf: true
        """,
}


def test_nav2_habits_shared_files_rewritten_yaml_and_what_is_not_installed(tmp_path):
    root = write(tmp_path, NAV)
    report = lint(root, ROVER, ('nav/localization_launch.py',))
    launch = 'src/nav/launch/localization_launch.py'
    params = 'src/nav/params/nav2_params.yaml'
    # RewrittenYaml is followed to its source file; its second amcl block (a key twice) applies
    slash = [f for f in report.findings if f.check == 'transform_values']
    assert [(f.values['file'], f.values['line']) for f in slash] == [
        (params, line_of(root, params, 'global_frame_id: /map'))]
    # blocks for nodes other launch files start, and a costmap inside a server: not reported
    assert not [f for f in report.findings if f.check == 'lint_parameters']
    # config/ is not installed by setup.py: the launch cannot find odometry.yaml there
    (missing,) = [f for f in report.findings if f.check == 'lint_files']  # one, at both places
    first, second = sorted(n for n, line in enumerate(
        (root / launch).read_text().splitlines(), 1) if "'config', 'odometry.yaml'" in line)
    assert missing.values['line'] == first
    assert missing.message.endswith('(and at {}:{})'.format(launch, second))
    assert '<nav>/config/odometry.yaml: its package holds src/nav/config/odometry.yaml but ' \
        'does not install it' in missing.message
    assert str(tmp_path) not in missing.message  # a share path is shown as <package>/path


def test_an_offset_beside_a_node_that_sends_other_edges_is_still_checked(tmp_path):
    root = write(tmp_path, {'launch/l.launch.py': """
        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            return LaunchDescription([
                Node(package='tf2_ros', executable='static_transform_publisher',
                     arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                Node(package='loc', executable='my_loc', parameters=[{
                    'laser_offset_x': 0.3, 'pose_topic': '/pf/viz/inferred_pose',
                    'pose_frame': 'laser'}]),
            ])
        """})
    told = config_from_parameters({'lint.publishers': ['my_loc: map -> odom']})
    (finding,) = [f for f in lint(root, told).findings if f.check == 'pose_frame']
    assert finding.level == 'ERROR' and 'laser_offset_x is 0.3000 m' in finding.message


def test_a_description_that_is_not_utf8_is_named(tmp_path):
    write(tmp_path, {'launch/l.launch.py': """
        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            return LaunchDescription([Node(
                package='robot_state_publisher', executable='robot_state_publisher',
                parameters=[{'robot_description': open('urdf/r.urdf').read()}])])
        """})
    (tmp_path / 'urdf').mkdir()
    (tmp_path / 'urdf' / 'r.urdf').write_bytes('<robot name="r\xe9"/>'.encode('latin-1'))
    (finding,) = [f for f in lint(tmp_path, ROVER).findings if f.check == 'lint_files']
    assert finding.message.startswith('urdf/r.urdf:1: cannot be read (UnicodeDecodeError')


def test_a_python_if_is_followed_where_its_test_is_known(tmp_path):
    root = write(tmp_path, {'launch/l.launch.py': """
        import os

        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            mode = 'real'
            nodes = []
            if mode == 'sim':
                nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                                  arguments=['0.5', '0', '0.11', '0', '0', '0', 'base_link',
                                             'laser']))
            else:
                nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                                  arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link',
                                             'laser']))
            if os.environ.get('WITH_IMU') == '1':
                nodes.append(Node(package='tf2_ros', executable='static_transform_publisher',
                                  arguments=['0', '0', '0', '0', '0', '0', 'base_link', 'imu']))
            return LaunchDescription(nodes)
        """})
    report = lint(root, ROVER)
    assert not [f for f in report.findings if f.check in ('laser_offset', 'parent_uniqueness')]
    frames = {row.frame for row in report.frames}
    assert 'imu' in frames  # a test only the running launch knows: counted as taken


def test_a_urdf_file_with_xacro_markup_goes_through_xacro(tmp_path):
    root = write(tmp_path, {
        'src/car/package.xml': package('car'),
        'src/car/urdf/car.urdf': """
            <?xml version="1.0"?>
            <robot name="car" xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:property name="lidar_x" value="0.30"/>
              <link name="base_link"/>
              <link name="laser"/>
              <joint name="laser_joint" type="fixed">
                <parent link="base_link"/>
                <child link="laser"/>
                <origin xyz="${lidar_x} 0 0.11"/>
              </joint>
            </robot>
            """,
        'src/car/launch/car.launch.yaml': """
            launch:
            - node:
                pkg: robot_state_publisher
                exec: robot_state_publisher
                param:
                - name: robot_description
                  value: $(command 'xacro $(find-pkg-share car)/urdf/car.urdf')
            """})
    report = lint(root, ROVER)
    (finding,) = [f for f in report.findings if f.check == 'laser_offset']
    urdf = 'src/car/urdf/car.urdf'
    assert (finding.values['file'], finding.values['line']) == (
        urdf, line_of(root, urdf, '<joint name="laser_joint"'))
    assert '(0.3000, 0.0000, 0.1100) m' in finding.message


def test_a_composable_node_in_a_yaml_container(tmp_path):
    root = write(tmp_path, {'launch/c.launch.yaml': """
        launch:
        - node_container:
            pkg: rclcpp_components
            exec: component_container
            name: c
            namespace: ''
            composable_node:
            - pkg: nav2_amcl
              plugin: nav2_amcl::AmclNode
              name: amcl
              param:
              - name: odom_frame_id
                value: odom_combined
        """})
    report = lint(root, ROVER)
    tree = {row.frame: row.parents for row in report.frames}
    assert tree['odom_combined'] == ('map',)
    assert any('AMCL amcl (odom_frame_id: odom_combined)' in p
               for row in report.frames for p in row.publishers)


CARTO = {
    'src/carto/package.xml': package('carto'),
    'src/carto/configuration_files/base_2d.lua': """
        include "map_builder.lua"
        options = {
          map_builder = MAP_BUILDER,
          map_frame = "map",
          tracking_frame = "base_link",
          published_frame = "base_link",
          odom_frame = "odom",
          provide_odom_frame = true,
        }
        return options
        """,
    'src/carto/configuration_files/robot_2d.lua': """
        include "base_2d.lua"
        options.provide_odom_frame = false
        options.published_frame = "odom"
        return options
        """,
    'src/carto/launch/carto.launch.py': """
        from launch import LaunchDescription
        from launch_ros.actions import Node
        from launch_ros.substitutions import FindPackageShare

        def generate_launch_description():
            share = FindPackageShare('carto').find('carto')
            return LaunchDescription([
                Node(package='cartographer_ros', executable='cartographer_node',
                     arguments=['-configuration_directory', share + '/configuration_files',
                                '-configuration_basename', 'robot_2d.lua']),
                Node(package='vesc_ackermann', executable='vesc_to_odom_node',
                     parameters=[{'publish_tf': True}]),
                Node(package='tf2_ros', executable='static_transform_publisher',
                     arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
            ])
        """,
}


def test_cartographer_lua_includes_and_option_lines(tmp_path):
    root = write(tmp_path, CARTO)
    report = lint(root, ROVER)
    assert problems(report) == set(), [f.message for f in report.findings]
    rows = {row.frame: row for row in report.frames}
    assert rows['odom'].parents == ('map',)  # robot_2d.lua over base_2d.lua: map -> odom
    lua = 'src/carto/configuration_files/robot_2d.lua'
    assert '{}:{}'.format(lua, line_of(root, lua, 'options.published_frame')) in \
        rows['odom'].publishers[0]


def test_cartographer_without_its_lua_is_a_possible_sender(tmp_path):
    files = dict(CARTO)
    files['src/carto/launch/carto.launch.py'] = files['src/carto/launch/carto.launch.py'] \
        .replace("'robot_2d.lua'", "'missing_2d.lua'")
    report = lint(write(tmp_path, files), ROVER)
    (unread,) = [f for f in report.findings if f.check == 'lint_files']
    assert 'missing_2d.lua: its package carto has no such file' in unread.message  # not 'sets'
    (missing,) = [f for f in report.findings if f.check == 'chain_order']
    assert missing.level == 'WARN' and 'cartographer_node' in missing.message


def test_substitution_conditions_choose_one_lidar_driver(tmp_path):
    root = write(tmp_path, {'src/l/package.xml': package('l'), 'src/l/launch/lasers.launch.py': """
        from launch import LaunchDescription
        from launch.actions import DeclareLaunchArgument
        from launch.conditions import IfCondition
        from launch.substitutions import EqualsSubstitution, LaunchConfiguration, \\
            NotSubstitution
        from launch_ros.actions import Node

        def generate_launch_description():
            sensor = LaunchConfiguration('sensor')
            return LaunchDescription([
                DeclareLaunchArgument('sensor', default_value='ydlidar'),
                Node(package='tf2_ros', executable='static_transform_publisher',
                     condition=IfCondition(EqualsSubstitution(sensor, 'ydlidar')),
                     arguments=['0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                Node(package='tf2_ros', executable='static_transform_publisher',
                     condition=IfCondition(NotSubstitution(EqualsSubstitution(sensor,
                                                                             'ydlidar'))),
                     arguments=['0.30', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
            ])
        """})
    assert problems(lint(root, ROVER)) == {('chain_order', 'WARN', None, None)}  # no odom
    other = lint(root, ROVER, ('l/lasers.launch.py', 'sensor:=ld06'))
    lasers = 'src/l/launch/lasers.launch.py'
    assert ('laser_offset', 'ERROR', lasers, line_of(root, lasers, "'0.30'")) in problems(other)
    assert not [f for f in other.findings if f.check == 'parent_uniqueness']


def test_blocks_for_nodes_switched_off_or_unnamed_and_an_unknown_prefix(tmp_path):
    root = write(tmp_path, {
        'src/v/package.xml': package('v'),
        'src/v/config/vesc.yaml': """
            vesc_to_odom_node:
              ros__parameters:
                publish_tf: true
            """,
        'src/v/config/depth.yaml': """
            depthimage_to_laserscan:
              ros__parameters:
                output_frame: laser
            """,
        'src/v/launch/v.launch.py': """
            import os

            from launch import LaunchDescription
            from launch.actions import DeclareLaunchArgument
            from launch.conditions import IfCondition
            from launch.substitutions import LaunchConfiguration
            from launch_ros.actions import Node

            def generate_launch_description():
                params = 'src/v/config/vesc.yaml'
                return LaunchDescription([
                    DeclareLaunchArgument('odom', default_value='false'),
                    Node(package='vesc_driver', executable='vesc_driver_node',
                         name='vesc_driver_node', parameters=[params]),
                    Node(package='vesc_ackermann', executable='vesc_to_odom_node',
                         name='vesc_to_odom_node', parameters=[params],
                         condition=IfCondition(LaunchConfiguration('odom'))),
                    Node(package='depthimage_to_laserscan',
                         executable='depthimage_to_laserscan_node',
                         parameters=['src/v/config/depth.yaml']),
                    Node(package='robot_state_publisher', executable='robot_state_publisher',
                         parameters=[{'robot_description': open('src/v/r.urdf').read(),
                                      'frame_prefix': os.environ['PREFIX']}]),
                ])
            """,
        'src/v/r.urdf': LIDAR_URDF.format(x=0.26)})
    report = lint(root, ROVER)
    # vesc_to_odom_node's block is right (the node is off by default), and
    # depthimage_to_laserscan is that node's name in its code: neither is a typo
    assert not [f for f in report.findings if f.check == 'lint_parameters']
    (prefix,) = [f for f in report.findings if 'frame_prefix' in f.message]
    assert prefix.check == 'lint_files' and "os.environ['PREFIX']" in prefix.message
    assert 'laser' not in {row.frame for row in report.frames}  # never pasted into names


def test_alternatives_behind_conditions_only_a_run_knows(tmp_path):
    """One edge from either side of an unknown condition is one sender, not two."""
    root = write(tmp_path, {
        'src/alt/package.xml': package('alt'),
        'src/alt/launch/alt.launch.py': """
            import os

            from launch import LaunchDescription
            from launch.conditions import IfCondition, UnlessCondition
            from launch.substitutions import LaunchConfiguration
            from launch_ros.actions import Node

            def generate_launch_description():
                sim = LaunchConfiguration('use_sim')
                odom = []
                if os.environ.get('ODOM') == 'ekf':
                    odom.append(Node(package='robot_localization', executable='ekf_node',
                                     parameters=[{'world_frame': 'odom'}]))
                else:
                    odom.append(Node(package='vesc_ackermann', executable='vesc_to_odom_node',
                                     parameters=[{'publish_tf': True}]))
                return LaunchDescription(odom + [
                    Node(package='tf2_ros', executable='static_transform_publisher',
                         condition=IfCondition(sim), arguments=[
                             '0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                    Node(package='tf2_ros', executable='static_transform_publisher',
                         condition=UnlessCondition(sim), arguments=[
                             '0.26', '0', '0.11', '0', '0', '0', 'base_link', 'laser']),
                ])
            """,
        'src/alt/launch/both.launch.xml': """
            <launch>
              <group if="$(env SIM)">
                <node pkg="tf2_ros" exec="static_transform_publisher"
                      args="0 0 0 0 0 0 map odom"/>
              </group>
              <group unless="$(env SIM)">
                <node pkg="tf2_ros" exec="static_transform_publisher"
                      args="0 0 0 0 0 0 map odom"/>
              </group>
              <include file="$(find-pkg-share alt)/launch/alt.launch.py"/>
            </launch>
            """})
    report = lint(root, ROVER, ('alt/both.launch.xml',))
    assert not [f for f in report.findings if f.check == 'parent_uniqueness'], \
        [f.message for f in report.findings]
    rows = {row.frame: row for row in report.frames}
    assert len(rows['base_link'].publishers) == 2  # both listed: either may run


def test_a_frame_only_an_unfollowed_description_declares_is_named_there(tmp_path):
    root = write(tmp_path, {'src/d/package.xml': package('d'),
                            'src/d/urdf/r.urdf': '<robot name="r">\n  <link name="base_link"/>\n'
                                                 '  <link name="laser"/>\n</robot>\n',
                            'src/d/launch/d.launch.py': """
        import os

        from launch import LaunchDescription
        from launch_ros.actions import Node

        def generate_launch_description():
            urdf = os.path.join('src', 'd', 'urdf', os.environ['MODEL'] + '.urdf')
            return LaunchDescription([
                Node(package='robot_state_publisher', executable='robot_state_publisher',
                     parameters=[{'robot_description': open(urdf).read()}]),
                Node(package='slam_toolbox', executable='async_slam_toolbox_node',
                     parameters=[{'base_frame': 'laser'}])])
        """})
    (finding,) = [f for f in lint(root, ROVER).findings if f.check == 'connectivity']
    assert finding.message.endswith('; laser at src/d/urdf/r.urdf:3 is a link of a robot '
                                    'description that no launch the lint can follow loads, '
                                    'or that cannot be expanded (lint_files says which)')
