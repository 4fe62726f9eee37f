# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reports of an audit: JSON for tools (docs/contracts.md), text for people, markdown for issues.

The report is built once from the audit's results; each format only renders it.
"""
from dataclasses import asdict, dataclass, field
import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..engine.audit import AuditLog
from ..engine.checks import CHECK_IDS
from ..engine.checks.common import one_pointer_to_init, plural
from ..engine.checks.tree_summary import frame_rows, FrameRow
from ..engine.findings import Finding, Level, printable
from ..engine.records import TF_STATIC_TOPIC
from ..engine.tree_view import TreeReader

COLOURS = {Level.OK: '\033[32m', Level.WARN: '\033[33m', Level.ERROR: '\033[31m',
           Level.STALE: '\033[36m'}
RESET = '\033[0m'


@dataclass(frozen=True)
class CheckLine:
    """One check's verdict over the whole audit."""

    check: str
    level: str
    message: str


@dataclass(frozen=True)
class FindingLine:
    """One problem, with the frames and topics it concerns and when it first appeared."""

    check: str
    level: str
    message: str
    frames: List[str]
    topics: List[str]
    first_seen_s: Optional[float]
    values: Dict[str, Any]
    cleared_after_s: Optional[float] = None  # offline: the last check that had it, if it went


@dataclass(frozen=True)
class SkippedLine:
    """Messages of an audited topic that the audit could not use, and why."""

    topic: str
    type: str  # noqa: A003 (the report's JSON field)
    count: int
    reason: str


@dataclass(frozen=True)
class Report:
    """
    What an audit found, in the shape of docs/contracts.md's JSON report.

    duration_s and messages cover the whole recording; audited_messages is how many of those
    were on the topics the audit reads, and skipped says which of those it could not use.
    """

    source: str
    duration_s: float
    messages: int
    frames: List[FrameRow]
    checks: List[CheckLine]
    findings: List[FindingLine]
    audited_messages: Optional[int] = None
    skipped: List[SkippedLine] = field(default_factory=list)

    @property
    def summary(self) -> Dict[str, int]:
        """Return how many checks ended at each level."""
        return _per_level(check.level for check in self.checks)

    @property
    def finding_summary(self) -> Dict[str, int]:
        """Return how many findings are at each level: one check may hold several."""
        return _per_level(finding.level for finding in self.findings)

    def worst(self) -> Level:
        """Return the worst level of any finding (OK when there is none)."""
        return max((Level[f.level] for f in self.findings), default=Level.OK)


def _per_level(levels: Iterable[str]) -> Dict[str, int]:
    """Return how many of these level names there are of each level, every level named."""
    counts = {level.name: 0 for level in Level}
    for level in levels:
        counts[level] += 1
    return counts


RECORDING = 'recording'  # findings about the file itself, not the robot (as lint's lint_files)


def build_report(source: str, duration_s: float, messages: int, tree: TreeReader,
                 log: AuditLog, audited: Optional[int] = None,
                 skipped: Optional[Dict[Tuple[str, str], int]] = None,
                 notes: Sequence[str] = ()) -> Report:
    """Gather the tree, each check's verdict and every finding into a report."""
    verdicts = [v for v in log.verdicts() if v.check in CHECK_IDS]
    seen = log.findings()
    # a folded pointer holds at the end; a static transform stays in tf2's buffer once sent,
    # so what is wrong with one is never gone because it was not sent again
    cleared = {id(s.finding): None if TF_STATIC_TOPIC in s.finding.topics else log.cleared(s)
               for s in seen}
    findings = [FindingLine(finding.check, finding.level.name, finding.message,
                            list(finding.frames), list(finding.topics), round(first_seen_s, 3),
                            dict(finding.values), _rounded(cleared.get(id(finding))))
                for finding, first_seen_s in one_pointer_to_init(
                    [(s.finding, _dated(s.finding, s.first_seen_s)) for s in seen])]
    findings += [FindingLine(RECORDING, Level.WARN.name, note, [], [], round(duration_s, 3), {})
                 for note in notes]
    return Report(source, round(duration_s, 3), messages, frame_rows(tree),
                  [CheckLine(v.check, v.level.name, v.message) for v in verdicts], findings,
                  audited, [SkippedLine(topic, msgtype, count, 'the audit cannot read a {} '
                                        'as this topic'.format(msgtype))
                            for (topic, msgtype), count in sorted((skipped or {}).items())])


def _rounded(seconds: Optional[float]) -> Optional[float]:
    return None if seconds is None else round(seconds, 3)


def _dated(finding: Finding, first_seen_s: float) -> float:
    """
    Return when a finding first appeared.

    An absence judged at a recording's end is dated from when it was first judgeable (its
    value judged_from_s), not from the end.
    """
    judged = finding.values.get('judged_from_s')
    return min(first_seen_s, judged) if isinstance(judged, (int, float)) else first_seen_s


def to_json(report: Report) -> str:
    """Return the report as docs/contracts.md's JSON."""
    return json.dumps(report_document(report), indent=2, ensure_ascii=False) + '\n'


def report_document(report: Report) -> Dict[str, Any]:
    """Return the report as docs/contracts.md's JSON document (a dict, for reports holding it)."""
    document = {
        'source': report.source,
        'duration_s': report.duration_s,
        'messages': report.messages,
        'frames': [dict(asdict(row), parents=list(row.parents), topics=list(row.topics),
                        publishers=list(row.publishers),
                        rate_hz=None if row.rate_hz is None else round(row.rate_hz, 2))
                   for row in report.frames],
        'checks': [asdict(check) for check in report.checks],
        'findings': [asdict(finding) for finding in report.findings],
        'summary': report.summary,
        'finding_summary': report.finding_summary,
    }
    if report.audited_messages is not None:
        document['audited_messages'] = report.audited_messages
        document['skipped'] = [asdict(line) for line in report.skipped]
    return document


def _size(report: Report) -> str:
    """Return what was audited: a recording's length, or a workspace's file count."""
    if report.audited_messages is None:
        return plural(report.messages, 'file')
    return '{:.1f} s, {} messages, {} of them audited'.format(
        report.duration_s, report.messages, report.audited_messages)


def _skipped(report: Report) -> List[str]:
    """Return a line per audited topic whose messages were skipped, and why."""
    return ['{}: {} messages skipped ({})'.format(line.topic, line.count, line.reason)
            for line in report.skipped]


def _paint(level: str, text: str, colour: bool) -> str:
    return COLOURS[Level[level]] + text + RESET if colour else text


def _frame_line(row: FrameRow) -> str:
    if not row.parents:
        return '{} (root)'.format(row.frame)
    how = 'static' if row.static else (
        '{:.1f} Hz'.format(row.rate_hz) if row.rate_hz else 'rate unknown')
    by = ', by ' + ', '.join(row.publishers) if row.publishers else ''
    return '{} ← {} ({}; {}{})'.format(row.frame, ' and '.join(row.parents),
                                       ', '.join(row.topics), how, by)


def _when(finding: FindingLine) -> str:
    if finding.first_seen_s is None:
        return ''
    if finding.cleared_after_s is None:
        return ' [from {:.1f} s]'.format(finding.first_seen_s)
    return ' [from {:.1f} s; last seen at {:.1f} s, gone by the end]'.format(
        finding.first_seen_s, finding.cleared_after_s)


def _seen_cell(finding: FindingLine) -> str:
    if finding.first_seen_s is None:
        return ''
    return '{:.1f}{}'.format(finding.first_seen_s, '' if finding.cleared_after_s is None else
                             ' (last {:.1f}, gone by the end)'.format(finding.cleared_after_s))


def to_text(report: Report, colour: bool = False) -> str:
    """Return the report for a terminal: verdicts first, then each finding, then the tree."""
    lines = ['frame_audit: {} ({})'.format(printable(report.source), _size(report)), '']
    width = max(len(check.check) for check in report.checks) if report.checks else 0
    for check in report.checks:
        lines.append('{} {}  {}'.format(_paint(check.level, '{:<5}'.format(check.level), colour),
                                        check.check.ljust(width), printable(check.message)))
    if report.findings:
        lines += ['', 'Findings:']
        for finding in report.findings:
            lines.append('  {} {}{}: {}'.format(
                _paint(finding.level, finding.level, colour), finding.check, _when(finding),
                printable(finding.message)))
    if report.skipped:
        lines += ['', 'Skipped:'] + ['  ' + printable(line) for line in _skipped(report)]
    lines += ['', 'Frames:'] + ['  ' + printable(_frame_line(row)) for row in report.frames]
    lines += ['', 'Summary: ' + _summary(report)]
    return '\n'.join(lines) + '\n'


def _summary(report: Report) -> str:
    """Return how many checks, then how many findings, ended at each level."""
    def counted(counts: Dict[str, int]) -> str:
        return ', '.join('{} {}'.format(n, level) for level, n in counts.items() if n) or 'none'
    return '{} (checks); {} (findings)'.format(counted(report.summary),
                                               counted(report.finding_summary))


MARKDOWN = {'|': '\\|', '*': '\\*', '[': '\\[', ']': '\\]', '<': '&lt;', '>': '&gt;',
            '&': '&amp;'}  # a table cell, an emphasis, a link, an HTML tag or comment


def _cell(text: str) -> str:
    """Return text for a markdown table cell or list item: shown as written, never as markup."""
    return ''.join(MARKDOWN.get(c, c) for c in printable(text))


def to_markdown(report: Report) -> str:
    """Return the report as markdown, to paste into an issue."""
    lines = ['## frame_audit: `{}`'.format(printable(report.source).replace('`', "'")), '',
             '{}. {}.'.format(_size(report), _summary(report)),
             '', '| check | level | message |', '| --- | --- | --- |']
    lines += ['| `{}` | {} | {} |'.format(c.check, c.level, _cell(c.message))
              for c in report.checks]
    if report.findings:
        lines += ['', '### Findings', '', '| check | level | first seen (s) | message |',
                  '| --- | --- | --- | --- |']
        lines += ['| `{}` | {} | {} | {} |'.format(
            f.check, f.level, _seen_cell(f), _cell(f.message)) for f in report.findings]
    if report.skipped:
        lines += ['', '### Skipped', ''] + ['- ' + _cell(line) for line in _skipped(report)]
    lines += ['', '### Frames', ''] + ['- ' + _cell(_frame_line(row)) for row in report.frames]
    return '\n'.join(lines) + '\n'


SARIF_LEVELS = {'ERROR': 'error', 'WARN': 'warning', 'STALE': 'note', 'OK': 'none'}
SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'


def to_sarif(report: Report) -> str:
    """
    Return the report as SARIF 2.1.0: one result per finding, at its file and line.

    GitHub code scanning and editors then show each finding at the line it concerns; the
    rule id is the check id. Findings without a place point at the workspace itself.
    """
    rules = sorted({f.check for f in report.findings} | {c.check for c in report.checks})
    results = []
    for finding in report.findings:
        place = finding.values
        locations = []
        if 'file' in place:  # a finding of the whole workspace (a frame nothing sends) has none
            location: Dict[str, Dict[str, Any]] = {'physicalLocation': {'artifactLocation': {
                'uri': str(place['file']), 'uriBaseId': 'SRCROOT'}}}
            if int(place.get('line', 0) or 0) > 0:
                location['physicalLocation']['region'] = {'startLine': int(place['line'])}
            locations.append(location)
        results.append({
            'ruleId': finding.check, 'level': SARIF_LEVELS[finding.level],
            'message': {'text': finding.message}, 'locations': locations})
    driver = {'name': 'frame_audit', 'informationUri': 'https://github.com/frame-audit',
              'rules': [{'id': rule, 'shortDescription': {'text': rule.replace('_', ' ')}}
                        for rule in rules]}
    root = {'SRCROOT': {'uri': Path(report.source).resolve().as_uri() + '/'}}
    document = {'$schema': SARIF_SCHEMA, 'version': '2.1.0',
                'runs': [{'tool': {'driver': driver}, 'originalUriBaseIds': root,
                          'results': results}]}
    return json.dumps(document, indent=2, ensure_ascii=False) + '\n'


FORMATS = {'text': to_text, 'markdown': to_markdown, 'json': to_json, 'sarif': to_sarif}


def fails(report: Report, fail_on: str) -> bool:
    """Return whether a finding is at or above --fail-on (error, warn or never)."""
    thresholds: Dict[str, Sequence[Level]] = {
        'error': (Level.ERROR,), 'warn': (Level.WARN, Level.ERROR), 'never': ()}
    return report.worst() in thresholds[fail_on]
