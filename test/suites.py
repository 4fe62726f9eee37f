# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The test files run again under other distributions' Python and rclpy (Humble, Jazzy)."""
from pathlib import Path
from typing import List
import xml.etree.ElementTree as ElementTree

ENGINE_TESTS = ['test/engine/test_checks.py', 'test/engine/test_engine_input.py',
                'test/engine/test_geometry.py', 'test/engine/test_config.py',
                'test/engine/test_loops.py']
NODE_TESTS = ['test/ros/test_node.py', 'test/ros/test_intake.py', 'test/ros/test_ros_messages.py']


def failed_by_name(junit_xml: Path) -> List[str]:
    """
    Return each failed or erred test of a nested run, by name, with its message's first line.

    A nested run's own report names what failed there, where the tail of its output may
    show only the last failure.
    """
    if not junit_xml.is_file():
        return ['no report written ({}): the run ended before pytest wrote it'.format(
            junit_xml.name)]
    failed = []
    for case in ElementTree.parse(junit_xml).getroot().iter('testcase'):
        for fault in list(case.iter('failure')) + list(case.iter('error')):
            message = (fault.get('message') or fault.text or '').strip().splitlines()
            failed.append('{}::{} ({}): {}'.format(
                case.get('classname', '').replace('.', '/') + '.py', case.get('name'),
                fault.tag, message[0][:300] if message else ''))
    return failed
