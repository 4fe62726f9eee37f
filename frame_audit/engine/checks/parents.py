# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
One parent per frame, one source per edge: parent_uniqueness.

tf2 keeps one parent and silently re-parents a frame; a second parent, a cycle, two nodes
sending one edge (told from the data where no sender is recorded) are found here.
"""
from typing import Dict, List, Tuple

from .common import arrow, describe, moves, no_transform, plural, senders_at_once, source, \
    static_and_moving, TF2_REPEATED_STAMP, window
from .tree_shape import holds_in_window
from ..check_ids import PARENTS
from ..config import AuditConfig
from ..edge import Edge, same_value
from ..findings import CheckResult, Finding, fmt, Level
from ..store import FrameStore
from ..two_sources import SAME_STAMP_CONFLICTS


def two_parents(child: str, count: int, described: str) -> str:
    """Say a frame's second parent, as the audit and the lint say it (the fix is each's own)."""
    return ('{} has {} parents: {}. A frame has one parent: tf2 keeps whichever came last, so '
            'nodes see {} jump between them'.format(child, count, described, child))


def _second_parents(store: FrameStore, start: float) -> List[Finding]:
    findings = []
    for child, parents in sorted(store.parents.items()):
        edges = sorted((e for e in parents.values() if holds_in_window(e, start)),
                       key=lambda edge: edge.first_received)
        if len(edges) < 2:
            continue
        described = ' and '.join('{} ({})'.format(e.parent, source(e)) for e in edges)
        topics = tuple(sorted({t for e in edges for t in e.topics}))
        findings.append(Finding(
            PARENTS, Level.ERROR,
            two_parents(child, len(edges), described) + '; stop the node that should not send it',
            'parents:' + child, frames=(child,) + tuple(e.parent for e in edges), topics=topics,
            values={'parents': ', '.join(e.parent for e in edges)}))
    return findings


def _cycles(store: FrameStore, start: float) -> List[Finding]:
    """Find cycles over the edges of the window (a depth-first search, each cycle once)."""
    children: Dict[str, List[str]] = {}
    for (parent, child), edge in store.edges.items():
        if holds_in_window(edge, start):
            children.setdefault(parent, []).append(child)
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    found: Dict[Tuple[str, ...], List[str]] = {}
    for root in sorted(children):
        if state.get(root):
            continue
        path = [root]
        stack = [iter(sorted(children.get(root, ())))]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                found.setdefault(tuple(sorted(set(cycle))), cycle)
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(children.get(nxt, ()))))
    return [Finding(PARENTS, Level.ERROR,
                    'cycle: {}. tf2 cannot resolve a frame that is its own ancestor'.format(
                        ' → '.join(cycle)),
                    'cycle:' + ','.join(key), frames=key, topics=())
            for key, cycle in sorted(found.items())]


def _two_sources(store: FrameStore, config: AuditConfig, start: float) -> List[Finding]:
    findings = []
    for edge in sorted(store.edges.values(), key=lambda e: e.key):
        if not holds_in_window(edge, start):
            continue
        name = arrow(edge.parent, edge.child)
        senders = senders_at_once(edge, start)
        sources = edge.sources
        if static_and_moving(edge, config):
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} is sent on /tf_static ({}) and moves on /tf ({}: up to {} m and {} rad from '
                'its first value): two senders of one edge, and nodes see it jump between the '
                'fixed value and the moving one. A moving edge has no fixed value: the static '
                'one is the mistake; stop the static publisher of {}'.format(
                    name, describe(edge.static_value), _tf_source(edge), fmt(edge.reach_m, 2),
                    fmt(edge.reach_rad, 2), name),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'reach_m': round(edge.reach_m, 4)}))
        elif senders:
            counts = ', '.join('{} ({})'.format(
                node, plural(edge.publishers[node].count, 'message')) for node in senders)
            # every /tf value within MOVES_M and MOVES_RAD of the first, and the static one
            alike = not moves(edge) and (edge.static_value is None or not edge.values or
                                         same_value(edge.static_value, edge.values[-1], config))
            findings.append(Finding(
                PARENTS, Level.WARN if alike else Level.ERROR,
                '{} is sent by {} nodes at once: {} on {}. {}'.format(
                    name, len(senders), counts, ', '.join(edge.topics),
                    'Each sends the same value ({}): nothing jumps now, but one is redundant, '
                    'and a change to either makes the frame jump between them; keep '
                    'one'.format(describe(edge.latest())) if alike else
                    'Two sources of one edge make the frame jump between their estimates; '
                    'keep one'),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'publishers': ', '.join(senders)}))
        elif sources.two_tracks is not None and sources.two_tracks.last_received >= start:
            tracks = sources.two_tracks
            rates = ' and '.join('one at {} Hz'.format(fmt(rate, 1)) if rate else
                                 'one at an unknown rate' for rate in tracks.rates_hz)
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} comes from two sources: its samples keep switching between two tracks '
                'up to {} m apart ({} switches in its last {} samples), {} by header stamps, '
                'on {}. The publishers are not known here (as in a bag replay); keep '
                'one'.format(name, fmt(tracks.separation_m, 2), tracks.switches,
                             len(sources.assignments), rates, ', '.join(edge.topics)),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'separation_m': round(tracks.separation_m, 4),
                        'switches': tracks.switches,
                        'rates_hz': ', '.join(fmt(r or float('nan'), 1)
                                              for r in tracks.rates_hz)}))
        elif len(sources.conflicts.since(start)) >= SAME_STAMP_CONFLICTS:
            conflicts = len(sources.conflicts.since(start))
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} comes from two sources: {} of its stamps arrived twice with values of two '
                'tracks, on {}. {}; keep one source'.format(
                    name, conflicts, ', '.join(edge.topics), TF2_REPEATED_STAMP),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'conflicting_stamps': conflicts}))
        elif sources.doubled is not None and sources.doubled_last >= start:
            _, baseline, rate = sources.doubled
            findings.append(Finding(
                PARENTS, Level.ERROR,
                '{} went from {} Hz to {} Hz on {}: a second node sending it (the publishers '
                'are not known here, as in a bag replay); keep one'.format(
                    name, fmt(baseline, 1), fmt(rate, 1), ', '.join(edge.topics)),
                'sources:' + name, frames=edge.key, topics=edge.topics,
                values={'baseline_hz': round(baseline, 2), 'rate_hz': round(rate, 2)}))
    return findings


def _tf_source(edge: Edge) -> str:
    """Describe an edge's /tf stream: its rate and its publishers, where known."""
    rate = edge.rate_hz()
    return '/tf' + (', {} Hz'.format(fmt(rate, 1)) if rate else '')


def _restamped(store: FrameStore, start: float) -> List[str]:
    """Say which edges' stamps one sender re-sent with a newer value, and what tf2 does."""
    said = ['{} re-sent {} of its stamps with a newer value (one sender: its values keep '
            'to one track)'.format(arrow(*edge.key), len(edge.sources.restamped.since(start)))
            for edge in sorted(store.edges.values(), key=lambda e: e.key)
            if edge.sources.restamped.since(start)]
    return said + ([TF2_REPEATED_STAMP] if said else [])


def check_parent_uniqueness(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that every frame has one parent, no cycle, and each edge one source."""
    start = window(config, now)
    findings = _second_parents(store, start) + _cycles(store, start) + \
        _two_sources(store, config, start)
    summary = '; '.join(['each of {} has one parent and one source'.format(
        plural(len(store.frames), 'frame'))] + _restamped(store, start)) if store.edges \
        else no_transform(store)
    return CheckResult(PARENTS, summary, findings, {'frames': len(store.frames)},
                       stale=not store.edges)
