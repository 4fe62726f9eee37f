# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on twelve more unseen workspaces (issue 20, round 5): false alarms quiet, misses found.

Made-up workspaces, each drawn from a habit met there: a mower whose launch reads its frames
from a YAML file inside an OpaqueFunction, a buggy running the F1TENTH particle filter beside
its LiDAR mount, a team driving the gym simulator from another workspace, warehouse AMRs with
one parameter block per robot in one file, a tracked base whose setup.py leaves its .lua out,
a ROS 1 habit in a static transform, and a GPS boat's misspelled executable. Each has the twin
that still fires, or the healthy twin that stays quiet.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, package, problems, share, write


def lint(root: Path) -> Report:
    """Lint a made-up workspace as a new user would: no --config, judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


def _parents(report: Report) -> dict:
    return {row.frame: row.parents for row in report.frames}


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
        DeclareLaunchArgument('mower', default_value=os.path.join(
            get_package_share_directory('mower_bringup'), 'config', 'mower.yaml')),
        OpaqueFunction(function=setup),
    ])
"""


def _mower(tmp_path: Path, world: str) -> Path:
    return write(tmp_path / world.split("'")[3].replace('[', '_').strip(']'), {
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
        'src/mower_bringup/launch/mower.launch.py': MOWER_LAUNCH.replace('{WORLD}', world),
    })


def test_a_frame_known_only_at_launch_makes_the_edge_unknown_not_a_traceback(tmp_path):
    """world_frame: mower['frames']['map'] is the launch's to know: the EKF may send anything."""
    report = lint(_mower(tmp_path, "{'world_frame': mower['frames']['map'], 'publish_tf': True}"))
    assert 'map' not in _parents(report).get('odom', ())  # never its defaults
    said = ' '.join(f.message for f in report.findings)
    assert 'ekf_global' in said and 'may send it' in said, report.findings
    assert not [f for f in report.findings if f.level == 'ERROR'], report.findings
    # twin: the frame written out, the EKF's map → odom is declared; what stays unsaid is
    # odom → base_link, and nothing else could send it now: an ERROR at base_link_frame
    root = _mower(tmp_path, "{'world_frame': 'map', 'publish_tf': True}")
    report = lint(root)
    assert _parents(report)['odom'] == ('map',)
    ekf = 'src/mower_bringup/config/ekf_global.yaml'
    assert problems(report) == {('connectivity', 'ERROR', ekf,
                                 line_of(root, ekf, 'base_link_frame'))}, report.findings


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
    assert _parents(report)['laser'] == ('base_link',)


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


# a tracked base whose setup.py installs config/*.yaml, and its cartographer .lua

def _tracked(tmp_path: Path, installed: str, lua: str = 'tracks.lua') -> Path:
    return write(tmp_path / (installed.replace('*', 'all') + lua), {
        'src/tracks/package.xml': package('tracks'),
        'src/tracks/setup.py': """
            import os
            from glob import glob
            from setuptools import setup
            setup(name='tracks', data_files=[
                ('share/tracks/launch', glob('launch/*.py')),
                ('share/tracks/config', glob('config/{}')),
            ])
            """.format(installed),
        'src/tracks/config/tracks.lua': """
            options = {
              map_frame = "map",
              odom_frame = "odom",
              provide_odom_frame = true,
              published_frame = "base_footprint",
              tracking_frame = "base_footprint",
              use_odometry = false,
            }
            return options
            """,
        'src/tracks/launch/carto.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', "
            "arguments=['-configuration_directory', {}, '-configuration_basename', {!r}])"
            .format(share('tracks', 'config'), lua)),
    })


def test_a_file_the_package_holds_but_does_not_install_is_said_so(tmp_path):
    """The source has config/tracks.lua; glob('config/*.yaml') leaves it out of the share."""
    report = lint(_tracked(tmp_path, '*.yaml'))
    (lua,) = [f for f in report.findings if f.check == 'lint_files']
    assert 'its package holds src/tracks/config/tracks.lua but does not install it' \
        in lua.message and 'a path to nothing' in lua.message
    # twin: a name the package has no file of is said as such
    report = lint(_tracked(tmp_path, '*', lua='track.lua'))
    (lua,) = [f for f in report.findings if f.check == 'lint_files']
    assert 'its package tracks has no such file' in lua.message
    # healthy twin: installed, read: map → odom → base_footprint from its options, no finding
    report = lint(_tracked(tmp_path, '*'))
    assert problems(report) == set(), report.findings
    assert _parents(report)['odom'] == ('map',)
    assert _parents(report)['base_footprint'] == ('odom',)


# a ROS 1 habit: '--disable-stdin' after the frames of a static transform

def _mount(tmp_path: Path, extra: str) -> Path:
    return write(tmp_path / ('flag' if extra else 'plain'), {
        'src/kart/package.xml': package('kart'),
        'src/kart/launch/mounts.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
            "'0.29', '0.0', '0.1', '0.0', '0.0', '0.0', 'base_link', 'lidar'{}])".format(extra)),
    })


def test_a_ros1_flag_in_a_static_transform_stops_the_publisher(tmp_path):
    """Nine words read as x y z qx qy qz qw parent child: qw is 'base_link', it exits."""
    report = lint(_mount(tmp_path, ", '--disable-stdin'"))
    (flag,) = [f for f in report.findings if f.check == 'lint_files']
    assert "qw is 'base_link', not a number: static_transform_publisher stops there and " \
        'sends nothing' in flag.message
    assert 'lidar' not in _parents(report)
    # healthy twin: eight words, the mount is declared
    report = lint(_mount(tmp_path, ''))
    assert problems(report) == set(), report.findings
    assert _parents(report)['lidar'] == ('base_link',)


# a GPS boat: robot_localization's executables, one misspelled

def _boat(tmp_path: Path, executable: str, package_name: str = 'robot_localization') -> Path:
    return write(tmp_path / executable, {
        'src/boat/package.xml': package('boat'),
        'src/boat/launch/gps.launch.py': launch_py(
            "Node(package={!r}, executable={!r}, name='navsat')".format(package_name,
                                                                        executable)),
    })


def test_a_misspelled_executable_of_a_known_package_stops_the_launch(tmp_path):
    """navsat_trasnform_node is no executable of robot_localization: ros2 launch stops."""
    root = _boat(tmp_path, 'navsat_trasnform_node')
    (slip,) = [f for f in lint(root).findings if f.check == 'lint_nodes']
    assert "robot_localization has no executable 'navsat_trasnform_node': did you mean " \
        "'navsat_transform_node'?" in slip.message
    assert slip.values['line'] == line_of(root, 'src/boat/launch/gps.launch.py', 'navsat_tras')
    # healthy twins: the real name; and a team's own package, whose executables nobody lists
    assert not [f for f in lint(_boat(tmp_path, 'navsat_transform_node')).findings
                if f.check == 'lint_nodes']
    assert not [f for f in lint(_boat(tmp_path, 'navsat_transfrom', 'boat')).findings
                if f.check == 'lint_nodes']
