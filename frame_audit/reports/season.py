# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The report over many recordings: a row each, and a summary.

A row gives the recording's worst level and the checks that failed, each with when it first
did; the summary, how many recordings each check failed in. Text, markdown and JSON.
"""
from dataclasses import dataclass
import json
from typing import Dict, List, Optional, Sequence

from .report import fails, Report, report_document
from ..engine.checks.common import plural
from ..engine.findings import printable

LEVELS = ('ERROR', 'WARN', 'STALE', 'OK', 'UNREADABLE')


@dataclass(frozen=True)
class Row:
    """
    One recording's outcome: its report, or why it could not be read.

    The season report's row type lives with the report, so the use case that audits a season
    (app/season.py) builds rows and the report formats them, neither importing the other.
    """

    source: str
    report: Optional[Report] = None
    error: Optional[str] = None

    def failed(self) -> Dict[str, Optional[float]]:
        """Return each check that reached WARN or ERROR, with the first time it did."""
        firsts: Dict[str, Optional[float]] = {}
        for finding in self.report.findings if self.report else []:
            if finding.level in ('WARN', 'ERROR'):
                seen = firsts.get(finding.check, finding.first_seen_s)
                firsts[finding.check] = min(
                    (t for t in (seen, finding.first_seen_s) if t is not None), default=None)
        return firsts

    @property
    def worst(self) -> str:
        """Return the row's level: the report's worst, or UNREADABLE."""
        return 'UNREADABLE' if self.report is None else self.report.worst().name


def summary(rows: Sequence[Row]) -> Dict[str, Dict[str, int]]:
    """Return recordings per worst level, and per check the recordings it failed in."""
    levels = {level: sum(1 for row in rows if row.worst == level) for level in LEVELS}
    checks: Dict[str, int] = {}
    for row in rows:
        for check in row.failed():
            checks[check] = checks.get(check, 0) + 1
    ranked = sorted(checks.items(), key=lambda item: -item[1])
    return {'recordings': levels, 'failed_checks': dict(ranked)}


def failing(rows: Sequence[Row], fail_on: str) -> bool:
    """Return whether a readable recording has a finding at or above --fail-on."""
    return any(row.report is not None and fails(row.report, fail_on) for row in rows)


def _failed(row: Row) -> str:
    if row.error:
        return printable(row.error)
    return ', '.join('{} ({})'.format(check, '{:.1f} s'.format(t) if t is not None else 'at once')
                     for check, t in row.failed().items()) or '-'


def _duration(row: Row) -> str:
    return '{:.1f} s'.format(row.report.duration_s) if row.report else '-'


def _table(rows: Sequence[Row]) -> List[List[str]]:
    return [[printable(row.source), _duration(row), row.worst, _failed(row)] for row in rows]


def _summary_lines(rows: Sequence[Row]) -> List[str]:
    counts = summary(rows)
    levels = ', '.join('{} {}'.format(n, level) for level, n in counts['recordings'].items()
                       if n)
    lines = ['{}: {}'.format(plural(len(rows), 'recording'), levels or 'none')]
    lines += ['{}: failed in {} of {}'.format(check, n, len(rows))
              for check, n in counts['failed_checks'].items()]
    return lines


def season_text(rows: Sequence[Row]) -> str:
    """Return the rows and the summary for a terminal."""
    header = ['recording', 'duration', 'worst', 'failed checks (first seen)']
    table = [header] + _table(rows)
    widths = [max(len(line[i]) for line in table) for i in range(3)]
    lines = ['  '.join(cell.ljust(width) for cell, width in zip(line[:3], widths))
             + '  ' + line[3] for line in table]
    return '\n'.join(lines + [''] + _summary_lines(rows)) + '\n'


def season_markdown(rows: Sequence[Row]) -> str:
    """Return the rows and the summary as markdown, for an issue or a wiki."""
    lines = ['## frame_audit: {}'.format(plural(len(rows), 'recording')), '',
             '| recording | duration | worst | failed checks (first seen) |',
             '| --- | --- | --- | --- |']
    lines += ['| {} |'.format(' | '.join(cell.replace('|', '\\|') for cell in line))
              for line in _table(rows)]
    return '\n'.join(lines + [''] + ['- ' + line for line in _summary_lines(rows)]) + '\n'


def season_json(rows: Sequence[Row]) -> str:
    """Return one report per recording (as `audit --format json`) and the summary."""
    recordings = [report_document(row.report) if row.report else
                  {'source': row.source, 'error': row.error} for row in rows]
    for document, row in zip(recordings, rows):
        document['path'] = row.source
    return json.dumps({'recordings': recordings, 'summary': summary(rows)}, indent=2,
                      ensure_ascii=False) + '\n'


SEASON_FORMATS = {'text': season_text, 'markdown': season_markdown, 'json': season_json}
