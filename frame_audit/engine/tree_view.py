# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tree as an audit holds it, read-only: what reports, pictures, init and diff may look at.

TreeReader names what reading the tree takes; the store has it, and so does TreeView, the
view Audit.tree hands out, whose mappings cannot be written. Functions that only read (a
lookup, the frame rows, the measurements) take a TreeReader, so they serve both.
"""
from types import MappingProxyType
from typing import AbstractSet, Dict, Iterator, List, Mapping, Optional, Protocol, Set

from .config import AuditConfig
from .edge import Edge, EdgeKey
from .pose_track import PoseTrack
from .store import FrameStore


class TreeReader(Protocol):
    """What reading the tree takes: its frames, edges, parents, pose and scan topics."""

    @property
    def config(self) -> AuditConfig:
        """Return the configuration the tree was audited with."""

    @property
    def frames(self) -> AbstractSet[str]:
        """Return every frame seen."""

    @property
    def edges(self) -> Mapping[EdgeKey, Edge]:
        """Return every (parent, child) edge seen."""

    @property
    def parents(self) -> Mapping[str, Mapping[str, Edge]]:
        """Return each child's parents, with their edges."""

    @property
    def tracks(self) -> Mapping[str, PoseTrack]:
        """Return each pose and odometry topic's samples."""

    @property
    def scan_frames(self) -> Mapping[str, int]:
        """Return the scan's header frames, with how often each came."""

    @property
    def scan_last(self) -> Mapping[str, float]:
        """Return when each of the scan's header frames last came."""

    @property
    def sampled_frames(self) -> Mapping[str, Mapping[str, int]]:
        """Return frame -> {topic: messages} from the first headers of topics not audited."""

    @property
    def whole_recording(self) -> bool:
        """Return whether a recording was read to its end on one clock: rates over all of it."""

    def parent_of(self, child: str) -> Optional[Edge]:
        """Return the edge the tree follows up from child."""

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to its root."""

    def trees(self) -> List[List[str]]:
        """Return the frames of each tree, the largest first."""


class _SetView(AbstractSet[str]):
    """A set that can be read, not written: the store's own, without a copy."""

    def __init__(self, items: Set[str]):
        """View items."""
        self._items = items

    def __contains__(self, item: object) -> bool:
        """Return whether item is in the set."""
        return item in self._items

    def __iter__(self) -> Iterator[str]:
        """Iterate over the items."""
        return iter(self._items)

    def __len__(self) -> int:
        """Return how many items there are."""
        return len(self._items)


class _ParentsView(Mapping[str, Mapping[str, Edge]]):
    """Each child's parents, read-only at both levels, without a copy."""

    def __init__(self, parents: Dict[str, Dict[str, Edge]]):
        """View parents."""
        self._parents = parents

    def __getitem__(self, child: str) -> Mapping[str, Edge]:
        """Return child's parents, with their edges."""
        return MappingProxyType(self._parents[child])

    def __iter__(self) -> Iterator[str]:
        """Iterate over the children."""
        return iter(self._parents)

    def __len__(self) -> int:
        """Return how many frames have a parent."""
        return len(self._parents)


class TreeView:
    """
    A read-only TreeReader over an audit's store: sets and mappings that cannot be written.

    Views, not copies: reading a frame or a parent costs what it costs on the store, however
    large the tree. The edges they hold are the store's own records, for reading only.
    """

    def __init__(self, store: FrameStore):
        """View store; it goes on changing as the audit takes messages."""
        self._store = store

    @property
    def config(self) -> AuditConfig:
        """Return the configuration the tree was audited with."""
        return self._store.config

    @property
    def frames(self) -> AbstractSet[str]:
        """Return every frame seen."""
        return _SetView(self._store.frames)

    @property
    def edges(self) -> Mapping[EdgeKey, Edge]:
        """Return every (parent, child) edge seen."""
        return MappingProxyType(self._store.edges)

    @property
    def parents(self) -> Mapping[str, Mapping[str, Edge]]:
        """Return each child's parents, with their edges."""
        return _ParentsView(self._store.parents)

    @property
    def tracks(self) -> Mapping[str, PoseTrack]:
        """Return each pose and odometry topic's samples."""
        return MappingProxyType(self._store.tracks)

    @property
    def scan_frames(self) -> Mapping[str, int]:
        """Return the scan's header frames, with how often each came."""
        return MappingProxyType(self._store.scan_frames)

    @property
    def scan_last(self) -> Mapping[str, float]:
        """Return when each of the scan's header frames last came."""
        return MappingProxyType(self._store.scan_last)

    @property
    def sampled_frames(self) -> Mapping[str, Mapping[str, int]]:
        """Return frame -> {topic: messages} from the first headers of topics not audited."""
        return MappingProxyType(self._store.sampled_frames)

    @property
    def whole_recording(self) -> bool:
        """Return whether a recording was read to its end on one clock: rates over all of it."""
        return self._store.whole_recording

    def parent_of(self, child: str) -> Optional[Edge]:
        """Return the edge the tree follows up from child."""
        return self._store.parent_of(child)

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to its root (a list of the caller's own)."""
        return list(self._store.ancestry(frame))

    def trees(self) -> List[List[str]]:
        """Return the frames of each tree, the largest first."""
        return self._store.trees()
