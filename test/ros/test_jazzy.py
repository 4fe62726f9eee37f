# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A second distribution: the node's tests over real DDS, and the engine's, on ROS 2 Jazzy.

scripts/setup.sh makes .venv/jazzy from Jazzy's PyPI wheels (rclpy 7.1, whose message info
carries the publisher's gid) beside Kilted's; these tests run there in a process of their own,
with Jazzy's environment and nothing of Kilted's, so "Humble or newer" is tested on two
distributions' rclpy.
"""
import os
from pathlib import Path
import subprocess
from typing import Dict, List

from nested import Nested, RUNS
import pytest
from suites import ENGINE_TESTS, failed_by_name, NODE_TESTS

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get('FRAME_AUDIT_VENV', ROOT / '.venv'))
JAZZY = VENV / 'jazzy'
# Kilted's environment, which Jazzy's must not inherit
KILTED = ('VIRTUAL_ENV', 'PYTHONPATH', 'LD_LIBRARY_PATH', 'AMENT_PREFIX_PATH',
          '_ROS_WHEELS_BOOTSTRAP_COMPLETE', 'CMAKE_PREFIX_PATH')

pytestmark = [pytest.mark.ros, pytest.mark.slow]
# issue 23's tests: the node as a ROS 2 user meets it, and what it forgets live
ON_THE_CAR = ['test/ros/test_on_the_car.py', 'test/ros/test_live_history.py']


def jazzy_environment() -> Dict[str, str]:
    """Return this environment without Kilted's: Jazzy's env.sh gives its own."""
    env = {key: value for key, value in os.environ.items() if key not in KILTED}
    env['PATH'] = os.pathsep.join(p for p in env.get('PATH', '').split(os.pathsep)
                                  if not p.startswith(str(VENV)))
    return env


def in_jazzy(*command: str) -> List[str]:
    """Return a command line that runs command in Jazzy's environment (its env.sh)."""
    script = 'source "{}" && exec "$@"'.format(JAZZY / 'env.sh')
    return ['bash', '-c', script, 'jazzy'] + list(command)


def jazzy(*command: str, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run a command in Jazzy's environment, in the project folder."""
    return subprocess.run(in_jazzy(*command), cwd=ROOT, env=jazzy_environment(),
                          capture_output=True, text=True, timeout=timeout)


# started as collection ends, beside the rest of the suite (test/nested.py)
if (JAZZY / 'env.sh').exists():
    RUNS['test_jazzy.py::test_the_node_and_engine_tests_pass_on_jazzy'] = Nested(
        in_jazzy('python', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', *NODE_TESTS,
                 *ON_THE_CAR, *ENGINE_TESTS), jazzy_environment(), ROOT, timeout_s=2400)


@pytest.mark.skipif(not (JAZZY / 'env.sh').exists(), reason='no .venv/jazzy: scripts/setup.sh '
                    'makes it from the Jazzy wheels on PyPI where it can reach them')
@pytest.mark.timeout(2400)  # the node's DDS tests and the car's every fault, a second time
def test_the_node_and_engine_tests_pass_on_jazzy():
    versions = jazzy('python', '-c', 'import rclpy, importlib.metadata as m; '
                     'print(m.version("ros-rclpy"), rclpy.__file__)')
    assert versions.returncode == 0, versions.stderr
    version, where = versions.stdout.split()
    assert version.startswith('7.1.') and where.startswith(str(JAZZY))
    run = RUNS['test_jazzy.py::test_the_node_and_engine_tests_pass_on_jazzy']
    done = run.finish()
    assert done.returncode == 0, 'on Jazzy:\n{}\n\n{}'.format(
        '\n'.join(failed_by_name(run.report)), done.stdout[-3000:] + done.stderr[-2000:])
    assert ' passed' in done.stdout.splitlines()[-1] and 'skipped' not in \
        done.stdout.splitlines()[-1]
