# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint on a robot description that is one long chain of links: linear in links, or not.

Issue 33 measured 1,250 links in 1.0 s, 2,500 in 2.7 s, 5,000 in 16 s and 10,000 past 60 s:
the unjoined-description rule scanned every parent once per link. Writes a workspace whose
launch file gives robot_state_publisher a URDF chain of N fixed joints, lints it in this
process, and prints the time per link at each size and the ratio of the largest size's to the
smallest's (1 is linear). Not a test: run it by hand, python benchmarks/bench_lint_chain.py
"""
from pathlib import Path
import tempfile
import time

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


def main() -> None:
    """Print the lint's time per link for growing chains."""
    per_link = []
    for links in (1250, 2500, 5000, 10000):
        with tempfile.TemporaryDirectory(prefix='bench_lint_chain_') as scratch:
            root = chain_workspace(Path(scratch), links)
            start = time.perf_counter()
            report = lint(root, None)
            took = time.perf_counter() - start
        per_link.append(took / links)
        print('{:>6} links: {:6.2f} s, {:7.1f} us a link, {} frames in the report'.format(
            links, took, 1e6 * took / links, len(report.frames)))
    print('time per link, largest / smallest: {:.2f} (1 is linear)'.format(
        per_link[-1] / per_link[0]))


if __name__ == '__main__':
    main()
