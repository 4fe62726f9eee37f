# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A gap in what the audit was given, told apart from the car's faults: what it cannot know is STALE.

Live, the gap is the node's own stall; offline, a recording in which every audited topic
stopped at once (the recorder's or the computer's gap, not one node's).

When the node itself was frozen (a scheduler stall, a huge message) or fell behind its
queues, the car's edges look silent for that time and lost messages look like odometry
jumps, and odometry compared with TF interpolated across the hole looks like another
source (the /tf queue overflowed while the node was frozen; DDS drops the oldest, unseen):
verdicts on that gap are about the audit, not the car. They are withheld and the check
says STALE ("the audit stalled for 3.1 s"): an edge silent since before the stall, until the
node has listened for the settle time after it; a jump or a time going back, for
timing.history_s after it (their records span that window). A real fault elsewhere in the
check keeps its level.
"""
import dataclasses
from typing import Dict, List, Optional, Tuple

from .check_ids import ODOMETRY, TIMING
from .findings import CheckResult, Finding, fmt

STALL_S = 0.5  # a gap between two batches (nominally 0.1 s) longer than this is a stall
SETTLE_PERIODS = 3  # timing.stale_after_s periods after a stall before a silence is a stop
STOPPED = 'stopped:'
SILENT = 'silent:'  # a configured topic without messages (poses, odometry)
# the findings a gap in the node's listening can make up: check -> key prefixes
GAP_FINDINGS: Dict[str, Tuple[str, ...]] = {
    TIMING: (STOPPED, 'time_jump:', 'stamps_back'), ODOMETRY: ('jump', 'vs_tf')}


RECORDING_GAP = 'every recorded topic stopped at once'  # a recorder's or computer's gap


@dataclasses.dataclass(frozen=True)
class Stall:
    """The last gap in what the audit was given: when it ended, how long, what was lost."""

    end: float
    seconds: float
    lost: int = 0
    what: str = 'the audit stalled'  # the node's own; offline, RECORDING_GAP

    def describe(self, now: float) -> str:
        """Return the stall as a message says it."""
        lost = ', {} queued messages lost'.format(self.lost) if self.lost else ''
        when = '{} s ago'.format(fmt(now - self.end, 1)) if now >= self.end else \
            'this moment inside it'
        return '{} for {} s, {}{}'.format(self.what, fmt(self.seconds, 1), when, lost)


def _explained(finding: Finding, stall: Stall, now: float, settle_s: float,
               history_s: float) -> bool:
    """Return whether a stall of the node explains a finding: the data cannot say."""
    if finding.key.startswith(STOPPED):  # silent since before the stall, and not long after
        age = float(finding.values.get('age_s', 0.0))
        return now - stall.end <= settle_s and age > now - stall.end
    return now - stall.end <= history_s


def judge_stall(results: List[CheckResult], stall: Optional[Stall], now: float,
                stale_after_s: float, history_s: float) -> List[CheckResult]:
    """
    Return the results with the findings a recent stall of the node explains withheld.

    A stall that ended after now happened on a clock that has since jumped back (a loop):
    the audit restarted there (FrameStore.restart), and so does this bookkeeping; a cycle
    inside the gap itself (offline, where the gap's end is read before the cycles it skipped
    run) is judged as one just after it.
    """
    if stall is None or not -stall.seconds <= now - stall.end <= history_s:
        return results
    settle_s = SETTLE_PERIODS * stale_after_s
    judged = []
    for result in results:
        prefixes = GAP_FINDINGS.get(result.check, ())
        withheld = [f for f in result.findings if f.key.startswith(prefixes)
                    and _explained(f, stall, now, settle_s, history_s)] if prefixes else []
        if not withheld:
            judged.append(result)
            continue
        gone = {id(f) for f in withheld}
        kept = [f for f in result.findings if id(f) not in gone]
        note = 'cannot know: {}; {} on that gap withheld ({})'.format(
            stall.describe(now), '1 verdict' if len(withheld) == 1 else
            '{} verdicts'.format(len(withheld)), withheld[0].message)
        values = {**result.values, 'node: stalled_s': round(stall.seconds, 2),
                  'node: withheld': note}
        judged.append(dataclasses.replace(result, findings=kept, values=values,
                                          summary=note, stale=not kept or result.stale))
    return judged


def judge_discovery(results: List[CheckResult], grace_s: float) -> List[CheckResult]:
    """
    Return the results with the verdicts on silent topics withheld while discovery runs.

    Before the graph had its time, a topic without messages may simply not be discovered yet:
    neither "not in use" nor "misspelled" can be said; the check is STALE, waiting.
    """
    judged = []
    for result in results:
        silent = [f for f in result.findings if f.key.startswith(SILENT)]
        if not silent:
            judged.append(result)
            continue
        kept = [f for f in result.findings if not f.key.startswith(SILENT)]
        note = 'waiting {} s for discovery before judging {}'.format(
            fmt(grace_s, 0), ', '.join(t for f in silent for t in f.topics))
        judged.append(dataclasses.replace(result, findings=kept, summary=note,
                                          stale=not kept or result.stale))
    return judged
