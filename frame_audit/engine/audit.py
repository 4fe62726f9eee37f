# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The engine's front: take messages in, run every check, remember when findings appeared.

The live node and the offline audit are thin adapters over Audit; neither knows the checks
nor the store behind it. What they read back is the checks' results and a read-only view of
the tree (Audit.tree) for the report, the picture, init and diff.
"""
from dataclasses import dataclass, field
import math
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .checks import run_checks
from .config import AuditConfig
from .findings import CheckResult, Finding, Level
from .records import Arrival, HeaderRecord, Message, OdometryRecord, PoseRecord, TF_STATIC_TOPIC, \
    TransformRecord, Unreadable
from .scoring import score_pending
from .store import FrameStore
from .tf2.backend import Real
from .tf2.watch import LookupWatch
from .tree_view import TreeView


class Audit:
    """One audit: a store fed by messages, and the checks run over it on demand."""

    def __init__(self, config: AuditConfig, recorded: Optional[Mapping[str, str]] = None,
                 real: Optional[Real] = None):
        """
        Start with an empty tree.

        recorded (offline) maps every topic of the recording to its type, so a configured
        topic that was never recorded is said to be so, with the topics that might be meant.
        real: tf2 itself (tf2_py, where the caller found it) answers the lookups check; None:
        the model does.
        """
        self.config = config
        # the lookups check's tf2 model, fed here in arrival order, live and offline alike
        self.lookups = LookupWatch(config.lookups or (), max_frames=config.max_frames,
                                   silent_after_s=config.stale_after_s, real=real)
        # the engine's own: callers read self.tree
        self.store = FrameStore(config, recorded, self.lookups)
        self.tree = TreeView(self.store)

    def set_topic_graph(self, graph: Dict[str, Tuple[int, int]]) -> None:
        """
        Take the live graph: configured topic -> (publishers, subscribers besides the audit).

        A topic nobody publishes or subscribes is not in use on this car; one that nodes wait
        for and nobody publishes is probably misspelled.
        """
        self.store.take_graph(graph)

    def add_header_samples(self, samples: Mapping[str, Mapping[str, int]]) -> None:
        """
        Take topic -> {frame: messages} read from the first headers of unconfigured topics.

        Offline only: a recording holds every topic, the live node subscribes to its own.
        """
        for topic, frames in samples.items():
            for frame, count in frames.items():
                self.store.sampled_frames.setdefault(frame, {})[topic] = count

    def add_transforms(self, records: Sequence[TransformRecord], arrival: Arrival) -> None:
        """Take in one TFMessage from /tf or /tf_static."""
        self.store.add_transforms(records, arrival)
        if self.store.clock.time_jumps:  # what was stamped before a loop's jump is asked of no tf2
            records = [r for r in records
                       if not self.store.clock.stamped_before_jump(r.stamp, arrival.received)]
        self.lookups.add_transforms(records, arrival.received, arrival.topic == TF_STATIC_TOPIC,
                                    arrival.publisher)

    def add_pose(self, record: PoseRecord, arrival: Arrival) -> None:
        """Take in a sample of a pose topic."""
        self.store.add_pose(record, arrival)
        self._look_up(arrival, record.frame_id, record.stamp)

    def add_odometry(self, record: OdometryRecord, arrival: Arrival) -> None:
        """Take in an odometry message."""
        self.store.add_odometry(record, arrival)
        self._look_up(arrival, record.pose.frame_id, record.pose.stamp)

    def add_scan(self, record: HeaderRecord, arrival: Arrival) -> None:
        """Take in a scan's header."""
        self.store.add_scan(record, arrival)
        self._look_up(arrival, record.frame_id, record.stamp)

    def _look_up(self, arrival: Arrival, frame: str, stamp: float) -> None:
        """Give a stamped message to the lookups check, unless stamped before a loop's jump."""
        if not self.store.clock.stamped_before_jump(stamp, arrival.received):
            self.lookups.add_message(arrival.topic, frame, stamp, arrival.received)

    def add_unreadable(self, reason: str, arrival: Arrival) -> None:
        """Count a message that could not be decoded, by topic and reason."""
        self.store.add_unreadable(reason, arrival)

    def add(self, message: Message) -> None:
        """Take in any message, by the kind of its payload."""
        payload = message.payload
        if isinstance(payload, OdometryRecord):
            self.add_odometry(payload, message.arrival)
        elif isinstance(payload, PoseRecord):
            self.add_pose(payload, message.arrival)
        elif isinstance(payload, HeaderRecord):
            self.add_scan(payload, message.arrival)
        elif isinstance(payload, Unreadable):
            self.add_unreadable(payload.reason, message.arrival)
        else:
            self.add_transforms(payload, message.arrival)

    def forget(self, now: float) -> int:
        """Forget what stopped before the window (live only); return the edges forgotten."""
        forgotten = self.store.forget(now)
        self.lookups.forget(now - self.config.history_s)
        return forgotten

    def check(self, now: Optional[float] = None, final: bool = False) -> List[CheckResult]:
        """
        Run every check at receive time now (default: the newest message's time).

        final: the recording has ended. The audit is then never "too young": a frame that
        never came is missing, and STALE is left only where the data cannot say.
        """
        if now is None:
            last = self.store.clock.last_received
            now = last if last is not None else 0.0
        self.settle(now, final)
        return run_checks(self.store, self.config, now)

    def settle(self, now: float, final: bool = False) -> None:
        """
        Do what a check cycle does before its checks, and nothing more.

        It scores the poses that waited for TF and asks the lookups due: alone, it keeps the
        tree as the checks would find it, for init and diff, which want the tree alone.
        """
        if final:
            self.store.end()
            score_pending(self.store, float('inf'))  # no more TF will come to wait for
            self.lookups.resolve()
        score_pending(self.store, now)
        # Ask the lookups due before the newest arrival taken in: the messages still to come
        # (live, some wait in the node for their sender's name) arrived after it.
        self.lookups.resolve(min(now, self.store.clock.last_received or now))


@dataclass
class Seen:
    """A finding as last reported, and when (seconds into the audit) it first appeared."""

    finding: Finding
    first_seen_s: float
    last_seen_s: float = -math.inf  # the last check cycle that had it


@dataclass
class AuditLog:
    """
    Findings across check cycles: each problem once, with the time it first appeared.

    Offline the checks run once per recorded second, as the node would; a problem that
    appears in any cycle stays in the report, since the car had it at that time.
    """

    seen: Dict[str, Seen] = field(default_factory=dict)
    last_results: List[CheckResult] = field(default_factory=list)
    last_at_s: float = -math.inf  # the last check cycle

    def record(self, results: List[CheckResult], at_s: float) -> None:
        """Remember this cycle's findings; at_s is the time into the recording."""
        self.last_results, self.last_at_s = results, at_s
        for result in results:
            for finding in result.findings:
                key = '{}:{}'.format(finding.check, finding.key)
                seen = self.seen.get(key)
                if seen is None:
                    seen = self.seen[key] = Seen(finding, at_s)
                elif finding.level >= seen.finding.level:
                    seen.finding = finding
                seen.last_seen_s = at_s

    def cleared(self, seen: Seen) -> Optional[float]:
        """Return the last cycle that had a finding the last cycle no longer has, else None."""
        return seen.last_seen_s if seen.last_seen_s < self.last_at_s else None

    def findings(self) -> List[Seen]:
        """Return every finding seen, worst first, then by first appearance."""
        return sorted(self.seen.values(), key=lambda s: (-int(s.finding.level), s.first_seen_s))

    def verdicts(self) -> List[CheckResult]:
        """Return one result per check: its findings over the whole audit, or its last state."""
        verdicts = []
        for last in self.last_results:
            findings = [s.finding for s in self.seen.values() if s.finding.check == last.check]
            verdicts.append(CheckResult(last.check, last.summary, findings, last.values,
                                        stale=last.stale))
        return verdicts

    def worst(self) -> Level:
        """Return the worst level of any finding (OK when there is none)."""
        return max((s.finding.level for s in self.seen.values()), default=Level.OK)
