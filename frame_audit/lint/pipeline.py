# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint, top-down: collect → plan bringups → declare → judge.

Each stage returns a frozen result and leaves what it was given as it was: collect reads the
workspace's files (readers/), plan follows each entry through its includes (bringups/),
declare says what each bringup sends (publishers/), judge runs the rules and builds the report
(rules/). The share folder collect links lives until the last file is read.
"""
from pathlib import Path
import tempfile
from typing import Dict, Mapping, Optional, Sequence, Tuple

from .bringups.plan import Plan, plan
from .publishers.declare import declare
from .publishers.declared import LeftOut
from .readers.workspace import collect, Collected, tally
from .rules.judge import judge
from ..engine.config import AuditConfig
from ..errors import LintError
from ..reports.report import Report


def lint_workspace(path: Path, config: AuditConfig, entries: Sequence[str] = (),
                   given: Optional[Mapping[str, str]] = None, measured: bool = True) -> Report:
    """
    Read a workspace's launch, parameter and robot description files; report frame slips.

    measured: the config describes this robot (--config). Without one the workspace is judged
    against itself: its files against each other, never against the F1TENTH car's values.
    """
    root = _folder(path)
    with tempfile.TemporaryDirectory(prefix='frame_audit_share_') as share:
        collected = _collected(path, collect(root, Path(share), config.lint_exclude))
        planned = plan(collected, entries, given or {})
        declared = declare(collected, planned, config, measured)
        left_out = _left_out(collected, planned, config, measured) if entries else LeftOut()
    return judge(collected, planned, declared, config, _scope(entries), left_out).report(
        str(path))


def _left_out(collected: Collected, given: Plan, config: AuditConfig, measured: bool) -> LeftOut:
    """
    Return what the workspace's other bringups declare, and who in them may send more.

    With --launch the user names what runs; a required frame sent only by a launch file left
    out (cartographer's, started by hand beside the bringup) is then no proof it is missing.
    """
    chosen = {bringup.name for bringup in given.bringups}
    others = [each for each in declare(collected, plan(collected, (), {}), config,
                                       measured).bringups if each.bringup.name not in chosen]
    found: Dict[str, Tuple[str, ...]] = {}
    for each in others:
        for frame in {frame for edge in each.declared.edges for frame in edge.key}:
            found[frame] = found.get(frame, ()) + (each.bringup.name,)
    return LeftOut(found, tuple(dict.fromkeys(
        possible for each in others for possible in each.declared.possible)))


def _folder(path: Path) -> Path:
    """Return the workspace folder; LintError when path is not one."""
    root = Path(path)
    if not root.is_dir():
        raise LintError('{}: not a folder (lint takes a ROS 2 workspace or a package)'.format(
            path))
    return root


def _collected(path: Path, collected: Collected) -> Collected:
    """Return what collect read; LintError when it found nothing to lint, with why."""
    if not tally(collected)[0]:
        raise LintError('{}: no launch, parameter or robot description files found{}'.format(
            path, ' ({})'.format('; '.join(f.message for f in collected.problems[:3]))
            if collected.problems else ''))
    return collected


def _scope(entries: Sequence[str]) -> str:
    """Return where 'nothing publishes it' looked: the entries named, or the workspace."""
    if not entries:
        return 'in the workspace'
    return 'that {} start{}'.format(' and '.join(entries), '' if len(entries) > 1 else 's')
