# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The checks: one small function each, taking the store, the config and the time.

Each returns a CheckResult: its findings, or a one-line summary when it passes. CHECKS pairs
each function with its id, declared in check_ids (a contract: docs/contracts.md), so a
function can be renamed without changing what reports, diagnostics and dashboards read.
"""
from dataclasses import dataclass, replace
from typing import Callable, List, Tuple

from .chain import check_chain_order
from .connectivity import check_connectivity
from .laser import check_laser_offset
from .lookups import check_lookups
from .odometry import check_odometry
from .parents import check_parent_uniqueness
from .pose_frame import check_pose_frame
from .static import check_static_transforms
from .timing import check_timing
from .tree_summary import tree_summary
from .values import check_transform_values
from .. import check_ids as ids
from ..config import AuditConfig
from ..findings import CheckResult
from ..store import FrameStore

CheckFunction = Callable[[FrameStore, AuditConfig, float], CheckResult]


@dataclass(frozen=True)
class Check:
    """A check id and the function that judges it."""

    check_id: str
    run: CheckFunction


CHECKS: Tuple[Check, ...] = (
    Check(ids.PARENTS, check_parent_uniqueness),
    Check(ids.CHAIN, check_chain_order),
    Check(ids.LASER, check_laser_offset),
    Check(ids.POSE, check_pose_frame),
    Check(ids.ODOMETRY, check_odometry),
    Check(ids.VALUES, check_transform_values),
    Check(ids.TIMING, check_timing),
    Check(ids.STATIC, check_static_transforms),
    Check(ids.CONNECTIVITY, check_connectivity),
    Check(ids.LOOKUPS, check_lookups),
)
CHECK_IDS = ids.CHECK_IDS
TREE = ids.TREE


def run_checks(store: FrameStore, config: AuditConfig, now: float) -> List[CheckResult]:
    """Run every check, then the tree summary; one result each, under its declared id."""
    results = [replace(check.run(store, config, now), check=check.check_id) for check in CHECKS]
    marked = {frame for result in results for finding in result.findings
              for frame in finding.frames}
    return results + [tree_summary(store, config, now, marked)]
