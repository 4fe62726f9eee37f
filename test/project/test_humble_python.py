# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The engine runs on ROS 2 Humble's Python (3.10) and numpy (1.21): its tests, run there."""
import os
from pathlib import Path
import subprocess

import pytest
from suites import ENGINE_TESTS

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get('FRAME_AUDIT_VENV', ROOT / '.venv'))
HUMBLE_PYTHON = VENV / 'humble' / 'bin' / 'python'


@pytest.mark.skipif(not HUMBLE_PYTHON.exists(), reason='no Python 3.10 on this machine: '
                    'scripts/setup.sh makes .venv/humble where it finds one')
def test_the_engine_tests_pass_on_humbles_python_and_numpy():
    versions = subprocess.run(
        [str(HUMBLE_PYTHON), '-c', 'import sys, numpy; print(sys.version_info[:2], '
         'numpy.__version__)'], capture_output=True, text=True, check=True).stdout
    assert versions.strip() == '(3, 10) 1.21.6'
    env = {'PATH': os.environ['PATH'], 'HOME': os.environ.get('HOME', '/tmp'),
           'PYTHONPATH': str(ROOT)}
    done = subprocess.run([str(HUMBLE_PYTHON), '-m', 'pytest', '-q', '-p', 'no:cacheprovider']
                          + ENGINE_TESTS, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert ' passed' in done.stdout.splitlines()[-1]
