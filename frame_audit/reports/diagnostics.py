# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What one check cycle publishes on /diagnostics, as plain data: one status per check.

The live node (ros/messages.py) and the offline diagnostics recording (recordings/
diagnostics.py) build their DiagnosticStatus messages from this, so a recording's /diagnostics
reads exactly as the node's would have during `ros2 bag play`.
"""
from dataclasses import dataclass
from typing import List, Tuple

from ..engine.findings import CheckResult, Finding, one_line, Value

STATUS_PREFIX = 'frame_audit: '
FINDING_PREFIX = 'finding '
MAX_FINDINGS_SHOWN = 10  # per status: the diagnostics stay readable and bounded
MAX_MESSAGE_CHARS = 300
DIAGNOSTICS_TOPIC = '/diagnostics'


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


def status_content(result: CheckResult, hardware_id: str) -> StatusContent:
    """Return one check's status: its level, message, numbers and first findings."""
    values = [(key, format_value(v)) for key, v in result.values.items()]
    if result.findings:
        values.append(('findings', str(len(result.findings))))
    for index, finding in enumerate(result.findings[:MAX_FINDINGS_SHOWN], start=1):
        values.extend(_finding_values(index, finding))
    return StatusContent(int(result.level), STATUS_PREFIX + result.check,
                         one_line(result.message, MAX_MESSAGE_CHARS), hardware_id,
                         tuple(values))
