# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
lint_files: what the lint could not read or follow, so a quiet report is never a blind one.

Every stage hands on its problems (files it cannot parse, values only a running launch knows,
includes it cannot follow); this rule says each once, at its first place, naming the rest.
"""
from dataclasses import replace
from typing import Dict, FrozenSet, List

from .subject import Subject
from .tree_rules import MAX_NAMED, unread_senders
from ..readers.install import INSTALL
from ...engine.check_ids import LINT_FILES
from ...engine.checks.common import first_of, plural
from ...engine.findings import CheckResult, Finding


def unique(findings: List[Finding]) -> List[Finding]:
    """Drop repeats: a parameter file two launch files load gives the same finding twice."""
    return list({(f.check, f.message): f for f in findings}.values())


def _grouped(problems: List[Finding]) -> List[Finding]:
    """Return one finding per problem said at several places, at the first, naming the rest."""
    places: Dict[str, List[Finding]] = {}
    for finding in problems:
        where = '{}:{}: '.format(finding.values.get('file'), finding.values.get('line'))
        places.setdefault(finding.message[len(where):] if finding.message.startswith(where)
                          else finding.message, []).append(finding)
    grouped = []
    for found in places.values():
        first = found[0]
        rest = ['{}:{}'.format(f.values.get('file'), f.values.get('line')) for f in found[1:]]
        grouped.append(first if not rest else replace(
            first, message='{} (and at {})'.format(first.message, first_of(rest, MAX_NAMED))))
    return grouped


def lint_files(subject: Subject) -> CheckResult:
    """Report what the lint could not read; the summary says what it read, and which bringups."""
    total, kinds = subject.files
    names = list(subject.bringups)
    started = '{}: {}'.format(plural(len(names), 'bringup'), first_of(names, MAX_NAMED)) \
        if names else 'no launch file starts a node'
    unread = unread_senders(subject.tree)
    summary = 'read {} ({}); {}{}{}{}'.format(
        plural(total, 'file'), kinds, started,
        '; senders it cannot read: ' + unread if unread else '',
        '; launch files their packages do not install (`ros2 launch` cannot find them; the '
        'installed paths they name are not judged): ' + first_of(sorted(subject.uninstalled),
                                                                 MAX_NAMED)
        if subject.uninstalled else '',
        '; not read, as colcon builds nothing there (COLCON_IGNORE): ' + first_of(
            list(subject.ignored), MAX_NAMED) if subject.ignored else '')
    return CheckResult(LINT_FILES, summary, _grouped(unique(
        [p for p in subject.problems if not _installed_by(p, subject.uninstalled)])))


def _installed_by(problem: Finding, uninstalled: FrozenSet[str]) -> bool:
    """Return whether a problem is a share path named in a launch file no share holds."""
    return problem.key.startswith(INSTALL + ':') and problem.values.get('file') in uninstalled
