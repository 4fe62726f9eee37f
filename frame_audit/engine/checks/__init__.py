# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The checks: one small function each, taking the store, the config and the time.

Each returns a CheckResult: its findings, or a one-line summary when it passes. The ids are a
contract (design.md): reports, diagnostics, tests and dashboards use them.
"""
from typing import Callable, List, Tuple

from .laser import check_laser_offset
from .poses import check_odometry, check_pose_frame
from .timing import check_timing
from .tree import check_chain_order, check_connectivity, check_parent_uniqueness, tree_summary
from .values import check_static_transforms, check_transform_values
from ..config import AuditConfig
from ..findings import CheckResult
from ..store import FrameStore

Check = Callable[[FrameStore, AuditConfig, float], CheckResult]

CHECKS: Tuple[Check, ...] = (
    check_parent_uniqueness,
    check_chain_order,
    check_laser_offset,
    check_pose_frame,
    check_odometry,
    check_transform_values,
    check_timing,
    check_static_transforms,
    check_connectivity,
)
CHECK_IDS: Tuple[str, ...] = tuple(check.__name__[len('check_'):] for check in CHECKS)
TREE = 'tree'


def run_checks(store: FrameStore, config: AuditConfig, now: float) -> List[CheckResult]:
    """Run every check, then the tree summary; one result each, in the contract's order."""
    results = [check(store, config, now) for check in CHECKS]
    marked = {frame for result in results for finding in result.findings
              for frame in finding.frames}
    return results + [tree_summary(store, config, now, marked)]
