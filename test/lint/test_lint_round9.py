# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the lint says of a required frame when the user names the bringups (issue 20, round 9).

A racecar team starts its base bringup and, by hand beside it, its SLAM launch file; given
only the bringup with --launch and a config that requires map, "map is in no declared
transform" was an ERROR (exit 1) though a launch file of the workspace sends it. It is a WARN
naming that launch file (or the node in it whose transforms the lint cannot read); where no
launch file of the workspace sends map, the ERROR stays.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import Level
from frame_audit.lint import lint_workspace
from lint_helpers import cmake, launch_py, package, write

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
    report = lint_workspace(root, AuditConfig(), ['car_bringup/base.launch.py'], measured=True)
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


def test_a_map_no_launch_file_of_the_workspace_sends_is_still_an_error(tmp_path):
    (finding,), report = _map_missing(_racecar(tmp_path, TELEOP))
    assert finding.level == 'ERROR' and 'map is in no declared transform' in finding.message
    assert report.worst() is Level.ERROR  # exit 1


# An ament_python package's executables are its setup.py console_scripts (a racecar's state
# estimator whose entry point was never added: `ros2 launch` stops at "executable not found").

def _estimator(root: Path, entry_points: str, extra: str = '') -> Path:
    """Write an ament_python state estimator and the launch file that starts carstate_node."""
    setup = ("from setuptools import setup\n\npackage_name = 'state_estimation'\n\n"
             'setup(\n    name=package_name,\n    packages=[package_name],\n'
             "    data_files=[('share/' + package_name + '/launch', ['launch/ekf.launch.py'])],\n"
             '    entry_points={},\n{})\n'.format(entry_points, extra))
    return write(root, {
        'src/state_estimation/package.xml': package('state_estimation'),
        'src/state_estimation/setup.py': setup,
        'src/state_estimation/launch/ekf.launch.py': launch_py(
            "Node(package='state_estimation', executable='carstate_node', name='carstate')"),
    })


def _unbuilt(root: Path):
    report = lint_workspace(root, AuditConfig(), (), measured=False)
    return [f for f in report.findings if f.check == 'lint_nodes' and f.level == 'WARN']


def test_an_entry_point_setup_py_never_declares_is_said(tmp_path):
    (finding,) = _unbuilt(_estimator(tmp_path, "{'console_scripts': []}"))
    assert "state_estimation's setup.py (console_scripts) installs no executable " \
        "'carstate_node' (it installs none)" in finding.message
    assert finding.values['file'] == 'src/state_estimation/launch/ekf.launch.py'


def test_an_entry_point_setup_py_declares_is_quiet(tmp_path):
    assert not _unbuilt(_estimator(tmp_path, "{'console_scripts': ["
                                             "'carstate_node = state_estimation.carstate:main']}"))


def test_entry_points_the_lint_cannot_read_are_no_finding(tmp_path):
    """Built at run time, or beside `scripts=`: the lint cannot know what is installed."""
    assert not _unbuilt(_estimator(tmp_path, 'make_entry_points()'))
    assert not _unbuilt(_estimator(tmp_path, "{'console_scripts': []}",
                                   "    scripts=['scripts/carstate_node'],\n"))


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
    report = lint_workspace(root, AuditConfig(), (), measured=False)
    return [f for f in report.findings if f.check == 'lint_files' and 'slam.yaml' in f.message]


def test_a_file_handed_to_an_include_the_package_never_installs_is_said(tmp_path):
    (finding,) = _not_installed(_diff_drive(tmp_path, 'launch'))
    assert finding.level == 'WARN'
    assert 'slam_params_file:=<dome_bot>/config/slam.yaml given to <slam_toolbox>/launch/' \
        'online_async_launch.py: its package holds src/dome_bot/config/slam.yaml but does not ' \
        'install it' in finding.message


def test_a_file_handed_to_an_include_the_package_installs_is_quiet(tmp_path):
    assert not _not_installed(_diff_drive(tmp_path, 'launch config'))
