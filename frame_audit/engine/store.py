# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Every edge the audit has seen, with a bounded history: the tree the checks look at.

The store takes messages in and keeps what the checks judge, each part in its own module:
the receive clock (receive_clock.py), each transform as tf2 admits it (admission.py), the
bound on frames (frame_limit.py), the tree and its edges (frame_tree.py, edge.py), pose
tracks (pose_track.py). It counts what it dropped and why.
"""
from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .admission import admit, Rejection
from .config import AuditConfig
from .edge import Edge, EdgeKey
from .frame_limit import FrameLimit, HeldStatic
from .frame_tree import FrameTree
from .loops import no_later
from .occurrences import Occurrences
from .pose_track import PoseTrack
from .receive_clock import ReceiveClock
from .records import Arrival, CLOCK_TOPIC, CLOCK_TYPE, HeaderRecord, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TransformRecord
from .tf2.watch import LookupWatch

MAX_REJECTION_KINDS = 1000


class FrameStore:
    """The audit's memory: edges, pose samples, scan headers, and what tf2 would have dropped."""

    def __init__(self, config: AuditConfig, recorded: Optional[Mapping[str, str]] = None,
                 lookups: Optional[LookupWatch] = None):
        """
        Keep the configuration's frame names, window and thresholds.

        recorded (offline): every topic of the recording and its type. lookups: the car's
        lookups, asked of tf2 (Audit feeds it); it admits the configured frames past
        max_frames, as here.
        """
        self.config = config
        self.recorded = dict(recorded) if recorded is not None else None
        self.clock = ReceiveClock(config.backwards_jump_s, self.recorded is not None
                                  and self.recorded.get(CLOCK_TOPIC) == CLOCK_TYPE)
        self.tree = FrameTree(config, self.clock)
        self.limit = FrameLimit(config)
        self.rejections: Dict[Tuple[str, str, str, str], Rejection] = {}
        self.rejections_dropped = 0
        self._overflow_seen: Tuple[int, int, float] = (0, 0, 0.0)  # counts, when they last grew
        self.tracks: Dict[str, PoseTrack] = {}
        self.scan_frames: Dict[str, int] = {}
        self.scan_last: Dict[str, float] = {}
        # offline: frame -> {topic: messages} from the first headers of topics not configured
        self.sampled_frames: Dict[str, Dict[str, int]] = {}
        self.topic_counts: Dict[str, int] = {}
        self.messages = 0
        self._ended = False  # a recording read to its end: no more data will come
        self.unreadable: Dict[Tuple[str, str], Occurrences] = {}  # (topic, reason) -> when
        # live: configured topic -> (publishers, subscribers besides the audit), from the graph
        self.topic_graph: Optional[Dict[str, Tuple[int, int]]] = None
        self.lookups = lookups
        if lookups is not None:
            lookups.reserved = lookups.reserved | self.limit.configured

    # -- the tree, as TreeReader reads it ------------------------------------------------

    @property
    def edges(self) -> Dict[EdgeKey, Edge]:
        """Return every (parent, child) edge seen."""
        return self.tree.edges

    @property
    def parents(self) -> Dict[str, Dict[str, Edge]]:
        """Return each child's parents, with their edges."""
        return self.tree.parents

    @property
    def frames(self) -> Set[str]:
        """Return every frame seen."""
        return self.tree.frames

    def parent_of(self, child: str) -> Optional[Edge]:
        """Return the edge the audit follows up from child (FrameTree.parent_of)."""
        return self.tree.parent_of(child)

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to the root (stopping at a cycle)."""
        return self.tree.ancestry(frame)

    def trees(self) -> List[List[str]]:
        """Return the connected groups of frames (over every edge seen), largest first."""
        return self.tree.trees()

    # -- the clock ------------------------------------------------------------------------

    def _tick(self, arrival: Arrival) -> None:
        """Follow the receive clock; a jump back clears the histories, not the edges."""
        self.messages += 1
        self.topic_counts[arrival.topic] = self.topic_counts.get(arrival.topic, 0) + 1
        if self.clock.tick(arrival.received):
            self.restart(arrival.received)

    def restart(self, now: float) -> None:
        """
        Forget everything that compares a message with an earlier one: the clock jumped back.

        The one place a loop restarts the audit, as tf2_ros clears its buffer: edges' and
        pose tracks' samples, rates, jumps and every windowed count, the lookups' model;
        every stream counts as alive at the jump. The tree, its senders and static values,
        and the totals stay (the node's log and an offline report keep what was found).
        """
        for edge in self.tree.edges.values():
            edge.restart(now)
        for track in self.tracks.values():
            track.restart(now)
        for rejection in self.rejections.values():
            rejection.seen.restart()
        for seen in self.unreadable.values():
            seen.restart()
        no_later(self.scan_last, now)
        if self.lookups is not None:
            self.lookups.restart()

    # -- transforms -----------------------------------------------------------------------

    def _reject(self, reason: str, parent: str, child: str, arrival: Arrival,
                example: str) -> None:
        key = (reason, parent, child, arrival.topic)
        rejection = self.rejections.get(key)
        if rejection is None:
            if len(self.rejections) >= MAX_REJECTION_KINDS:
                self.rejections_dropped += 1
                return
            rejection = Rejection(reason, parent, child, arrival.topic, example=example,
                                  publisher=arrival.publisher)
            self.rejections[key] = rejection
        rejection.seen.add(arrival.received)

    def add_transforms(self, records: Iterable[TransformRecord], arrival: Arrival) -> None:
        """Take in one TFMessage's transforms as tf2 would."""
        self._tick(arrival)
        for record in records:
            self._add_transform(record, arrival)

    def _add_transform(self, record: TransformRecord, arrival: Arrival) -> None:
        admitted, faults = admit(record)
        for fault in faults:
            self._reject(fault.reason, fault.parent, fault.child, arrival, fault.example)
        if admitted is None:
            return
        parent, child, value, stamp = admitted
        edge = self.tree.edges.get((parent, child))
        if edge is not None:
            edge.take(value, stamp, arrival, self.clock, self.config)
            return
        edge = self._new_edge(parent, child, arrival)
        if edge is None:
            if arrival.topic == TF_STATIC_TOPIC:  # latched once: it will not come again
                self.limit.hold(child, HeldStatic(parent, value, stamp, arrival))
            return
        edge.take(value, stamp, arrival, self.clock, self.config)
        self._admit_held(parent)

    def _admit_held(self, frame: str) -> None:
        """
        Let in the static edges kept out above a frame that has just come in, up the chain.

        Past limits.max_frames a mount between base_link and the LiDAR, latched before the
        LiDAR's own edge, brings no configured frame and is kept out; once the LiDAR's edge
        makes it the parent of a frame held, it is one (a new parent to a frame held).
        """
        held = self.limit.release(frame)
        while held is not None:
            edge = self.tree.edges.get((held.parent, frame)) \
                or self._new_edge(held.parent, frame, held.arrival)
            if edge is None:
                return
            self.limit.let_in()
            edge.take(held.value, held.stamp, held.arrival, self.clock, self.config)
            frame = held.parent
            held = self.limit.release(frame)

    def _new_edge(self, parent: str, child: str, arrival: Arrival) -> Optional[Edge]:
        """Add an edge, unless it would take the tree past limits.max_frames (frame_limit.py)."""
        if not self.limit.admits(self.tree.frames, parent, child):
            return None
        edge = Edge(parent, child, first_received=arrival.received)
        self.tree.add(edge)
        return edge

    # -- pose-like samples and scans --------------------------------------------------------

    def add_pose(self, record: PoseRecord, arrival: Arrival,
                 child_frame: Optional[str] = None) -> None:
        """Take in a pose sample; it is scored against TF once TF covers its stamp."""
        self._tick(arrival)
        track = self.tracks.get(arrival.topic)
        if track is None:
            track = self.tracks[arrival.topic] = PoseTrack(arrival.topic)
        track.take(record, arrival.received, child_frame, self.clock)

    def add_odometry(self, record: OdometryRecord, arrival: Arrival) -> None:
        """Take in an odometry message: a pose of child_frame_id in header.frame_id."""
        self.add_pose(record.pose, arrival, child_frame=str(record.child_frame_id))

    def add_unreadable(self, reason: str, arrival: Arrival) -> None:
        """Count a message that could not be read (undecodable, or of the wrong type)."""
        self._tick(arrival)
        key = (arrival.topic, reason)
        skipped = self.unreadable.get(key)
        if skipped is None:
            if len(self.unreadable) >= MAX_REJECTION_KINDS:
                self.rejections_dropped += 1
                return
            skipped = self.unreadable[key] = Occurrences()
        skipped.add(arrival.received)

    def add_scan(self, record: HeaderRecord, arrival: Arrival) -> None:
        """Take in a scan's header (only its frame matters), or a recorded /clock's time."""
        self._tick(arrival)
        if arrival.topic == CLOCK_TOPIC:
            self.clock.clock_offset = arrival.received - record.stamp
            return
        frame = str(record.frame_id)
        self.scan_frames[frame] = self.scan_frames.get(frame, 0) + 1
        self.scan_last[frame] = arrival.received

    def take_graph(self, graph: Dict[str, Tuple[int, int]]) -> None:
        """Take the live graph: configured topic -> (publishers, subscribers besides the audit)."""
        self.topic_graph = dict(graph)

    # -- forgetting, and the end ---------------------------------------------------------

    def forget(self, now: float) -> int:
        """
        Forget what stopped before the window, as tf2 forgets it; return the edges forgotten.

        Edges silent for longer than timing.history_s are dropped, with the frames only they
        held, unless latched on /tf_static or on the chain the audit follows from the base
        and the LiDAR up to the root (a stopped odom -> base_link stays, and stays
        reported); so are kinds of rejected and unreadable messages not seen in the window,
        a static edge's /tf stream silent before it, the record of a static value changed and
        since changed back, and the count of frames limits.max_frames kept out once none came
        in the window. The live node forgets, so its memory stays bounded; an offline audit
        keeps everything for its report.
        """
        before = now - self.config.history_s
        kept: Set[EdgeKey] = set()
        for frame in (self.config.base_frame, self.config.laser_frame):
            chain = self.tree.ancestry(frame) if frame in self.tree.frames else []
            kept.update(zip(chain[1:], chain))
        stopped = [key for key, edge in self.tree.edges.items()
                   if edge.static_value is None and edge.last_received < before
                   and key not in kept]
        self.tree.remove(stopped)
        self.rejections = {key: rejection for key, rejection in self.rejections.items()
                           if (rejection.seen.last or 0.0) >= before}
        self.unreadable = {key: seen for key, seen in self.unreadable.items()
                           if (seen.last or 0.0) >= before}
        for edge in self.tree.edges.values():
            edge.forget_static_history(before, self.config)
        self._forget_overflow(now, before)
        if self.lookups is not None:  # tf2's model forgets the frames forgotten here
            self.lookups.keep_only(self.tree.frames)
        return len(stopped)

    def _forget_overflow(self, now: float, before: float) -> None:
        """Zero the counts of what limits.max_frames kept out once none came in the window."""
        counts = (self.limit.over_limit, self.rejections_dropped)
        if counts != self._overflow_seen[:2]:
            self._overflow_seen = counts + (now,)
        elif any(counts) and self._overflow_seen[2] < before:
            self.limit.over_limit = self.rejections_dropped = 0
            self._overflow_seen = (0, 0, now)

    @property
    def ended(self) -> bool:
        """Return whether a recording was read to its end: no more data will come."""
        return self._ended

    def end(self) -> None:
        """Mark the recording read to its end: its edges' rates are then over all of it."""
        self._ended = True
        for edge in self.tree.edges.values():
            edge.whole = self.whole_recording

    @property
    def whole_recording(self) -> bool:
        """Return whether a recording was read to its end on one receive clock."""
        return self.ended and not self.clock.time_jumps
