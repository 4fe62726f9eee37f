# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The car's own lookups: how many messages tf2 could place in their target frame within the wait.

slam_toolbox, the particle filter, Nav2's costmaps and amcl each hold a sensor message in a
message filter until tf2 can place it at its stamp; what is still refused when the wait runs
out is dropped ("Message Filter dropping message"). The counts come from tf2.watch, which
asked the tf2 model as the messages arrived; this judges them and names the limiting edge.
"""
from typing import AbstractSet, Dict, List, Optional, Tuple

from .common import arrow, plural
from ..check_ids import LOOKUPS
from ..config import AuditConfig
from ..edge import Edge
from ..findings import CheckResult, Finding, fmt, Level, Value
from ..store import FrameStore
from ..tf2.watch import NOT_IN_TREE, Refusals, REJECTED, SHAPE, SILENT, STARTING, Tally, WAITING

MIN_LOOKUPS = 10  # lookups judged before a share is a verdict: one of three is not 33 %
SHAPES = {'two_trees': 'two trees', 'loop': 'a loop', 'invalid': 'an invalid frame id'}
APART = (  # why a lookup was set apart, and who says why: (count, subjects)
    (NOT_IN_TREE, '{} named a frame tf2 never had: {} (chain_order, laser_offset and '
                  'connectivity say why)'),
    (SHAPE, "{} refused by the tree's shape, {} (parent_uniqueness, chain_order and "
            'connectivity say why)'),
    (STARTING, "{} stamped before their limiting edge's first sample, {} (its sender "
               'starting)'),
    (SILENT, '{} refused while {} was silent (timing reports it)'),
    (REJECTED, '{} refused while tf2 refused the samples of {} (transform_values reports it)'),
    (WAITING, '{} refused since {} last came: late or stopped, the next sample will tell'),
)


def check_lookups(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that tf2 placed each configured lookup topic's messages within their wait."""
    watch = store.lookups
    if watch is None:
        return CheckResult(LOOKUPS, 'not checked: no tf2 model was fed (a store filled '
                           'without an Audit)', stale=True)
    if not watch.lookups:
        return CheckResult(LOOKUPS, 'not checked: no lookups are configured ({})'.format(
            config.key('lookups.entries')))
    findings: List[Finding] = []
    said: List[str] = []  # judged: said first, as the OK row's words
    unknown: List[str] = []  # cannot know, and why
    values: Dict[str, Value] = {}
    for tally in watch.tallies(now, store.ended):
        name = '{} in {}'.format(tally.lookup.topic, tally.lookup.target)
        why_not = _no_data(store, tally)
        if why_not:
            unknown.append('{}: {}'.format(name, why_not))
            continue
        values.update(_numbers(name, tally))
        finding = _judge(store, config, tally)
        if finding is not None:
            findings.append(finding)
            continue
        apart = _set_apart(tally, store.frames)
        said.append('{}: {} of {} placed within {:g} s{}'.format(
            name, tally.judged - tally.refused_count, tally.judged, tally.lookup.wait_s,
            ' ({} more set apart: {})'.format(tally.asked - tally.judged, '; '.join(apart))
            if apart else ''))
    return CheckResult(LOOKUPS, '; '.join(said + unknown), findings, values,
                       stale=not values and not findings)


def _numbers(name: str, tally: Tally) -> Dict[str, Value]:
    """Return one lookup's key-values: its counts, share, wait and the worst lag."""
    numbers: Dict[str, Value] = {
        name + ': asked': tally.judged, name + ': refused': tally.refused_count,
        name + ': refused_share': round(tally.refused_count / tally.judged, 4),
        name + ': wait_s': tally.lookup.wait_s, name + ': set_apart': tally.asked - tally.judged}
    lags = [r.lag_s for r in tally.refused.values() if r.lag_s is not None]
    if lags:
        numbers[name + ': worst_lag_s'] = round(max(lags), 6)
    return numbers


def _judge(store: FrameStore, config: AuditConfig, tally: Tally) -> Optional[Finding]:
    """Return a WARN if more than lookups.warn_share of the lookups were refused."""
    share = tally.refused_count / tally.judged
    worst = max(tally.refused.items(), key=lambda item: item[1].count, default=None)
    if share <= config.lookups_warn_share or worst is None:
        return None
    return _refused_finding(store, config, tally, share, worst)


def _no_data(store: FrameStore, tally: Tally) -> str:
    """Say why a lookup has nothing to judge ('' when it has): no message, no TF, no frame."""
    topic = tally.lookup.topic
    if tally.asked == 0 and tally.before_tf:
        return 'no TF yet: {} came before any transform'.format(
            plural(tally.before_tf, topic + ' message'))
    if tally.asked == 0:
        if not store.topic_counts.get(topic):
            return 'cannot know: {} {}'.format(
                'the recording holds no' if store.ended else 'no', topic + ' message' +
                ('' if store.ended else ' yet'))
        return 'waiting: the first {} messages are within their wait'.format(topic)
    if tally.judged == 0:
        return 'cannot know: every one of {} set apart ({})'.format(
            plural(tally.asked, 'lookup'), '; '.join(_set_apart(tally, store.frames)))
    if tally.judged < MIN_LOOKUPS:
        return '{}: {} judged, a share takes {}'.format(
            'cannot know' if store.ended else 'waiting', plural(tally.judged, 'lookup'),
            MIN_LOOKUPS)
    return ''


LATER = '{} named a frame tf2 did not have yet: {} (its sender starting)'


def _set_apart(tally: Tally, frames: AbstractSet[str]) -> List[str]:
    """
    Say which lookups were not judged, and which check tells the cause instead.

    A frame tf2 never had at the time but the tree has now came late (AMCL's map after its
    first scan): its sender starting, not a cause for the tree's checks to say.
    """
    by_why: Dict[str, Dict[str, int]] = {}
    for (why, subject), count in tally.apart.items():
        late = why == NOT_IN_TREE and subject in frames
        by_why.setdefault(LATER if late else why, {})[subject] = count
    notes = []
    for why, text in APART + ((LATER, LATER),):
        subjects = by_why.get(why, {})
        if subjects:
            notes.append(text.format(sum(subjects.values()), ', '.join(
                SHAPES.get(subject, subject) for subject in sorted(subjects))))
    return notes


def _refused_finding(store: FrameStore, config: AuditConfig, tally: Tally, share: float,
                     worst: Tuple[str, Refusals]) -> Finding:
    """Say how many messages tf2 could not place, and which edge limited them."""
    lookup = tally.lookup
    cause, refusals = worst
    others = len(tally.refused) - 1
    values: Dict[str, Value] = {'refused': tally.refused_count, 'asked': tally.judged,
                                'refused_share': round(share, 4), 'wait_s': lookup.wait_s}
    if refusals.lag_s is not None:
        values['worst_lag_s'] = round(refusals.lag_s, 6)
    return Finding(
        LOOKUPS, Level.WARN,
        '{} % of {} could not be placed in {} within {:g} s: {}{} ({} of {}; the lookup from '
        '{}; WARN past {} %, {}). {} said: "{}". {}'.format(
            fmt(100.0 * share, 0), lookup.topic, lookup.target, lookup.wait_s,
            _limited_by(cause, refusals, lookup.topic),
            ' (and {} more {})'.format(others, 'cause' if others == 1 else 'causes')
            if others else '', tally.refused_count, tally.judged, config.key('lookups.entries'),
            fmt(100.0 * config.lookups_warn_share, 0), config.key('lookups.warn_share'),
            tally.tf2 or 'tf2', refusals.example, _fix(store, config, cause, refusals, tally)),
        'refused:{}:{}'.format(lookup.topic, lookup.target),
        frames=(lookup.target,) + tally.frames, topics=(lookup.topic,), values=values)


def _edge_of(store: FrameStore, name: str, child: str) -> Optional[Edge]:
    """Return the store's edge of a limiting edge's name, None if the store has none."""
    return next((e for e in store.parents.get(child, {}).values()
                 if arrow(e.parent, e.child) == name), None)


def _delay(edge: Edge) -> Optional[float]:
    """Return how long after its stamps an edge arrives (median; ahead: < 0), None unknown."""
    ordered = sorted(edge.latencies)
    return ordered[len(ordered) // 2] if ordered else None


def _slow(edge: Optional[Edge], name: str, wait_s: float) -> str:
    """
    Describe an edge whose period, not its delay, outlasts the wait ('' if it is not so).

    ros2_control's odometry published at 0.9 Hz arrives a millisecond after its stamps: the
    scans between two samples cannot be placed, however its sender stamps it.
    """
    rate = edge.rate_hz() if edge is not None else None
    delay = _delay(edge) if edge is not None else None
    if not rate or delay is None:
        return ''
    period = 1.0 / rate
    if period <= wait_s or period < 2.0 * max(delay, 0.0):
        return ''
    return '{} comes every {} s ({} Hz), {} s after its stamps'.format(
        name, fmt(period, 3), fmt(rate, 1), fmt(delay, 3))


def _limited_by(cause: str, refusals: Refusals, topic: str) -> str:
    """Describe the limiting edge of most refusals, with its sender and numbers."""
    sender = ' from {}'.format(', '.join(refusals.publishers)) if refusals.publishers else ''
    lag = refusals.lag_s
    if refusals.kind == 'future' and lag is not None:
        return '{}{} is stamped up to {} ms behind the {} stamps ({}×)'.format(
            cause, sender, fmt(lag * 1000.0, 0), topic, refusals.count)
    if refusals.kind == 'past' and lag is not None:
        return "{}{} held nothing as old as the messages' stamps (up to {} s older than its " \
               'oldest sample: tf2 keeps its cache window) ({}×)'.format(
                   cause, sender, fmt(lag, 3), refusals.count)
    if refusals.kind == 'single':
        return '{}{} held one sample: tf2 interpolates only between two ({}×)'.format(
            cause, sender, refusals.count)
    if refusals.kind == 'empty':
        return '{}{} held no sample (tf2_ros cleared its buffer: the clock jumped back) ' \
               '({}×)'.format(cause, sender, refusals.count)
    return '{}{} ({}×)'.format(cause, sender, refusals.count)


def _fix(store: FrameStore, config: AuditConfig, edge: str, refusals: Refusals,
         tally: Tally) -> str:
    """Return what to do, and where to read the cause in full."""
    lookup = tally.lookup
    how = '`frame-audit lookup RECORDING {} {} --every {}` names the cause and the wait ' \
          'that would do'.format(lookup.target, tally.frames[-1] if tally.frames else 'FRAME',
                                 lookup.topic)
    limiting = _edge_of(store, edge, refusals.child)
    own = _delay(limiting) if limiting is not None else None
    if refusals.kind in ('future', 'past') and own is not None and tally.delay_s is not None \
            and abs(own - tally.delay_s) > config.lag_tolerance_s:
        return 'The {} stamps run {} s {} their arrival, while {} arrives {} s {} its stamps: ' \
            'the two are stamped on clocks {} s apart (more than {}; timing names the edges ' \
            'stamped on each), and no later stamp of {} or longer wait makes up for that: one ' \
            'clock for both machines (chrony, NTP); {}'.format(
                lookup.topic, fmt(abs(tally.delay_s), 3),
                'behind' if tally.delay_s >= 0 else 'ahead of', edge, fmt(abs(own), 3),
                'after' if own >= 0 else 'before', fmt(abs(own - tally.delay_s), 3),
                config.key('timing.lag_tolerance_s'), edge, how)
    slow = _slow(limiting, edge, lookup.wait_s)
    if refusals.kind == 'future' and slow:
        return '{}: a message stamped between two of its samples waits for the next one, ' \
            'longer than the wait. The edge is not late but slow: {} (tried in tf2: the ' \
            'rate or wait that places them)'.format(slow, how[0].lower() + how[1:])
    if refusals.kind == 'future':
        slam = ' (slam_toolbox: transform_timeout)' if edge.startswith(
            config.map_frame + ' →') else ''
        return ('Have its sender stamp {} later{} or wait longer (the lookup timeout or '
                'message filter tolerance); {}'.format(edge, slam, how))
    return how[0].upper() + how[1:]
