# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The pep257 docstring check that ament_python packages ship."""
from ament_pep257.main import main
import pytest


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    rc = main(argv=['.', 'test'])
    assert rc == 0, 'Found code style errors / warnings'
