# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tree of every edge received, and the queries the checks ask of it.

tf2's buffer re-parents a frame silently and keeps one parent; this tree keeps every
(parent, child) edge ever received, so a second parent is never lost, and follows one
parent up from each frame the way the checks need (parent_of).
"""
from typing import Dict, Iterable, List, Optional, Set

from .config import AuditConfig
from .edge import Edge, EdgeKey
from .receive_clock import ReceiveClock


class FrameTree:
    """Every edge, each child's parents, every frame; ancestries cached while one parent each."""

    def __init__(self, config: AuditConfig, clock: ReceiveClock):
        """
        Keep the configured chain's names: the parent followed among several is REP 105's.

        clock: the receive clock, by which a parent that stopped arriving counts less.
        """
        self.config = config
        self.clock = clock
        self.edges: Dict[EdgeKey, Edge] = {}
        self.parents: Dict[str, Dict[str, Edge]] = {}  # child -> parent -> edge
        self.frames: Set[str] = set()
        # While every frame has one parent, the tree's shape changes only when an edge is
        # added, so ancestries are cached until then (lookups are most of an audit's time).
        self._ancestries: Dict[str, List[str]] = {}
        self._one_parent_each = True

    def add(self, edge: Edge) -> None:
        """Add a new edge, and its frames."""
        self.frames.update(edge.key)
        self.edges[edge.key] = edge
        parents = self.parents.setdefault(edge.child, {})
        parents[edge.parent] = edge
        self._one_parent_each = self._one_parent_each and len(parents) == 1
        self._ancestries.clear()

    def remove(self, keys: Iterable[EdgeKey]) -> None:
        """Remove edges, and the frames only they held."""
        removed = False
        for parent, child in keys:
            del self.edges[(parent, child)]
            del self.parents[child][parent]
            if not self.parents[child]:
                del self.parents[child]
            removed = True
        if removed:
            self.frames = {frame for key in self.edges for frame in key}
            self._one_parent_each = all(len(p) == 1 for p in self.parents.values())
            self._ancestries.clear()

    def parent_of(self, child: str) -> Optional[Edge]:
        """
        Return the edge the audit follows up from child.

        With several parents (a fault parent_uniqueness reports) tf2 follows whichever came
        last; the audit keeps the established one, so the other checks still see the car and
        one fault does not hide another: not an edge against REP 105's order, then REP 105's
        own parent (map above odom, odom above the base), then a static parent, then one
        still arriving, then the one seen first.
        """
        candidates = self.parents.get(child)
        if not candidates:
            return None
        if len(candidates) == 1:
            return next(iter(candidates.values()))
        live_after = (self.clock.last_received or 0.0) - self.config.stale_after_s
        return min(candidates.values(),
                   key=lambda edge: (self._against_chain(edge), not self._on_chain(edge),
                                     edge.static_value is None,
                                     edge.last_received < live_after, edge.first_received))

    def _on_chain(self, edge: Edge) -> bool:
        """Return whether an edge is one of REP 105's: map -> odom or odom -> base."""
        config = self.config
        return edge.key in ((config.map_frame, config.odom_frame),
                            (config.odom_frame, config.base_frame))

    def _against_chain(self, edge: Edge) -> bool:
        """Return whether an edge runs up REP 105's map, odom, base chain (base -> odom)."""
        chain = (self.config.map_frame, self.config.odom_frame, self.config.base_frame)
        return edge.parent in chain and edge.child in chain and \
            chain.index(edge.parent) > chain.index(edge.child)

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to the root (stopping at a cycle)."""
        cached = self._ancestries.get(frame)
        if cached is not None:
            return cached
        chain = self._walk_up(frame)
        if self._one_parent_each:
            self._ancestries[frame] = chain
        return chain

    def _walk_up(self, frame: str) -> List[str]:
        chain = [frame]
        seen = {frame}
        edge = self.parent_of(frame)
        while edge is not None and edge.parent not in seen:
            chain.append(edge.parent)
            seen.add(edge.parent)
            edge = self.parent_of(edge.parent)
        return chain

    def trees(self) -> List[List[str]]:
        """Return the connected groups of frames (over every edge seen), largest first."""
        group: Dict[str, str] = {frame: frame for frame in self.frames}

        def find(frame: str) -> str:
            while group[frame] != frame:
                group[frame] = group[group[frame]]
                frame = group[frame]
            return frame

        for parent, child in self.edges:
            group[find(parent)] = find(child)
        members: Dict[str, List[str]] = {}
        for frame in sorted(self.frames):
            members.setdefault(find(frame), []).append(frame)
        return sorted(members.values(), key=lambda frames: (-len(frames), frames))
