# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The planning stage: which bringups the lint checks, from the launch files collected.

The entries named run together as one bringup; with none named, each launch file no other
includes is a bringup of its own, and so is the first of files that only include each other,
and one that only an include whose condition is false on the defaults reaches;
a workspace with no launch file at all gets one bringup per robot description, as if a launch
handed it to robot_state_publisher.
"""
from dataclasses import dataclass, replace
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .planner import Bringup, find_entry, include_target, parse_arguments, Planner
from ..model import DESCRIPTION, Description, LaunchedNode, LaunchRead, Param, Problems, Where
from ..readers.workspace import Collected
from ...engine.findings import Finding
from ...errors import LintError

READ_ERRORS = (SyntaxError, ValueError, RecursionError)


@dataclass(frozen=True)
class Plan:
    """The bringups to check, in order, and what planning could not follow (lint_files)."""

    bringups: Tuple[Bringup, ...]
    problems: Tuple[Finding, ...] = ()


def plan(collected: Collected, entries: Sequence[str], given: Mapping[str, str]) -> Plan:
    """Return the bringups to check: the entries named, together, or each entry of its own."""
    if not collected.sources:
        return Plan(tuple(_standalone(collected)))
    problems = Problems(collected.shown)
    planner = Planner(collected.root, collected.sources, collected.packages, problems.warn,
                      collected.shown, collected.folders)
    bringups = [planner.expand(_entry_files(collected, entries), given)] if entries else \
        _each_root(collected, planner, problems)
    return Plan(tuple(bringups), tuple(problems.found))


def _entry_files(collected: Collected, entries: Sequence[str]) -> List[str]:
    """Return the launch files the entries name; LintError says which one is not there."""
    try:
        return [find_entry(spec, collected.sources, collected.packages, collected.folders,
                           collected.root) for spec in entries]
    except LookupError as error:
        raise LintError(str(error)) from None


def _each_root(collected: Collected, planner: Planner, problems: Problems) -> List[Bringup]:
    """Return a bringup per entry (Planner.roots), as it runs with its defaults."""
    reads: Dict[str, LaunchRead] = {}
    for file, source in collected.sources.items():
        try:
            reads[file] = source.read(collected.packages, {}, planner.folders)
        except READ_ERRORS as error:
            problems.warn(Where(file, getattr(error, 'lineno', None) or 1), 'cannot be read '
                          '({}: {}); skipped'.format(type(error).__name__, error), 'unreadable')
    unread: List[Tuple[str, Optional[Where]]] = [
        ('what the unreadable launch file starts', where)
        for where in collected.unreadable_launch]  # it may run beside each of them
    entries = [planner.expand([root], {}) for root in planner.roots(reads) if root in reads]
    return [replace(bringup, unknown=bringup.unknown + unread) for bringup in
            entries + _unreached(reads, entries, planner) + _scripted(collected, planner)]


def _unreached(reads: Mapping[str, LaunchRead], bringups: List[Bringup],
               planner: Planner) -> List[Bringup]:
    """
    Return a bringup for each launch file that only an include false on the defaults reaches.

    No launch file goes unchecked: where the include's condition tests one launch argument,
    the entry above it runs again with the value that makes it hold (`offline_mapping:=false`,
    said in the bringup's name); else the file is checked on its own, with the arguments the
    include hands it.
    """
    imported = {module for read in reads.values() for module in read.imported}
    reached = {file for bringup in bringups for file in bringup.files}
    added: List[Bringup] = []
    for file in sorted(reads):
        if file in reached or file in imported:
            continue
        found = next(((bringup, include) for bringup in bringups + added
                      for includer in bringup.files if includer in reads  # read: not refused
                      for include in reads[includer].includes
                      if not include.runs and include_target(include, planner.root) == file),
                     None)
        if found is None:
            continue
        above, include = found
        given = ' '.join('{}:={}'.format(name, value) for name, value in include.needs)
        again = planner.expand([above.files[0]], dict(include.needs)) if include.needs else None
        if again is not None and file in again.files:
            bringup = replace(again, name='{} with {} (so the include of {} at {} runs)'.format(
                above.files[0], given, file, include.where))
        else:
            bringup = replace(planner.expand([file], dict(include.arguments)), name='{} (checked '
                              'on its own: included at {} under a condition false on the '
                              'defaults)'.format(file, include.where))
        added.append(bringup)
        reached |= set(bringup.files)
    return added


def _scripted(collected: Collected, planner: Planner) -> List[Bringup]:
    """
    Return a bringup per group of launch files a shell script starts at once.

    Without --launch each launch file is a bringup of its own; a script that starts two with
    `&` is the one place the workspace says they run together (a README may list
    alternatives). A launch it names that the workspace does not hold is left to the launch.
    """
    bringups = []
    for file, groups in sorted(collected.scripts.items()):
        for group in groups:
            try:
                entries = [find_entry(spec, collected.sources, collected.packages,
                                      collected.folders, collected.root)
                           for spec, _ in group.launches]
                given = {name: value for _, words in group.launches
                         for name, value in parse_arguments(list(words)).items()}
            except (LookupError, ValueError):
                continue
            bringup = planner.expand(entries, given)
            bringups.append(replace(bringup, name='{} (started together by {}:{})'.format(
                bringup.name, file, group.line)))
    return bringups


def _standalone(collected: Collected) -> List[Bringup]:
    """Return a bringup per robot description when no launch file starts one."""
    return [_describing(collected, file) for file in collected.descriptions]


def _describing(collected: Collected, file: str) -> Bringup:
    """Return the bringup of one description, handed to robot_state_publisher as it is."""
    where = Where(file, 1)
    node = LaunchedNode('robot_state_publisher', 'robot_state_publisher', None, where, inline={
        DESCRIPTION: Param(DESCRIPTION, Description(str(collected.root / file)), where)})
    return Bringup(file, [file], [node], unknown=[('a launch file (the workspace has none)',
                                                   None)])
