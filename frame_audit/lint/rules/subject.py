# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What one lint rule looks at: a declared tree, the nodes behind it, and the workspace read.

Every rule takes a Subject, so the registry can hold the tree rules (which read the tree alone)
beside the rules of parameter blocks, node names and unreadable files.
"""
from dataclasses import dataclass, field
from typing import Callable, FrozenSet, List, Mapping, Sequence, Tuple

from ..model import LaunchedNode, ParamBlock
from ..publishers.declared import Declared
from ..readers.install import InstalledExecutables
from ...engine.findings import CheckResult, Finding


@dataclass(frozen=True)
class Subject:
    """
    One bringup (or what may run together) as the rules see it.

    started names every node any bringup starts or switches off, so a parameter block for a
    node another launch file starts is no slip; files is how many files were read and of which
    kinds; bringups the bringups' names, for lint_files' summary; executables what each
    ament_cmake package of the workspace builds where `ros2 run` looks, where that is known;
    handed the workspace files given to launch files the lint does not read (Nav2's bringup),
    whose nodes it cannot see; uninstalled the launch files only their path runs.
    """

    tree: Declared
    launched: Tuple[LaunchedNode, ...]
    blocks: Mapping[str, List[ParamBlock]]
    started: FrozenSet[str]
    problems: Tuple[Finding, ...]
    files: Tuple[int, str]
    bringups: Tuple[str, ...]
    executables: Mapping[str, InstalledExecutables] = field(default_factory=dict)
    handed: FrozenSet[str] = frozenset()
    uninstalled: FrozenSet[str] = frozenset()  # launch files their packages do not install
    ignored: Tuple[str, ...] = ()  # folders colcon ignores (COLCON_IGNORE), not read


TreeRule = Callable[[Declared], CheckResult]
SubjectRule = Callable[[Subject], CheckResult]
Across = Callable[[Sequence[Tuple[str, Subject]]], List[Finding]]  # the bringups side by side


def on_tree(rule: TreeRule) -> SubjectRule:
    """Return a tree rule as a rule of a subject: it reads the declared tree alone."""
    def run(subject: Subject) -> CheckResult:
        return rule(subject.tree)
    return run


def on_trees(rule: Callable[[Sequence[Tuple[str, Declared]]], List[Finding]]) -> Across:
    """Return a rule over the bringups' trees as one over the bringups: it reads the trees."""
    def run(each: Sequence[Tuple[str, Subject]]) -> List[Finding]:
        return rule([(name, subject.tree) for name, subject in each])
    return run
