# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The judging stage: every rule of the registry over the declared trees, and the report.

A rule of scope 'bringup' runs on each bringup's tree (with what may run beside it as
context); a finding that holds in some bringups only names them. A rule of scope 'together'
runs once over every bringup's edges, nodes and unknown senders. The report has the audit's
shape: the declared frames, one line per rule, the findings.
"""
from dataclasses import dataclass, replace
from typing import Dict, FrozenSet, List, Tuple

from . import Rule, RULES, TOGETHER
from .files import unique
from .subject import Subject
from .tree_rules import when_launched
from ..bringups.plan import Plan
from ..model import DeclaredEdge, Where
from ..publishers.declare import Declaration
from ..publishers.declared import Declared, LeftOut
from ..publishers.lidar import own_lidar
from ..publishers.parameters import default_names
from ..readers.workspace import Collected, tally
from ...engine.check_ids import LINT_FILES
from ...engine.checks.tree_summary import FrameRow
from ...engine.config import AuditConfig
from ...engine.findings import CheckResult, Finding
from ...engine.records import TF_STATIC_TOPIC, TF_TOPIC
from ...reports.report import CheckLine, FindingLine, Report


@dataclass(frozen=True)
class Judged:
    """The judging stage's result: what may run together, one result per rule, files read."""

    together: Declared
    results: Tuple[CheckResult, ...]
    files: int

    def report(self, source: str) -> Report:
        """Return the results as the audit's report, each finding once."""
        findings = [FindingLine(f.check, f.level.name, f.message, list(f.frames),
                                list(f.topics), None, dict(f.values))
                    for result in self.results for f in unique(result.findings)]
        return Report(source, 0.0, self.files, _frame_rows(self.together.edges),
                      [CheckLine(r.check, r.level.name, r.message) for r in self.results],
                      findings)


def judge(collected: Collected, plan: Plan, declaration: Declaration, config: AuditConfig,
          scope: str, left_out: LeftOut = LeftOut()) -> Judged:
    """
    Run every rule that is on; scope says where 'nothing publishes it' looked.

    left_out: what the workspace's bringups left out of --launch declare.
    """
    together = replace(_together(config, declaration, scope, collected.links),
                       left_out=left_out)
    whole = Subject(
        together, tuple(node for each in declaration.bringups for node in each.launched),
        collected.blocks, _started(declaration),
        tuple(collected.problems) + plan.problems + declaration.problems, tally(collected),
        tuple(each.bringup.name for each in declaration.bringups), collected.executables,
        frozenset(file for each in declaration.bringups for file in each.bringup.handed),
        frozenset(collected.uninstalled), tuple(collected.ignored))
    each = [(b.bringup.name, replace(whole, tree=replace(
        b.declared, context=together, left_out=together.left_out), launched=b.launched))
        for b in declaration.bringups]
    off = 'off ({})'.format(config.key('lint.checks_off'))
    results = tuple(CheckResult(rule.check, off) if rule.check in config.lint_checks_off
                    else _judged(rule, whole, each) for rule in RULES)
    return Judged(together, _counted(results), whole.files[0])


def _counted(results: Tuple[CheckResult, ...]) -> Tuple[CheckResult, ...]:
    """Return the results with lint_files' summary counting the findings, not the checks."""
    levels = [f.level.name for r in results for f in unique(r.findings)]
    counted = ', '.join('{} {}'.format(levels.count(level), level)
                        for level in ('ERROR', 'WARN') if level in levels) or 'none'
    return tuple(replace(r, summary='{}; findings: {}'.format(r.summary, counted))
                 if r.check == LINT_FILES else r for r in results)


def _together(config: AuditConfig, declaration: Declaration, scope: str,
              links: Dict[str, Where]) -> Declared:
    """Return what may run together: every bringup's edges, nodes and unknown senders."""
    trees = [each.declared for each in declaration.bringups]
    edges = list({(e.key, e.where, e.via): e for tree in trees for e in tree.edges}.values())
    nodes = [node for tree in trees for node in tree.nodes]
    possible = list(dict.fromkeys(p for tree in trees for p in tree.possible))
    if not declaration.measured:
        config = own_lidar(config, edges, nodes)
    sent = {frame for edge in edges for frame in edge.key}
    waiting = {frame: edge for tree in trees for frame, edge in tree.waiting.items()
               if frame not in sent}
    return Declared(edges, nodes, config, possible, declaration.table, scope=scope, links=links,
                    measured=declaration.measured, waiting=waiting)


def _started(declaration: Declaration) -> FrozenSet[str]:
    """
    Return the name every node a bringup starts or switches off goes by.

    A node the launch names goes by that name alone; one it does not name, by its code's name
    or its executable's (the lint cannot tell which).
    """
    return frozenset(name for each in declaration.bringups
                     for node in each.launched + tuple(each.bringup.switched_off)
                     for name in ((node.name,) if isinstance(node.name, str)
                                  else default_names(node)))


def _judged(rule: Rule, whole: Subject, each: List[Tuple[str, Subject]]) -> CheckResult:
    """Return a rule's result: once over the whole, or merged over the bringups."""
    result = rule.run(whole)
    if rule.scope == TOGETHER:
        return replace(result, check=rule.check)
    findings = _merge([(name, rule.run(subject).findings) for name, subject in each])
    if rule.across is not None:
        findings += rule.across(each)
    return CheckResult(rule.check, result.summary, findings, stale=result.stale)


def _merge(per_bringup: List[Tuple[str, List[Finding]]]) -> List[Finding]:
    """Return each finding once, naming the bringups it holds in unless it holds in all."""
    seen: Dict[Tuple[str, str], Tuple[Finding, List[str]]] = {}
    for name, findings in per_bringup:
        for finding in findings:
            entry = seen.setdefault((finding.check, finding.message), (finding, []))
            if name not in entry[1]:
                entry[1].append(name)
    merged = []
    for finding, names in seen.values():
        if len(per_bringup) > 1 and len(names) < len(per_bringup):
            finding = replace(finding, message='{} (when {} launched)'.format(
                finding.message, when_launched(names)))
        merged.append(finding)
    return merged


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
