# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The flake8 check that ament_python packages ship, over the package, tests and launch files."""
import os
import subprocess
import sys

import ament_flake8
from ament_flake8.main import main_with_errors
import pytest

AMENT_CONFIG = os.path.join(os.path.dirname(ament_flake8.__file__), 'configuration',
                            'ament_flake8.ini')
# One finding of each plugin ament_flake8 runs with on a ROS development machine: without
# them, test_flake8 would pass code that `colcon test` there fails.
EACH_PLUGIN = '\n'.join([
    'import sys', 'import os', 'from typing import List, Dict', '',
    'list = [x for x in [1]]', 'counts = dict(a=1)', "kept = {x: 0 for x in 'ab'}",
    'try:', '    pass', 'exc' + 'ept:', '    pass', ''])
PLUGIN_CODES = {'I100': 'flake8-import-order', 'I101': 'flake8-import-order',
                'A001': 'flake8-builtins', 'C408': 'flake8-comprehensions',
                'C420': 'flake8-comprehensions', 'B901': 'flake8-blind-except',
                'D100': 'flake8-docstrings (ignored by ament: must not be reported)'}


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    rc, errors = main_with_errors(argv=[])
    assert rc == 0, 'Found %d code style errors / warnings:\n' % len(errors) + '\n'.join(errors)


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8_runs_with_the_plugins_ament_uses(tmp_path):
    """Each plugin of ament_flake8's configuration is installed and finds its fault."""
    sample = tmp_path / 'sample.py'
    sample.write_text(EACH_PLUGIN)
    done = subprocess.run([sys.executable, '-m', 'flake8', '--config', AMENT_CONFIG,
                           '--no-show-source', str(sample)], capture_output=True, text=True)
    codes = {line.split()[1] for line in done.stdout.splitlines() if len(line.split()) > 1}
    wanted = set(PLUGIN_CODES) - {'D100'}
    assert wanted <= codes, 'not reported: ' + ', '.join(
        '{} ({})'.format(code, PLUGIN_CODES[code]) for code in sorted(wanted - codes))
    assert 'D100' not in codes  # ament's configuration was read
