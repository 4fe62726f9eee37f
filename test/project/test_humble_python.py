# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The engine runs on ROS 2 Humble's Python (3.10) and numpy (1.21): its tests, run there."""
import os
from pathlib import Path
import subprocess
import sys

import pytest
from suites import ENGINE_TESTS, failed_by_name

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get('FRAME_AUDIT_VENV', ROOT / '.venv'))
HUMBLE_PYTHON = VENV / 'humble' / 'bin' / 'python'


@pytest.mark.skipif(not HUMBLE_PYTHON.exists(), reason='no Python 3.10 on this machine: '
                    'scripts/setup.sh makes .venv/humble where it finds one')
def test_the_engine_tests_pass_on_humbles_python_and_numpy(tmp_path):
    versions = subprocess.run(
        [str(HUMBLE_PYTHON), '-c', 'import sys, numpy; print(sys.version_info[:2], '
         'numpy.__version__)'], capture_output=True, text=True, check=True).stdout
    assert versions.strip() == '(3, 10) 1.21.6'
    env = {'PATH': os.environ['PATH'], 'HOME': os.environ.get('HOME', '/tmp'),
           'PYTHONPATH': str(ROOT)}
    report = tmp_path / 'humble.xml'
    done = subprocess.run([str(HUMBLE_PYTHON), '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                           '--junitxml', str(report)] + ENGINE_TESTS, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, "on Humble's Python:\n{}\n\n{}".format(
        '\n'.join(failed_by_name(report)), done.stdout[-3000:] + done.stderr[-2000:])
    assert ' passed' in done.stdout.splitlines()[-1]


def test_a_nested_runs_failures_are_named(tmp_path):
    """What the Humble and Jazzy runs report: every failure of the nested run, by name."""
    (tmp_path / 'test_sample.py').write_text(
        'def test_fine():\n    pass\n\n\n'
        'def test_broken():\n    assert 1 == 2, "one is not two"\n')
    report = tmp_path / 'sample.xml'
    subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                    '--junitxml', str(report), 'test_sample.py'], cwd=tmp_path,
                   capture_output=True, text=True, timeout=120)
    (named,) = failed_by_name(report)
    assert named.startswith('test_sample.py::test_broken (failure): AssertionError: one is '
                            'not two'), named
    assert failed_by_name(tmp_path / 'none.xml')[0].startswith('no report written')
