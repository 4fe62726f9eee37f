# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on one long chain: linear in its links, and in a launch file's statements, or not.

Issue 33 measured 1,250 links in 1.0 s, 2,500 in 2.7 s, 5,000 in 16 s and 10,000 past 60 s:
the unjoined-description rule scanned every parent once per link. Writes a workspace whose
launch file gives robot_state_publisher a URDF chain of N fixed joints; then one whose launch
file assigns N static_transform_publisher Nodes to names and returns them (a Node assigned
anew before it is read was once found by rescanning the block for each, 98 s at 1,500). Lints
each in this process, and prints the time per link (per node) at each size and the ratio of
the largest size's to the smallest's (1 is linear). Not a test: run it by hand,
python benchmarks/bench_lint_chain.py
"""
from pathlib import Path
import tempfile
import time
from typing import Callable, Tuple

from frame_audit.app.lint import lint

LAUNCH = ('import os\nfrom ament_index_python.packages import get_package_share_directory\n'
          'from launch import LaunchDescription\nfrom launch_ros.actions import Node\n\n\n'
          'def generate_launch_description():\n    urdf = os.path.join(get_package_share_'
          "directory('chain_bot'), 'urdf', 'chain.urdf')\n    return LaunchDescription([Node("
          "package='robot_state_publisher', executable='robot_state_publisher', "
          "parameters=[{'robot_description': open(urdf).read()}])])\n")
CMAKE = ('cmake_minimum_required(VERSION 3.8)\nproject(chain_bot)\nfind_package(ament_cmake '
         'REQUIRED)\ninstall(DIRECTORY launch urdf DESTINATION share/${PROJECT_NAME})\n'
         'ament_package()\n')


def chain_workspace(root: Path, links: int) -> Path:
    """Write a package whose one launch file starts robot_state_publisher on a chain URDF."""
    package = root / 'src' / 'chain_bot'
    (package / 'launch').mkdir(parents=True)
    (package / 'urdf').mkdir()
    (package / 'package.xml').write_text('<?xml version="1.0"?>\n<package format="3"><name>'
                                         'chain_bot</name></package>\n')
    (package / 'CMakeLists.txt').write_text(CMAKE)
    names = ['base_link'] + ['link_{}'.format(i) for i in range(1, links)]
    joints = ''.join('<joint name="j{}" type="fixed"><parent link="{}"/><child link="{}"/>'
                     '<origin xyz="0.01 0 0"/></joint>\n'.format(i, a, b)
                     for i, (a, b) in enumerate(zip(names, names[1:])))
    (package / 'urdf' / 'chain.urdf').write_text(
        '<?xml version="1.0"?>\n<robot name="chain">\n' +
        ''.join('<link name="{}"/>\n'.format(name) for name in names) + joints + '</robot>\n')
    (package / 'launch' / 'chain.launch.py').write_text(LAUNCH)
    return root


def nodes_workspace(root: Path, nodes: int) -> Path:
    """Write a package whose launch file assigns a chain of static publishers to names."""
    package = root / 'src' / 'chain_bot'
    (package / 'launch').mkdir(parents=True)
    (package / 'package.xml').write_text('<?xml version="1.0"?>\n<package format="3"><name>'
                                         'chain_bot</name></package>\n')
    (package / 'CMakeLists.txt').write_text(CMAKE)
    (package / 'launch' / 'chain.launch.py').write_text(
        'from launch import LaunchDescription\nfrom launch_ros.actions import Node\n\n\n'
        'def generate_launch_description():\n' + ''.join(
            "    n{0} = Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'f{0}', '--child-frame-id', 'f{1}'])\n".format(i, i + 1)
            for i in range(nodes)) +
        '    return LaunchDescription([{}])\n'.format(', '.join(
            'n{}'.format(i) for i in range(nodes))))
    return root


def measure(what: str, write: Callable[[Path, int], Path], sizes: Tuple[int, ...]) -> None:
    """Print the lint's time per unit for growing workspaces, and the growth ratio."""
    per_unit = []
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix='bench_lint_chain_') as scratch:
            root = write(Path(scratch), size)
            start = time.perf_counter()
            report = lint(root, None)
            took = time.perf_counter() - start
        per_unit.append(took / size)
        print('{:>6} {}s: {:6.2f} s, {:7.1f} us a {}, {} frames in the report'.format(
            size, what, took, 1e6 * took / size, what, len(report.frames)))
    print('time per {}, largest / smallest: {:.2f} (1 is linear)'.format(
        what, per_unit[-1] / per_unit[0]))


def main() -> None:
    """Print the lint's time per link for growing chains, then per node of a launch file."""
    measure('link', chain_workspace, (1250, 2500, 5000, 10000))
    measure('node', nodes_workspace, (250, 500, 1000, 2000))


if __name__ == '__main__':
    main()
