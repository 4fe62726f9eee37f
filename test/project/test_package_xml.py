# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
package.xml names everything the code imports: rosdep on a fresh car installs all of it.

Every import of the package and its launch files, at any depth of a function, is read with
ast; each module outside the standard library maps to the rosdep key that installs it (the
ROS packages by their own names; the rest by the keys of ros/rosdistro's rosdep/python.yaml,
read there on 2026-12-02). A module the table does not know fails the test: it must be
classified before it ships.
"""
import ast
from pathlib import Path
import sys
from typing import Dict, Iterator, Optional, Set, Tuple
import xml.etree.ElementTree as ElementTree

ROOT = Path(__file__).resolve().parents[2]
# imported module -> the rosdep key of package.xml that installs it (None: installed with
# another key, named in the comment)
KEYS: Dict[str, Optional[str]] = {
    'rclpy': 'rclpy', 'builtin_interfaces': 'builtin_interfaces',
    'diagnostic_msgs': 'diagnostic_msgs', 'geometry_msgs': 'geometry_msgs',
    'nav_msgs': 'nav_msgs', 'sensor_msgs': 'sensor_msgs', 'tf2_msgs': 'tf2_msgs',
    'rcl_interfaces': 'rcl_interfaces', 'rosgraph_msgs': 'rosgraph_msgs',
    'ament_index_python': 'ament_index_python', 'launch': 'launch', 'launch_ros': 'launch_ros',
    'xacro': 'xacro', 'tf2_py': 'tf2_py',
    'numpy': 'python3-numpy', 'yaml': 'python3-yaml', 'tqdm': 'python3-tqdm',
    'graphviz': 'python3-graphviz', 'matplotlib': 'python3-matplotlib',
    'rosbags': 'python3-rosbags-pip',
    'mcap': 'mcap-ros2-support',  # no key of its own: mcap-ros2-support requires mcap
    'lz4': None,  # rosbags requires it (python3-rosbags-pip)
    'zstandard': None,  # mcap requires it (mcap-ros2-support)
}
DYNAMIC = {'tf2_py'}  # imported by name (importlib), where it is installed


def imports(path: Path) -> Iterator[Tuple[str, int]]:
    """Yield the top-level name of each absolute import of a file, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split('.')[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module.split('.')[0], node.lineno


def imported_outside_python(root: Path = ROOT) -> Dict[str, str]:
    """Return each module the package and launch files import that Python does not ship."""
    found: Dict[str, str] = {}
    for path in sorted([*(root / 'frame_audit').rglob('*.py'), *(root / 'launch').glob('*.py')]):
        for module, line in imports(path):
            if module not in sys.stdlib_module_names and module != 'frame_audit':
                found.setdefault(module, '{}:{}'.format(path.relative_to(root), line))
    return {**found, **dict.fromkeys(DYNAMIC, 'importlib')}


def declared(root: Path = ROOT) -> Set[str]:
    """Return the keys package.xml names for running the package."""
    package = ElementTree.parse(root / 'package.xml').getroot()
    return {element.text.strip() for tag in ('depend', 'exec_depend')
            for element in package.iter(tag) if element.text}


def test_every_import_is_a_key_of_package_xml():
    found = imported_outside_python()
    unknown = {module: where for module, where in found.items() if module not in KEYS}
    assert not unknown, 'imports no rosdep key is known for (add them to KEYS): {}'.format(
        unknown)
    missing = {module: (KEYS[module], where) for module, where in found.items()
               if KEYS[module] is not None and KEYS[module] not in declared()}
    assert not missing, 'package.xml lacks: {}'.format(missing)


def test_the_check_sees_a_missing_key(tmp_path):
    (tmp_path / 'frame_audit').mkdir()
    (tmp_path / 'launch').mkdir()
    (tmp_path / 'frame_audit' / 'clock.py').write_text('def f():\n    import rosgraph_msgs.msg\n')
    (tmp_path / 'package.xml').write_text(
        '<package format="3"><exec_depend>rclpy</exec_depend></package>')
    found = imported_outside_python(tmp_path)
    assert found['rosgraph_msgs'] == 'frame_audit/clock.py:2'
    assert 'rosgraph_msgs' not in declared(tmp_path) and 'rclpy' in declared(tmp_path)
