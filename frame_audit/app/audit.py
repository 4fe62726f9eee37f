# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The offline audit of one recording: its messages through the engine, checked as the node would.

Messages go into the Audit in the order the recording is played, and the checks run once per
diagnostic period of log time, as the live node runs them once per second of (simulated)
clock time; each cycle's findings go into an AuditLog with the time into the recording they
first appeared.
When the recording's clock jumps back (a looped or restarted recording), checking goes on
once per period of the new clock, and the time into the recording keeps counting forwards.

`frame-audit audit REC` is audit_file (the recording opened once: its own summary sizes the
progress bar), then the report printed, then draw_tree. The picture is a step of its own so
that the report is out before it is drawn: a picture Graphviz cannot draw still leaves the
report, as it always has.
"""
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Protocol, Tuple

from .config import command_config
from ..engine.audit import Audit, AuditLog
from ..engine.checks.connectivity import expected_missing
from ..engine.config import AuditConfig
from ..engine.findings import CheckResult, fmt
from ..engine.records import Message
from ..engine.stall import judge_stall, RECORDING_GAP, Stall
from ..errors import PictureError
from ..recordings.diagnostics import StampedStatuses, write_diagnostics
from ..recordings.read import Recording, RecordingInfo
from ..reports.diagnostics import DIAGNOSTICS_TOPIC, status_content
from ..reports.report import build_report, Report
from ..reports.tree_picture import write_tree
from ..ros.real_tf2 import choose

# called with the recorded seconds audited since last call; what it returns (a bar's update
# returns a value) is ignored
Progress = Callable[[float], object]
MAX_GAP_CHECKS = 10  # a silent stretch of the recording gets at most this many check cycles


class ProgressBar(Protocol):
    """What the command line shows progress on (a tqdm bar): told the steps done, then closed."""

    def update(self, n: float) -> object:
        """Advance by n steps (recorded seconds, or recordings)."""

    def close(self) -> None:
        """Take the bar off the terminal."""


# Given the total and its unit ('s' or 'recording'), a bar, or None to show nothing. The use
# case calls it once its input is open, so the total comes from the input it audits.
ProgressFactory = Callable[[float, str], Optional[ProgressBar]]


@contextmanager
def progress_shown(progress: Optional[ProgressFactory], total: float,
                   unit: str) -> Iterator[Optional[Callable[[float], object]]]:
    """Show a bar over total steps while the block runs; yield its update (None: no bar)."""
    bar = progress(total, unit) if progress else None
    try:
        yield bar.update if bar else None
    finally:
        if bar:
            bar.close()


@dataclass(frozen=True)
class Cycle:
    """One check cycle: its time in the recording's clock (s) and its results."""

    time_s: float
    results: Tuple[CheckResult, ...]


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
                   cycles: Optional[List[Cycle]] = None, checks: bool = True,
                   samples: Optional[Dict[str, Dict[str, int]]] = None) -> OfflineResult:
    """
    Audit messages in the order given, checking once per diagnostic period of their clock.

    After the last message the checks run once more, as the recording's final verdict.
    recorded maps every topic of the recording to its type, so a configured topic that was
    never recorded is said to be so, with the recorded topics that might be meant instead.
    cycles, when given, receives each cycle's results at its time on the recording's clock.
    checks False: only the tree is wanted (init, diff); each cycle settles it, as before its
    checks, and no check runs (the log stays empty). A gap in which every audited topic
    stopped at once is the recorder's or the computer's: the verdicts it explains are
    withheld, as the live node withholds those of its own stall, and the report says so.
    samples: the frames the first headers of topics the config does not read name.
    """
    real = choose(config.lookups_tf2, config.key('lookups.tf2'))
    audit, log = Audit(config, recorded, real), AuditLog()
    audit.add_header_samples(samples or {})
    period = config.diagnostic_period
    clock: Optional[_RecordedClock] = None
    gaps = _Gaps(config)
    next_check = 0.0
    count = 0
    for message in messages:
        now = message.received
        if clock is None:
            clock, next_check = _RecordedClock(now, progress), now + period
        elif now < clock.last - config.backwards_jump_s:
            next_check = now + period  # the clock went back: check on the new clock
            gaps.restart()
        gaps.take(message.topic, now, clock.at_s(now))
        next_check = max(next_check, now - MAX_GAP_CHECKS * period)
        while next_check <= now:
            _check(audit, log, clock, next_check, cycles=cycles, checks=checks, gap=gaps.last)
            next_check += period
        clock.follow(now)
        audit.add(message)
        count += 1
    if clock is None:
        clock = _RecordedClock(0.0, None)
        _check(audit, log, clock, 0.0, final=True, checks=checks)
        return OfflineResult(source, 0.0, 0, log, audit, cycles=cycles)
    _check(audit, log, clock, clock.last, final=True, cycles=cycles, checks=checks,
           gap=gaps.last)
    return OfflineResult(source, clock.at_s(clock.last), count, log, audit, cycles=cycles,
                         notes=gaps.notes())


class _Gaps:
    """
    Gaps in which every audited topic stopped at once, for stale_after_s or longer.

    Two topics or more must have been flowing just before: a gap of the only topic sent is
    that sender's stop, a timing finding, never the recorder's.
    """

    def __init__(self, config: AuditConfig):
        """Start with no topic seen."""
        self.after_s = config.stale_after_s
        self.seen: Dict[str, float] = {}  # topic -> its last arrival
        self.latest: Optional[float] = None  # the last arrival of any topic
        self.last: Optional[Stall] = None
        self.found: List[Tuple[float, float]] = []  # (seconds into the recording, length)

    def take(self, topic: str, now: float, into_s: float) -> None:
        """Take one arrival; note a gap that ends with it."""
        before = self.latest
        if before is not None and now - before >= self.after_s and sum(
                1 for t in self.seen.values() if before - t <= self.after_s) >= 2:
            self.last = Stall(now, now - before, what=RECORDING_GAP)
            self.found.append((into_s - (now - before), now - before))
        self.seen[topic] = now
        self.latest = now

    def restart(self) -> None:
        """Forget the arrivals of a clock that jumped back: they say nothing of the new one."""
        self.seen.clear()
        self.latest = None

    def notes(self) -> List[str]:
        """Return the report's note on the gaps, or none."""
        if not self.found:
            return []
        return ['{} in the recording: {}. Every audited topic stopped at once, so the gap is '
                "the recorder's or the computer's, not one node's: the verdicts it explains "
                '(edges stopped, odometry jumps across it) are withheld, STALE'.format(
                    'a gap' if len(self.found) == 1 else '{} gaps'.format(len(self.found)),
                    ', '.join('{} s from {} s'.format(fmt(length, 1), fmt(start, 1))
                              for start, length in self.found[:5]))]


def _check(audit: Audit, log: AuditLog, clock: _RecordedClock, now: float,
           final: bool = False, cycles: Optional[List[Cycle]] = None,
           checks: bool = True, gap: Optional[Stall] = None) -> None:
    """Run one check cycle at log time now and log its findings (and keep them in cycles)."""
    clock.follow(now)
    if checks:
        config = audit.config
        results = judge_stall(audit.check(now, final), gap, now, config.stale_after_s,
                              config.history_s)
        log.record(results, clock.at_s(now))
        if cycles is not None:
            cycles.append(Cycle(now, tuple(results)))
    else:
        audit.settle(now, final)
    clock.report()


def _cut_note(recording: Recording) -> str:
    """Return the report's note on an MCAP recovered without its footer."""
    cut, name = recording.cut, recording.path.name
    assert cut is not None
    return ('{} has no MCAP footer: its recorder stopped before it finished (a crash, a dead '
            'battery). {}; the {} messages before that, {} s of recording, were recovered and '
            'audited. `mcap recover {} -o fixed.mcap` writes a complete file'.format(
                name, cut.stopped[0].upper() + cut.stopped[1:], cut.count,
                fmt((cut.end_ns - cut.start_ns) * 1e-9, 1), name))


def audit_opened(recording: Recording, config: AuditConfig,
                 progress: Optional[Progress] = None, keep_cycles: bool = False,
                 source: Optional[str] = None, checks: bool = True) -> OfflineResult:
    """
    Audit an open recording with config: one pass over its messages.

    The caller keeps the recording open, so one opening serves the progress bar's total
    (recording.info) and, for init and diff, a second pass with another config. source names
    the result (default: the recording's path). checks False: the tree alone (audit_messages).
    """
    recorded = {topic: msgtype for topic, (msgtype, _) in recording.info.topics.items()}
    samples = recording.header_samples(config) if checks else {}
    result = audit_messages(recording.messages(config), config, progress,
                            str(recording.path) if source is None else source,
                            recorded, [] if keep_cycles else None, checks, samples)
    result.skipped = dict(recording.stats.skipped)
    result.info = recording.info
    if recording.cut is not None:
        result.notes.append(_cut_note(recording))
    result.notes += recording.notes()
    return result


def audit_recording(path: Path, config: AuditConfig = AuditConfig(),
                    progress: Optional[Progress] = None,
                    keep_cycles: bool = False) -> OfflineResult:
    """Audit a recording (rosbag2 folder, .mcap, .db3 or ROS 1 .bag); BagError if unreadable."""
    with Recording(Path(path), config) as recording:
        return audit_opened(recording, config, progress, keep_cycles, source=str(path))


# -- `frame-audit audit REC`: the use case ---------------------------------------------------

@dataclass(frozen=True)
class DiagnosticsWritten:
    """The rosbag2 folder --diagnostics wrote: how many arrays, and if the recording is in it."""

    folder: Path
    messages: int
    with_recording: bool


@dataclass(frozen=True)
class AuditOutcome:
    """What auditing one recording gives the command line: the report, and what was written."""

    report: Report
    result: OfflineResult  # for draw_tree: the command line reads report and diagnostics only
    diagnostics: Optional[DiagnosticsWritten] = None


def audit_file(path: Path, config_path: Optional[str] = None,
               diagnostics: Optional[Path] = None, with_recording: bool = False,
               progress: Optional[ProgressFactory] = None) -> AuditOutcome:
    """
    Audit the recording at path with the --config file; write its --diagnostics if asked.

    The recording is opened once: its summary gives the progress bar its total, then its
    messages are audited. FrameAuditError (exit 2) if the config or the recording is unusable.
    """
    config = command_config(config_path)
    with Recording(Path(path), config) as recording:
        with progress_shown(progress, recording.info.duration_s, 's') as advance:
            result = audit_opened(recording, config, advance,
                                  keep_cycles=diagnostics is not None, source=str(path))
    written = None
    if diagnostics is not None:
        written = _write_diagnostics(diagnostics, result, config,
                                     Path(path) if with_recording else None)
    return AuditOutcome(result.report(), result, written)


def _write_diagnostics(path: Path, result: OfflineResult, config: AuditConfig,
                       recording: Optional[Path]) -> DiagnosticsWritten:
    """
    Write the audit's /diagnostics (and the recording, if given) as a rosbag2 folder.

    Copying the recording reads it a second time, raw: its CDR bytes go across undecoded,
    every topic of it, which the audit's pass (decoded, audited topics only) does not give.
    """
    cycles = result.cycles or []
    arrays = [StampedStatuses(cycle.time_s, tuple(status_content(check, config.hardware_id)
                                                  for check in cycle.results))
              for cycle in cycles]
    folder = write_diagnostics(path, DIAGNOSTICS_TOPIC, arrays, recording)
    return DiagnosticsWritten(folder, len(cycles), recording is not None)


def draw_tree(outcome: AuditOutcome, path: Path) -> Optional[str]:
    """
    Draw the audited tree to path as view_frames does, what is wrong in red.

    Return None, or the one line saying why the picture could not be drawn or written: a
    picture is an aid, and its failure never replaces the audit's verdict (its exit code).
    """
    tree = outcome.result.audit.tree
    config = tree.config
    report = outcome.report
    chain = tree.ancestry(config.base_frame) + [config.laser_frame]
    try:
        write_tree(path, tree, report.findings, 'frame_audit: {}'.format(report.source),
                   expected_missing(tree, config), chain)
    except PictureError as error:
        return '{}: the tree picture was not drawn: {}'.format(path, error)
    except OSError as error:
        return '{}: the tree picture was not written ({})'.format(
            path, error.strerror or type(error).__name__)
    return None
