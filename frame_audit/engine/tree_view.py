# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tree as an audit holds it, read-only: what reports, pictures, init and diff may look at.

TreeReader names what reading the tree takes; the store has it, and so does TreeView, the
view Audit.tree hands out, whose mappings cannot be written. Functions that only read (a
lookup, the frame rows, the measurements) take a TreeReader, so they serve both.
"""
from types import MappingProxyType
from typing import AbstractSet, List, Mapping, Optional, Protocol

from .config import AuditConfig
from .store import Edge, EdgeKey, FrameStore, PoseTrack


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

    def parent_of(self, child: str) -> Optional[Edge]:
        """Return the edge the tree follows up from child."""

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to its root."""

    def trees(self) -> List[List[str]]:
        """Return the frames of each tree, the largest first."""


class TreeView:
    """A read-only TreeReader over an audit's store: mappings that cannot be written."""

    def __init__(self, store: FrameStore):
        """View store; it goes on changing as the audit takes messages."""
        self._store = store

    @property
    def config(self) -> AuditConfig:
        """Return the configuration the tree was audited with."""
        return self._store.config

    @property
    def frames(self) -> AbstractSet[str]:
        """Return every frame seen (a copy: the store's set stays the store's)."""
        return frozenset(self._store.frames)

    @property
    def edges(self) -> Mapping[EdgeKey, Edge]:
        """Return every (parent, child) edge seen."""
        return MappingProxyType(self._store.edges)

    @property
    def parents(self) -> Mapping[str, Mapping[str, Edge]]:
        """Return each child's parents, with their edges."""
        return MappingProxyType({child: MappingProxyType(parents)
                                 for child, parents in self._store.parents.items()})

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

    def parent_of(self, child: str) -> Optional[Edge]:
        """Return the edge the tree follows up from child."""
        return self._store.parent_of(child)

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, and so on up to its root (a list of the caller's own)."""
        return list(self._store.ancestry(frame))

    def trees(self) -> List[List[str]]:
        """Return the frames of each tree, the largest first."""
        return self._store.trees()
