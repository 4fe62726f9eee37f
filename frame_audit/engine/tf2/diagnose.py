# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Why tf2 refused a lookup, from a recording: the limiting edge, its numbers, the cause, the fix.

A Replay (replay.py) holds the buffer as the node held it when it asked. The diagnosis
reads the limiting edge's whole history: who sent it, at what rate, how far
its stamps run behind their arrival and since when, and the number that would have made the
lookup succeed (the wait, or how much later the publisher should stamp).
"""
from dataclasses import dataclass, replace
import difflib
import statistics
from typing import Any, Dict, List, Optional, Tuple

from .backend import model_name
from .buffer_core import Answer, Buffer, Tf2Error
from .distros import to_ns, to_s
from .replay import Clock, EdgeHistory, receive_clock, Replay
from ..findings import fmt

STALL_PERIODS = 3.0  # silent for this many periods (and STALL_MIN_S): a stall, not a rate
STALL_MIN_S = 0.5
CLOCKS_APART_S = 1.0  # an edge's usual delay this far from the asker's: two clocks apart
LAG_APART_S = 5.0  # asked this far past an edge otherwise on time: the asker's clock is apart
SIM_TIME_S = 86400.0  # clocks more than a day apart: one of them is sim time
BACKLOG_MIN_S = 0.05  # samples later than usual by this much (and the wait): a backlog
NEAR_S = 2.0  # the stretch before a lookup whose delays describe the edge "around" it
MARGIN_S = 0.005  # added to a fix, so it holds at the next sample too
PASTED = 'the pasted error'  # an Explanation's tf2 where no tf2 was asked again


@dataclass(frozen=True)
class EdgeFacts:
    """The limiting edge's numbers, each with where it came from."""

    name: str
    topic: str
    publishers: Tuple[str, ...]
    rate_hz: Optional[float]
    behind_s: Optional[float]  # median of arrival - stamp around the lookup
    behind_max_s: Optional[float]
    behind_since_s: Optional[float]  # first arrival running more than the wait behind the asker
    lag_s: Optional[float]  # requested time - the newest stamp held (future), or the reverse
    usual_s: Optional[float] = None  # median of arrival - stamp over the whole recording
    asker_s: Optional[float] = None  # the asker's own arrival - stamp (Clock.delay_s)
    asker: str = ''  # where asker_s comes from


@dataclass(frozen=True)
class Tried:
    """A fix applied to the recording's data and the refused lookups asked again (issue 30)."""

    fix: str  # wait, stamp, clock, rate, static, cache, ask_later, join, one_parent
    placed: int
    refused: int
    unknown: int = 0  # asked past the recording's end: cannot know
    note: str = ''  # which variant of the fix: the parent kept, the edge sent


@dataclass(frozen=True)
class Explanation:
    """One lookup, what tf2 answered, and why."""

    target: str
    source: str
    requested: float  # seconds; 0: the latest common time
    asked_at: float  # the receive-clock moment the buffer was read at
    wait_s: float
    distro: str
    answer: Answer
    cause: str  # ok, late_stamps, delivered_late, low_rate, stall, clocks_apart,
    # older_than_cache, before_first, sent_once, nobody_sends, static_missing, not_yet,
    # two_trees, two_parents, loop, invalid; models_differ: tf2 itself refused where the
    # model did not
    why: str
    fix: str = ''
    fix_s: Optional[float] = None
    edge: Optional[EdgeFacts] = None
    wait_needed_s: Optional[float] = None  # from the message's arrival; None: none would do
    recording_ended: bool = False  # no sample after the lookup because the recording ended
    tf2: str = ''  # which tf2 answered: "tf2 (kilted model)", tf2_py's, or the pasted error
    rate_needed_hz: Optional[float] = None  # low_rate: the rate its fix names
    tried: Tuple[Tried, ...] = ()  # its fixes applied and asked again (fixes.prove)


def explain(replay: Replay, target: str, source: str, requested: float, asked_at: float,
            wait_s: float, clock: Optional[Clock] = None,
            arrived: Optional[float] = None) -> Explanation:
    """
    Ask the lookup at asked_at and say why tf2 answered as it did.

    clock: the asker's (its messages' delay), by default the most punctual edge's; arrived:
    when the message looked up arrived, by default its stamp on that clock. Waits are told
    from there, as a message filter counts them.
    """
    clock = clock or receive_clock(replay)
    if arrived is None:
        arrived = requested + clock.delay_s if requested else asked_at - wait_s
    answer = replay.ask(target, source, requested, asked_at)
    base: Dict[str, Any] = {
        'target': target, 'source': source, 'requested': requested, 'asked_at': asked_at,
        'wait_s': wait_s, 'distro': replay.distro, 'answer': answer, 'tf2': replay.tf2}
    error = answer.error
    if error is None:  # answer.ok
        return Explanation(cause='ok', why='{} places {} in {} at {}'.format(
            replay.tf2, source, target, fmt(requested) if requested else 'the latest '
            'common time'), **base)
    if error.kind in ('future', 'past', 'single', 'empty') and not error.frame:
        return Explanation(cause='models_differ', why='{} refused where {} {}: which edge '
                           'limits it cannot be told'.format(
                               replay.tf2, model_name(replay.distro), _modelled(replay, base)),
                           **base)
    if error.kind in ('future', 'past', 'single', 'empty'):
        chain = lookup_chain(replay, target, source, asked_at)
        if chain and error.frame not in {child for _, child in chain}:
            return _off_chain(replay, base, chain, clock, arrived)
        return _extrapolation(replay, base, error.frame, clock, arrived)
    if error.kind == 'no_frame':
        return _missing(replay, base, error.frame, asked_at, arrived)
    if error.kind == 'two_trees':
        return _two_trees(replay, base, target, source, asked_at)
    if error.kind == 'loop':
        return _loop(replay, base, asked_at)
    return Explanation(cause='invalid', why=error.text, fix='name frames without a leading '
                       "'/' and never empty (tf2 frame ids)", **base)


def lookup_chain(replay: Replay, target: str, source: str,
                 asked_at: float) -> List[Tuple[str, str]]:
    """
    Return the edges (parent, child) a lookup needs, as tf2's walkToTopParent composes them.

    From the source up to where it meets the target's ancestry, then from the target up to
    there, in the tree held at asked_at; where the two do not meet then, a root's parent is
    the edge that came to it later in the recording (an edge not yet sent). An edge above
    the meeting frame is off the chain, though tf2 may read it (and name it) on its way.
    Empty when the two never share a tree.
    """
    buffer = replay.buffer_at(asked_at)
    coming: Dict[str, Tuple[float, str]] = {}  # a root then: (first arrival, parent) of its edge
    for (parent, child), history in replay.histories.items():
        first = min(history.received)
        if first > asked_at and (child not in coming or first < coming[child][0]):
            coming[child] = (first, parent)
    return buffer.chain(target, source) or buffer.chain(
        target, source, {child: parent for child, (_, parent) in coming.items()})


def _off_chain(replay: Replay, base: dict, chain: List[Tuple[str, str]], clock: Clock,
               arrived: float) -> Explanation:
    """
    Explain a refusal whose text names an edge the lookup does not need.

    tf2 walks up from the source; where that walk stops below the target (an edge not yet
    sent, or missing the time), it walks up from the target and reports the first edge there
    that misses, such as the target's own parent edge. The edge that limits the lookup is
    the first of its chain that could not answer at that moment.
    """
    error, requested, asked_at = base['answer'].error, base['requested'], base['asked_at']
    buffer = replay.buffer_at(asked_at)
    named = replay.edge_of(error.frame, asked_at)
    said = "tf2's text names {}, an edge this lookup does not need (it needs {}): tf2 read it " \
        'on its way up from {} once its walk up from {} had stopped; '.format(
            named.name if named else 'the edge above ' + error.frame,
            ', '.join('{} → {}'.format(*e) for e in chain), base['target'], base['source'])
    for parent, child in chain:
        cache = buffer.caches.get(child)
        if cache is None:
            history = replay.histories[(parent, child)]  # the chain is the histories' edges
            facts = edge_facts(history, asked_at, base['wait_s'], None, clock)
            if min(history.stamps) > requested:
                return Explanation(cause='before_first', edge=facts, why=said + '{} had sent '
                                   'nothing by {}, and its first sample is stamped {}, after the '
                                   'requested {}'.format(history.name, replay.into(asked_at),
                                                         fmt(min(history.stamps)),
                                                         fmt(requested)),
                                   fix='ask after {} (no setting brings back data never sent)'
                                   .format(fmt(min(history.stamps))),
                                   fix_s=min(history.stamps), **base)
            first = min(history.received)
            placed = _placed_at(replay, base, first)
            if placed is not None:
                base['wait_needed_s'] = placed - arrived + MARGIN_S
            return Explanation(cause='not_yet', edge=facts, why=said + '{} was first sent {} s '
                               'after the lookup, {}'.format(history.name, fmt(first - asked_at),
                                                             replay.into(first)),
                               fix='wait for {} before asking ({})'.format(
                                   history.name, _wait_fix(base)),
                               fix_s=base.get('wait_needed_s'), **base)
        sample, miss = cache.value(to_ns(requested))
        if sample is None and miss is not None:
            base = dict(base, answer=Answer(error=Tf2Error(
                error.exception, miss.kind, error.text, child, miss.requested, miss.nearest)))
            explained = _extrapolation(replay, base, child, clock, arrived)
            return replace(explained, why=said + explained.why)
    return _extrapolation(replay, base, error.frame, clock, arrived)


def _modelled(replay: Replay, base: dict) -> str:
    """Return what the model answered to a lookup tf2 itself refused otherwise."""
    modelled = replay.buffer_at(base['asked_at']).lookup(
        base['target'], base['source'], to_ns(base['requested']) if base['requested'] else 0)
    error = modelled.error
    return 'answered' if error is None else 'refused otherwise ({}: {})'.format(
        error.exception, error.text.strip())


def edge_facts(edge: EdgeHistory, asked_at: float, wait_s: float, lag: Optional[float],
               clock: Clock) -> EdgeFacts:
    """Return the edge's numbers around the moment of the lookup, and over the recording."""
    near = edge.delays(asked_at - NEAR_S, asked_at) or edge.delays()
    since = next((r for r, s in zip(edge.received, edge.stamps)
                  if r - s - clock.delay_s > wait_s), None)
    every = edge.delays()
    return EdgeFacts(edge.name, '/tf_static' if edge.static else '/tf',
                     tuple(sorted(edge.publishers)), edge.rate_hz(),
                     statistics.median(near) if near else None, max(near) if near else None,
                     since, lag, statistics.median(every) if every else None, clock.delay_s,
                     clock.source)


def _extrapolation(replay: Replay, base: dict, child: str, clock: Clock,
                   arrived: float) -> Explanation:
    """Explain a lookup outside the limiting edge's samples."""
    error, requested, asked_at = base['answer'].error, base['requested'], base['asked_at']
    wait_s = base['wait_s']
    edge = replay.edge_of(child, asked_at)
    if edge is None:  # emptied by a jump back in time
        return Explanation(cause='stall', why='the buffer held no sample above {} at {} (the '
                           'receive clock jumped back and tf2_ros cleared it)'.format(
                               child, replay.into(asked_at)), **base)
    nearest = to_s(error.nearest)
    lag = requested - nearest if error.kind != 'past' else nearest - requested
    facts = edge_facts(edge, asked_at, wait_s, lag if error.kind != 'empty' else None, clock)
    if error.kind == 'single':
        return Explanation(cause='sent_once', edge=facts, why='{} held one sample (stamped {}) '
                           'at {}: tf2 interpolates only between two'.format(
                               edge.name, fmt(nearest), replay.into(asked_at)),
                           fix='send {} on /tf_static if it is fixed, else at a steady rate'
                           .format(edge.name), **base)
    if error.kind == 'past':
        return _past(replay, base, edge, facts, nearest, requested)
    apart = (facts.usual_s or 0.0) - clock.delay_s
    if abs(apart) >= CLOCKS_APART_S:
        return _clocks_apart(base, edge, facts, apart, clock)
    last = edge.last_arrival(asked_at)
    period = 1.0 / facts.rate_hz if facts.rate_hz else None
    covered = edge.first_covering(requested, asked_at)
    base['wait_needed_s'] = _proven_wait(replay, base, arrived, covered)
    stall = max(STALL_PERIODS * period, STALL_MIN_S) if period else STALL_MIN_S
    base['recording_ended'] = covered is None and replay.end - edge.received[-1] < stall
    if lag > LAG_APART_S and covered is None and asked_at > replay.end:
        assert facts.usual_s is not None  # an edge's history is never empty: edge_facts gives it
        return Explanation(cause='clocks_apart', edge=facts, why='the requested time {} is {} '
                           's past the newest stamp of {}, and past every stamp it has in the '
                           'recording (it runs {} s behind its arrival, {} {} s), asked after '
                           'the recording ends: the asking node reads another clock '
                           '(use_sim_time set on one node, not the other?), or the lookup came '
                           'from another run'.format(
                               fmt(requested), fmt(lag), edge.name, fmt(facts.usual_s),
                               clock.source, fmt(clock.delay_s)),
                           fix='give every node the same use_sim_time', **base)
    if last is not None and period and asked_at - last > stall:
        return Explanation(cause='stall', edge=facts, why='{} stalled: nothing from {} to {} '
                           '({} s; it runs at {})'.format(
                               edge.name, replay.into(last),
                               replay.into(covered) if covered else 'the end',
                               fmt(asked_at - last if covered is None else covered - last),
                               _hz(facts.rate_hz)),
                           fix=_wait_fix(base), fix_s=base['wait_needed_s'], **base)
    after = next((s for r, s in zip(edge.received, edge.stamps)
                  if r >= asked_at and s >= requested), None)
    before = max((s for s in edge.stamps if s < requested), default=nearest)
    if covered is None and not base['recording_ended'] or \
            after is not None and after - before > max(STALL_PERIODS * (period or 0.0), wait_s):
        return Explanation(cause='stall', edge=facts, why='{} sent nothing stamped between {} '
                           'and {} ({}; it runs at {}): its publisher stopped or restarted'
                           .format(edge.name, fmt(before), fmt(after) if after else 'the end',
                                   '{} s'.format(fmt(after - before)) if after else
                                   'it stops {}'.format(replay.into(edge.received[-1])),
                                   _hz(facts.rate_hz, 1)),
                           fix=_wait_fix(base), fix_s=base['wait_needed_s'], **base)
    if (facts.behind_s or 0.0) - (facts.usual_s or 0.0) > max(wait_s, 2 * (period or 0.0),
                                                              BACKLOG_MIN_S):
        return _delivered_late(replay, base, edge, facts)
    delay = max((facts.behind_s or 0.0) - clock.delay_s, 0.0)
    if period is not None and period + delay <= wait_s:  # in time as a rule, not this time
        return _delivered_late(replay, base, edge, facts)
    if period is None or delay >= wait_s:  # no rate brings it within the wait
        fix_s = lag + MARGIN_S
        # an edge's history is never empty: edge_facts gives both
        assert facts.behind_s is not None and facts.behind_max_s is not None
        return Explanation(cause='late_stamps', edge=facts, why='{} is stamped {} s behind its '
                           'arrival (median around the lookup; up to {} s), {} s more than {} '
                           '({} s), more than the wait of {} s: at {} the newest it held was '
                           'stamped {}, {} s before the requested {}'.format(
                               edge.name, fmt(facts.behind_s), fmt(facts.behind_max_s),
                               fmt(facts.behind_s - clock.delay_s), clock.source,
                               fmt(clock.delay_s), fmt(wait_s), replay.into(asked_at),
                               fmt(nearest), fmt(lag), fmt(requested)),
                           fix="stamp {} {} s later (its publisher's transform timeout or "
                           'tolerance), or {}'.format(edge.name, fmt(fix_s), _wait_fix(base)),
                           fix_s=fix_s, **base)
    needed = 1.0 / (wait_s - delay) if wait_s > delay else None
    rate = ' at {} Hz or more'.format(fmt(needed)) if needed else ''
    return Explanation(cause='low_rate', edge=facts, why='{} comes every {} s ({}) and {} s '
                       'behind {}: the sample after a stamp arrives up to {} s after it (period '
                       'plus delay), more than the wait of {} s: the sample after {} had not '
                       'arrived by {}'.format(edge.name, fmt(period), _hz(facts.rate_hz, 1),
                                              fmt(delay), clock.source, fmt(period + delay),
                                              fmt(wait_s), fmt(requested),
                                              replay.into(asked_at)),
                       fix='send {}{} (it runs {} s behind), or {}'.format(
                           edge.name, rate, fmt(delay), _wait_fix(base)),
                       fix_s=base['wait_needed_s'], rate_needed_hz=needed, **base)


def _clocks_apart(base: dict, edge: EdgeHistory, facts: EdgeFacts, apart: float,
                  clock: Clock) -> Explanation:
    """Explain an edge whose stamps run on another clock than the asker's, all along."""
    assert facts.usual_s is not None  # an edge's history is never empty: edge_facts gives it
    why = ('{} is stamped {} s behind its arrival (median of {} samples over the recording), '
           '{} {} s: the two run {} s apart against the same arrivals. Two clocks (no time sync '
           'between the machine that stamps {} and the one that stamps the lookup), or a '
           'publisher stamping {} s {}: the recording alone cannot tell which'.format(
               edge.name, fmt(facts.usual_s), len(edge.stamps), clock.source,
               fmt(clock.delay_s), fmt(abs(apart)), edge.name, fmt(abs(apart)),
               'late' if apart > 0 else 'ahead'))
    if abs(apart) > SIM_TIME_S:
        fix = 'give every node the same use_sim_time (one clock is sim time, {} s apart)' \
            .format(fmt(abs(apart), 0))
    else:
        fix = "sync the clocks (chrony or NTP on both machines): {}'s stamps run {} s {} the " \
            "lookup's".format(edge.name, fmt(abs(apart)), 'behind' if apart > 0 else 'ahead of')
    return Explanation(cause='clocks_apart', edge=facts, why=why, fix=fix, fix_s=apart, **base)


def _delivered_late(replay: Replay, base: dict, edge: EdgeHistory,
                    facts: EdgeFacts) -> Explanation:
    """Explain samples that came late around the lookup while the edge is usually in time."""
    assert facts.behind_max_s is not None  # an edge's history is never empty: edge_facts gives it
    asked_at, wait_s = base['asked_at'], base['wait_s']
    usual = facts.usual_s or 0.0
    late = [(r, s) for r, s in zip(edge.received, edge.stamps)
            if asked_at - NEAR_S <= r <= asked_at and r - s - usual > wait_s]
    arrivals, stamps = [r for r, _ in late], [s for _, s in late]
    if len(late) < 3 or max(arrivals) - min(arrivals) > (max(stamps) - min(stamps)) / 2:
        covering = next(((r, s) for r, s in zip(edge.received, edge.stamps)
                         if r >= asked_at and s >= base['requested']), None)
        when = 'the sample that covered it (stamped {}) arrived {} s after its stamp'.format(
            fmt(covering[1]), fmt(covering[0] - covering[1])) if covering else \
            'no sample covered it by the end'
        why = ('{} runs {} s behind its stamps over the recording (median of {}; up to {} s '
               'around the lookup) at {}, in time for the wait of {} s as a rule; not this '
               'time: {} (jitter: the network, a busy CPU or the driver)'.format(
                   edge.name, fmt(usual), len(edge.stamps), fmt(facts.behind_max_s),
                   _hz(facts.rate_hz, 1), fmt(wait_s), when))
    else:  # a clump: samples stamped over a stretch arrived within half of it
        at_start = arrivals[0] - edge.received[0] < NEAR_S
        why = ('{} came late around the lookup: {} samples stamped over {} s arrived within {} '
               's ({} to {}), up to {} s after their stamps, while it runs {} s behind over the '
               'recording (median of {}): a backlog delivered at once{}, not a publisher '
               'stamping late'.format(
                   edge.name, len(late), fmt(max(stamps) - min(stamps)),
                   fmt(max(arrivals) - min(arrivals)), replay.into(min(arrivals)),
                   replay.into(max(arrivals)), fmt(facts.behind_max_s), fmt(usual),
                   len(edge.stamps), ' at the start of its recording (the recorder catching up: '
                   'what the node itself held then cannot be known)' if at_start else
                   ' (a network, CPU or driver stall)'))
    return Explanation(cause='delivered_late', edge=facts, why=why,
                       fix='{}; its stamps need no change'.format(_wait_fix(base)),
                       fix_s=base['wait_needed_s'], **base)


def _hz(rate_hz: Optional[float], digits: int = 3) -> str:
    """Return an edge's rate as reports write it; None (under 3 samples): unknown."""
    return '{} Hz'.format(fmt(rate_hz, digits)) if rate_hz is not None else \
        'an unknown rate (under 3 samples)'


def _wait_fix(base: dict) -> str:
    """Return the wait that would have placed the message, or why none would have."""
    wait_needed, wait_s = base.get('wait_needed_s'), base['wait_s']
    if wait_needed is not None:
        return 'wait {} s instead of {} s after the message arrived (the lookup timeout or ' \
            'message filter tolerance)'.format(fmt(wait_needed), fmt(wait_s))
    if base.get('recording_ended'):
        return 'cannot know the wait that would have sufficed: the recording ends before the ' \
            'next sample'
    return 'no wait would have sufficed: no later sample covers the requested time'


def _past(replay: Replay, base: dict, edge: EdgeHistory, facts: EdgeFacts, earliest: float,
          requested: float) -> Explanation:
    """Explain a lookup older than what the limiting edge holds."""
    first = min(edge.stamps)
    if requested < first:
        return Explanation(cause='before_first', edge=facts, why='{} was asked at {}, before '
                           'its first sample in the recording (stamped {})'.format(
                               edge.name, fmt(requested), fmt(first)),
                           fix='ask after {} (no setting brings back data never sent)'.format(
                               fmt(first)), fix_s=first, **base)
    needed = max(edge.latest_at(base['asked_at']) or earliest, earliest) - requested + 1.0
    return Explanation(cause='older_than_cache', edge=facts, why='{} was asked at {}, {} s '
                       'before the newest sample the buffer held; tf2 keeps {} s'.format(
                           edge.name, fmt(requested), fmt(needed - 1.0),
                           fmt(replay.cache_time_s)),
                       fix='a buffer cache_time of {} s, or ask sooner'.format(fmt(needed)),
                       fix_s=needed, **base)


def _missing(replay: Replay, base: dict, frame: str, asked_at: float,
             arrived: Optional[float] = None) -> Explanation:
    """Explain a frame the buffer never held."""
    if frame in replay.frames:
        first = min(min(h.received) for key, h in replay.histories.items() if frame in key)
        placed = _placed_at(replay, base, first)
        if placed is not None and arrived is not None:
            base['wait_needed_s'] = placed - arrived + MARGIN_S
        early = first - replay.start < NEAR_S
        return Explanation(cause='not_yet', why='{} was first sent {} s after the lookup, {}{}'
                           .format(frame, fmt(first - asked_at), replay.into(first),
                                   ' (the recording had just started: what the node held '
                                   'before cannot be known)' if early else ''),
                           fix='wait for {} before asking ({})'.format(frame, _wait_fix(base)),
                           fix_s=base.get('wait_needed_s'), **base)
    near = difflib.get_close_matches(frame.lstrip('/'), sorted(replay.frames), n=3, cutoff=0.6)
    hint = '; the recording has {}'.format(', '.join(near)) if near else ''
    if not replay.has_static:
        return Explanation(cause='static_missing', why='nobody sends {} in this recording, which '
                           'holds no /tf_static at all: a static edge latched before recording '
                           'started is missing{}'.format(frame, hint),
                           fix='record /tf_static with transient local durability, or start '
                           'recording before the robot_state_publisher', **base)
    return Explanation(cause='nobody_sends', why='nobody sends {} in this recording{}'.format(
        frame, hint), fix='send {} (a static transform or the URDF), or ask for the frame that '
        'is sent'.format(frame), **base)


def _placed_at(replay: Replay, base: dict, after: float) -> Optional[float]:
    """Return the first arrival from after (within tf2's window) when the lookup answers."""
    if not base['source']:
        return None
    return next((moment for moment in replay.arrivals(after, after + replay.cache_time_s)
                 if replay.probe(base['target'], base['source'], base['requested'],
                                 moment).ok), None)


def _proven_wait(replay: Replay, base: dict, arrived: float,
                 covered: Optional[float]) -> Optional[float]:
    """
    Return the wait from the message's arrival after which tf2 places the lookup, asked again.

    The limiting edge's covering sample is where to start, not the answer: another edge of
    the chain may still miss the time then (a TurtleBot4's 0.158 s, refused; 0.223 s placed).
    """
    if covered is None:
        return None
    wait = covered - arrived + MARGIN_S
    if replay.probe(base['target'], base['source'], base['requested'], arrived + wait).ok:
        return wait
    placed = _placed_at(replay, base, covered)
    return placed - arrived + MARGIN_S if placed is not None else None


def root_above(buffer: Buffer, frame: str, time: int = 0) -> str:
    """Return the root above frame, following each frame's parent at time (0: the newest)."""
    seen = {frame}
    parent = buffer.parent_of(frame, time)
    while parent is not None and parent not in seen:
        frame = parent
        seen.add(frame)
        parent = buffer.parent_of(frame, time)
    return frame


def _two_trees(replay: Replay, base: dict, target: str, source: str,
               asked_at: float) -> Explanation:
    """
    Explain frames in two trees: name both roots, as the walk found them at the time asked.

    A frame with two parents in the recording (two nodes sending its edge) is in one tree or
    the other by the sample nearest the time asked: that is the cause, not a missing edge.
    """
    buffer = replay.buffer_at(asked_at)
    time = to_ns(base['requested']) if base['requested'] else 0
    roots = root_above(buffer, target, time), root_above(buffer, source, time)
    where = '{} is in the tree under {}, {} in the tree under {}'.format(
        target, roots[0], source, roots[1])
    torn = the_two_parents(replay, buffer, (target, source), time)
    if torn:
        frame, parents = torn
        edges = ['{} ({})'.format(history.name, _hz(history.rate_hz(), 1)) for history in
                 (replay.histories[(parent, frame)] for parent in parents)]
        then = buffer.parent_of(frame, time)
        return Explanation(cause='two_parents', why='{} has {} parents in this recording: {}. '
                           'tf2 keeps one cache per frame and follows the parent of its sample at '
                           'or before the time asked; then {} was under {}, so {} at {}'.format(
                               frame, len(parents), ', '.join(edges), frame, then, where,
                               replay.into(asked_at)),
                           fix='give {} one parent: stop one of its senders, or chain them as '
                           'REP 105 does (one frame above the other)'.format(frame), **base)
    return Explanation(cause='two_trees', why='{}: no edge joins them at {}'.format(
        where, replay.into(asked_at)), fix='send the edge that joins {} and {} (often a static '
        'transform from the URDF)'.format(roots[0], roots[1]), **base)


def the_two_parents(replay: Replay, buffer: Buffer, frames: Tuple[str, ...],
                    time: int) -> Optional[Tuple[str, List[str]]]:
    """Return the first frame above frames sent with two parents or more, and its parents."""
    parents: Dict[str, List[str]] = {}
    for parent, child in replay.histories:
        parents.setdefault(child, []).append(parent)
    for start in frames:
        seen = set()
        frame: Optional[str] = start
        while frame is not None and frame not in seen:
            seen.add(frame)
            if len(parents.get(frame, ())) > 1:
                return frame, sorted(parents[frame])
            frame = buffer.parent_of(frame, time)
    return None


def _loop(replay: Replay, base: dict, asked_at: float) -> Explanation:
    """Explain a loop: name its edges."""
    buffer = replay.buffer_at(asked_at)
    cycle: List[str] = []
    for start in buffer.caches:
        path, frame = [start], buffer.parent_of(start)
        while frame is not None and frame not in path:
            path.append(frame)
            frame = buffer.parent_of(frame)
        if frame is not None:
            cycle = path[path.index(frame):] + [frame]
            break
    edges = ', '.join('{} → {}'.format(parent, child)
                      for child, parent in zip(cycle, cycle[1:]))
    return Explanation(cause='loop', why='the tree has a loop: {}'.format(edges),
                       fix='one of these edges is sent the wrong way round (REP 105: map → '
                       'odom → base)', **base)


def explain_pasted(replay: Replay, kind: str, frame: str, asked_at: float, wait_s: float,
                   text: str) -> Explanation:
    """Explain a refusal whose text names no lookup to ask again: a missing frame, a loop."""
    error = Tf2Error('LookupException', kind, text, frame)
    base = {'target': frame, 'source': '', 'requested': 0.0, 'asked_at': asked_at,
            'wait_s': wait_s, 'distro': replay.distro, 'answer': Answer(error=error),
            'tf2': PASTED}
    if kind == 'loop':
        return _loop(replay, base, asked_at)
    return _missing(replay, base, frame, asked_at)
