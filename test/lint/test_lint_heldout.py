# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on eight workspaces held out of its tuning (issue 20): each false alarm or miss.

Made-up workspaces from the habits met there: a racecar whose YDLidar is `lidar`, a SICK base
whose driver names `lidar_1_link`, a camera drone with no LiDAR at all, a Neobotix-like bringup
that writes frame_prefix as namespace + '/' with no namespace, an underwater vehicle that runs
static_transform_publisher through ExecuteProcess, a mobile manipulator whose xacro includes a
base package the workspace lacks, a localizer with two frames of one tree nothing connects.
Each has the twin that fires and the twin that stays quiet. No --config: a new user's run.
"""
from pathlib import Path
from typing import Dict

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, package, problems, share, write


def lint(root: Path) -> Report:
    """Lint as a new user would: no --config, the workspace judged by itself."""
    return lint_workspace(root, AuditConfig(), measured=False)


def check(report: Report, name: str) -> str:
    """Return a check's summary line."""
    (line,) = [c.message for c in report.checks if c.check == name]
    return line


def static(x: str, parent: str, child: str) -> str:
    """Return a static_transform_publisher Node(...) text."""
    return ("Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--x', '{}', '--frame-id', '{}', '--child-frame-id', '{}'])".format(
                x, parent, child))


def urdf(*joints: str) -> str:
    """Return a URDF of fixed joints, each 'parent child x'."""
    links = {name for joint in joints for name in joint.split()[:2]}
    return '<?xml version="1.0"?>\n<robot name="r">\n{}{}</robot>\n'.format(
        ''.join('  <link name="{}"/>\n'.format(link) for link in sorted(links)),
        ''.join('  <joint name="{1}_joint" type="fixed"><parent link="{0}"/><child link="{1}"/>'
                '<origin xyz="{2} 0 0"/></joint>\n'.format(*joint.split())
                for joint in joints))


def rsp(package_name: str, file: str) -> str:
    """Return a robot_state_publisher Node(...) reading a URDF of the package by open()."""
    return ("Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': open({}).read()}}])".format(
                share(package_name, 'urdf', file)))


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
            rsp('car', 'car.urdf'), static('0.118', 'base_link', 'lidar'),
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
    assert 'laser' not in check(report, 'chain_order').replace('lidar', ''), \
        check(report, 'chain_order')
    # twin: the files agree, nothing to say; the LiDAR is still the workspace's own
    report = lint(_ydlidar_car(tmp_path, '0.118'))
    assert [f for f in report.findings if f.check == 'laser_offset'] == []
    assert check(report, 'laser_offset').startswith('base_link → lidar is (0.1180'), \
        check(report, 'laser_offset')


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
    assert 'base_link → lidar_1_link is (0.2300' in check(report, 'laser_offset')
    report = lint(_sick_base(tmp_path, 'imu_link'))  # names neither: the lint cannot choose
    assert 'which frame is the LiDAR cannot be known' in check(report, 'laser_offset')


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
    assert 'cannot be known' in check(report, 'laser_offset')
    assert 'laser' not in check(report, 'chain_order'), check(report, 'chain_order')
    assert problems(report) == set()
    # twin: a TurtleBot-like base_scan is its LiDAR, judged by the files
    report = lint(_drone(tmp_path, 'base_scan'))
    assert check(report, 'laser_offset').startswith('base_link → base_scan is (0.0350')


# a Neobotix-like bringup: frame_prefix is namespace + '/', and the namespace is empty

NEO_LAUNCH = """
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.launch_context import LaunchContext
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    robot_namespace = LaunchConfiguration('robot_namespace', default='{ns}')
    context = LaunchContext()
    urdf = os.path.join(get_package_share_directory('neo_base'), 'urdf', 'base.urdf')
    with open(urdf, 'r') as infp:
        robot_desc = infp.read()
    return LaunchDescription([
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             namespace=robot_namespace,
             parameters=[{{'robot_description': robot_desc,
                          'frame_prefix': robot_namespace.perform(context) + '/'}}]),
        {static}
    ])
"""


def _neo(tmp_path: Path, static_parent: str) -> Path:
    """Write the base with frame_prefix namespace + '/', and a static edge from static_parent."""
    return write(tmp_path / static_parent.strip('/'), {
        'src/neo_base/package.xml': package('neo_base'),
        'src/neo_base/CMakeLists.txt': cmake('neo_base', 'launch', 'urdf'),
        'src/neo_base/urdf/base.urdf': urdf('base_link base_footprint 0',
                                            'base_footprint wheel_left_link 0.1'),
        'src/neo_base/launch/bringup.launch.py': NEO_LAUNCH.format(
            ns='', static=static('0', static_parent, 'imu_link') + ','),
    })


def test_a_bare_slash_frame_prefix_is_the_unprefixed_tree(tmp_path):
    """frame_prefix '/' (no namespace) sends /base_link; tf2 strips it: no finding at all."""
    report = lint(_neo(tmp_path, 'base_link'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['base_footprint'] == ('base_link',)
    # twin: a slash written by hand in a static publisher is still said, at its line
    root = _neo(tmp_path, '/base_link')
    file = 'src/neo_base/launch/bringup.launch.py'
    assert problems(lint(root)) == {('transform_values', 'WARN', file,
                                     line_of(root, file, "'/base_link'"))}


# an underwater vehicle that runs static_transform_publisher through ExecuteProcess

AUV_LAUNCH = """
import math

from launch import LaunchDescription
from launch.actions import ExecuteProcess


def generate_launch_description():
    return LaunchDescription([
        ExecuteProcess(cmd=['ardusub', '-S', '-w', '-M', 'JSON'], output='screen'),
        ExecuteProcess(
            cmd=['/opt/ros/humble/lib/tf2_ros/static_transform_publisher',
                 '--x', '-0.15', '--z', '-0.0675', '--pitch', str(math.pi / 2),
                 '--frame-id', 'base_link', '--child-frame-id', '{child}'],
            output='screen'),
        ExecuteProcess(cmd=['ros2', 'run', 'tf2_ros', 'static_transform_publisher',
                            '--frame-id', 'map', '--child-frame-id', 'slam']),
    ])
"""


def _auv(tmp_path: Path, child: str) -> Path:
    """Write an AUV bringup whose camera mount is a process, not a Node."""
    return write(tmp_path / child, {
        'src/auv/package.xml': package('auv'),
        'src/auv/launch/bringup.launch.py': AUV_LAUNCH.format(child=child),
    })


def test_a_static_publisher_run_as_a_process_is_read(tmp_path):
    """ExecuteProcess(cmd=[.../static_transform_publisher ...]) sends its edge, pitch and all."""
    report = lint(_auv(tmp_path, 'left_camera_link'))
    rows = {row.frame: row.parents for row in report.frames}
    assert rows['left_camera_link'] == ('base_link',) and rows['slam'] == ('map',), rows
    assert problems(report) == set(), [f.message for f in report.findings]
    # twin: the same process giving base_link as its own child is dropped by tf2: an ERROR
    root = _auv(tmp_path, 'base_link')
    file = 'src/auv/launch/bringup.launch.py'
    assert problems(lint(root)) == {('transform_values', 'ERROR', file,
                                     line_of(root, file, "'base_link', '--child-frame-id'"))}


# a mobile manipulator whose xacro includes a base package the workspace lacks

ARM_ON_BASE = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="moma">
  <xacro:include filename="$(find agv_description)/urdf/agv.urdf.xacro"/>
  <link name="mount_link"/>
  <joint name="mount_joint" type="fixed">
    <parent link="base_link"/><child link="mount_link"/><origin xyz="0 0 0.35"/>
  </joint>
</robot>
"""


def _moma(tmp_path: Path, with_base: bool) -> Path:
    """Write the arm's description over a base package, in the workspace or not."""
    files: Dict[str, str] = {
        'src/moma/package.xml': package('moma'),
        'src/moma/CMakeLists.txt': cmake('moma', 'launch', 'urdf'),
        'src/moma/urdf/moma.urdf.xacro': ARM_ON_BASE,
        'src/moma/launch/rsp.launch.py': launch_py(
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{{'robot_description': Command(['xacro ', {}])}}])".format(
                share('moma', 'urdf', 'moma.urdf.xacro')),
            imports='from launch.substitutions import Command\n'),
    }
    if with_base:
        files.update({
            'src/agv_description/package.xml': package('agv_description'),
            'src/agv_description/CMakeLists.txt': cmake('agv_description', 'urdf'),
            'src/agv_description/urdf/agv.urdf.xacro':
                '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                '<link name="base_link"/></robot>\n'})
    return write(tmp_path / str(with_base), files)


def test_a_package_missing_for_xacro_is_said_once(tmp_path):
    """A XacroException wraps its error and repeats it: say what is missing, once."""
    report = lint(_moma(tmp_path, False))
    (unread,) = [f.message for f in report.findings if f.check == 'lint_files']
    assert unread.count('package agv_description is not in the workspace') == 1, unread
    assert '<class' not in unread
    # twin: the base package in the workspace, the description is read and quiet
    report = lint(_moma(tmp_path, True))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['mount_link'] == ('base_link',)


# a localizer whose parameters name two frames of one tree nothing connects to the base

def _localizer(tmp_path: Path, joined: bool) -> Path:
    """Write a visual localizer's frames: slam → down static, slam joined to odom or not."""
    nodes = [static('0', 'slam', 'down'), static('0', 'odom', 'base_link'),
             "Node(package='vslam', executable='localizer', name='localizer', "
             'parameters=[{}])'.format(share('sub', 'config', 'localizer.yaml'))]
    if joined:
        nodes.append(static('0', 'odom', 'slam'))
    return write(tmp_path / str(joined), {
        'src/sub/package.xml': package('sub'),
        'src/sub/CMakeLists.txt': cmake('sub', 'launch', 'config'),
        'src/sub/config/localizer.yaml': 'localizer:\n  ros__parameters:\n'
                                         '    base_frame_id: base_link\n'
                                         '    slam_frame_id: slam\n    down_frame_id: down\n',
        'src/sub/launch/sub.launch.py': launch_py(*nodes),
    })


def test_one_unconnected_tree_is_one_finding(tmp_path):
    """Two frames in one tree apart from base_link (slam, down): one finding names both."""
    root = _localizer(tmp_path, False)
    found = [f for f in lint(root).findings if f.check == 'connectivity']
    assert len(found) == 1, [f.message for f in found]
    assert "localizer's slam_frame_id is slam" in found[0].message \
        and "localizer's down_frame_id down" in found[0].message, found[0].message
    # twin: odom → slam joins the trees, nothing to say
    report = lint(_localizer(tmp_path, True))
    assert [f for f in report.findings if f.check == 'connectivity'] == []


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
