# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit lint: a workspace's launch, parameter and URDF files checked before the car drives.

The files are read, never run. The findings use the audit's check ids and report
(reports.report.Report), each pointing at the file and line it concerns; the lint's own check,
lint_files, names what it could not read.
"""
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from .declared import Declared
from .laser_rules import check_laser_offset, check_pose_frame
from .model import DeclaredEdge
from .nodes import known_edge, node_params, PARAMETERS_CHECK, unapplied_blocks
from .tree_rules import (check_chain_order, check_connectivity, check_parent_uniqueness,
                         check_transform_values)
from .workspace import collect, Collected, FILES, tally
from ..engine.checks import CHECK_IDS
from ..engine.checks.tree import FrameRow
from ..engine.config import AuditConfig
from ..engine.findings import CheckResult, Finding
from ..engine.records import TF_STATIC_TOPIC, TF_TOPIC
from ..reports.report import CheckLine, FindingLine, Report

RULES: Tuple[Callable[[Declared], CheckResult], ...] = (
    check_parent_uniqueness, check_chain_order, check_laser_offset, check_pose_frame,
    check_transform_values, check_connectivity)


class LintError(Exception):
    """A workspace the lint cannot read at all (a missing folder): exit code 2."""


def _frame_rows(edges: List[DeclaredEdge]) -> List[FrameRow]:
    """Return every declared frame with its parents and who declares them, as audit lists them."""
    by_child: Dict[str, List[DeclaredEdge]] = {}
    for edge in edges:
        by_child.setdefault(edge.key[1], [])
        by_child.setdefault(edge.key[0], [])
        by_child[edge.key[1]].append(edge)
    return [FrameRow(
        frame=frame, parents=tuple(dict.fromkeys(e.key[0] for e in found)),
        static=bool(found) and all(e.static for e in found),
        topics=tuple(sorted({TF_STATIC_TOPIC if e.static else TF_TOPIC for e in found})),
        publishers=tuple(e.describe() for e in found), rate_hz=None, count=len(found))
        for frame, found in sorted(by_child.items()) if frame]


def _unique(findings: List[Finding]) -> List[Finding]:
    """Drop repeats: a parameter file two launch files load gives the same finding twice."""
    return list({(f.check, f.message): f for f in findings}.values())


def _files_result(collected: Collected) -> CheckResult:
    total, kinds = tally(collected)
    return CheckResult(FILES, 'read {} files ({}), every one parsed'.format(total, kinds),
                       _unique(collected.problems))


def _declared(collected: Collected, config: AuditConfig) -> Declared:
    nodes = node_params(collected.launched, collected.blocks)
    known = [edge for edge in (known_edge(node) for node in nodes) if edge is not None]
    return Declared(collected.edges + known, nodes, config)


def lint_workspace(path: Path, config: AuditConfig) -> Report:
    """Read a workspace's launch, parameter and URDF files and report their frame mistakes."""
    root = Path(path)
    if not root.is_dir():
        raise LintError('{}: not a folder (lint takes a ROS 2 workspace or a package)'.format(
            path))
    collected = collect(root)
    if not tally(collected)[0]:
        raise LintError('{}: no launch, parameter or robot description files found{}'.format(
            path, ' ({})'.format('; '.join(f.message for f in collected.problems[:3]))
            if collected.problems else ''))
    declared = _declared(collected, config)
    results = [rule(declared) for rule in RULES]
    results = sorted(results, key=lambda r: CHECK_IDS.index(r.check)) + [
        _files_result(collected),
        CheckResult(PARAMETERS_CHECK, 'every parameter block matches a node its file is '
                    'passed to', unapplied_blocks(collected.launched, collected.blocks))]
    findings = [FindingLine(f.check, f.level.name, f.message, list(f.frames), list(f.topics),
                            None, dict(f.values))
                for result in results for f in _unique(result.findings)]
    return Report(str(path), 0.0, tally(collected)[0], _frame_rows(declared.edges),
                  [CheckLine(r.check, r.level.name, r.message) for r in results], findings)
