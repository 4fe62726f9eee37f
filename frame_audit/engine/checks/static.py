# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Static transforms: one value each, from one publisher, never changed (static_transforms)."""
import math
from typing import Optional

from .common import arrow, describe, first_of, no_transform, plural, source, \
    static_and_moving, times, window
from .values import SHOWN_EDGES
from ..check_ids import STATIC
from ..config import AuditConfig
from ..findings import CheckResult, Finding, Level
from ..records import TF_STATIC_TOPIC, TF_TOPIC
from ..store import FrameStore


def check_static_transforms(store: FrameStore, config: AuditConfig,
                            now: float) -> CheckResult:
    """Check that static edges stay static: one topic, one value."""
    findings = []
    static_edges = 0
    for edge in sorted(store.edges.values(), key=lambda e: e.key):
        if TF_STATIC_TOPIC not in edge.topic_counts:
            continue
        static_edges += 1
        name = arrow(edge.parent, edge.child)
        if edge.topic_last.get(TF_TOPIC, -math.inf) >= window(config, now) \
                and not static_and_moving(edge, config):  # parent_uniqueness's: two sources
            findings.append(Finding(
                STATIC, Level.WARN,
                '{} is sent on both /tf_static and /tf ({}): one publisher too many; a fixed '
                'mount belongs on /tf_static alone'.format(name, source(edge)),
                'both:' + name, frames=edge.key, topics=edge.topics))
    changed = _changed_statics(store)
    if changed:
        findings.append(changed)
    if static_edges:
        summary = '{}, each on /tf_static alone, unchanged'.format(
            plural(static_edges, 'static edge'))
    elif store.edges:
        summary = 'nothing to judge: no edge came on /tf_static'
    else:
        summary = no_transform(store)
    return CheckResult(STATIC, summary, findings, {'static_edges': static_edges},
                       stale=not static_edges)


def _changed_statics(store: FrameStore) -> Optional[Finding]:
    """
    Report static edges re-sent with another value, in one finding: one cause.

    A TurtleBot 4 runs two static publishers of one body that disagree on 21 edges; that is
    one fault to fix, listed edge by edge up to SHOWN_EDGES.
    """
    edges = [edge for edge in sorted(store.edges.values(), key=lambda e: e.key)
             if edge.static_changes]
    if not edges:
        return None
    said = ['{} from {} to {} ({})'.format(arrow(*edge.key), describe(edge.static_changes[0][0]),
                                           describe(edge.static_changes[0][1]),
                                           times(len(edge.static_changes)))
            for edge in edges]
    first = min(edge.static_changes[0][2] for edge in edges)
    return Finding(
        STATIC, Level.ERROR,
        '{} on /tf_static changed: {}. Two static publishers disagree, and tf2 keeps whichever '
        'came last'.format(plural(len(edges), 'static edge'), first_of(said, SHOWN_EDGES)),
        'changed', frames=tuple(dict.fromkeys(f for edge in edges for f in edge.key)),
        topics=(TF_STATIC_TOPIC,),
        values={'edges': len(edges), 'changes': sum(len(e.static_changes) for e in edges),
                'changed_at_s': round(first - (store.clock.first_received or 0.0), 3)})
