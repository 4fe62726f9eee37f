# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tree a workspace declares: every edge it says someone sends, and every node's parameters.

The lint's rules ask it the questions the audit asks the live tree: a frame's parents, its
ancestry, base_link → laser composed, which frames are connected.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .static_tf import taken_by_tf2
from .table import Publisher, TABLE
from ..model import DeclaredEdge, NodeParams, Where
from ...engine.config import AuditConfig
from ...engine.geometry import Transform


@dataclass(frozen=True)
class LeftOut:
    """What the workspace's bringups left out of --launch declare: they may run beside."""

    frames: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # frame -> bringups
    possible: Tuple[Tuple[str, Optional[Where]], ...] = ()  # senders the lint cannot read


@dataclass
class Declared:
    """
    The declared edges (static, URDF, known publishers), the nodes and the configuration.

    An edge tf2 would drop (NaN, a quaternion that is not unit length) still shows what the
    workspace meant to declare, so the tree's shape keeps it; its value is never composed,
    and transform_values alone reports it: one cause, one finding. possible names what may
    send transforms the lint cannot read (nodes not in the table, includes not followed).
    context is what may run together with it, for a consumer whose LiDAR is declared elsewhere.
    """

    edges: List[DeclaredEdge]
    nodes: List[NodeParams]
    config: AuditConfig
    possible: List[Tuple[str, Optional[Where]]] = field(default_factory=list)
    table: Sequence[Publisher] = TABLE
    context: Optional['Declared'] = None  # what may run beside it (the LiDAR's mount)
    scope: str = 'in the workspace'  # where 'nothing publishes it' looked
    links: Dict[str, Where] = field(default_factory=dict)  # links of every description file
    measured: bool = True  # the config is this robot's; else no value is judged against it
    left_out: LeftOut = LeftOut()  # what the bringups left out of --launch declare
    waiting: Dict[str, DeclaredEdge] = field(default_factory=dict)  # moving joints, unsent

    @property
    def frames(self) -> Set[str]:
        """Return every frame some edge declares, as tf2 names it (no leading '/')."""
        return {frame for edge in self.edges for frame in edge.key if frame}

    @property
    def every_frame(self) -> Set[str]:
        """Return the frames declared here or in what may run beside it."""
        return self.frames | (self.context.frames if self.context is not None else set())

    def parents(self) -> Dict[str, List[DeclaredEdge]]:
        """
        Return child → the edges that declare a parent for it, in reading order.

        A frame sent as its own parent (cartographer's published_frame equal to its odom_frame
        with provide_odom_frame) gives it no parent: tf2 drops it, transform_values reports it.
        """
        found: Dict[str, List[DeclaredEdge]] = {}
        for edge in self.edges:
            if edge.key[0] != edge.key[1]:
                found.setdefault(edge.key[1], []).append(edge)
        return found

    def ancestry(self, frame: str) -> List[str]:
        """Return frame, its parent, its parent's parent...; stops at a frame of two parents."""
        parents = self.parents()
        chain = [frame]
        while len({e.key[0] for e in parents.get(chain[-1], [])}) == 1 \
                and parents[chain[-1]][0].key[0] not in chain:
            chain.append(parents[chain[-1]][0].key[0])
        return chain

    def has_two_parents(self, frame: str) -> bool:
        """Return whether the workspace gives a frame more than one parent."""
        return len({edge.key[0] for edge in self.parents().get(frame, [])}) > 1

    def laser_values(self) -> List[Tuple[DeclaredEdge, Transform]]:
        """
        Return base_link → laser for each edge that declares the laser's parent.

        Composed through static edges of known value up to the base; an edge whose chain does
        not reach the base by one static path is left out (the tree rules report why).
        """
        base, laser = self.config.base_frame, self.config.laser_frame
        parents = self.parents()
        found = []
        for edge in parents.get(laser, []):
            if not taken_by_tf2(edge):
                continue
            value = self._up_to(base, edge, parents)
            if value is not None:
                found.append((edge, value))
        return found

    @staticmethod
    def _up_to(base: str, edge: DeclaredEdge,
               parents: Dict[str, List[DeclaredEdge]]) -> Optional[Transform]:
        value, frame, seen = edge.value, edge.key[0], {edge.key[1]}
        while value is not None and frame != base:
            above = parents.get(frame, [])
            if len(above) != 1 or above[0].value is None or frame in seen \
                    or not taken_by_tf2(above[0]):
                return None
            seen.add(frame)
            value, frame = above[0].value * value, above[0].key[0]
        return value

    def component_of(self) -> Tuple[Dict[str, str], Set[str]]:
        """
        Return frame → a representative of its tree, and the trees that hang undecided.

        tf2 gives a frame one parent: a frame two alternatives give parents in two trees
        (a camera under the LiDAR in one bringup, under the base in another) joins neither
        tree to the other. Its subtree is one of its own, undecided: it reaches whichever
        parent last sent it.
        """
        root: Dict[str, str] = {}

        def find(frame: str) -> str:
            root.setdefault(frame, frame)
            while root[frame] != frame:
                root[frame] = root[root[frame]]
                frame = root[frame]
            return frame

        parents: Dict[str, Set[str]] = {}
        for edge in self.edges:
            parents.setdefault(edge.key[1], set()).add(edge.key[0])
            for frame in edge.key:
                find(frame)
        for edge in self.edges:
            parent, child = edge.key
            if len(parents[child]) == 1:
                root[find(parent)] = find(child)
        undecided = set()
        for child, above in parents.items():
            if len({find(parent) for parent in above}) == 1:
                root[find(next(iter(above)))] = find(child)
            elif len(above) > 1:
                undecided.add(child)
        mapping = {frame: find(frame) for frame in list(root)}
        return mapping, {mapping[child] for child in undecided}
