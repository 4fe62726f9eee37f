# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint tests' one helper module: made-up workspaces, the lint run on them, and its report read.

Workspaces are written from small texts (package.xml, CMakeLists.txt, launch files, Node(...)
lines, URDFs), then collected and planned as the pipeline does, or linted whole: in this process
(`lint`) or as a user runs it (`lint_child`). The last section holds the few made-up robots
that tests of more than one file write.
"""
import ast
import os
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile
import textwrap
from typing import Dict, Mapping, Optional, Sequence, Set, Tuple, Union

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.lint.bringups.plan import Plan, plan
from frame_audit.lint.model import LaunchRead
from frame_audit.lint.readers.launch_python import read_python_launch
from frame_audit.lint.readers.workspace import collect, Collected
from frame_audit.reports.report import Report

CAR = AuditConfig()  # the F1TENTH car, measured: what --config gives


# -- writing a workspace -------------------------------------------------------------------

def write(root: Path, files: Mapping[str, Union[str, bytes]]) -> Path:
    """Write a small workspace: each file's text, dedented; bytes as they are."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip('\n'), encoding='utf-8')
    return root


def package(name: str) -> str:
    """Return a package.xml for a made-up package."""
    return '<?xml version="1.0"?>\n<package format="3"><name>{}</name></package>\n'.format(name)


def cmake(package_name: str, *folders: str) -> str:
    """Return a CMakeLists.txt that installs these folders into the package's share."""
    return ('cmake_minimum_required(VERSION 3.8)\nproject({})\nfind_package(ament_cmake '
            'REQUIRED)\ninstall(DIRECTORY {} DESTINATION share/${{PROJECT_NAME}})\n'
            'ament_package()\n'.format(package_name, ' '.join(folders)))


def one_package(root: Path, name: str, files: Mapping[str, str],
                installs: Sequence[str] = ('launch', 'config')) -> Path:
    """Write a workspace of one ament_cmake package: these files in it, these folders installed."""
    base = 'src/{}/'.format(name)
    return write(root, dict({
        base + 'package.xml': package(name),
        base + 'CMakeLists.txt': cmake(name, *installs),
    }, **{base + path: text for path, text in files.items()}))


def one_launch_package(root: Path, package_name: str, launch: str, text: str) -> Path:
    """Write a workspace of one package whose CMake installs its one launch file."""
    return one_package(root, package_name, {'launch/' + launch: text}, installs=('launch',))


def launch_py(*nodes: str, imports: str = '') -> str:
    """Return a Python launch file that starts these Node(...) texts (each one line)."""
    return ('import os\nfrom ament_index_python.packages import get_package_share_directory\n'
            'from launch import LaunchDescription\nfrom launch.actions import '
            'DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction\n'
            'from launch.conditions import IfCondition, UnlessCondition\n'
            'from launch.launch_description_sources import PythonLaunchDescriptionSource\n'
            'from launch.substitutions import LaunchConfiguration, PythonExpression\n'
            'from launch_ros.actions import Node\n' + imports +
            '\n\ndef generate_launch_description():\n    return LaunchDescription([\n' +
            ''.join('        {},\n'.format(node) for node in nodes) + '    ])\n')


def share(package_name: str, *parts: str) -> str:
    """Return a launch file's os.path.join(get_package_share_directory(...), ...) text."""
    return 'os.path.join(get_package_share_directory({!r}), {})'.format(
        package_name, ', '.join(repr(p) for p in parts))


def static_tf(parent: str, child: str, *offset: str, name: Optional[str] = None) -> str:
    """Return a one-line static_transform_publisher Node(...) text: its frames, then offset."""
    return ("Node(package='tf2_ros', executable='static_transform_publisher', {}"
            "arguments=['--frame-id', {!r}, '--child-frame-id', {!r}{}])".format(
                'name={!r}, '.format(name) if name else '', parent, child,
                ''.join(', {!r}'.format(word) for word in offset)))


def rsp(package_name: str, file: str, name: Optional[str] = None) -> str:
    """Return a robot_state_publisher Node(...) text reading a URDF of the package by open()."""
    return ("Node(package='robot_state_publisher', executable='robot_state_publisher', {}"
            "parameters=[{{'robot_description': open({}).read()}}])".format(
                'name={!r}, '.format(name) if name else '', share(package_name, 'urdf', file)))


def urdf(*joints: str) -> str:
    """Return a URDF of fixed joints, each 'parent child x'."""
    links = {name for joint in joints for name in joint.split()[:2]}
    return '<?xml version="1.0"?>\n<robot name="r">\n{}{}</robot>\n'.format(
        ''.join('  <link name="{}"/>\n'.format(link) for link in sorted(links)),
        ''.join('  <joint name="{1}_joint" type="fixed"><parent link="{0}"/><child link="{1}"/>'
                '<origin xyz="{2} 0 0"/></joint>\n'.format(*joint.split())
                for joint in joints))


def line_of(root: Path, file: str, text: str) -> int:
    """Return the one line of a workspace file that contains text."""
    found = [n for n, line in enumerate((root / file).read_text(encoding='utf-8').splitlines(), 1)
             if text in line]
    assert len(found) == 1, (file, text, found)
    return found[0]


# -- the pipeline's stages ---------------------------------------------------------------------

def collected(tmp_path: Path, files: Dict[str, str]) -> Collected:
    """Return the collect stage's result for a workspace of these files."""
    share_folder = tmp_path / 'share'
    share_folder.mkdir(parents=True)
    return collect(write(tmp_path / 'ws', files), share_folder)


def planned(tmp_path: Path, files: Dict[str, str], entries: Sequence[str] = (),
            given: Mapping[str, str] = None) -> Plan:
    """Return the plan stage's result for a workspace of these files."""
    return plan(collected(tmp_path, files), entries, given or {})


def python_launch(*parts: str, given: Mapping[str, str] = None,
                  packages: Mapping[str, str] = None) -> LaunchRead:
    """Return what a Python launch file of these texts starts, with these launch arguments."""
    text = ''.join(textwrap.dedent(part) for part in parts).lstrip('\n')
    return read_python_launch(ast.parse(text), 'launch/x.launch.py', packages or {},
                              given or {}, '/nowhere/launch/x.launch.py')


def names(nodes: Sequence) -> list:
    """Return the nodes' names, in order."""
    return [node.name for node in nodes]


# -- the lint, run --------------------------------------------------------------------------

def lint(root: Path, config: Optional[AuditConfig] = None, *launch: Union[str, Sequence[str]],
         measured: Optional[bool] = None) -> Report:
    """
    Lint a made-up workspace in this process, as `frame-audit lint` does.

    Without a config, as a new user would: no --config, the workspace judged by itself. With
    one, as --config gives it: measured, unless measured says otherwise. Each launch is what one
    --launch takes: PKG/FILE, or a group (PKG/FILE, NAME:=VALUE...).
    """
    groups = [(group,) if isinstance(group, str) else tuple(group) for group in launch]
    given = dict(word.split(':=', 1) for group in groups for word in group[1:])
    return lint_workspace(root, AuditConfig() if config is None else config,
                          [group[0] for group in groups], given,
                          measured=config is not None if measured is None else measured)


def lint_child(root: Path, *args: str, guard_s: float = 60) -> subprocess.CompletedProcess:
    """
    Run `frame-audit lint ROOT --format json ARGS...` in a child process, as a user does.

    A crash or a hang (past guard_s: a hang fails the test, not a speed claim) fails the test,
    never the run. Its temporary folder lies two levels down in a folder of its own, which must
    be as empty after the run as before: the lint leaves nothing behind and writes nowhere else.
    """
    outer = Path(tempfile.mkdtemp(prefix='lint_tmp_'))
    scratch = outer / 'a' / 'b'
    scratch.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, '-m', 'frame_audit', 'lint', str(root), '--format', 'json'] +
        list(args), capture_output=True, timeout=guard_s,
        env=dict(os.environ, PYTHONIOENCODING='utf-8', TMPDIR=str(scratch)))
    left = sorted(str(p.relative_to(outer)) for p in outer.rglob('*'))
    shutil.rmtree(outer)
    assert left == ['a', 'a/b'], left[:5]
    return done


# -- what a report says ---------------------------------------------------------------------

def problems(report: Report, lines: bool = True) -> Set[Tuple[str, str, object, object]]:
    """Return (check, level, file, line) of each WARN and ERROR finding (no line if not lines)."""
    return {(f.check, f.level, f.values.get('file'), f.values.get('line') if lines else None)
            for f in report.findings if f.level in ('WARN', 'ERROR')}


def only_problem(report: Report, root: Path, check: str, level: str, file: str, text: str):
    """Return the report's one WARN or ERROR, asserting its check, level and place."""
    assert problems(report) == {(check, level, file, line_of(root, file, text))}, \
        report.findings
    (found,) = [f for f in report.findings if f.level in ('WARN', 'ERROR')]
    return found


def flagged(report: Report, check: str) -> list:
    """Return the WARN and ERROR findings of one check."""
    return [f for f in report.findings if f.check == check and f.level in ('WARN', 'ERROR')]


def summary(report: Report, check: str, level: Optional[str] = None) -> str:
    """Return a check's summary line; with level, assert the check's level first."""
    (line,) = [c for c in report.checks if c.check == check]
    if level is not None:
        assert line.level == level, (line.level, line.message)
    return line.message


def parents(report: Union[Report, dict]) -> Dict[str, Sequence[str]]:
    """Return frame → its declared parents: of a Report (tuples) or its JSON document (lists)."""
    if isinstance(report, dict):
        return {row['frame']: row['parents'] for row in report['frames']}
    return {row.frame: tuple(row.parents) for row in report.frames}


# -- made-up robots that tests of more than one file write ------------------------------------

VESC = """
/**:
  ros__parameters:
    speed_to_erpm_gain: 4614.0
    port: /dev/vesc
vesc_to_odom_node:
  ros__parameters:
    odom_frame: odom
    base_frame: base_link
    publish_tf: true
throttle_interpolator:
  ros__parameters:
    max_acceleration: 2.5
"""


def vesc_racecar(tmp_path: Path, name: str, ekf_package: str, drivers_share: bool = True) -> Path:
    """Write a racecar: the VESC drivers, its odometry, an ekf_node of ekf_package."""
    vesc = "parameters=[LaunchConfiguration('vesc_config')]"
    drivers = vesc if drivers_share else "parameters=[{'port': '/dev/vesc'}]"
    files: Dict[str, str] = {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/CMakeLists.txt': cmake('race_bringup', 'config', 'launch'),
        'src/race_bringup/config/vesc.yaml': VESC,
        'src/race_bringup/launch/car.launch.py': launch_py(
            "DeclareLaunchArgument('vesc_config', default_value={})".format(
                share('race_bringup', 'config', 'vesc.yaml')),
            "Node(package='vesc_driver', executable='vesc_driver_node', "
            "name='vesc_driver_node', {})".format(drivers),
            "Node(package='vesc_ackermann', executable='ackermann_to_vesc_node', "
            "name='ackermann_to_vesc_node', {})".format(drivers),
            "Node(package='vesc_ackermann', executable='vesc_to_odom_node', "
            "name='vesc_to_odom_node', {})".format(vesc),
            "Node(package='{}', executable='ekf_node', name='ekf_node')".format(ekf_package)),
    }
    return write(tmp_path / name, files)


EKF_PARAMS = """
    ekf_filter_node:
      ros__parameters:
        world_frame: odom
        odom_frame: odom
        base_link_frame: base_link
        publish_tf: {}
    """

CARTO_LUA = """
include "map_builder.lua"
include "trajectory_builder.lua"
options = {{
  map_builder = MAP_BUILDER,
  map_frame = "map",
  tracking_frame = "base_link",
  published_frame = "{}",
  odom_frame = "odom",
  provide_odom_frame = {},
  use_odometry = false,
}}
return options
"""


def cartographer_diff_drive(tmp_path: Path, published: str, provide: str) -> Path:
    """Write cartographer on a diff drive (diff.lua) beside robot_localization's EKF in odom."""
    return write(tmp_path / (published + provide), {
        'src/carto/package.xml': package('carto'),
        'src/carto/config/diff.lua': CARTO_LUA.format(published, provide),
        'src/carto/config/ekf.yaml': EKF_PARAMS.format('false'),
        'src/carto/launch/carto.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', arguments=["
            "'-configuration_directory', os.path.join(get_package_share_directory('carto'), "
            "'config'), '-configuration_basename', 'diff.lua'])",
            "Node(package='robot_localization', executable='ekf_node', name='ekf_filter_node', "
            "parameters=[os.path.join(get_package_share_directory('carto'), 'config', "
            "'ekf.yaml')])"),
    })


LIDAR_URDF = """<?xml version="1.0"?>
<robot name="{name}">
  <link name="base_link"/><link name="{laser}"/>
  <joint name="laser_joint" type="fixed">
    <parent link="base_link"/><child link="{laser}"/><origin xyz="{x} 0 0.1"/>
  </joint>
</robot>
"""


def gym_racecar(tmp_path: Path, prefix: str, distance: str, laser: str = 'laser_model') -> Path:
    """Write the F1TENTH gym's bridge and its racecar's description, with this frame_prefix."""
    node = rsp('gym', 'racecar.urdf', name='robot_state_publisher')
    if prefix:
        node = node.replace('}])', ", 'frame_prefix': '{}'}}])".format(prefix))
    return write(tmp_path / '{}{}{}'.format(prefix.strip('/'), distance, laser), {
        'src/gym/package.xml': package('gym'),
        'src/gym/urdf/racecar.urdf': LIDAR_URDF.format(name='racecar', laser=laser, x='0.275'),
        'src/gym/config/sim.yaml': """
            bridge:
              ros__parameters:
                ego_namespace: ego_racecar
                scan_distance_to_base_link: {}
            """.format(distance),
        'src/gym/launch/gym.launch.py': launch_py(
            "Node(package='gym', executable='gym_bridge', name='bridge', parameters=["
            "os.path.join(get_package_share_directory('gym'), 'config', 'sim.yaml')])", node),
    })
