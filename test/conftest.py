# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Make the tests' helper modules (trees.py) importable."""
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
