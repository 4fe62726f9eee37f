# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Transforms between any two frames at a time, through their lowest common ancestor.

Like tf2, it interpolates between samples (slerp for rotation) and never extrapolates: when
the frames are disconnected or the time lies outside an edge's history it abstains and says
why, rather than guess.
"""
import bisect
from dataclasses import dataclass
import math
from typing import List, Optional, Tuple

from .edge import Edge
from .findings import fmt
from .geometry import interpolate, Transform
from .tree_view import TreeReader

LEAD_MIN_S = 0.2  # a steady lead beyond this is a publisher's habit, not clock noise


@dataclass(frozen=True)
class LookupResult:
    """A transform target <- source, or the reason there is none."""

    transform: Optional[Transform]
    reason: str = ''
    too_early: bool = False  # the time is newer than the history: asking later may work
    kind: str = ''  # the reason without its numbers, to count failures by

    @property
    def why(self) -> str:
        """Return the reason as failures are counted (no stamps in it)."""
        return self.kind or self.reason

    @property
    def ok(self) -> bool:
        """Return whether a transform was found."""
        return self.transform is not None


def edge_at(edge: Edge, stamp: Optional[float], max_lead_s: float = math.inf) -> LookupResult:
    """
    Return the edge's value at stamp (None: the newest), interpolated between samples.

    An edge stamped steadily ahead of its arrival by design (slam_toolbox's map -> odom,
    stamped transform_timeout after the scan it was computed from) is read that far ahead, so
    a pose is compared with the correction of its own time, not one from a second before.
    A lead beyond max_lead_s (timing.future_tolerance_s) is a clock fault that timing
    reports: such an edge is read at the stamp asked, as tf2 reads it, and a sample stamped
    by that clock meets its own values.
    """
    if not edge.values:
        if edge.static_value is not None:
            return LookupResult(edge.static_value)
        return LookupResult(None, '{} -> {} has no samples in its history'.format(
            edge.parent, edge.child))
    stamps = edge.stamps
    if stamp is None:
        return LookupResult(edge.values[-1])
    if LEAD_MIN_S < edge.lead_s <= max_lead_s:
        stamp += edge.lead_s
    if stamp > stamps[-1] or stamp < stamps[0]:
        if edge.static_value is not None:
            return LookupResult(edge.static_value)
        return LookupResult(None, '{} -> {} has samples from {} to {} s, not at {} s'.format(
            edge.parent, edge.child, fmt(stamps[0]), fmt(stamps[-1]), fmt(stamp)),
            too_early=stamp > stamps[-1], kind='{} -> {} has no sample at that time'.format(
                edge.parent, edge.child))
    index = bisect.bisect_left(stamps, stamp)
    if stamps[index] == stamp:
        return LookupResult(edge.values[index])
    t0, t1 = stamps[index - 1], stamps[index]
    return LookupResult(interpolate(edge.values[index - 1], edge.values[index],
                                    (stamp - t0) / (t1 - t0)))


def _down_from(store: TreeReader, chain: List[str], ancestor: str,
               stamp: Optional[float]) -> Tuple[Optional[Transform], LookupResult]:
    """Compose ancestor <- chain[0] along chain (frame, parent, ..., ancestor)."""
    total = Transform()
    for child in chain[:chain.index(ancestor)]:
        edge = store.parent_of(child)
        assert edge is not None  # chain came from store.ancestry()
        step = edge_at(edge, stamp, store.config.future_tolerance_s)
        if step.transform is None:
            return None, step
        total = step.transform * total
    return total, LookupResult(total)


def lookup(store: TreeReader, target: str, source: str,
           stamp: Optional[float] = None) -> LookupResult:
    """Return source's pose in target (target <- source) at stamp, or why not."""
    for frame in (target, source):
        if frame not in store.frames:
            return LookupResult(None, '{} is not in the tree'.format(frame))
    source_chain = store.ancestry(source)
    target_chain = store.ancestry(target)
    in_target = set(target_chain)
    common = next((frame for frame in source_chain if frame in in_target), None)
    if common is None:
        return LookupResult(None, '{} and {} are not connected (their roots are {} and {})'.format(
            target, source, target_chain[-1], source_chain[-1]))
    common_source, failed = _down_from(store, source_chain, common, stamp)
    if common_source is None:
        return failed
    common_target, failed = _down_from(store, target_chain, common, stamp)
    if common_target is None:
        return failed
    return LookupResult(common_target.inverse() * common_source)
