# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The engine runs on ROS 2 Humble's Python (3.10) and numpy (1.21): its tests, run there."""
import os
from pathlib import Path
import subprocess
import sys

from nested import Nested, RUNS
import pytest
from suites import ENGINE_TESTS, failed_by_name

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get('FRAME_AUDIT_VENV', ROOT / '.venv'))
HUMBLE_PYTHON = VENV / 'humble' / 'bin' / 'python'


# started as collection ends, beside the rest of the suite (test/nested.py)
if HUMBLE_PYTHON.exists():
    RUNS['test_humble_python.py::test_the_engine_tests_pass_on_humbles_python_and_numpy'] = \
        Nested([str(HUMBLE_PYTHON), '-m', 'pytest', '-q', '-p', 'no:cacheprovider'] +
               ENGINE_TESTS, {'PATH': os.environ['PATH'], 'HOME': os.environ.get('HOME', '/tmp'),
                              'PYTHONPATH': str(ROOT)}, ROOT, timeout_s=600)


@pytest.mark.skipif(not HUMBLE_PYTHON.exists(), reason='no Python 3.10 on this machine: '
                    'scripts/setup.sh makes .venv/humble where it finds one')
@pytest.mark.timeout(600)
def test_the_engine_tests_pass_on_humbles_python_and_numpy():
    versions = subprocess.run(
        [str(HUMBLE_PYTHON), '-c', 'import sys, numpy; print(sys.version_info[:2], '
         'numpy.__version__)'], capture_output=True, text=True, check=True).stdout
    assert versions.strip() == '(3, 10) 1.21.6'
    run = RUNS['test_humble_python.py::test_the_engine_tests_pass_on_humbles_python_and_numpy']
    done = run.finish()
    assert done.returncode == 0, "on Humble's Python:\n{}\n\n{}".format(
        '\n'.join(failed_by_name(run.report)), done.stdout[-3000:] + done.stderr[-2000:])
    assert ' passed' in done.stdout.splitlines()[-1]


def test_a_nested_runs_failures_are_named(tmp_path):
    """What the Humble and Jazzy runs report: every failure of the nested run, by name."""
    (tmp_path / 'test_sample.py').write_text(
        'def test_fine():\n    pass\n\n\n'
        'def test_broken():\n    assert 1 == 2, "one is not two"\n')
    run = Nested([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                  'test_sample.py'], dict(os.environ), tmp_path, timeout_s=120)
    run.start()
    done = run.finish()
    assert done.returncode == 1 and '1 failed, 1 passed' in done.stdout, done.stdout
    (named,) = failed_by_name(run.report)
    assert named.startswith('test_sample.py::test_broken (failure): AssertionError: one is '
                            'not two'), named
    assert failed_by_name(tmp_path / 'none.xml')[0].startswith('no report written')
    run.stop()
    assert not run.folder.exists()


def test_a_nested_run_not_judged_is_stopped(tmp_path):
    """A nested run whose test was not reached is stopped when the session ends."""
    (tmp_path / 'test_slow.py').write_text('import time\n\n\ndef test_slow():\n'
                                           '    time.sleep(600)\n')
    run = Nested([sys.executable, '-m', 'pytest', '-q', 'test_slow.py'], dict(os.environ),
                 tmp_path, timeout_s=900)
    run.start()
    assert run.process is not None and run.process.poll() is None
    run.stop()
    assert run.process.poll() is not None and not run.folder.exists()
