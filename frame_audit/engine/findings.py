# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""What the engine gives out: levels, findings and one result per check."""
from dataclasses import dataclass, field
import enum
import math
import re
from typing import Dict, List, Tuple, Union

Value = Union[float, int, str]


class Level(enum.IntEnum):
    """diagnostic_msgs/DiagnosticStatus levels; STALE means not enough data yet."""

    OK = 0
    WARN = 1
    ERROR = 2
    STALE = 3


@dataclass
class Finding:
    """
    One problem: what is wrong, with the frames and topics it concerns.

    key identifies the problem across check cycles (its message holds numbers that change),
    so a report can say when it first appeared.
    """

    check: str
    level: Level
    message: str
    key: str
    frames: Tuple[str, ...] = ()
    topics: Tuple[str, ...] = ()
    values: Dict[str, Value] = field(default_factory=dict)


@dataclass
class CheckResult:
    """
    One check's verdict: its findings, or a one-line summary when it passes.

    values are the numbers the diagnostics show as key-values (rates, ages, offsets).
    """

    check: str
    summary: str
    findings: List[Finding] = field(default_factory=list)
    values: Dict[str, Value] = field(default_factory=dict)
    stale: bool = False

    @property
    def level(self) -> Level:
        """Return the worst finding's level, STALE without data, or OK."""
        if self.findings:
            return max(finding.level for finding in self.findings)
        return Level.STALE if self.stale else Level.OK

    @property
    def message(self) -> str:
        """Return the first worst finding's message, or the summary."""
        worst = [f for f in self.findings if f.level == self.level]
        if not worst:
            return self.summary
        more = len(self.findings) - 1
        return worst[0].message + (' (+{} more)'.format(more) if more else '')


# C0 and C1 controls; the bidirectional marks, embeddings, overrides and isolates that reorder
# what a terminal shows (Trojan Source); the separators that break a line for an editor
CONTROL = re.compile('[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e'
                     '\u2066-\u2069]')
LONG = re.compile(r'\S{97,}')  # a run this long is a hostile or broken id, not a word


def printable(text: str) -> str:
    """
    Return text fit for a terminal, a markdown page or rqt: controls escaped, runs shortened.

    An escape in a frame id could clear the screen, a newline forge a report line; the JSON
    report keeps every id exact.
    """
    text = CONTROL.sub(lambda match: match.group().encode('unicode_escape').decode('ascii'),
                       text)
    return LONG.sub(lambda match: '{}…{} ({} characters)'.format(
        match.group()[:48], match.group()[-16:], len(match.group())), text)


def one_line(text: str, limit: int) -> str:
    """
    Return a message within limit characters: the verdict and what to fix, details cut.

    Messages read 'verdict: details. What to fix'; rqt's column shows the first few hundred
    characters, so the middle of the details goes, the verdict and the fix stay.
    """
    text = printable(text)
    if len(text) <= limit:
        return text
    fix = re.split(r'(?<=[.;]) ', text)[-1]
    if fix == text or len(fix) > limit // 2:
        return _between_words(text, limit - 1) + '…'
    return '{} … {}'.format(_between_words(text, limit - len(fix) - 3), fix)


def _between_words(text: str, limit: int) -> str:
    """Return text cut to limit characters at a space (mid-word only for a word that long)."""
    cut = text[:limit]
    if len(text) > limit and text[limit] != ' ' and ' ' in cut:
        cut = cut.rsplit(' ', 1)[0]
    for opening, closing in ('()', '[]'):  # never leave a bracket open
        while cut.count(opening) > cut.count(closing):
            cut = cut[:cut.rindex(opening)]
    return cut.rstrip(' ,;:')


def within_tolerance(a: float, b: float, tolerance: float) -> bool:
    """
    Return whether a and b differ by at most tolerance.

    "Within" rather than "too far": every ordered comparison with a NaN is false, so a NaN is
    never within a tolerance, where a test for "too far" would let it pass.
    """
    return abs(a - b) <= tolerance


def fmt(value: float, digits: int = 3) -> str:
    """Format a number for a message; NaN and infinity spelled out."""
    if math.isnan(value):
        return 'NaN'
    if math.isinf(value):
        return 'inf' if value > 0 else '-inf'
    if abs(value) >= 1e12:  # an absurd value stays short: 1e+200, not 201 digits
        return '{:.3g}'.format(value)
    return '{:.{}f}'.format(value, digits)
