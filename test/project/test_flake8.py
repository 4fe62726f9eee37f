# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The flake8 check that ament_python packages ship, over the package, tests and launch files."""
from ament_flake8.main import main_with_errors
import pytest


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    rc, errors = main_with_errors(argv=[])
    assert rc == 0, 'Found %d code style errors / warnings:\n' % len(errors) + '\n'.join(errors)
