# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Make the tests' helper modules importable; start the nested runs as collection ends."""
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))

import nested  # noqa: E402  (found through the path above)


def pytest_collection_finish(session) -> None:
    """Start the Jazzy and Humble runs selected: they run beside the rest (nested.py)."""
    nested.start_selected(item.nodeid for item in session.items)


def pytest_sessionfinish(session, exitstatus) -> None:
    """Stop a nested run left running (its test was not reached)."""
    nested.stop_all()
