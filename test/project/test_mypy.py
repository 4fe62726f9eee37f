# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The type hints are checked: mypy over the package, with the settings in setup.cfg."""
from pathlib import Path

from mypy import api
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.linter
def test_mypy_finds_no_error_in_the_package(monkeypatch):
    monkeypatch.chdir(ROOT)  # setup.cfg's [mypy] names the files and Humble's Python
    out, err, status = api.run(['--config-file', str(ROOT / 'setup.cfg')])
    assert status == 0, out + err


@pytest.mark.linter
def test_mypy_reads_the_settings_and_can_fail(tmp_path, monkeypatch):
    """A None handed where a float is wanted is found: the check can fire."""
    bad = tmp_path / 'bad.py'
    bad.write_text('from typing import Optional\n\n\ndef f(x: Optional[float]) -> float:\n'
                   '    return x + 1.0\n')
    monkeypatch.chdir(ROOT)
    out, _, status = api.run(['--config-file', str(ROOT / 'setup.cfg'), str(bad)])
    assert status == 1 and 'Unsupported operand types' in out, out
