# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Entry points and includes that never end: what `ros2 launch` and cartographer do with them.

A launch file that includes itself, or two that include each other, is still a bringup whose
nodes are checked, and the include that closes the loop is said (`ros2 launch` recurses until
it fails). A cartographer .lua file included twice, by a cycle or by two files, stops
cartographer at startup (LuaInclude's LOG(FATAL) "Tried to include ... twice"): said with both
include lines. Each workspace has a healthy twin that stays quiet.
"""
from pathlib import Path
from typing import Dict

from frame_audit.reports.report import Report
from lint_helpers import cmake, launch_py, line_of, lint, package, parents, problems, share, \
    static_tf, write


def said(report: Report, level: str) -> list:
    """Return the messages of the lint_files findings at one level."""
    return [f.message for f in report.findings if f.check == 'lint_files' and f.level == level]


def installed(name: str, *folders: str) -> Dict[str, str]:
    """Return an ament_cmake package's package.xml and CMakeLists.txt installing these folders."""
    return {'src/{}/package.xml'.format(name): package(name),
            'src/{}/CMakeLists.txt'.format(name): cmake(name, *folders)}


def include(package_name: str, file: str, condition: str = '') -> str:
    """Return a one-line IncludeLaunchDescription(...) text of a file in a package's launch/."""
    return 'IncludeLaunchDescription(PythonLaunchDescriptionSource({}){})'.format(
        share(package_name, 'launch', file), ', condition=' + condition if condition else '')


# -- a launch file that includes itself (a TurtleBot 4 bringup, a copy-and-paste slip) ----------

TB4 = 'src/tb4_bringup/launch/robot.launch.py'


def tb4(tmp_path: Path, included: str) -> Path:
    """Return a TurtleBot 4-like bringup whose robot.launch.py includes the file named."""
    return write(tmp_path, {
        **installed('tb4_bringup', 'launch'),
        TB4: launch_py(static_tf('base_footprint', 'base_link', '--z', '0.01',
                                 name='footprint_tf'),
                       static_tf('base_link', 'oakd_link', '--x', '0.06', '--z', '0.24',
                                 name='oakd_tf'),
                       include('tb4_bringup', included)),
        'src/tb4_bringup/launch/lidar.launch.py': launch_py(
            static_tf('base_link', 'rplidar_link', '--z', '0.19', name='rplidar_tf')),
    })


def test_a_launch_file_that_includes_itself_is_a_bringup_and_said(tmp_path):
    root = tb4(tmp_path, 'robot.launch.py')
    report = lint(root)
    line = line_of(root, TB4, 'PythonLaunchDescriptionSource(os')
    assert problems(report) == {('lint_files', 'ERROR', TB4, line)}, report.findings
    (message,) = said(report, 'ERROR')
    assert message.startswith('{}:{}: includes itself: `ros2 launch`'.format(TB4, line))
    assert parents(report)['oakd_link'] == ('base_link',)  # its nodes are checked
    # lidar.launch.py, which nothing includes now, is a bringup of its own
    assert parents(report)['rplidar_link'] == ('base_link',)


def test_a_launch_file_that_includes_another_is_quiet(tmp_path):
    report = lint(tb4(tmp_path, 'lidar.launch.py'))
    assert problems(report) == set(), report.findings
    assert parents(report)['oakd_link'] == ('base_link',)
    assert parents(report)['rplidar_link'] == ('base_link',)


# -- two launch files that include each other (a Nav2-like bringup and navigation) ----------

NAV = 'src/nav_bringup/launch/bringup_launch.py'
NAVIGATION = 'src/nav_bringup/launch/navigation_launch.py'


def nav(tmp_path: Path, back: str) -> Path:
    """Return a Nav2-like pair: bringup includes navigation, which ends with `back`."""
    return write(tmp_path, {
        **installed('nav_bringup', 'launch'),
        NAV: launch_py(static_tf('base_footprint', 'base_link', '--z', '0.01',
                                 name='footprint_tf'),
                       include('nav_bringup', 'navigation_launch.py')),
        NAVIGATION: launch_py(*filter(None, [
            static_tf('base_link', 'base_scan', '--x', '-0.032', '--z', '0.172', name='scan_tf'),
            back])),
    })


def test_two_launch_files_that_include_each_other_are_checked_and_the_cycle_named(tmp_path):
    root = nav(tmp_path, include('nav_bringup', 'bringup_launch.py'))
    report = lint(root)
    line = line_of(root, NAVIGATION, 'PythonLaunchDescriptionSource(os')
    assert problems(report) == {('lint_files', 'ERROR', NAVIGATION, line)}, report.findings
    (message,) = said(report, 'ERROR')
    assert message.startswith('{}:{}: closes a cycle of includes ({} → {} → {}): `ros2 launch` '
                              'includes it again and again until the launch fails'.format(
                                  NAVIGATION, line, NAV, NAVIGATION, NAV)), message
    # the pair is one bringup (before, none: "no launch file starts a node"), its nodes checked
    assert parents(report) == {'base_footprint': (), 'base_link': ('base_footprint',),
                               'base_scan': ('base_link',)}


def test_a_cycle_under_a_condition_only_the_launch_knows_is_a_warning(tmp_path):
    root = nav(tmp_path, include('nav_bringup', 'bringup_launch.py',
                                 "IfCondition(os.environ['NAV_LOOP'])"))
    report = lint(root)
    line = line_of(root, NAVIGATION, 'PythonLaunchDescriptionSource(os')
    assert problems(report) == {('lint_files', 'WARN', NAVIGATION, line)}, report.findings
    (message,) = said(report, 'WARN')
    assert 'where its condition holds' in message
    assert parents(report)['base_scan'] == ('base_link',)


def test_a_launch_file_included_by_another_is_quiet(tmp_path):
    report = lint(nav(tmp_path, ''))
    assert problems(report) == set(), report.findings
    (files,) = [c.message for c in report.checks if c.check == 'lint_files']
    assert '1 bringup' in files, files
    assert parents(report)['base_scan'] == ('base_link',)


# -- a cartographer .lua file included twice (a TurtleBot3 cartographer config) ---------------

LUA = 'src/tb3_cartographer/config/turtlebot3_lds_2d.lua'
FRAMES = 'src/tb3_cartographer/config/tb3_frames.lua'


def tb3(tmp_path: Path, frames_includes: str) -> Path:
    """Return a TurtleBot3-like cartographer config whose tb3_frames.lua starts so."""
    return write(tmp_path, {
        **installed('tb3_cartographer', 'launch', 'config'),
        'src/tb3_cartographer/launch/cartographer.launch.xml': """
            <launch>
              <node pkg="cartographer_ros" exec="cartographer_node" name="cartographer_node"
                    args="-configuration_directory $(find-pkg-share tb3_cartographer)/config
                          -configuration_basename turtlebot3_lds_2d.lua"/>
              <node pkg="tf2_ros" exec="static_transform_publisher" name="scan_tf"
                    args="--frame-id base_footprint --child-frame-id base_scan --z 0.18"/>
              <node pkg="tf2_ros" exec="static_transform_publisher" name="imu_tf"
                    args="--frame-id base_footprint --child-frame-id imu_link --z 0.07"/>
            </launch>
            """,
        LUA: """
            include "map_builder.lua"
            include "trajectory_builder.lua"
            include "tb3_frames.lua"

            options = options or {}
            options.map_builder = MAP_BUILDER
            options.trajectory_builder = TRAJECTORY_BUILDER
            MAP_BUILDER.use_trajectory_builder_2d = true
            return options
            """,
        FRAMES: frames_includes + """
            options = {
              map_frame = "map",
              tracking_frame = "imu_link",
              published_frame = "odom",
              odom_frame = "odom",
              provide_odom_frame = false,
            }
            """,
    })


def test_a_lua_file_two_files_include_stops_cartographer(tmp_path):
    """map_builder.lua, cartographer's own, included by the top file and by tb3_frames.lua."""
    root = tb3(tmp_path, 'include "map_builder.lua"\n')
    report = lint(root)
    line = line_of(root, FRAMES, 'include "map_builder.lua"')
    assert problems(report) == {('lint_files', 'ERROR', FRAMES, line)}, report.findings
    (message,) = said(report, 'ERROR')
    assert message.startswith('{}:{}: includes map_builder.lua a second time (first at {}:1; '
                              'again at {}:3 → {}:{})'.format(FRAMES, line, LUA, LUA, FRAMES,
                                                              line)), message
    assert 'LOG(FATAL) "Tried to include map_builder.lua twice"' in message
    assert 'odom' not in parents(report)  # cartographer never starts: it sends no frame
    assert parents(report)['base_scan'] == ('base_footprint',)


def test_a_lua_file_that_includes_the_top_file_stops_cartographer(tmp_path):
    """tb3_frames.lua includes turtlebot3_lds_2d.lua: its includes run again, the first fails."""
    root = tb3(tmp_path, 'include "turtlebot3_lds_2d.lua"\n')
    (message,) = said(lint(root), 'ERROR')
    assert message.startswith('{}:1: includes map_builder.lua a second time (first at {}:1; '
                              'again at {}:3 → {}:1 → {}:1)'.format(LUA, LUA, LUA, FRAMES, LUA)), \
        message


def test_a_lua_file_each_file_included_once_is_quiet(tmp_path):
    report = lint(tb3(tmp_path, ''))
    assert problems(report) == set(), report.findings
    assert parents(report)['odom'] == ('map',)
    assert parents(report)['base_scan'] == ('base_footprint',)
