# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Tiny workspaces for the lint's stage tests, collected and planned as the pipeline does."""
import ast
from pathlib import Path
import textwrap
from typing import Dict, Mapping, Sequence, Set, Tuple

from frame_audit.lint.bringups.plan import Plan, plan
from frame_audit.lint.model import LaunchRead
from frame_audit.lint.readers.launch_python import read_python_launch
from frame_audit.lint.readers.workspace import collect, Collected
from frame_audit.reports.report import Report


def write(root: Path, files: Dict[str, str]) -> Path:
    """Write a small workspace: each file's text, dedented."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip('\n'), encoding='utf-8')
    return root


def package(name: str) -> str:
    """Return a package.xml for a made-up package."""
    return '<?xml version="1.0"?>\n<package format="3"><name>{}</name></package>\n'.format(name)


def collected(tmp_path: Path, files: Dict[str, str]) -> Collected:
    """Return the collect stage's result for a workspace of these files."""
    share = tmp_path / 'share'
    share.mkdir(parents=True)
    return collect(write(tmp_path / 'ws', files), share)


def planned(tmp_path: Path, files: Dict[str, str], entries: Sequence[str] = (),
            given: Mapping[str, str] = None) -> Plan:
    """Return the plan stage's result for a workspace of these files."""
    return plan(collected(tmp_path, files), entries, given or {})


def python_launch(*parts: str, given: Mapping[str, str] = None) -> LaunchRead:
    """Return what a Python launch file of these texts starts, with these launch arguments."""
    text = ''.join(textwrap.dedent(part) for part in parts).lstrip('\n')
    return read_python_launch(ast.parse(text), 'launch/x.launch.py', {}, given or {},
                              '/nowhere/launch/x.launch.py')


def names(nodes: Sequence) -> list:
    """Return the nodes' names, in order."""
    return [node.name for node in nodes]


def problems(report: Report) -> Set[Tuple[str, str, object, object]]:
    """Return (check, level, file, line) of every WARN and ERROR finding."""
    return {(f.check, f.level, f.values.get('file'), f.values.get('line'))
            for f in report.findings if f.level in ('WARN', 'ERROR')}


def line_of(root: Path, file: str, text: str) -> int:
    """Return the one line of a workspace file that contains text."""
    found = [n for n, line in enumerate((root / file).read_text(encoding='utf-8').splitlines(), 1)
             if text in line]
    assert len(found) == 1, (file, text, found)
    return found[0]


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


def cmake(package_name: str, *folders: str) -> str:
    """Return a CMakeLists.txt that installs these folders into the package's share."""
    return ('cmake_minimum_required(VERSION 3.8)\nproject({})\nfind_package(ament_cmake '
            'REQUIRED)\ninstall(DIRECTORY {} DESTINATION share/${{PROJECT_NAME}})\n'
            'ament_package()\n'.format(package_name, ' '.join(folders)))


def one_launch_package(root: Path, package_name: str, launch: str, text: str) -> Path:
    """Write a workspace of one package whose CMake installs its one launch file."""
    return write(root, {
        'src/{}/package.xml'.format(package_name): package(package_name),
        'src/{}/CMakeLists.txt'.format(package_name): cmake(package_name, 'launch'),
        'src/{}/launch/{}'.format(package_name, launch): text,
    })
