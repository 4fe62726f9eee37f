# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit lint: a workspace's launch, parameter and robot files checked before the car drives.

The files are read, never run. A bringup (an entry launch file and what it includes) is what
starts together: the edges, nodes and parameters of each are checked as one tree, and whether
the frames exist at all is asked of what may run together (every bringup, or the entries
named). The findings use the audit's check ids and report (reports.report.Report), each
pointing at the file and line it concerns; lint_files names what the lint could not read,
lint_parameters and lint_nodes what no tree check can see.
"""
from dataclasses import replace
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .bringup import Bringup, find_entry, Planner
from .declared import Declared
from .description import Body, body_edges, read_description
from .install import source_file
from .laser_rules import check_laser_offset, check_pose_frame
from .lua import FRAME_OPTIONS, lua_file, lua_options
from .model import DeclaredEdge, Description, LaunchedNode, Param, Unresolved, Where
from .nodes import NODES_CHECK, node_params, PARAMETERS_CHECK, same_names, unapplied_blocks
from .publishers import declared_publishers, Publisher, publisher_of, sent_edges, TABLE
from .static_tf import is_static_publisher, static_edge
from .tree_rules import (check_chain_order, check_connectivity, check_parent_uniqueness,
                         check_transform_values, MAX_NAMED, parents_across, PARENTS,
                         when_launched)
from .workspace import collect, Collected, FILES, tally
from ..engine.checks import CHECK_IDS
from ..engine.checks.common import first_of, plural
from ..engine.checks.tree import FrameRow
from ..engine.config import AuditConfig
from ..engine.findings import CheckResult, Finding
from ..engine.records import TF_STATIC_TOPIC, TF_TOPIC
from ..errors import LintError
from ..reports.report import CheckLine, FindingLine, Report

Rule = Callable[[Declared], CheckResult]
BRINGUP_RULES: Tuple[Rule, ...] = (check_parent_uniqueness, check_laser_offset,
                                   check_pose_frame, check_transform_values)
TOGETHER_RULES: Tuple[Rule, ...] = (check_chain_order, check_connectivity)
DESCRIPTION = 'robot_description'


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


class Reader:
    """Turns bringups into declared trees: parameter files, descriptions, known publishers."""

    def __init__(self, collected: Collected, config: AuditConfig):
        """Read against this workspace, with the team's own publishers before the table's."""
        self.collected, self.config = collected, config
        self.table: Tuple[Publisher, ...] = declared_publishers(config.lint_publishers) + TABLE
        self.described: Dict[Description, Union[Body, str]] = {}

    def _parameter_file(self, value: object, where: Where) -> Optional[str]:
        """Return a parameter file as a workspace path; warn about those the lint cannot read."""
        if isinstance(value, Unresolved):
            self.collected.warn(where, 'a parameter file is {}, known only when the launch '
                                'runs: its parameters are not checked'.format(value),
                                'unresolved')
            return None
        file = source_file(value, self.collected.root)
        if file is None:
            self.collected.warn(where, 'the parameter file {} is not in the workspace: its '
                                'parameters are not checked'.format(value), 'missing')
        return file

    def _cartographer(self, node: LaunchedNode) -> None:
        """Give cartographer_node the options of its .lua file (and its includes)."""
        named = lua_file(node.arguments)
        options = lua_options(Path(named[0]), named[1], self.collected.root) if named else {}
        if not set(FRAME_OPTIONS) <= set(options):
            self.collected.warn(node.where, 'cartographer_node: {} sets no {} the lint can '
                                'read: the frames it publishes are not checked'.format(
                                    '{}/{}'.format(*named) if named else 'its .lua file (no '
                                    '-configuration_directory and -configuration_basename)',
                                    ', '.join(FRAME_OPTIONS)), 'lua')
        options.update(node.inline)
        node.inline = options

    def _description(self, node: LaunchedNode, bringup: Bringup) -> object:
        """Return robot_state_publisher's description: its parameter, ROS 1's, or its argument."""
        param = node.inline.get(DESCRIPTION) or bringup.description
        if param is not None:
            return param.value if isinstance(param.value, (Description, Unresolved)) else \
                Unresolved(DESCRIPTION)
        paths = [t.value for t in node.arguments if isinstance(t.value, str)
                 and not t.value.startswith('-')]
        return Description(paths[0]) if paths else Unresolved('no robot_description')

    def _sent(self, node: LaunchedNode, params: object, bringup: Bringup,
              possible: List[Tuple[str, Optional[Where]]]) -> List[DeclaredEdge]:
        publisher = publisher_of(params, self.table)
        runs = '{}/{}'.format(node.package, node.executable)
        label = 'the node {} ({})'.format(node.label(), runs) \
            if node.label() != node.executable else 'the node ' + runs
        if publisher is None:
            possible.append((label, node.where))
            return []
        if not publisher.description:
            edges = sent_edges(params, self.table)
            if edges is None:
                possible.append((label, node.where))
            return edges or []
        description = self._description(node, bringup)
        if not isinstance(description, Description):
            edges: object = 'its robot_description is {}, known only when the launch ' \
                'runs'.format(description)
        else:
            if description not in self.described:  # xacro once per file and arguments
                self.described[description] = read_description(
                    description, self.collected.root, self.collected.packages)
            body = self.described[description]
            prefix = node.inline.get('frame_prefix')
            if prefix is not None and not isinstance(prefix.value, str):
                body = 'its frame_prefix is {}, known only when the launch runs'.format(
                    prefix.value)
            edges = body if isinstance(body, str) else body_edges(
                body, node.where, prefix.value if prefix else '', bringup.gazebo,
                bringup.joint_states)
        if not isinstance(edges, str):
            return edges
        said = isinstance(description, Description) and source_file(
            description.path, self.collected.root) in self.collected.unreadable
        if not said:  # else the file's own finding says why
            self.collected.warn(node.where, 'robot_state_publisher: {}; the transforms it '
                                'sends are not checked'.format(edges), 'description')
        possible.append((label, node.where))
        return []

    def declare(self, bringup: Bringup) -> Tuple[Declared, List[LaunchedNode]]:
        """Return the tree a bringup declares, and the nodes it starts (their files resolved)."""
        launched, edges = bringup.nodes, []
        possible: List[Tuple[str, Optional[Where]]] = list(bringup.unknown)
        for node in launched:
            node.param_files = [(self._parameter_file(value, where), where)
                                for value, where in node.param_files]
            if any(file is None for file, _ in node.param_files):
                possible.append(('the node {}, whose parameters the lint cannot read'.format(
                    node.label()), node.where))
            if 'cartographer_node' in (node.executable, node.name):
                self._cartographer(node)
        nodes = node_params(launched, self.collected.blocks)
        for node, params in zip([n for n in launched
                                 if not is_static_publisher(n.package, n.executable)], nodes):
            edges += [replace(edge, branch=node.branch)
                      for edge in self._sent(node, params, bringup, possible)]
        for node in launched:
            if is_static_publisher(node.package, node.executable):
                edge = static_edge(node.arguments, node.where)
                if isinstance(edge, str):
                    self.collected.warn(node.where, 'static_transform_publisher: {}; this '
                                        'transform is not checked'.format(edge), 'static')
                else:
                    edges.append(replace(edge, branch=node.branch))
        return Declared(edges, nodes, self.config, possible, self.table), launched


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


def _bringups(collected: Collected, entries: Sequence[str],
              given: Mapping[str, str]) -> List[Bringup]:
    """Return the bringups to check: the entries named, together, or each entry of its own."""
    planner = Planner(collected.root, collected.sources, collected.packages, collected.warn,
                      collected.shown, collected.folders)
    if entries:
        try:
            files = [find_entry(spec, collected.sources, collected.packages, collected.folders,
                                collected.root) for spec in entries]
        except LookupError as error:
            raise LintError(str(error)) from None
        return [planner.expand(files, given)]
    reads = {}
    for file, source in collected.sources.items():
        try:
            reads[file] = source.read(collected.packages, {}, planner.folders)
        except (SyntaxError, ValueError, RecursionError) as error:
            collected.warn(Where(file, getattr(error, 'lineno', None) or 1), 'cannot be read '
                           '({}: {}); skipped'.format(type(error).__name__, error), 'unreadable')
    bringups = [planner.expand([root], {}) for root in planner.roots(reads) if root in reads]
    for bringup in bringups:  # what an unreadable launch file starts may run beside them
        bringup.unknown += [('what the unreadable launch file starts', where)
                            for where in collected.unreadable_launch]
    return bringups


def _standalone(collected: Collected) -> List[Bringup]:
    """Return a bringup per robot description when no launch file starts one."""
    found = []
    for file in collected.descriptions:
        node = LaunchedNode('robot_state_publisher', 'robot_state_publisher', None,
                            Where(file, 1))
        node.inline[DESCRIPTION] = Param(DESCRIPTION, Description(
            str(collected.root / file)), Where(file, 1))
        found.append(Bringup(file, [file], [node], unknown=[(
            'a launch file (the workspace has none)', None)]))
    return found


def lint_workspace(path: Path, config: AuditConfig, entries: Sequence[str] = (),
                   given: Optional[Mapping[str, str]] = None) -> Report:
    """Read a workspace's launch, parameter and robot description files; report frame slips."""
    root = Path(path)
    if not root.is_dir():
        raise LintError('{}: not a folder (lint takes a ROS 2 workspace or a package)'.format(
            path))
    with tempfile.TemporaryDirectory(prefix='frame_audit_share_') as share:
        collected = collect(root, Path(share), config.lint_exclude)
        if not tally(collected)[0]:
            raise LintError('{}: no launch, parameter or robot description files found{}'
                            .format(path, ' ({})'.format('; '.join(
                                f.message for f in collected.problems[:3]))
                                if collected.problems else ''))
        bringups = _bringups(collected, entries, given or {}) if collected.sources else \
            _standalone(collected)
        reader = Reader(collected, config)
        declared = [(b, *reader.declare(b)) for b in bringups]
    scope = 'that {} start{}'.format(' and '.join(entries), '' if len(entries) > 1 else 's') \
        if entries else 'in the workspace'
    return _report(str(path), collected, _together(config, declared, scope, collected.links),
                   declared)


def _together(config: AuditConfig, declared: List[tuple], scope: str,
              links: Dict[str, Where]) -> Declared:
    """Return what may run together: every bringup's edges, nodes and unknown senders."""
    edges = list({(e.key, e.where, e.via): e for _, d, _ in declared for e in d.edges}.values())
    nodes = [node for _, d, _ in declared for node in d.nodes]
    possible = list(dict.fromkeys(p for _, d, _ in declared for p in d.possible))
    return Declared(edges, nodes, config, possible,
                    declared[0][1].table if declared else TABLE, scope=scope, links=links)


def _report(path: str, collected: Collected, together: Declared,
            declared: List[tuple]) -> Report:
    config = together.config
    per_check: Dict[str, List[Tuple[str, List[Finding]]]] = {}
    started = {str(name) for bringup, _, launched in declared
               for node in launched + bringup.switched_off
               for name in (node.name, node.executable) if isinstance(name, str)}
    summaries = {result.check: result for result in (rule(together) for rule in BRINGUP_RULES)}
    for bringup, tree, launched in declared:
        tree.context = together
        for rule in BRINGUP_RULES:
            result = rule(tree)
            per_check.setdefault(result.check, []).append((bringup.name, result.findings))
        per_check.setdefault(PARAMETERS_CHECK, []).append((bringup.name, unapplied_blocks(
            launched, collected.blocks, started)))
        per_check.setdefault(NODES_CHECK, []).append((bringup.name, same_names(launched)))
    results = [CheckResult(check, whole.summary, _merge(per_check.get(check, [])) + (
        parents_across([(b.name, tree) for b, tree, _ in declared]) if check == PARENTS
        else []), stale=whole.stale) for check, whole in summaries.items()]
    results += [rule(together) for rule in TOGETHER_RULES]
    results = sorted(results, key=lambda r: CHECK_IDS.index(r.check))
    total, kinds = tally(collected)
    names = [b.name for b, _, _ in declared]
    results += [
        CheckResult(FILES, 'read {} ({}); {}'.format(
            plural(total, 'file'), kinds, '{}: {}'.format(plural(len(names), 'bringup'),
                                                          first_of(names, MAX_NAMED)) if names else
            'no launch file starts a node'), _grouped(_unique(collected.problems))),
        CheckResult(PARAMETERS_CHECK, 'every parameter block matches a node its file is '
                    'passed to', _merge(per_check.get(PARAMETERS_CHECK, []))),
        CheckResult(NODES_CHECK, 'every node a bringup starts has a name of its own',
                    _merge(per_check.get(NODES_CHECK, [])))]
    off = set(config.lint_checks_off)
    results = [r if r.check not in off else CheckResult(
        r.check, 'off ({})'.format(config.key('lint.checks_off')))
        for r in results]
    findings = [FindingLine(f.check, f.level.name, f.message, list(f.frames), list(f.topics),
                            None, dict(f.values))
                for result in results for f in _unique(result.findings)]
    return Report(path, 0.0, total, _frame_rows(together.edges),
                  [CheckLine(r.check, r.level.name, r.message) for r in results], findings)
