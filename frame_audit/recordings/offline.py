# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The offline audit: a recording's messages through the engine, checked as the node would.

Messages go into the Audit in recorded order, and the checks run once per diagnostic period
of log time, as the live node runs them once per second of (simulated) clock time; each
cycle's findings go into an AuditLog with the time into the recording they first appeared.
When the recording's clock jumps back (a looped or restarted recording), checking goes on
once per period of the new clock, and the time into the recording keeps counting forwards.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from ..engine.audit import Audit, AuditLog
from .diagnostics import Cycle
from .read import Recording, RecordingInfo
from ..engine.config import AuditConfig
from ..engine.findings import fmt
from ..engine.records import Message
from ..reports.report import build_report, Report

Progress = Callable[[float], None]  # called with the recorded seconds audited since last call
MAX_GAP_CHECKS = 10  # a silent stretch of the recording gets at most this many check cycles


@dataclass
class OfflineResult:
    """An audited recording: what was read, the findings over time, and the final tree."""

    source: str
    duration_s: float  # recorded seconds audited (a clock that jumps back adds, never rewinds)
    messages: int  # messages audited
    log: AuditLog
    audit: Audit
    skipped: Dict[Tuple[str, str], int] = field(default_factory=dict)  # (topic, type) -> count
    info: Optional[RecordingInfo] = None  # the whole recording, audited topics or not
    notes: List[str] = field(default_factory=list)  # what is wrong with the file itself
    cycles: Optional[List[Cycle]] = None  # each check cycle's results, when asked for

    def report(self) -> Report:
        """Return the report of this audit, named by the recording's file name."""
        whole = self.info
        return build_report(
            Path(self.source).name,
            max(whole.duration_s, self.duration_s) if whole else self.duration_s,
            whole.message_count if whole else self.messages, self.audit.tree, self.log,
            audited=self.messages, skipped=self.skipped, notes=self.notes)


class _RecordedClock:
    """Time into the recording: log time, kept continuous across jumps back."""

    def __init__(self, start: float, progress: Optional[Progress]):
        """Start counting at the first message's log time."""
        self.origin = start
        self.last = start
        self.progress = progress
        self.reported = 0.0

    def at_s(self, now: float) -> float:
        """Return the recorded seconds audited up to log time now."""
        return now - self.origin

    def follow(self, now: float) -> None:
        """Move to log time now; a step back shifts the origin, so time never rewinds."""
        if now < self.last:
            self.origin -= self.last - now
        self.last = now

    def report(self) -> None:
        """Tell the progress callback how many more recorded seconds were audited."""
        done = self.at_s(self.last)
        if self.progress is not None and done > self.reported:
            self.progress(done - self.reported)
        self.reported = max(self.reported, done)


def audit_messages(messages: Iterable[Message], config: AuditConfig = AuditConfig(),
                   progress: Optional[Progress] = None, source: str = '',
                   recorded: Optional[Dict[str, str]] = None,
                   cycles: Optional[List[Cycle]] = None) -> OfflineResult:
    """
    Audit messages in the order given, checking once per diagnostic period of their clock.

    After the last message the checks run once more, as the recording's final verdict.
    recorded maps every topic of the recording to its type, so a configured topic that was
    never recorded is said to be so, with the recorded topics that might be meant instead.
    cycles, when given, receives each cycle's results at its time on the recording's clock.
    """
    audit, log = Audit(config, recorded), AuditLog()
    period = config.diagnostic_period
    clock: Optional[_RecordedClock] = None
    next_check = 0.0
    count = 0
    for message in messages:
        now = message.received
        if clock is None:
            clock, next_check = _RecordedClock(now, progress), now + period
        elif now < clock.last - config.backwards_jump_s:
            next_check = now + period  # the clock went back: check on the new clock
        next_check = max(next_check, now - MAX_GAP_CHECKS * period)
        while next_check <= now:
            _check(audit, log, clock, next_check, cycles=cycles)
            next_check += period
        clock.follow(now)
        audit.add(message)
        count += 1
    if clock is None:
        log.record(audit.check(0.0, final=True), 0.0)
        return OfflineResult(source, 0.0, 0, log, audit, cycles=cycles)
    _check(audit, log, clock, clock.last, final=True, cycles=cycles)
    return OfflineResult(source, clock.at_s(clock.last), count, log, audit, cycles=cycles)


def _check(audit: Audit, log: AuditLog, clock: _RecordedClock, now: float,
           final: bool = False, cycles: Optional[List[Cycle]] = None) -> None:
    """Run one check cycle at log time now and log its findings (and keep them in cycles)."""
    clock.follow(now)
    results = audit.check(now, final)
    log.record(results, clock.at_s(now))
    if cycles is not None:
        cycles.append(Cycle(now, tuple(results)))
    clock.report()


def audit_recording(path: Path, config: AuditConfig = AuditConfig(),
                    progress: Optional[Progress] = None,
                    keep_cycles: bool = False) -> OfflineResult:
    """Audit a recording (rosbag2 folder, .mcap, .db3 or ROS 1 .bag); BagError if unreadable."""
    with Recording(Path(path), config) as recording:
        recorded = {topic: msgtype for topic, (msgtype, _) in recording.info.topics.items()}
        result = audit_messages(recording.messages(), config, progress, str(path), recorded,
                                [] if keep_cycles else None)
        result.skipped = dict(recording.stats.skipped)
        result.info = recording.info
        if recording.cut is not None:
            cut = recording.cut
            result.notes.append(
                '{} has no MCAP footer: its recorder stopped before it finished (a crash, a '
                'dead battery). {}; the {} messages before that, {} s of recording, were '
                'recovered and audited. `mcap recover {} -o fixed.mcap` writes a complete '
                'file'.format(Path(path).name, cut.stopped[0].upper() + cut.stopped[1:],
                              cut.count, fmt((cut.end_ns - cut.start_ns) * 1e-9, 1),
                              Path(path).name))
    return result
