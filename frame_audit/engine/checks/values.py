# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The values themselves: what tf2 drops or changes (transform_values)."""
from typing import Dict, List, Tuple

from .common import arrow, moves, no_transform, plural, unreadable, window
from ..admission import Rejection, SAID
from ..check_ids import VALUES
from ..config import AuditConfig
from ..findings import CheckResult, Finding, fmt, Level, Value
from ..records import TF_STATIC_TOPIC, TF_TOPIC
from ..store import FrameStore


SHOWN_EDGES = 5  # edges a grouped finding names; the rest are counted
EARTH_M = 1.1e7  # UTM northings reach 10,000 km, ECEF coordinates 6,400 km


def _datum(store: FrameStore, rejection: Rejection) -> bool:
    """
    Return whether a far edge is a georeference: a fixed datum at its tree's root.

    navsat_transform's utm → map, or a survey boat's map → odom at its UTM origin, hold a
    position on the Earth; tf2 keeps doubles, so nothing placed through it is off. One that
    moves, sits below the root, or lies beyond the Earth is a value gone wrong.
    """
    edge = store.edges.get((rejection.parent, rejection.child))
    if edge is None or rejection.reason != 'huge_value' or moves(edge) or edge.static_changes:
        return False
    value = edge.latest()
    return value is not None and max(map(abs, value.translation)) <= EARTH_M \
        and store.ancestry(edge.parent)[-1] == edge.parent


def check_transform_values(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """
    Check for transforms that tf2 drops or renames, and say what tf2 did.

    One cause, one finding: every edge with the same fault on the same topic is listed in one
    finding (a ROS 1 recording names dozens of frames with a leading '/'). Only what arrived
    within the window counts: a glitch an hour ago is in the log, not the status.
    """
    start = window(config, now)
    groups: Dict[Tuple[str, str], List[Tuple[Rejection, int]]] = {}
    georeferences = [r for r in store.rejections.values() if _datum(store, r)]
    judged = [r for r in store.rejections.values() if r not in georeferences]
    datums = sorted(arrow(r.parent, r.child) for r in georeferences)
    for rejection in judged:
        recent = len(rejection.seen.since(start))
        if recent:
            groups.setdefault((rejection.reason, rejection.topic), []).append(
                (rejection, recent))
    findings = []
    for (reason, topic), rejections in sorted(groups.items()):
        rejections.sort(key=lambda item: (-item[1], item[0].parent, item[0].child))
        level, what, action = SAID[reason]
        count = sum(recent for _, recent in rejections)
        publishers = sorted({r.publisher for r, _ in rejections if r.publisher})
        by = ', by ' + ', '.join(publishers) if publishers else ''
        edges = ', '.join(arrow(r.parent or "''", r.child or "''")
                          for r, _ in rejections[:SHOWN_EDGES])
        more = len(rejections) - SHOWN_EDGES
        last = max(r.seen.last or 0.0 for r, _ in rejections)
        findings.append(Finding(
            VALUES, level,
            '{} on {}{}: {} on {} in the last {} s: {}{} (e.g. {}); {}'.format(
                what[0].upper() + what[1:], topic, by, plural(count, 'message'),
                plural(len(rejections), 'edge'), fmt(config.history_s, 0), edges,
                ' and {} more'.format(more) if more > 0 else '', rejections[0][0].example,
                action),
            '{}:{}'.format(reason, topic),
            frames=tuple(dict.fromkeys(f for r, _ in rejections[:SHOWN_EDGES]
                                       for f in (r.parent, r.child) if f)),
            topics=(topic,), values={'count': count, 'edges': len(rejections),
                                     'total': sum(r.seen.total for r, _ in rejections),
                                     'last_s_ago': round(now - last, 1)}))
    findings += unreadable(store, VALUES, (TF_TOPIC, TF_STATIC_TOPIC), now)
    if store.limit.over_limit or store.rejections_dropped:
        findings.append(Finding(
            VALUES, Level.WARN,
            'more than limits.max_frames ({}) frames: {} transforms to further frames were '
            'counted, not stored'.format(config.max_frames, store.limit.over_limit),
            'too_many_frames', values={'not_stored': store.limit.over_limit}))
    total = sum(r.seen.total for r in judged)
    values: Dict[str, Value] = {'rejected': total}
    if datums:
        values['georeference'] = ', '.join(datums)
    return CheckResult(VALUES, 'every transform is finite, unit and well named' + (
        ' now ({} rejected earlier)'.format(total) if total else '') + (
        '; {} hold{} a fixed position on the Earth at the root (a georeference, kept in '
        'doubles by tf2)'.format(', '.join(datums), 's' if len(datums) == 1 else '')
        if datums else '') if store.edges else no_transform(store), findings,
        values, stale=not store.edges)
