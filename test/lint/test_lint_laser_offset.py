# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Where the LiDAR is: its frame, its mount, and the offsets of the nodes that consume its pose.

Which frame is the LiDAR without --config, its mount judged against the measured one or against
the workspace's other files; made-up workspaces, each with its twin.
"""
from pathlib import Path

from frame_audit.cli import main
from frame_audit.engine.config import AuditConfig, config_from_parameters, flatten
from frame_audit.installed import default_config_file
from frame_audit.lint import lint_workspace
from lint_helpers import CAR, cmake, gym_racecar, launch_py, LIDAR_URDF, line_of, lint, package, \
    problems, rsp, share, static_tf, summary, urdf, write


# a racecar whose YDLidar is `lidar`: the F1TENTH `laser` is not its name

def _ydlidar_car(tmp_path: Path, urdf_x: str) -> Path:
    """Write a car whose bringup mounts the LiDAR twice: a static 0.118 m, the URDF's urdf_x."""
    return write(tmp_path / urdf_x, {
        'src/car/package.xml': package('car'),
        'src/car/CMakeLists.txt': cmake('car', 'launch', 'config', 'urdf'),
        'src/car/urdf/car.urdf': urdf('base_link lidar {}'.format(urdf_x),
                                      'base_link camera 0.24'),
        'src/car/config/ydlidar.yaml': 'ydlidar_ros2_driver_node:\n  ros__parameters:\n'
                                       '    frame_id: lidar\n    port: /dev/ydlidar\n',
        'src/car/launch/car.launch.py': launch_py(
            rsp('car', 'car.urdf'), static_tf('base_link', 'lidar', '--x', '0.118'),
            "Node(package='ydlidar_ros2_driver', executable='ydlidar_ros2_driver_node', "
            "name='ydlidar_ros2_driver_node', parameters=[{}])".format(
                share('car', 'config', 'ydlidar.yaml'))),
    })


def test_without_a_config_the_lidar_is_the_frame_the_workspace_names(tmp_path):
    """Two files place base_link → lidar at 0.118 m and 0.15 m: they disagree, said once."""
    root = _ydlidar_car(tmp_path, '0.15')
    report = lint(root)
    (slip,) = [f for f in report.findings if f.check == 'laser_offset']
    assert 'base_link → lidar' in slip.message and '0.15' in slip.message \
        and '0.118' in slip.message, slip.message
    assert 'laser' not in summary(report, 'chain_order').replace('lidar', ''), \
        summary(report, 'chain_order')
    # twin: the files agree, nothing to say; the LiDAR is still the workspace's own
    report = lint(_ydlidar_car(tmp_path, '0.118'))
    assert [f for f in report.findings if f.check == 'laser_offset'] == []
    assert summary(report, 'laser_offset').startswith('base_link → lidar is (0.1180'), \
        summary(report, 'laser_offset')


def _sick_base(tmp_path: Path, frame_id: str) -> Path:
    """Write a SICK S300 base: the description's lidar_1_link and scan_link, the driver's frame."""
    return write(tmp_path / frame_id, {
        'src/base/package.xml': package('base'),
        'src/base/CMakeLists.txt': cmake('base', 'launch', 'config', 'urdf'),
        'src/base/urdf/base.urdf': urdf('base_link lidar_1_link 0.23', 'base_link scan_link 0.1'),
        'src/base/config/s300.yaml': '/**:\n  ros__parameters:\n    frame_id: {}\n'.format(
            frame_id),
        'src/base/launch/bringup.launch.py': launch_py(
            rsp('base', 'base.urdf'),
            "Node(package='neo_sick_s300', executable='neo_sick_s300_node', "
            "name='neo_sick_s300_node', parameters=[{}])".format(
                share('base', 'config', 's300.yaml'))),
    })


def test_the_driver_frame_id_chooses_among_lidar_like_links(tmp_path):
    """Two LiDAR-like links: the driver's frame_id says which; without it, cannot know."""
    report = lint(_sick_base(tmp_path, 'lidar_1_link'))
    assert 'base_link → lidar_1_link is (0.2300' in summary(report, 'laser_offset')
    report = lint(_sick_base(tmp_path, 'imu_link'))  # names neither: the lint cannot choose
    assert 'which frame is the LiDAR cannot be known' in summary(report, 'laser_offset')


def _drone(tmp_path: Path, sensor: str) -> Path:
    """Write a small drone (a Tello's habits) or a TurtleBot-like base, by its one sensor."""
    return write(tmp_path / sensor, {
        'src/bot/package.xml': package('bot'),
        'src/bot/CMakeLists.txt': cmake('bot', 'launch', 'urdf'),
        'src/bot/urdf/bot.urdf': urdf('base_link {} 0.035'.format(sensor)),
        'src/bot/launch/rsp.launch.py': launch_py(rsp('bot', 'bot.urdf')),
    })


def test_a_robot_without_a_lidar_is_not_asked_for_laser(tmp_path):
    """A camera drone: no LiDAR in its files, so the laser checks say they cannot know."""
    report = lint(_drone(tmp_path, 'camera_link'))
    assert [r.level for r in report.checks if r.check == 'laser_offset'] == ['STALE']
    assert 'cannot be known' in summary(report, 'laser_offset')
    assert 'laser' not in summary(report, 'chain_order'), summary(report, 'chain_order')
    assert problems(report) == set()
    # twin: a TurtleBot-like base_scan is its LiDAR, judged by the files
    report = lint(_drone(tmp_path, 'base_scan'))
    assert summary(report, 'laser_offset').startswith('base_link → base_scan is (0.0350')


def _own_car(tmp_path: Path, urdf_x: str, follower_x: str, name: str,
             static_x: str = '') -> Path:
    static = ["Node(package='tf2_ros', executable='static_transform_publisher', arguments=["
              "'{}', '0', '0.11', '0', '0', '0', 'base_link', 'laser'])".format(static_x)] \
        if static_x else []
    return write(tmp_path / name, {
        'src/car/package.xml': package('car'),
        'src/car/urdf/car.urdf': LIDAR_URDF.format(name='car', laser='laser', x=urdf_x),
        'src/car/config/follower.yaml': """
            follower:
              ros__parameters:
                laser_offset_x: {}
            """.format(follower_x),
        'src/car/launch/car.launch.py': launch_py(
            rsp('car', 'car.urdf', name='robot_state_publisher'),
            "Node(package='car', executable='follower', name='follower', parameters=["
            "os.path.join(get_package_share_directory('car'), 'config', 'follower.yaml')])",
            *static),
    })


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


MOUNT = """
import os
import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import OpaqueFunction
from launch_ros.actions import Node


def _setup(context):
    path = {PATH}
    with open(path) as handle:
        mount = yaml.safe_load(handle)['base_link_to_laser']
    return [Node(package='tf2_ros', executable='static_transform_publisher',
                 arguments=['--x', {X}, '--z', {Z},
                            '--frame-id', 'base_link', '--child-frame-id', 'laser'])]


def generate_launch_description():
    return LaunchDescription([OpaqueFunction(function=_setup)])
"""


OWN_MOUNT = "os.path.join(get_package_share_directory('sim_car'), 'config', 'mount.yaml')"


def _sim_car(tmp_path: Path, x: str, z: str, path: str = "'/etc/sim_car/mount.yaml'") -> Path:
    return write(tmp_path / (x.replace("'", '') + str(len(path))), {
        'src/sim_car/package.xml': package('sim_car'),
        'src/sim_car/CMakeLists.txt': cmake('sim_car', 'launch', 'config'),
        'src/sim_car/config/mount.yaml': 'base_link_to_laser:\n  x: 0.27\n  z: 0.11\n',
        'src/sim_car/launch/sim.launch.py': MOUNT.replace('{X}', x).replace('{Z}', z).replace(
            '{PATH}', path),
    })


def _measured() -> AuditConfig:
    """Return the robot's measured mount, as --config gives it: 0.27 m ahead, 0.11 m up."""
    return config_from_parameters(flatten({'frames': {'required': ['base_link', 'laser']},
                                           'laser_offset': {'translation': [0.27, 0.0, 0.11]},
                                           'pose_topics': []}))


def test_frames_written_beside_unknown_numbers_are_declared(tmp_path):
    """base_link → laser is sent, its numbers from a file outside the workspace: unknown."""
    root = _sim_car(tmp_path, "str(mount['x'])", "str(mount['z'])")
    report = lint_workspace(root, _measured())
    assert [f for f in report.findings if f.check == 'chain_order'] == [], \
        [f.message for f in report.findings]
    (said,) = [f for f in report.findings if f.level == 'WARN']
    assert "x is mount['x'], known only when the launch runs" in said.message, said.message
    (offset,) = [c for c in report.checks if c.check == 'laser_offset']
    assert offset.level == 'STALE', offset.message
    assert [f for f in report.findings if f.check == 'laser_offset'] == []


def test_written_numbers_are_judged_against_the_measured_mount(tmp_path):
    """The twins: the mount written out, or read from the package's own mount.yaml."""
    for x, z, path in (("'0.27'", "'0.11'", "'/etc/sim_car/mount.yaml'"),
                       ("str(mount['x'])", "str(mount['z'])", OWN_MOUNT)):
        report = lint_workspace(_sim_car(tmp_path, x, z, path), _measured())
        assert [f.message for f in report.findings if f.level in ('WARN', 'ERROR')] == []
        (offset,) = [c for c in report.checks if c.check == 'laser_offset']
        assert offset.level == 'OK' and '(0.2700, 0.0000, 0.1100)' in offset.message, \
            offset.message


def test_a_lidar_distance_parameter_against_the_description(tmp_path):
    """scan_distance_to_base_link: 0.0 while the description mounts the LiDAR at 0.275 m."""
    root = gym_racecar(tmp_path, 'ego_racecar/', '0.0', laser='laser')
    offsets = [f for f in lint(root, measured=False).findings if f.check == 'pose_frame']
    assert len(offsets) == 1 and offsets[0].level == 'ERROR'
    assert 'scan_distance_to_base_link is 0.0000 m, but base_link → laser has x 0.2750 m' in \
        offsets[0].message and 'racecar.urdf' in offsets[0].message
    assert offsets[0].values['line'] == line_of(root, 'src/gym/config/sim.yaml',
                                                'scan_distance')
    # twin: the simulator scans from where the description mounts the LiDAR
    report = lint(gym_racecar(tmp_path, 'ego_racecar/', '0.275', laser='laser'), measured=False)
    assert not [f for f in report.findings if f.check == 'pose_frame']
