# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The package builds as a ROS package: colcon puts everything where ros2 launch/run look."""
import os
from pathlib import Path
import shutil
import subprocess

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope='module')
def install(tmp_path_factory):
    """Build a copy of the tracked files in a fresh workspace; return its install folder."""
    workspace = tmp_path_factory.mktemp('ws')
    package = workspace / 'src' / 'frame_audit'
    files = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (package / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, package / name)
    colcon = shutil.which('colcon')
    assert colcon, 'colcon is installed by scripts/setup.sh'
    result = subprocess.run(
        [colcon, '--log-base', 'log', 'build', '--base-paths', 'src', '--build-base', 'build',
         '--install-base', 'install'], cwd=workspace, capture_output=True, text=True,
        env=dict(os.environ, COLCON_HOME=str(workspace / '.colcon')), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count('Starting >>>') == 1, result.stdout  # frame_audit alone
    assert 'Finished <<< frame_audit' in result.stdout, result.stdout
    return workspace / 'install'


def test_launch_and_config_files_land_in_share(install):
    share = install / 'frame_audit' / 'share' / 'frame_audit'
    assert (share / 'package.xml').is_file()
    for name in ('bringup.launch.py', 'sim.launch.py'):
        assert (share / 'launch' / name).is_file()
    for name in ('frame_audit.yaml', 'analyzers.yaml'):
        assert (share / 'config' / name).is_file()
    marker = install / 'frame_audit' / 'share' / 'ament_index' / 'resource_index' / 'packages'
    assert (marker / 'frame_audit').is_file()


def test_executables_land_where_ros2_run_looks(install):
    lib = install / 'frame_audit' / 'lib' / 'frame_audit'
    for name in ('frame_audit_node', 'frame-audit'):
        assert os.access(lib / name, os.X_OK), name


def test_the_tf2_msgs_stand_in_is_never_built(install):
    assert not (install / 'tf2_msgs').exists()
    assert not list(install.rglob('TFMessage*'))
