# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Each fix a diagnosis prints, applied to the recording's transforms and asked of tf2 again.

A fix is a claim about tf2 (issue 30): before it is printed as one, the lookup it is for is
asked again, at the same moment, of the same tf2, with the fix applied in memory: the edge
re-stamped, resampled to the rate, sent on /tf_static, a longer cache, the joining edge sent,
one parent kept, the clocks brought together. A fix the recording cannot test (a frame it
never holds) is said as not tried.
"""
from dataclasses import replace
import math
from typing import Callable, List, Optional, Sequence, Set, Tuple

from .diagnose import Explanation, root_above, the_two_parents, Tried
from .distros import to_ns
from .drops import count_drops
from .replay import Replay, TfMessage
from ..records import TransformRecord

Edge = Tuple[str, str]
Q_IDENTITY = (0.0, 0.0, 0.0, 1.0)


def _is(record: TransformRecord, edge: Edge) -> bool:
    return (record.parent.lstrip('/'), record.child.lstrip('/')) == edge


def restamped(messages: Sequence[TfMessage], edge: Edge, later_s: float) -> List[TfMessage]:
    """Return the messages with the edge stamped later_s later: its publisher's fixed stamp."""
    return [replace(m, records=tuple(replace(r, stamp=r.stamp + later_s) if _is(r, edge) else r
                                     for r in m.records)) for m in messages]


def resampled(messages: Sequence[TfMessage], edge: Edge, rate_hz: float) -> List[TfMessage]:
    """
    Return the messages with the edge also sent at rate_hz between its samples.

    Each added sample is stamped on the rate's grid and arrives as late after its stamp as the
    edge's next real sample did: a faster publisher with the same delay.
    """
    samples = [(m.received, r) for m in messages for r in m.records if _is(r, edge)]
    added = []
    period = 1.0 / rate_hz
    for (_, before), (received, after) in zip(samples, samples[1:]):
        delay = received - after.stamp
        stamp = (math.floor(before.stamp / period) + 1) * period
        while stamp < after.stamp:
            added.append(TfMessage(stamp + delay, (replace(before, stamp=stamp),)))
            stamp += period
    return sorted(list(messages) + added, key=lambda m: m.received)


def made_static(messages: Sequence[TfMessage], edge: Edge) -> List[TfMessage]:
    """Return the messages with the edge sent on /tf_static, as a fixed mount is."""
    return [replace(m, static=True) if any(_is(r, edge) for r in m.records) else m
            for m in messages]


def joined(messages: Sequence[TfMessage], edge: Edge, at: float) -> List[TfMessage]:
    """Return the messages with the edge sent once on /tf_static at the recording's start."""
    record = TransformRecord(edge[0], edge[1], 0.0, (0.0, 0.0, 0.0), Q_IDENTITY)
    return [TfMessage(at, (record,), static=True)] + list(messages)


def _kept(messages: Sequence[TfMessage], edge: Edge,
          keep: Callable[[TransformRecord], bool]) -> List[TfMessage]:
    """Return the messages (arrival order) with only the edge's records that keep() takes."""
    kept = []
    for m in messages:
        records = tuple(r for r in m.records if not _is(r, edge) or keep(r))
        if records:
            kept.append(replace(m, records=records))
    return kept


def without(messages: Sequence[TfMessage], edge: Edge) -> List[TfMessage]:
    """Return the messages with the edge no longer sent: one of a frame's two parents stopped."""
    return _kept(messages, edge, lambda record: False)


def stamped_once(messages: Sequence[TfMessage], edge: Edge) -> List[TfMessage]:
    """Return the messages with each stamp of the edge sent once: the first copy kept."""
    seen: Set[float] = set()

    def first(record: TransformRecord) -> bool:
        new = record.stamp not in seen
        seen.add(record.stamp)
        return new
    return _kept(messages, edge, first)


def without_old(messages: Sequence[TfMessage], edge: Edge, window_s: float) -> List[TfMessage]:
    """Return the messages without the edge's samples arriving past tf2's window behind it."""
    newest = [-math.inf]

    def in_window(record: TransformRecord) -> bool:
        if newest[0] - record.stamp > window_s:
            return False
        newest[0] = max(newest[0], record.stamp)
        return True
    return _kept(messages, edge, in_window)


def prove(replay: Replay, e: Explanation) -> Explanation:
    """
    Return e with each of its fixes tried: the lookup asked again with the fix applied.

    The wait was proven where it was found (diagnose asks again at that wait); the rest are
    applied to the messages here and asked of a replay of the same tf2. Where a fix has
    variants (which of two parents to keep), the first that places the lookup is the one.
    """
    if e.cause in INSERTIONS:
        return replace(e, tried=_insertion(replay, e))
    if e.cause == 'not_yet' and not e.source:  # a frame named alone: tf2 knows it once sent
        first = min(min(h.received) for key, h in replay.histories.items() if e.target in key)
        return replace(e, tried=(Tried('frame_sent', int(
            e.target in replay.buffer_at(first).frames), 1, note='asked again {}, once {} was '
            'first sent'.format(replay.into(first), e.target)),))
    tried = [Tried('wait', 1, 1)] if e.wait_needed_s is not None else []
    outcome = None
    for fix, changed, cache_time_s, note in _variants(replay, e):
        fixed = Replay(changed, replay.distro, cache_time_s or replay.cache_time_s,
                       replay.start, replay.real)
        requested = e.fix_s if fix == 'ask_later' else e.requested
        placed = fixed.ask(e.target, e.source, requested or 0.0, e.asked_at).ok
        outcome = Tried(fix, int(placed), 1, note=note)
        if placed:
            break
    return replace(e, tried=tuple(tried + ([outcome] if outcome else [])))


Variant = Tuple[str, List[TfMessage], Optional[float], str]
INSERTIONS = {'resent': 'TF_REPEATED_DATA', 'old_data': 'TF_OLD_DATA', 'reset': 'TF_OLD_DATA'}


def _insertion(replay: Replay, e: Explanation) -> Tuple[Tried, ...]:
    """
    Return the insertion's fix tried: the edge's samples replayed with it, and tf2's drops.

    A stamp sent twice is sent once; an old sample among newer ones is left out (one node on
    one clock); after a simulator reset the nodes restart, so tf2 takes only what comes from
    the first old sample on. Proven when tf2 then drops nothing of the edge and keeps no copy.
    """
    edge = _edge(e)
    if edge is None:
        return ()
    messages = replay.messages
    if e.cause == 'resent':
        fix, changed, note = 'once', stamped_once(messages, edge), ''
    else:
        old = [m for m in messages if any(_is(r, edge) and abs(r.stamp - e.requested) < 1e-6
                                          for r in m.records)]
        since = old[0].received if old else replay.start
        if e.cause == 'reset':
            fix, changed = 'restart', [m for m in messages if m.received >= since]
            note = 'the nodes restarted {} (their tf2 takes what comes from then on)'.format(
                replay.into(since))
        else:
            fix, changed, note = 'one_clock', without_old(messages, edge, replay.cache_time_s), ''
    drops, _ = count_drops(changed, replay.distro, replay.cache_time_s)
    quiet = all(d.refused.get(INSERTIONS[e.cause], 0) == 0 and not d.kept_twice and
                not d.skipped_duplicates for d in drops if (d.parent, d.child) == edge)
    return (Tried(fix, int(quiet), 1, note=note),)


def _variants(replay: Replay, e: Explanation) -> List[Variant]:
    """Return the fix applied: its name, the messages, the cache it sets, and a note."""
    messages, edge = replay.messages, _edge(e)
    if not e.source:  # a missing frame or a loop named by the paste: nothing to ask again
        return []
    if e.cause == 'two_trees':
        roots = _roots(replay, e)
        return [('join', joined(messages, roots, replay.start), None,
                 '{} → {} sent on /tf_static'.format(*roots))]
    if e.cause == 'two_parents':
        return _one_parent(replay, e)
    if edge is None:
        return []
    if e.cause in ('late_stamps', 'clocks_apart') and e.fix_s is not None:
        return [('stamp' if e.cause == 'late_stamps' else 'clock',
                 restamped(messages, edge, e.fix_s), None, '')]
    if e.cause == 'low_rate' and e.rate_needed_hz:
        return [('rate', resampled(messages, edge, e.rate_needed_hz), None, '')]
    if e.cause == 'sent_once':
        return [('static', made_static(messages, edge), None, '')]
    if e.cause == 'older_than_cache' and e.fix_s:
        return [('cache', list(messages), e.fix_s, '')]
    if e.cause == 'before_first' and e.fix_s is not None:
        return [('ask_later', list(messages), None, '')]
    return []


def _edge(e: Explanation) -> Optional[Edge]:
    if e.edge is None or ' → ' not in e.edge.name:
        return None
    parent, child = e.edge.name.split(' → ', 1)
    return parent, child


def _roots(replay: Replay, e: Explanation) -> Edge:
    """Return the roots of the target's and the source's trees at the time asked."""
    buffer = replay.buffer_at(e.asked_at)
    time = to_ns(e.requested) if e.requested else 0
    return root_above(buffer, e.target, time), root_above(buffer, e.source, time)


def _one_parent(replay: Replay, e: Explanation) -> List[Variant]:
    """Return, for each parent of the torn frame, the recording with the others stopped."""
    torn = the_two_parents(replay, replay.buffer_at(e.asked_at), (e.target, e.source),
                           to_ns(e.requested) if e.requested else 0)
    if torn is None:
        return []
    frame, parents = torn
    variants: List[Variant] = []
    for keep in parents:
        changed = list(replay.messages)
        for parent in parents:
            if parent != keep:
                changed = without(changed, (parent, frame))
        variants.append(('one_parent', changed, None, '{} → {} kept, {} stopped'.format(
            keep, frame, ', '.join('{} → {}'.format(p, frame) for p in parents if p != keep))))
    return variants
