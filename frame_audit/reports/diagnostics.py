# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What one check cycle publishes on /diagnostics, as plain data: one status per check.

The live node (ros/messages.py) and the offline diagnostics recording (recordings/
diagnostics.py) build their DiagnosticStatus messages from this, so a recording's /diagnostics
reads exactly as the node's would have during `ros2 bag play`.

rqt_runtime_monitor cuts a row at about 105 characters: the row's message is the most severe,
then largest, finding's verdict with its numbers, within MAX_MESSAGE_CHARS; the detail pane
(key-values) keeps every finding's full text.
"""
from dataclasses import dataclass
import re
from typing import List, Tuple, TypeGuard

from ..engine.findings import CheckResult, Finding, Level, one_line, printable, Value

STATUS_PREFIX = 'frame_audit: '
FINDING_PREFIX = 'finding '
MAX_FINDINGS_SHOWN = 10  # per status: the diagnostics stay readable and bounded
MAX_VALUES_SHOWN = 100  # a check's own key-values (a flood of 10,000 edges has 30,000)
MAX_MESSAGE_CHARS = 99  # what an rqt row shows
DIAGNOSTICS_TOPIC = '/diagnostics'
SIZE_KEY = re.compile(r'(_m|_s|_rad|_m_.*)$')  # values that measure: metres, seconds, radians
ASIDE = re.compile(r' \((?![-+\d.])[^()]*\)')  # an aside in brackets, never a value's
SUBJECT_END = re.compile(r' \(|: |; |\. |, but ')  # a finding's subject ends here
VERDICT_END = re.compile(r': |; |\. ')


@dataclass(frozen=True)
class StatusContent:
    """A DiagnosticStatus's fields: level (0 OK .. 3 STALE), name, message, id, key-values."""

    level: int
    name: str
    message: str
    hardware_id: str
    values: Tuple[Tuple[str, str], ...]


def format_value(value: Value) -> str:
    """Return a key-value's text: numbers to six significant digits, the rest as is."""
    if isinstance(value, float):
        return '{:.6g}'.format(value)
    return str(value)


def _finding_values(index: int, finding: Finding) -> List[Tuple[str, str]]:
    prefix = '{}{}'.format(FINDING_PREFIX, index)
    pairs = [(prefix, '{}: {}'.format(finding.level.name, finding.message))]
    if finding.frames:
        pairs.append((prefix + ' frames', ', '.join(finding.frames)))
    if finding.topics:
        pairs.append((prefix + ' topics', ', '.join(finding.topics)))
    pairs.extend((prefix + ' ' + key, format_value(v)) for key, v in finding.values.items())
    return pairs


def _is_number(value: Value) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def measure(key: str, value: Value) -> float:
    """Return a value's size when it measures (metres, seconds, radians), else 0."""
    if SIZE_KEY.search(key) and _is_number(value):
        return abs(value)
    return 0.0


def size(finding: Finding) -> float:
    """Return how large a finding is: its largest measure."""
    return max((measure(key, v) for key, v in finding.values.items()), default=0.0)


def ranked(findings: List[Finding]) -> List[Finding]:
    """Return the findings most severe first, then largest (a stable order otherwise)."""
    return sorted(findings, key=lambda f: (-int(f.level) if f.level != Level.STALE else 0,
                                           -size(f)))


def verdict(message: str) -> str:
    """
    Return a finding's verdict in words: its first clause, asides in brackets left out.

    "/slam_pose is declared pose_frame base_link (poses.slam.pose_frame in car.yaml), but its
    poses are laser's: over 24 samples ..." -> "/slam_pose is declared pose_frame base_link,
    but its poses are laser's".
    """
    plain = ASIDE.sub('', message)
    return printable(VERDICT_END.split(plain, 1)[0].strip())


def row_message(result: CheckResult, limit: int = MAX_MESSAGE_CHARS) -> str:
    """
    Return a status's row: the leading finding's verdict in words, then what numbers fit.

    The verdict comes whole before any number where it fits the row ("/slam_pose is declared
    pose_frame base_link, but its poses are laser's"); a verdict too long for the row gives
    way to its subject and its numbers ("base_link → laser is [x=0.27 expected_x=0.26 …]").
    Numbers come only whole and inside a closed bracket; a cut falls between words. The
    detail pane keeps every finding's full text and values.
    """
    if not result.findings:
        return one_line(result.message, limit)
    lead = ranked(result.findings)[0]
    more = ' (+{} more)'.format(len(result.findings) - 1) if len(result.findings) > 1 else ''
    room = limit - len(more)
    pairs = ['{}={}'.format(key, format_value(v)) for key, v in sorted(
        ((key, v) for key, v in lead.values.items() if _is_number(v)),
        key=lambda item: -measure(*item))]  # numbers only, largest measures first
    if not pairs:
        return one_line(lead.message, room) + more
    head = verdict(lead.message)
    if len(head) <= room:
        return (_with_numbers(head, pairs, room) or head) + more
    subject = printable(SUBJECT_END.split(lead.message, 1)[0])
    return (_with_numbers(subject, pairs, room) or one_line(head, room)) + more


def _with_numbers(head: str, pairs: List[str], room: int) -> str:
    """Return head and as many whole numbers as fit in a closed bracket; '' if none fits."""
    shown: List[str] = []
    for index, pair in enumerate(pairs):
        cut = ' …' if index + 1 < len(pairs) else ''
        if len('{} [{}{}]'.format(head, ' '.join(shown + [pair]), cut)) > room:
            break
        shown.append(pair)
    if not shown:
        return ''
    return '{} [{}{}]'.format(head, ' '.join(shown), ' …' if len(shown) < len(pairs) else '')


def status_content(result: CheckResult, hardware_id: str) -> StatusContent:
    """Return one check's status: its level, row message, numbers and first findings."""
    values = [(key, format_value(v)) for key, v in
              list(result.values.items())[:MAX_VALUES_SHOWN]]
    if len(result.values) > MAX_VALUES_SHOWN:
        values.append(('values not shown', str(len(result.values) - MAX_VALUES_SHOWN)))
    if result.findings:
        values.append(('findings', str(len(result.findings))))
    for index, finding in enumerate(ranked(result.findings)[:MAX_FINDINGS_SHOWN], start=1):
        values.extend(_finding_values(index, finding))
    row = row_message(result)
    if not result.findings and row != result.message:  # the row was cut: the pane has it all
        values.append(('summary', result.message))
    return StatusContent(int(result.level), STATUS_PREFIX + result.check, row, hardware_id,
                         tuple(values))
