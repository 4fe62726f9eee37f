# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The tree as the report and the tree row show it: one row per frame, its parents and rates."""
from dataclasses import dataclass
from typing import Collection, Dict, List, Optional, Tuple

from .common import no_transform, plural
from ..check_ids import TREE
from ..config import AuditConfig
from ..edge import Edge
from ..findings import CheckResult, fmt, Value
from ..records import TF_STATIC_TOPIC
from ..store import FrameStore
from ..tree_view import TreeReader


@dataclass(frozen=True)
class FrameRow:
    """One frame as view_frames draws it: its parents, and how its edges arrive."""

    frame: str
    parents: Tuple[str, ...]
    static: bool
    topics: Tuple[str, ...]
    publishers: Tuple[str, ...]
    rate_hz: Optional[float]
    count: int


def frame_rows(store: TreeReader, only: Optional[Collection[str]] = None) -> List[FrameRow]:
    """
    Return every frame (or only these) with its parent edges, roots included, by name.

    The rate is messages over time: over the whole time the edge was sent where a recording
    was read to its end, else (live) over its recent messages.
    """
    rows = []
    for frame in sorted(store.frames if only is None else only):
        edges: List[Edge] = sorted(store.parents.get(frame, {}).values(),
                                   key=lambda edge: edge.first_received)
        rates = [rate for rate in (edge.rate_hz() for edge in edges) if rate]
        rows.append(FrameRow(
            frame=frame, parents=tuple(edge.parent for edge in edges),
            static=bool(edges) and all(edge.is_static for edge in edges),
            topics=tuple(sorted({t for edge in edges for t in edge.topics})),
            publishers=tuple(sorted({p for edge in edges for p in edge.publishers})),
            rate_hz=max(rates) if rates else None,
            count=sum(edge.count for edge in edges)))
    return rows


MAX_TREE_ROWS = 60  # frames the tree status lists; a flood of frames is counted, not listed


def tree_summary(store: FrameStore, config: AuditConfig, now: float,
                 marked: Collection[str] = ()) -> CheckResult:
    """
    List the frames with their parent, topic, publisher, rate and static flag.

    Up to MAX_TREE_ROWS: the chain and the frames findings name first, then the rest by name;
    the frames left out are counted, so a flood of frames keeps /diagnostics small.
    """
    chain = store.ancestry(config.base_frame) + [config.laser_frame]
    first = [f for f in dict.fromkeys(chain + sorted(marked)) if f in store.frames]
    shown = set(first[:MAX_TREE_ROWS])
    for frame in sorted(store.frames):
        if len(shown) >= MAX_TREE_ROWS:
            break
        shown.add(frame)
    values: Dict[str, Value] = {}
    for row in frame_rows(store, shown):
        if not row.parents:
            values[row.frame] = 'root'
            continue
        rate = 'static' if row.static else (
            '{} Hz'.format(fmt(row.rate_hz, 1)) if row.rate_hz else 'rate unknown')
        by = ', by ' + ', '.join(row.publishers) if row.publishers else ''
        values[row.frame] = 'parent {} ({}; {}{})'.format(
            ', '.join(row.parents), ', '.join(row.topics), rate, by)
    left_out = len(store.frames) - len(shown)
    if left_out:
        values['frames not listed'] = left_out
    summary = no_transform(store) if not store.frames else '{}, {}, {} from /tf_static{}'.format(
        plural(len(store.frames), 'frame'), plural(len(store.edges), 'edge'),
        sum(1 for edge in store.edges.values() if TF_STATIC_TOPIC in edge.topic_counts),
        '; {} listed (the chain and the frames with findings first)'.format(len(shown))
        if left_out else '')
    return CheckResult(TREE, summary, [], values, stale=not store.frames)
