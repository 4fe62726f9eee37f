# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit diff A B`: two cars side by side, each a recording or a config.

A recording's side is measured as init measures it, over one opening of the file; one that
has no odometry to start from is still compared by the tree of init's first pass alone.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import List

from .init import measure_opened, tree_pass
from ..engine.compare import Difference, differences, Side, side_of_config, side_of_recording
from ..engine.config import load_config
from ..errors import MeasureError
from ..recordings.read import Recording


def side_of(path: Path) -> Side:
    """Return one side of a diff: a config file (YAML) or a recording (BagError, ConfigError)."""
    if Path(path).suffix in ('.yaml', '.yml'):
        return side_of_config(load_config(Path(path)), Path(path).name)
    with Recording(Path(path)) as recording:
        first = tree_pass(recording)
        try:
            measured, _, tree = measure_opened(recording, first)
        except MeasureError:  # no odom to start from: the first pass's tree alone
            measured, tree = None, first.tree
    return side_of_recording(measured, tree, Path(path).name)


@dataclass(frozen=True)
class Compared:
    """Two sides and what differs between them, for reports/diff.py to print."""

    a: Side
    b: Side
    found: List[Difference]


def diff(a: Path, b: Path, tolerance_m: float, tolerance_rad: float,
         rate_tolerance: float) -> Compared:
    """Compare A and B: offsets within tolerance_m and tolerance_rad, rates within a fraction."""
    side_a, side_b = side_of(a), side_of(b)
    return Compared(side_a, side_b, differences(side_a, side_b, tolerance_m, tolerance_rad,
                                                rate_tolerance))
