# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Time: rates and ages of moving edges, edges that stopped, future stamps, time going back.

An edge that stops leaves nodes unable to transform; a bag that loops makes time go back.
"""
from typing import Dict, List, Optional, Tuple

from .common import arrow, no_transform, plural, senders_at_once, source, window
from ..check_ids import TIMING
from ..config import AuditConfig
from ..edge import Edge
from ..findings import CheckResult, Finding, fmt, Level, Value
from ..pace import silence_limit, STOPPED_PERIODS
from ..records import CLOCK_TOPIC, CLOCK_TYPE
from ..records import TF_TOPIC
from ..store import FrameStore

MIN_SAMPLES = 3  # edges seen fewer times on /tf are one-offs, not streams that can stop


def _moving(store: FrameStore) -> List[Edge]:
    return sorted((edge for edge in store.edges.values()
                   if edge.topic_counts.get(TF_TOPIC, 0) >= MIN_SAMPLES),
                  key=lambda edge: edge.key)


def _stopped(edge: Edge, config: AuditConfig, now: float) -> List[Finding]:
    age = now - edge.last_received
    rate = edge.rate_hz()
    limit = silence_limit(max(config.stale_after_s, STOPPED_PERIODS / rate if rate else 0.0),
                          list(edge.received_times), list(edge.latencies))
    if age <= limit:
        return []
    name = arrow(edge.parent, edge.child)
    return [Finding(
        TIMING, Level.ERROR,
        '{} stopped: the last one arrived {} s ago ({}), more than {} s (timing.stale_after_s, '
        'or {} periods or usual gaps). Nodes that need it can no longer transform'.format(
            name, fmt(age, 1), source(edge), fmt(limit, 1), STOPPED_PERIODS),
        'stopped:' + name, frames=edge.key, topics=edge.topics,
        values={'age_s': round(age, 3)})]


def _ahead_by(edge: Edge) -> str:
    """Name the sender stamping ahead where the edge has others that do not (two nodes)."""
    ahead = sorted(edge.future_senders)
    others = sorted(set(edge.publishers) - set(ahead))
    return ' from {} ({} is not ahead)'.format(', '.join(ahead), ', '.join(others)) \
        if ahead and others else ''


def _future(edge: Edge, config: AuditConfig, now: float) -> List[Finding]:
    recent = edge.future.since(window(config, now))
    if not recent:
        return []
    name = arrow(edge.parent, edge.child)
    said = name + _ahead_by(edge)
    future_max_s = max(ahead for _, ahead, _ in recent)
    if future_max_s > config.history_s and edge.lead_s > config.history_s:
        return [Finding(
            TIMING, Level.ERROR,
            '{} is stamped {} s after it arrives, every time, more than tf2 keeps (timing.'
            'history_s {} s): tf2 keeps its samples, but holds nothing as old as the current '
            'time, so lookups at it fail (extrapolation into the past). A clock out of sync '
            'between machines?'.format(said, fmt(edge.lead_s, 1), fmt(config.history_s, 0)),
            'future:' + name, frames=edge.key, topics=edge.topics,
            values={'ahead_s': round(future_max_s, 3)})]
    if future_max_s > config.history_s:
        return [Finding(
            TIMING, Level.ERROR,
            '{} was stamped {} s after it arrived, more than tf2 keeps (timing.history_s {} s): '
            'tf2 takes that stamp as the newest and drops every later {} as too old, so the '
            'edge is lost until that time. A clock out of sync between machines?'.format(
                said, fmt(future_max_s, 1), fmt(config.history_s, 0), name),
            'future:' + name, frames=edge.key, topics=edge.topics,
            values={'ahead_s': round(future_max_s, 3)})]
    return [Finding(
        TIMING, Level.WARN,
        '{} is stamped up to {} s after it arrives ({} messages beyond timing.'
        "future_tolerance_s {} s; slam_toolbox's transform_timeout explains 1 s): a clock "
        'out of sync between machines?'.format(
            said, fmt(future_max_s, 2), len(recent),
            fmt(config.future_tolerance_s, 1)),
        'future:' + name, frames=edge.key, topics=edge.topics,
        values={'ahead_s': round(future_max_s, 3)})]


IRREGULAR_STEPS = 20  # steps between stamps before their spread is judged
IRREGULAR_RATIO = 3.0  # the longest tenth of the steps this many times the shortest tenth
IRREGULAR_APART_S = 0.2  # and this much longer: jitter of a fast edge is no irregularity
IRREGULAR_GAPS = 3  # long steps breaking runs of short ones this often: no change of rate
IRREGULAR_SAME_S = 0.005  # edges whose tenths agree this closely step alike: one sender


def _uneven(edge: Edge, config: AuditConfig, now: float) -> Optional[Tuple[float, float]]:
    """
    Return an edge's (shortest tenth, longest tenth) of steps between stamps where uneven.

    A sender that stalls (a starved CPU, a driver polling slowly) leaves gaps in stamps and
    in arrivals alike, again and again between runs of short steps. A recorder catching up at
    its start takes a backlog of old samples in a burst: far apart by stamp, together by
    arrival, no stall; such a step counts as long only as far as its arrival was (twice its
    arrival gap at most), while short steps are the stamps' own (arrivals bunch on any
    link). A sender that slows down once (20 Hz, then 1 Hz) changed its rate: no stall.
    Two senders of one edge interleave their stamps: parent_uniqueness says that.
    """
    pairs = sorted(zip(edge.stamp_times, edge.received_times))
    steps = [(t1 - t0, min(t1 - t0, 2.0 * max(r1 - r0, 0.0)))
             for (t0, r0), (t1, r1) in zip(pairs, pairs[1:]) if t1 > t0]
    if len(steps) < IRREGULAR_STEPS or len(senders_at_once(edge, window(config, now))) > 1 \
            or edge.sources.two_tracks is not None:
        return None
    tenth = len(steps) // 10
    short = sorted(by_stamp for by_stamp, _ in steps)[tenth - 1]
    long = sorted(paced for _, paced in steps)[-tenth]
    if long < IRREGULAR_RATIO * short or long - short < IRREGULAR_APART_S:
        return None
    middle = (short + long) / 2.0
    gaps = sum(1 for (_, before), (_, after) in zip(steps, steps[1:])
               if before < middle <= after)  # a run of short steps broken by a long one
    return (short, long) if gaps >= IRREGULAR_GAPS else None


def _irregular(edges: List[Edge], config: AuditConfig, now: float) -> List[Finding]:
    """
    Report edges whose stamps step unevenly: long gaps between runs of short ones.

    In the gaps, lookups at the current time extrapolate; the motion across them is no jump.
    Edges of one message stepping alike (a Create 3's odom → base_footprint and odom →
    base_link) are one sender's stall: one finding names them.
    """
    groups: List[List[Tuple[Tuple[float, float], Edge]]] = []
    for edge in edges:
        found = _uneven(edge, config, now)
        if found is None:
            continue
        for group in groups:
            if all(abs(a - b) <= IRREGULAR_SAME_S for a, b in zip(group[0][0], found)):
                group.append((found, edge))
                break
        else:
            groups.append([(found, edge)])
    findings = []
    for group in groups:
        (short, long), first = group[0]
        names = [arrow(edge.parent, edge.child) for _, edge in group]
        findings.append(Finding(
            TIMING, Level.WARN,
            '{} {} stamped unevenly: over the last {} stamps a tenth of the steps between '
            'them are {} s or longer, by stamp and by arrival alike, and a tenth {} s or '
            'shorter ({}). In the long gaps, lookups at the current time have nothing newer '
            'and fail with extrapolation errors: a sender that stalls (a starved CPU, a driver '
            'polling slowly). The motion across the gaps is judged as motion, not as '
            'jumps'.format(', '.join(names), 'is' if len(names) == 1 else 'are',
                           len(first.stamp_times), fmt(long, 3), fmt(short, 3),
                           '; '.join(source(edge) for _, edge in group)),
            'irregular:' + names[0],
            frames=tuple(dict.fromkeys(f for _, edge in group for f in edge.key)),
            topics=tuple(sorted({t for _, edge in group for t in edge.topics})),
            values={'short_s': round(short, 4), 'long_s': round(long, 4),
                    'edges': len(group)}))
    return findings


WALL_CLOCK_S = 1e9  # 2001: receive times beyond this are wall time, stamps below it sim time


def on_simulation_clock(edge: Edge) -> bool:
    """
    Return whether an edge is stamped on a simulator's clock and received on wall time.

    A simulation's stamps count from its start; a recorder run without use_sim_time logs
    wall time. That gap is the recording's habit, not a robot whose clock is behind.
    """
    newest = edge.stamps[-1] if edge.stamps else 0.0
    return 0.0 < newest < WALL_CLOCK_S < edge.last_received


LAGS_AT_ZERO = 'stamped at time zero or before: its sender never set the stamp'
LAGS_BEHIND = ("the sender's clock is behind the receiver's (two machines without time "
               'sync), or a recording replayed without --clock was recorded again (then every '
               'topic lags alike)')


def _lag(edge: Edge, config: AuditConfig, on_clock: bool) -> Optional[Tuple[float, str]]:
    """
    Return an edge's steady lag behind its arrival and its cause, None when on time.

    The least lag over the recent messages is taken, so a burst delivered after a stall (late
    by the stall, then on time) is not a lag; a clock seconds behind is late every time.
    on_clock: the lag was measured against a recorded /clock, so a simulator's stamps are
    judged too.
    """
    if len(edge.latencies) < MIN_SAMPLES:
        return None
    lag = min(edge.latencies)
    newest = edge.stamps[-1] if edge.stamps else 0.0
    if lag <= config.lag_tolerance_s or not on_clock and on_simulation_clock(edge):
        return None
    return lag, LAGS_AT_ZERO if newest <= 0 else LAGS_BEHIND


def _topic_delays(store: FrameStore) -> Dict[str, float]:
    """Return how long after its stamp each lookup topic's messages arrive (the median)."""
    watch = store.lookups
    delays = {lookup.topic: watch.delay_of(lookup) for lookup in watch.lookups} if watch else {}
    return {topic: delay for topic, delay in delays.items() if delay is not None}


def _lag_findings(edges: List[Edge], config: AuditConfig, on_clock: bool,
                  others: Dict[str, float]) -> List[Finding]:
    """
    Report edges stamped steadily before they arrive: one finding per cause.

    Edges whose lags agree within timing.lag_tolerance_s share one sender's clock behind the
    receiver's (a TurtleBot's Raspberry Pi stamping six edges 5 s back is one fault, not six).
    others: the lookup topics' delays (the scan), which say whose clock is off.
    """
    lagging = []
    for edge in edges:
        found = _lag(edge, config, on_clock)
        if found:
            lagging.append((found[0], found[1], edge))
    lagging.sort(key=lambda item: (item[1], item[0]))
    groups: List[List[Tuple[float, str, Edge]]] = []
    for item in lagging:
        if groups and groups[-1][0][1] == item[1] and \
                item[0] - groups[-1][0][0] <= config.lag_tolerance_s:
            groups[-1].append(item)
        else:
            groups.append([item])
    # keyed by cause and by the clock's place among its kind: the edges a group holds change
    # as slower edges reach MIN_SAMPLES, and the log follows one finding per key
    return [_lag_finding(group, config, 'lag:{}:{}'.format(
        'zero' if group[0][1] == LAGS_AT_ZERO else 'behind',
        sum(1 for g in groups[:index] if g[0][1] == group[0][1]) + 1), others)
        for index, group in enumerate(groups)]


def _whose_clock(low: float, others: Dict[str, float], config: AuditConfig) -> Optional[str]:
    """
    Say whose clock is off where another topic's lag decides it, else None.

    A scan that lags as TF does was stamped by the robot and received late too: the
    receiver's clock is ahead (or a replay was recorded again). A scan on time says the
    receiver's clock is right and the machine that sends these edges is behind.
    """
    alike = sorted(t for t, lag in others.items() if lag >= low - config.lag_tolerance_s)
    on_time = sorted(t for t, lag in others.items() if abs(lag) <= config.lag_tolerance_s)
    if alike and not on_time:
        return ("{} lags alike ({}): the receiving machine's clock is ahead of the robot's "
                '(a recorder on another computer without time sync), or a recording replayed '
                'without --clock was recorded again'.format(
                    ' and '.join(alike), ', '.join('{} s'.format(fmt(others[t], 3))
                                                   for t in alike)))
    if on_time and not alike:
        return ("the sender's clock is behind the receiver's (two machines without time "
                'sync): {} arrives on time ({}), so the receiving clock is right'.format(
                    ' and '.join(on_time), ', '.join('{} s'.format(fmt(others[t], 3))
                                                     for t in on_time)))
    return None


def _lag_finding(group: List[Tuple[float, str, Edge]], config: AuditConfig,
                 key: str, others: Dict[str, float]) -> Finding:
    """Say one cause of lag: the edges it holds back, each with its lag."""
    low, why, first = group[0]
    if why == LAGS_BEHIND:
        why = _whose_clock(low, others, config) or why
    high = group[-1][0]
    edges = [edge for _, _, edge in group]
    names = [arrow(edge.parent, edge.child) for edge in edges]
    if len(group) == 1:
        said = '{} arrives {} s after its stamp, every time (the least lag over its last {} ' \
            'messages'.format(names[0], fmt(low, 3), len(first.latencies))
    else:
        said = '{} edges arrive {} to {} s after their stamps, every time ({}; the least lag ' \
            'over their last messages'.format(len(group), fmt(low, 3), fmt(high, 3), ', '.join(
                '{} {} s'.format(name, fmt(lag, 3)) for name, (lag, _, _) in zip(names, group)))
    return Finding(
        TIMING, Level.ERROR if high >= config.stale_after_s else Level.WARN,
        '{}, more than {}): {}. tf2 then fails lookups at the current time with extrapolation '
        'errors'.format(said, config.key('timing.lag_tolerance_s'), why),
        key, frames=tuple(dict.fromkeys(f for e in edges for f in e.key)),
        topics=tuple(sorted({t for e in edges for t in e.topics})),
        values={'lag_s': round(low, 3), 'lag_max_s': round(high, 3), 'edges': len(group)})


def _stamps_back(edges: List[Edge], config: AuditConfig, now: float) -> List[Finding]:
    """Report edges whose stamps went back while the receive clock ran on, in one finding."""
    start = window(config, now)
    # two senders at once on clocks apart make the stamps go back at every switch between
    # them: no loop or reset, and parent_uniqueness and the lag say what it is
    jumped = [(edge, edge.stamp_jumps[-1]) for edge in edges if edge.stamp_jumps
              and (edge.stamp_jumps[-1].received or now) >= start
              and len(senders_at_once(edge, start)) < 2]
    if not jumped:
        return []
    listed = ', '.join('{} by {} s ({}×)'.format(
        arrow(edge.parent, edge.child), fmt(jump.from_time - jump.to_time, 1),
        jump.number + 1) for edge, jump in jumped)
    return [Finding(
        TIMING, Level.WARN,
        'stamps went back while the receive clock ran on: {}. A recording replayed in a loop '
        'without --clock (play it with --clock and use_sim_time), or a publisher whose clock '
        'was reset; tf2 ignores transforms older than its cache until time catches up. Each '
        'edge was followed on its new clock'.format(listed),
        'stamps_back', frames=tuple(f for edge, _ in jumped for f in edge.key),
        topics=tuple(sorted({t for edge, _ in jumped for t in edge.topics})),
        values={'edges': len(jumped)})]


def _two_clocks(store: FrameStore, edges: List[Edge], simulated: List[Edge]) -> List[Finding]:
    """
    Report one tree whose moving edges are stamped on a simulator's clock and on wall time.

    A node without use_sim_time among simulated ones stamps its edges with the wall clock: tf2
    holds the tree's edges at times 1.7e9 s apart, and a lookup across them, at any time,
    extrapolates. Edges in trees apart are connectivity's.
    """
    wall = [edge for edge in edges if edge.stamps and edge.stamps[-1] >= WALL_CLOCK_S]
    if not simulated or not wall:
        return []
    root = {edge.key: store.ancestry(edge.child)[-1] for edge in simulated + wall}
    findings = []
    for top in sorted({root[edge.key] for edge in simulated}):
        ours = [edge for edge in simulated if root[edge.key] == top]
        theirs = [edge for edge in wall if root[edge.key] == top]
        if not theirs:
            continue
        findings.append(Finding(
            TIMING, Level.ERROR,
            'one tree ({}) holds {} stamped on a simulation clock (e.g. {} at {} s) and {} on '
            'wall time (e.g. {} at {} s): tf2 holds them {} s apart, so every lookup across '
            'them extrapolates. The sender of {} stamps with the wall clock while the others '
            "use the simulation's (use_sim_time not set on it?)".format(
                top, plural(len(ours), 'moving edge'), arrow(ours[0].parent, ours[0].child),
                fmt(ours[0].stamps[-1], 1), len(theirs),
                arrow(theirs[0].parent, theirs[0].child), fmt(theirs[0].stamps[-1], 1),
                fmt(theirs[0].stamps[-1] - ours[0].stamps[-1], 0),
                ', '.join(arrow(e.parent, e.child) for e in theirs[:3]) +
                (' and {} more'.format(len(theirs) - 3) if len(theirs) > 3 else '')),
            'two_clocks:' + top, frames=tuple(f for e in ours[:1] + theirs for f in e.key),
            topics=(TF_TOPIC,), values={'simulated': len(ours), 'wall': len(theirs)}))
    return findings


def check_timing(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that moving edges keep coming, on time, and that time only goes forward."""
    findings: List[Finding] = []
    values: Dict[str, Value] = {}
    edges = _moving(store)
    on_clock = store.clock.clock_offset is not None  # stamps judged against a recorded /clock
    for edge in edges:
        findings += _stopped(edge, config, now) + _future(edge, config, now)
        rate = edge.rate_hz()
        name = arrow(edge.parent, edge.child)
        values[name + ' rate_hz'] = round(rate, 2) if rate else 0.0
        values[name + ' age_s'] = round(now - edge.last_received, 3)
        if edge.latencies:
            values[name + ' latency_s'] = round(sorted(edge.latencies)[len(edge.latencies) // 2],
                                                4)
    simulated = [edge for edge in edges if not on_clock and on_simulation_clock(edge)]
    if simulated:
        values['clock'] = ('{} of {} moving edges stamped on a simulation clock and received '
                           'on wall time (a recorder without use_sim_time): their lag is not '
                           'judged'.format(len(simulated), len(edges)))
    findings += _lag_findings(edges, config, on_clock, _topic_delays(store)) + \
        _stamps_back(edges, config, now) + \
        _irregular(edges, config, now) + _two_clocks(store, edges, simulated)
    for jump in store.clock.time_jumps:
        if jump.to_time < window(config, now):
            continue
        findings.append(Finding(
            TIMING, Level.WARN,
            'time jumped back {} s (from {} to {}): a bag that loops or a restarted '
            'recording. The history was cleared; the tree and its findings were kept'.format(
                fmt(jump.from_time - jump.to_time, 1), fmt(jump.from_time, 1),
                fmt(jump.to_time, 1)),
            'time_jump:{}'.format(jump.number), values={'jump_s': jump.to_time - jump.from_time}))
    if store.clock.stamp_clock(now) is None:  # a /clock was recorded, and none of it read yet
        return CheckResult(TIMING, '{} ({}) is in the recording but none of its messages was '
                           'read, so whether the stamps of {} are on time cannot be '
                           'known'.format(CLOCK_TOPIC, CLOCK_TYPE,
                                          plural(len(edges), 'moving edge')),
                           findings, values, stale=True)
    summary = '{} moving edge{} on time'.format(len(edges), '' if len(edges) == 1 else 's') \
        if edges else no_transform(store) if not store.edges else \
        'nothing to judge: no edge sent on /tf {} times{}'.format(
            MIN_SAMPLES, ' in the recording' if store.ended else ' yet')

    if simulated:
        summary += ' (stamped on a simulation clock, received on wall time: lag not judged)'
    if on_clock:
        summary += ', judged against the recorded /clock'
        values['clock'] = 'stamps judged against the recorded /clock'
    return CheckResult(TIMING, summary, findings, values, stale=not edges)
