# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The engine is pure: importing all of it pulls in no rclpy, no message package and no rosbags.

A fresh interpreter imports every module under a package and lists what got imported; the
rule holds by test, not by discipline.
"""
import ast
import json
import os
from pathlib import Path
import subprocess
import sys
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ('rclpy', 'rosbags', 'rosidl', 'rpyutils', 'builtin_interfaces', 'std_msgs',
             'geometry_msgs', 'nav_msgs', 'sensor_msgs', 'tf2_msgs', 'diagnostic_msgs',
             'rcl_interfaces', 'launch', 'launch_ros', 'ament_index_python', 'rosgraph_msgs')
PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
names = [m.name for m in pkgutil.walk_packages(package.__path__, sys.argv[1] + '.')]
for name in names + sys.argv[2:]:
    importlib.import_module(name)
print(json.dumps([names, sorted(sys.modules)]))
"""


def imports_of(package: str, *extra: str) -> Tuple[List[str], List[str]]:
    """Return a package's modules and the ROS or rosbags modules that importing them loads."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(filter(None, [str(ROOT), env.get('PYTHONPATH')]))
    done = subprocess.run([sys.executable, '-c', PROBE, package] + list(extra), cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    modules, loaded = json.loads(done.stdout)
    return modules, [name for name in loaded if name.split('.')[0] in FORBIDDEN]


def test_importing_the_whole_engine_loads_no_ros_and_no_rosbags():
    modules, leaked = imports_of('frame_audit.engine', 'frame_audit.message_types')
    assert {'frame_audit.engine.checks.pose_frame', 'frame_audit.engine.store'} <= set(modules)
    assert leaked == [], 'the engine imported {}'.format(', '.join(leaked))


def test_the_purity_probe_sees_what_an_adapter_imports():
    modules, leaked = imports_of('frame_audit.ros')
    assert 'frame_audit.ros.node' in modules
    assert {'rclpy', 'tf2_msgs', 'diagnostic_msgs'} <= set(leaked)


def written_imports(folder: Path) -> List[str]:
    """Return every forbidden import written in a folder's sources, at any depth, as file:line."""
    found = []
    for path in sorted(folder.rglob('*.py')):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module \
                and not node.level else []
            found += ['{}:{} imports {}'.format(path.relative_to(ROOT), node.lineno, name)
                      for name in names if name.split('.')[0] in FORBIDDEN]
    return found


def test_no_engine_source_imports_ros_even_inside_a_function():
    """An import inside a function loads nothing until it runs: the probe above cannot see it."""
    assert written_imports(ROOT / 'frame_audit' / 'engine') == []


def test_the_written_imports_are_seen_inside_functions():
    assert any('ament_index_python' in line or 'rclpy' in line
               for line in written_imports(ROOT / 'frame_audit' / 'ros'))
