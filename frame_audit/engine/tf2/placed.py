# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
How many messages of a topic tf2 could place in a frame within a wait, as a message filter.

Each message is asked at its own stamp, at the moment it arrived plus the wait, of the buffer
as it held the transforms that had arrived by then; each refusal is explained (limiting edge,
cause) and counted, with the wait or the stamp offset that would have placed every one.
"""
from dataclasses import dataclass, field
import statistics
from typing import Dict, List, Optional, Tuple

from .diagnose import explain, Explanation
from .replay import Clock, Replay


@dataclass(frozen=True)
class Stamped:
    """One message of the topic looked up: its stamp, frame and arrival."""

    stamp: float
    frame: str
    received: float


@dataclass(frozen=True)
class Summary:
    """Every lookup of a topic, counted: how many tf2 refused, why, and what would fix it."""

    topic: str
    asked: int
    refused: int
    causes: Dict[str, int]
    edges: Dict[str, int]  # the limiting edge -> refusals
    first_refused: Optional[float]  # seconds into the recording
    wait_needed_s: Optional[float]  # the wait (after arrival) that would have placed every one
    stamp_later_s: Optional[float]  # or: how much later the limiting edge should be stamped
    worst: Optional[Explanation]  # of the commonest cause, the refusal with the largest lag
    never_covered: int = 0  # refused that no wait would have placed
    cut_off: int = 0  # refused where the recording ends before the next sample: cannot know
    unjudged: int = 0  # refused, but asked after the recording's end: not counted in asked
    late_edge: str = ''  # the edge stamp_later_s is for
    wait_by_cause: Dict[str, Optional[float]] = field(default_factory=dict)  # None: none would
    refused_at: Tuple[float, ...] = ()  # when each refused message arrived (receive clock)


def summarize(replay: Replay, stamped: List[Stamped], topic: str, target: str, source: str,
              wait_s: float) -> Summary:
    """
    Ask the lookup for every message, as a message filter would, and count.

    The topic's own delay (arrival - stamp, median) is the asker's clock: an edge is late or
    on another clock against it, not against the receive clock.
    """
    causes: Dict[str, int] = {}
    edges: Dict[str, int] = {}
    refused: List[Explanation] = []
    delays = [m.received - m.stamp for m in stamped]
    clock = Clock(statistics.median(delays), '{} (median of {})'.format(topic, len(delays))) \
        if delays else None
    first: Optional[float] = None
    judged, unjudged = refusals(replay, stamped, target, source, wait_s)
    for message in judged:
        asked = message.received + wait_s
        explained = explain(replay, target, source or message.frame, message.stamp, asked,
                            wait_s, clock, message.received)
        refused.append(explained)
        causes[explained.cause] = causes.get(explained.cause, 0) + 1
        if explained.edge is not None:
            edges[explained.edge.name] = edges.get(explained.edge.name, 0) + 1
        if first is None:
            first = message.received - replay.start
    needed = [e.wait_needed_s for e in refused if e.wait_needed_s is not None]
    cut_off = sum(1 for e in refused if e.recording_ended and e.wait_needed_s is None)
    never = len(refused) - len(needed) - cut_off
    later = [e for e in refused if e.cause == 'late_stamps' and e.fix_s is not None]
    latest = max(later, key=_fix_s, default=None)
    common = max(causes, key=lambda cause: causes[cause], default=None)
    worst = max((e for e in refused if e.cause == common), key=_edge_lag_s, default=None)
    return Summary(topic, len(stamped) - unjudged, len(refused), causes, edges, first,
                   max(needed) if needed and not never else None,
                   latest.fix_s if latest else None, worst, never, cut_off, unjudged,
                   latest.edge.name if latest and latest.edge else '',
                   {cause: _most_needed([e for e in refused if e.cause == cause])
                    for cause in causes}, tuple(m.received for m in judged))


def refusals(replay: Replay, stamped: List[Stamped], target: str, source: str,
             wait_s: float) -> Tuple[List[Stamped], int]:
    """
    Return the messages tf2 refused (asked at arrival plus the wait), and how many more after.

    Those asked after the recording's end are only counted: what came after it is unknown.
    The one way lookups are asked for a topic: the summary, and each fix tried again.
    """
    end = max([replay.end] + [m.received for m in stamped])
    judged: List[Stamped] = []
    unjudged = 0
    for message in sorted(stamped, key=lambda m: m.received):
        asked = message.received + wait_s
        if replay.ask(target, source or message.frame, message.stamp, asked).ok:
            continue
        if asked > end:
            unjudged += 1
        else:
            judged.append(message)
    return judged, unjudged


def _most_needed(refused: List[Explanation]) -> Optional[float]:
    """Return the wait that placed every one of these the recording can judge; None: none."""
    if any(e.wait_needed_s is None and not e.recording_ended for e in refused):
        return None
    return max((e.wait_needed_s for e in refused if e.wait_needed_s is not None), default=None)


def _edge_lag_s(explanation: Explanation) -> float:
    edge = explanation.edge
    return edge.lag_s if edge is not None and edge.lag_s is not None else -1.0


def _fix_s(explanation: Explanation) -> float:
    fix_s = explanation.fix_s
    assert fix_s is not None  # summarize asks it only of `later`: each has a fix_s
    return fix_s
