# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The files launch files name, as a built workspace holds them, on made-up workspaces with twins.

A file its package holds but does not install, a name no file has, a path joined so that it
leads elsewhere.
"""
from pathlib import Path

from lint_helpers import cmake, launch_py, lint, only_problem, package, parents, problems, share, \
    summary, write


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
    assert parents(report)['odom'] == ('map',)
    assert parents(report)['base_footprint'] == ('odom',)


# a tracked tractor in Gazebo: its controllers come from the description's gz_ros2_control plugin

TRACTOR_URDF = """
<robot name="tractor">
  <link name="base_link"/>
  <link name="left_track"/>
  <link name="right_track"/>
  <joint name="left_track_joint" type="continuous">
    <parent link="base_link"/><child link="left_track"/><origin xyz="0 0.35 0"/>
  </joint>
  <joint name="right_track_joint" type="continuous">
    <parent link="base_link"/><child link="right_track"/><origin xyz="0 -0.35 0"/>
  </joint>
  <gazebo>
    <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin">
      <parameters>$(find tractor_sim)/config/controllers.yaml</parameters>
    </plugin>
  </gazebo>
</robot>
"""

TRACTOR_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import Command
from launch_ros.actions import Node


def generate_launch_description():
    urdf = os.path.join(get_package_share_directory('tractor_sim'), 'urdf', 'tractor.urdf')
    return LaunchDescription([
        IncludeLaunchDescription(PythonLaunchDescriptionSource(os.path.join(
            get_package_share_directory('ros_gz_sim'), 'launch', 'gz_sim.launch.py'))),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             parameters=[{'robot_description': Command(['xacro ', urdf])}]),
        Node(package='ros_gz_sim', executable='create', arguments=['-topic', 'robot_description']),
        Node(package='controller_manager', executable='spawner', arguments=['tracks']),
    ])
"""


def _tractor(tmp_path: Path, installed: str) -> Path:
    return write(tmp_path / installed.replace(' ', '_'), {
        'src/tractor_sim/package.xml': package('tractor_sim'),
        'src/tractor_sim/CMakeLists.txt': cmake('tractor_sim', installed),
        'src/tractor_sim/urdf/tractor.urdf': TRACTOR_URDF,
        'src/tractor_sim/config/controllers.yaml': """
            controller_manager:
              ros__parameters:
                update_rate: 50
                tracks:
                  type: diff_drive_controller/DiffDriveController
            tracks:
              ros__parameters:
                left_wheel_names: [left_track_joint]
                right_wheel_names: [right_track_joint]
                odom_frame_id: odom
                base_frame_id: base_link
            """,
        'src/tractor_sim/launch/sim.launch.py': TRACTOR_LAUNCH,
    })


def test_a_gazebo_controller_file_its_package_does_not_install_is_said(tmp_path):
    """$(find tractor_sim)/config/...: CMake installs launch and urdf only: no controllers."""
    root = _tractor(tmp_path, 'launch urdf')
    report = lint(root)
    said = only_problem(report, root, 'lint_files', 'WARN',
                        'src/tractor_sim/launch/sim.launch.py', "package='robot_state_publisher'")
    assert 'config/controllers.yaml but does not install it' in said.message, said.message
    assert parents(report)['base_link'] == ()  # the controller's odom → base_link never runs
    # twin: config installed too: the controller's odom → base_link is read, nothing said
    report = lint(_tractor(tmp_path, 'launch urdf config'))
    assert problems(report) == set(), report.findings
    assert parents(report)['base_link'] == ('odom',)


# A file handed to an include the lint cannot follow (slam_toolbox's own launch file) is still
# the user's: a path into their package that its setup.py never installs leads to nothing.

SLAM_INCLUDE = launch_py(
    'IncludeLaunchDescription(PythonLaunchDescriptionSource(PathJoinSubstitution(['
    "FindPackageShare('slam_toolbox'), 'launch', 'online_async_launch.py'])), "
    "launch_arguments={'slam_params_file': PathJoinSubstitution(["
    "FindPackageShare('dome_bot'), 'config', 'slam.yaml'])}.items())",
    imports='from launch.substitutions import PathJoinSubstitution\n'
            'from launch_ros.substitutions import FindPackageShare\n')


def _diff_drive(root: Path, installed: str) -> Path:
    """Write a linorobot-like package whose setup.py installs these folders' files."""
    setup = ('from glob import glob\nfrom setuptools import setup\n\n'
             "package_name = 'dome_bot'\n\nsetup(\n    name=package_name,\n"
             '    data_files=[{}],\n)\n'
             .format(', '.join("('share/' + package_name + '/{0}', glob('{0}/*'))".format(folder)
                               for folder in installed.split())))
    return write(root, {
        'src/dome_bot/package.xml': package('dome_bot'),
        'src/dome_bot/setup.py': setup,
        'src/dome_bot/config/slam.yaml': 'slam_toolbox:\n  ros__parameters:\n'
                                         '    base_frame: base_footprint\n',
        'src/dome_bot/launch/slam.launch.py': SLAM_INCLUDE,
    })


def _not_installed(root: Path):
    report = lint(root)
    return [f for f in report.findings if f.check == 'lint_files' and 'slam.yaml' in f.message]


def test_a_file_handed_to_an_include_the_package_never_installs_is_said(tmp_path):
    (finding,) = _not_installed(_diff_drive(tmp_path, 'launch'))
    assert finding.level == 'WARN'
    assert 'slam_params_file:=<dome_bot>/config/slam.yaml given to <slam_toolbox>/launch/' \
        'online_async_launch.py: its package holds src/dome_bot/config/slam.yaml but does not ' \
        'install it' in finding.message


def test_a_file_handed_to_an_include_the_package_installs_is_quiet(tmp_path):
    assert not _not_installed(_diff_drive(tmp_path, 'launch config'))


# a racecar localization launch whose EKF file is joined as '/ekf.yaml'

def _rooted_ekf(tmp_path: Path, part: str) -> Path:
    """Write the EKF's launch: its file joined as os.path.join(share, 'config', part)."""
    return write(tmp_path / part.strip('/'), {
        'src/car/package.xml': package('car'),
        'src/car/CMakeLists.txt': cmake('car', 'launch', 'config'),
        'src/car/config/ekf.yaml': '/**:\n  ros__parameters:\n    publish_tf: true\n'
                                   '    odom_frame: odom\n    base_link_frame: base_link\n'
                                   '    world_frame: odom\n',
        'src/car/launch/localization.launch.py': launch_py(
            "Node(package='robot_localization', executable='ekf_node', namespace='vehicle', "
            "name='ekf_filter_node_odom', parameters=[os.path.join("
            "get_package_share_directory('car'), 'config', {!r})])".format(part)),
    })


def test_a_rooted_part_in_os_path_join_is_named(tmp_path):
    """os.path.join(share, 'config', '/ekf.yaml') is '/ekf.yaml': the lint says why, and how."""
    report = lint(_rooted_ekf(tmp_path, '/ekf.yaml'))
    (missing,) = [f.message for f in report.findings if f.check == 'lint_files']
    assert "drops every folder before a part that starts with '/': write 'ekf.yaml'" in \
        missing and 'src/car/config/ekf.yaml is in the workspace' in missing, missing
    # twin: joined as 'ekf.yaml', the file is read and the EKF sends odom → base_link
    report = lint(_rooted_ekf(tmp_path, 'ekf.yaml'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['base_link'] == ('odom',)


# a package that installs launch/*.launch.py, and keeps old launch files it does not install

EKF_BLOCK = 'ekf_filter_node:\n  ros__parameters:\n    two_d_mode: true\n'


def _kept(tmp_path: Path, folder: str) -> Path:
    """Write a launch file under folder that names an uninstalled file and executable."""
    return write(tmp_path / folder.replace('/', '_'), {
        'src/rover/package.xml': package('rover'),
        'src/rover/setup.py': """
            from glob import glob
            from setuptools import setup
            setup(name='rover', packages=['rover'],
                  data_files=[('share/rover/launch', glob('launch/*.launch.py')),
                              ('share/rover/config', ['config/ekf.yaml'])],
                  entry_points={'console_scripts': ['odom = rover.odom:main']})
            """,
        'src/rover/config/ekf.yaml': EKF_BLOCK,
        'src/rover/config/ekf_old.yaml': EKF_BLOCK,
        'src/rover/{}/old.launch.py'.format(folder): launch_py(
            "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
            "parameters=[os.path.join(get_package_share_directory('rover'), 'config', "
            "'ekf_old.yaml')])",
            "Node(package='rover', executable='old_odom', name='old_odom')"),
    })


def test_a_launch_file_its_package_does_not_install_is_not_judged_by_the_install(tmp_path):
    """
    A deprecated folder the package's glob leaves out: `ros2 launch` cannot find its files.

    What they name in the install space (a file, an executable) is no claim about a launch
    anyone runs; the summary says which files were so read. The twin: the same file in
    launch/, installed, gets both findings.
    """
    report = lint(_kept(tmp_path, 'launch/deprecated'))
    assert not [f for f in report.findings if f.check in ('lint_files', 'lint_nodes')], \
        report.findings
    (files,) = [c for c in report.checks if c.check == 'lint_files']
    assert 'launch files their packages do not install' in files.message
    assert 'src/rover/launch/deprecated/old.launch.py' in files.message
    report = lint(_kept(tmp_path, 'launch'))
    found = {f.check: f.message for f in report.findings}
    assert 'its package holds src/rover/config/ekf_old.yaml but does not install it' \
        in found['lint_files']
    assert "installs no executable 'old_odom'" in found['lint_nodes']
    (files,) = [c for c in report.checks if c.check == 'lint_files']
    assert 'do not install' not in files.message


def _rovers(tmp_path: Path, ignored: bool) -> Path:
    """Write a rover's bringup and a simulator package, colcon-ignored or not, sending twice."""
    double = launch_py("Node(package='tf2_ros', executable='static_transform_publisher', "
                       "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_link'])",
                       "Node(package='tf2_ros', executable='static_transform_publisher', "
                       "arguments=['--frame-id', 'map', '--child-frame-id', 'base_link'])")
    root = write(tmp_path / str(ignored), {
        'src/rover/package.xml': package('rover'),
        'src/rover/CMakeLists.txt': cmake('rover', 'launch'),
        'src/rover/launch/rover.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'base_link', '--child-frame-id', 'laser'])"),
        'src/rover_gazebo/package.xml': package('rover_gazebo'),
        'src/rover_gazebo/CMakeLists.txt': cmake('rover_gazebo', 'launch'),
        'src/rover_gazebo/launch/sim.launch.py': double})
    if ignored:
        (root / 'src/rover_gazebo/COLCON_IGNORE').touch()
    return root


def test_a_package_colcon_ignores_is_not_read_and_said(tmp_path):
    """
    Read nothing below a folder holding COLCON_IGNORE: colcon never builds it (osr_gazebo).

    Its launch files cannot run, so their two parents of base_link are no finding; the
    summary names the folder. The twin: the same package built gets its ERROR.
    """
    report = lint(_rovers(tmp_path, True))
    assert problems(report) == set(), report.findings
    assert 'COLCON_IGNORE): src/rover_gazebo' in summary(report, 'lint_files')
    report = lint(_rovers(tmp_path, False))
    assert [f.level for f in report.findings if f.check == 'parent_uniqueness'] == ['ERROR']
