# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit explain` and `frame-audit lookup`: why tf2 refused (or would refuse) a lookup.

Both read the recording once through recordings.read, replay its transforms into the tf2
model (engine.tf2) in the order they arrived, and ask the lookup of the buffer as the node
held it. explain starts from the error a node printed and finds the moment it was printed
(when the edge it names held the stamp it names); lookup starts from a lookup the user names,
once (--at) or for every message of a topic (--every), asked when the message arrived plus
the wait.
"""
import bisect
from dataclasses import dataclass, field, replace
import math
from pathlib import Path
import re
from typing import Callable, List, Optional, Tuple

from .config import command_config
from ..engine.config import AuditConfig, PoseTopic
from ..engine.findings import fmt
from ..engine.records import CLOCK_TOPIC, HEADER_TYPES, HeaderRecord, OdometryRecord, \
    POSE_MESSAGE_TYPES, PoseRecord, TF_STATIC_TOPIC, TF_TOPIC, Unreadable
from ..engine.tf2 import DEFAULT_DISTRO, distro as distro_named, to_ns, to_s
from ..engine.tf2.backend import Real
from ..engine.tf2.diagnose import EdgeFacts, explain, explain_pasted, Explanation, NEAR_S, \
    Tried
from ..engine.tf2.distros import MAX_S
from ..engine.tf2.drops import ClockJump, count_drops, Drops
from ..engine.tf2.fixes import prove, restamped
from ..engine.tf2.insertion import explain_insertion
from ..engine.tf2.parse import ANY_STAMP_NS, parse_tf2_error, Pasted, PasteError, \
    with_target
from ..engine.tf2.placed import refusals, Stamped, summarize, Summary
from ..engine.tf2.replay import EdgeHistory, receive_clock, Replay, TfMessage
from ..errors import UsageError
from ..recordings.read import Recording
from ..reports.lag_plot import LagSeries
from ..ros.real_tf2 import choose

DEFAULT_WAIT_S = 0.1  # slam_toolbox's and the particle filter's habit on the car
# A printed stamp matches a recorded one within a microsecond: a record's stamp is a float of
# seconds, which near 1.7e9 s resolves 0.24 us (tf2 prints ROS 1 stamps to the nanosecond).
MATCH_NS = 1000
EARLY_S = 0.001  # how much before its stamp's arrival a lookup may be asked
MAX_MOMENTS = 200  # arrivals tried while one sample was the newest held


@dataclass
class Loaded:
    """A recording's transforms as a Replay, and the --every topic's messages."""

    replay: Replay
    path: str
    stamped: List[Stamped] = field(default_factory=list)
    clock: str = 'receive clock'  # what arrivals are told on
    arrived: Optional['Arrived'] = None  # the pasted lookup's own message, where recorded


@dataclass(frozen=True)
class Arrived:
    """The message a pasted lookup was for, found in the recording: when and where it came."""

    received: float  # on the recording's clock (the recorded /clock where there is one)
    topic: str


def _load(path: Path, config: AuditConfig, distro: str, every: Optional[str] = None,
          cache_time_s: float = 10.0, real: Optional[Real] = None,
          find: Optional[Tuple[int, str]] = None) -> Loaded:
    """
    Read the recording's /tf and /tf_static (and the --every topic) in arrival order.

    real: tf2 itself (tf2_py) answers the replay's lookups; None: the model. find: a
    message's stamp (ns) and frame, looked for on every stamped topic. Where a /clock
    was recorded (a replay with --clock, a simulator), arrivals are told on it, as the nodes
    that stamped by it saw them: lags are against /clock, never wall time against sim time.
    """
    distro_named(distro)
    messages: List[TfMessage] = []
    stamped: List[Stamped] = []
    ticks: List[Tuple[float, float]] = []  # a recorded /clock: (arrival, its time)
    with Recording(path, config) as recording:
        if every is not None and every not in recording.info.topics:
            raise UsageError('{}: no topic {} (its topics: {})'.format(
                path, every, ', '.join(sorted(recording.info.topics))))
        if every in (TF_TOPIC, TF_STATIC_TOPIC):
            raise UsageError('{}: {} holds {} messages: the transforms looked up, not messages '
                             'a node places with them; --every takes scans, point clouds, poses '
                             'and odometry'.format(path, every, format(
                                 recording.info.topics[every][1], ',')))
        if every is not None:
            config = _reading(config, every, recording.info.topics[every][0])
        for message in recording.messages(config):
            payload = message.payload
            if isinstance(payload, tuple):
                messages.append(TfMessage(message.received, payload,
                                          message.topic == TF_STATIC_TOPIC, message.publisher))
            elif message.topic == every:
                stamped.append(_stamped(payload, message.received, every, path))
            elif message.topic == CLOCK_TOPIC and isinstance(payload, HeaderRecord):
                ticks.append((message.received, payload.stamp))
        start = recording.info.start_s
        arrived = _recorded(recording, config, *find) if find else None
    on_clock = recorded_clock(ticks)
    if on_clock is not None:
        messages = [replace(m, received=on_clock(m.received)) for m in messages]
        stamped = [replace(m, received=on_clock(m.received)) for m in stamped]
        start = on_clock(start)
        arrived = replace(arrived, received=on_clock(arrived.received)) if arrived else None
    return Loaded(Replay(messages, distro, cache_time_s, start, real), str(path), stamped,
                  'receive clock' if on_clock is None else 'the recorded /clock', arrived)


def _recorded(recording: Recording, config: AuditConfig, stamp: int,
              frame: str) -> Optional[Arrived]:
    """
    Return the first arrival of a message stamped so in that frame, on any stamped topic.

    A pasted lookup names its message's stamp and frame; where the recorder took that message,
    its arrival is known, not assumed (a driver's latency is not the /tf edges').
    """
    found = []
    for topic, (msgtype, _) in sorted(recording.info.topics.items()):
        if msgtype not in HEADER_TYPES + POSE_MESSAGE_TYPES:
            continue
        for message in recording.messages(_reading(config, topic, msgtype)):
            payload = message.payload
            payload = payload.pose if isinstance(payload, OdometryRecord) else payload
            if message.topic == topic and isinstance(payload, (HeaderRecord, PoseRecord)) and \
                    payload.frame_id.lstrip('/') == frame and \
                    abs(to_ns(payload.stamp) - stamp) <= MATCH_NS:
                found.append(Arrived(message.received, topic))
                break
    return min(found, key=lambda arrived: arrived.received, default=None)


def recorded_clock(ticks: List[Tuple[float, float]]) -> Optional[Callable[[float], float]]:
    """
    Return an arrival's time on the recorded /clock, or None where there is none to tell by.

    Between two ticks the clock runs on from the last one, never past the next (a monotonic
    map: the replay's order stays); a /clock that goes back (a loop) is no clock to tell by.
    """
    times = [time for _, time in ticks]
    if not ticks or any(later < earlier for earlier, later in zip(times, times[1:])):
        return None
    arrivals = [received for received, _ in ticks]

    def at(received: float) -> float:
        index = bisect.bisect_right(arrivals, received) - 1
        if index < 0:
            return times[0] + received - arrivals[0]
        since = times[index] + received - arrivals[index]
        return min(since, times[index + 1]) if index + 1 < len(times) else since
    return at


def _reading(config: AuditConfig, every: str, msgtype: str) -> AuditConfig:
    """Return the config that reads the --every topic by its recorded type (a pose, odometry)."""
    if every == config.odom_topic or every in {p.topic for p in config.pose_topics or ()}:
        return config
    if msgtype in POSE_MESSAGE_TYPES:
        return replace(config, pose_topics=tuple(config.pose_topics or ()) + (
            PoseTopic('every', every, ''),))
    return replace(config, scan_topic=every)


def _stamped(payload: object, received: float, topic: str, path: Path) -> Stamped:
    """Return an --every message's stamp and frame, or say why it has none."""
    if isinstance(payload, OdometryRecord):
        payload = payload.pose
    if isinstance(payload, (HeaderRecord, PoseRecord)):
        return Stamped(payload.stamp, payload.frame_id, received)
    reason = payload.reason if isinstance(payload, Unreadable) else type(payload).__name__
    raise UsageError('{}: {} cannot be read for its header ({}); --every takes scans, point '
                     'clouds, poses and odometry'.format(path, topic, reason))


# -- explain ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explained:
    """The answer to `frame-audit explain`: the pasted error, and what the recording says."""

    pasted: Pasted
    recording: str
    explanation: Optional[Explanation]
    reproduced: Optional[bool] = None  # the tf2 that answered printed the very text pasted
    model_text: str = ''  # what it printed
    note: str = ''  # why the lookup was not found, where it was not
    start: float = 0.0  # the recording's first arrival: times are told from it
    drops: Tuple[Drops, ...] = ()  # what tf2 dropped or kept twice on the lookup's chain
    jumps: Tuple[ClockJump, ...] = ()
    tf2: str = ''  # which tf2 answered the lookups: the model, or tf2_py's BufferCore
    series: Optional[LagSeries] = None  # the limiting edge's lag, for --plot
    arrived: Optional[Arrived] = None  # its message, found in the recording


def explain_error(path: Path, text: str, config_path: Optional[str] = None,
                  distro: Optional[str] = None, wait_s: float = DEFAULT_WAIT_S,
                  target: Optional[str] = None, tf2: str = 'auto') -> Explained:
    """Find the lookup a pasted tf2 error came from, and say why it was refused."""
    try:
        pasted = with_target(parse_tf2_error(text), target)
    except PasteError as error:
        raise UsageError(str(error)) from None
    if pasted.kind == 'filter' and not pasted.target:
        raise UsageError("a message filter's line names the message's frame ({}), not the "
                         'frame it wanted: give it with --target FRAME'.format(pasted.frame))
    chosen = distro or ('noetic' if pasted.ros1_wording else DEFAULT_DISTRO)
    real = choose(tf2, '--tf2 ' + tf2)
    find = (pasted.requested, pasted.source or pasted.frame) if pasted.requested and \
        pasted.kind in ('future', 'past', 'single', 'filter', 'no_transform') else None
    loaded = _load(path, command_config(config_path), chosen, real=real, find=find)
    replay = loaded.replay
    explained = replace(_explained(replay, pasted, path, text, wait_s, chosen, loaded.arrived),
                        arrived=loaded.arrived)
    if explained.explanation is not None:
        explained = replace(explained, explanation=prove(replay, explained.explanation))
    frames = (pasted.target, pasted.source, pasted.frame, pasted.parent)
    return replace(explained, start=replay.start, tf2=replay.tf2,
                   series=_one_series(loaded, explained.explanation, path),
                   **_chain_drops(replay, frames))


def _chain_drops(replay: Replay, frames: Tuple[str, ...]) -> dict:
    """Return what tf2 dropped on the edges above the frames, and the clock's jumps."""
    buffer = replay.buffer_at(float('inf'))
    chain = set()
    for frame in frames:
        while frame and frame not in chain:
            chain.add(frame)
            frame = buffer.parent_of(frame) or ''
    drops, jumps = count_drops(replay.messages, replay.distro, replay.cache_time_s)
    return {'drops': tuple(d for d in drops if d.child in chain), 'jumps': tuple(jumps)}


def _explained(replay: Replay, pasted: Pasted, path: Path, text: str, wait_s: float,
               chosen: str, arrived: Optional[Arrived]) -> Explained:
    """Explain the pasted error from the replayed recording (arrived: its message's arrival)."""
    if pasted.kind in ('future', 'past', 'single'):
        return _explain_extrapolation(replay, pasted, str(path), wait_s, text, arrived)
    end = max((m.received for m in replay.messages), default=0.0)
    if pasted.kind == 'no_frame':
        first = min((min(h.received) for key, h in replay.histories.items()
                     if pasted.frame in key), default=None)
        if first is not None and first - replay.start < NEAR_S:
            return Explained(pasted, str(path), None, note='{} is sent from {} s into {}: tf2 '
                             'knows it at every moment after; the error was printed before the '
                             'recording started, or in another run'.format(
                                 pasted.frame, fmt(first - replay.start, 2), path))
        asked = end if first is None else first - EARLY_S  # just before it was first sent
        return Explained(pasted, str(path), explain_pasted(replay, 'no_frame', pasted.frame,
                                                           asked, wait_s, ' '.join(text.split())))
    if pasted.kind in ('repeated', 'old_data'):
        found = explain_insertion(replay, pasted.kind, pasted.parent, pasted.frame,
                                  pasted.requested, wait_s, text, pasted.precision_ns)
        edge = ' → '.join(filter(None, (pasted.parent, pasted.frame)))
        stamped = 'stamped {:.6f}'.format(to_s(pasted.requested)) \
            if pasted.precision_ns != ANY_STAMP_NS else 'at any stamp (the line names none)'
        return Explained(pasted, str(path), found, note='' if found else '{} holds {} {} {}: '
                         'what tf2 refused did not reach the recorder (a publisher it did not '
                         'record, or another run)'.format(
                             path, edge, stamped, 'at most once' if pasted.kind == 'repeated'
                             else "never arriving past tf2's window"))
    if pasted.kind == 'no_transform':
        return _explain_wrapped(replay, pasted, path, wait_s, arrived)
    if pasted.kind == 'filter':
        came = arrived.received if arrived else to_s(pasted.requested) + \
            receive_clock(replay).delay_s
        return Explained(pasted, str(path), explain(replay, pasted.target, pasted.source,
                                                    to_s(pasted.requested), came + wait_s,
                                                    wait_s, arrived=came))
    refused = _first_refusal(replay, pasted)  # asked then: the first moment tf2 refused
    if refused is None:
        return Explained(pasted, str(path), None, note='tf2 ({}) finds {} at no moment of {}: '
                         'the error was printed outside this recording'.format(
                             chosen, 'a loop' if pasted.kind == 'loop' else '{} and {} in two '
                             'trees'.format(pasted.target, pasted.source), path))
    if pasted.kind == 'loop':
        return Explained(pasted, str(path), explain_pasted(replay, 'loop', '', refused, wait_s,
                                                           ' '.join(text.split())))
    return Explained(pasted, str(path), explain(replay, pasted.target, pasted.source, 0.0,
                                                refused, wait_s))


def _explain_wrapped(replay: Replay, pasted: Pasted, path: Path, wait_s: float,
                     arrived: Optional[Arrived]) -> Explained:
    """
    Explain a wrapper's line that names the lookup but not tf2's words (RViz, Nav2, ...).

    With a stamp, the lookup is asked as the message came (its recorded arrival where there
    is one) plus the line's wait. Without, the first moment it stayed refused for the wait, at
    the latest common time (RViz, Nav2) or at the asker's now (robot_localization). A refusal
    only in the recording's first seconds is the recorder starting with the robot: said so.
    """
    wait = pasted.wait_s if pasted.wait_s is not None else wait_s
    if pasted.requested:
        requested = to_s(pasted.requested)
        came = arrived.received if arrived else requested + receive_clock(replay).delay_s
        return Explained(pasted, str(path), explain(replay, pasted.target, pasted.source,
                                                    requested, came + wait, wait, arrived=came))
    delay = receive_clock(replay).delay_s
    early = None
    for moment in replay.arrivals(replay.start, replay.end - wait):  # later: cannot know
        time = moment - delay if pasted.asked == 'now' else 0.0
        if replay.ask(pasted.target, pasted.source, time, moment).ok or \
                replay.probe(pasted.target, pasted.source, time, moment + wait).ok:
            continue
        if moment - replay.start < NEAR_S:
            early = moment
            continue
        return Explained(pasted, str(path), explain(replay, pasted.target, pasted.source, time,
                                                    moment + wait, wait, arrived=moment))
    asked = 'at the latest common time' if pasted.asked != 'now' else "at the asker's now"
    return Explained(pasted, str(path), None, note='{} places {} in {} {} at every moment of {} '
                     'from {} s on{}: the line was printed outside this recording'.format(
                         replay.tf2, pasted.source, pasted.target, asked, path, fmt(NEAR_S, 0),
                         ' (refused only until {}, as the recording started with the robot)'
                         .format(replay.into(early)) if early is not None else ''))


def _first_refusal(replay: Replay, pasted: Pasted) -> Optional[float]:
    """Return the first arrival at which the pasted kind of refusal (two trees, loop) held."""
    for received in sorted({m.received for m in replay.messages}):
        buffer = replay.buffer_at(received)
        if pasted.kind == 'loop':
            if any(_in_loop(buffer, frame) for frame in buffer.caches):
                return received
        elif {pasted.target, pasted.source} <= set(buffer.frames):
            answer = buffer.lookup(pasted.target, pasted.source)
            if answer.error is not None and answer.error.kind == 'two_trees':
                return received
    return None


def _in_loop(buffer, frame: str) -> bool:
    seen = {frame}
    parent = buffer.parent_of(frame)
    while parent is not None:
        if parent == frame:
            return True
        if parent in seen:
            return False
        seen.add(parent)
        parent = buffer.parent_of(parent)
    return False


def _explain_extrapolation(replay: Replay, pasted: Pasted, path: str, wait_s: float,
                           text: str, arrived: Optional[Arrived]) -> Explained:
    """Find when the edge the error names held the stamp it names; explain at that moment."""
    tolerance = MATCH_NS
    requested = to_s(pasted.requested)
    # the node asked for a stamp once the message stamped so had reached it: only moments
    # after that on the receive clock (two edges may both hold a sample of that stamp)
    came = arrived.received if arrived else requested + receive_clock(replay).delay_s
    for moment in _moments_holding(replay, pasted.nearest, tolerance, came - EARLY_S):
        answer = replay.ask(pasted.target, pasted.source, requested, moment)
        error = answer.error
        if error is not None and error.kind == pasted.kind and \
                abs(error.nearest - pasted.nearest) <= tolerance:
            explanation = explain(replay, pasted.target, pasted.source, requested, moment,
                                  wait_s, arrived=came if arrived else None)
            return Explained(pasted, path, explanation,
                             _to_10us(error.text) in _to_10us(text), error.text)
    stamps = _tf_stamps(replay)
    span = 'its /tf stamps run from {:.3f} to {:.3f}'.format(min(stamps), max(stamps)) \
        if stamps else 'it holds no /tf'
    return Explained(pasted, path, None, note='no transform between {} and {} stamped {} was '
                     'held when the lookup would fail, in {} ({}): was the error printed during '
                     'another run?'.format(pasted.source, pasted.target,
                                           '{:.9f}'.format(to_s(pasted.nearest)), path, span))


def _to_10us(text: str) -> str:
    """
    Return text without spaces, its times rounded to 10 us (the stamps' precision).

    Spaces go as a paste's line wraps do, even inside a number. The distance noetic prints
    ("extrapolation 0.05s into the future") is left out: tf2 before it (kinetic, melodic)
    printed the same lookup without it.
    """
    text = ''.join(re.sub(r'extrapolation\s+[0-9.]+s\s+into', 'extrapolation into', text).split())
    return re.sub(r'\d+\.\d{6,}', lambda found: '{:.5f}'.format(float(found.group())), text)


def _moments_holding(replay: Replay, stamp: int, tolerance: int, earliest: float) -> List[float]:
    """
    Return the moments from earliest while some edge's newest or oldest sample was stamped.

    A lookup into the future names the newest sample tf2 holds, one into the past the oldest:
    the arrivals in each stretch, and its first instant (between two arrivals the buffer does
    not change, so a node asking then saw what it held at the last one).
    """
    arrivals = sorted({m.received for m in replay.messages})
    moments: List[float] = []
    for history in replay.histories.values():
        for index, sample in enumerate(history.stamps):
            if abs(to_ns(sample) - stamp) > tolerance:
                continue
            newest = (history.received[index], history.received[index + 1]
                      if index + 1 < len(history.received) else float('inf'))
            for start, until in (newest, _oldest(history, index, replay.cache_time_s)):
                first = max(start, earliest)
                at = bisect.bisect_left(arrivals, first)
                moments += [first] if first < until else []
                moments += [r for r in arrivals[at:] if r < until][:MAX_MOMENTS]
    return sorted(set(moments))


def _oldest(history: EdgeHistory, index: int, cache_time_s: float) -> Tuple[float, float]:
    """
    Return from when to when sample index may have been the oldest its edge's cache held.

    tf2 prunes a sample once one stamped more than the cache's length after it is in the
    cache (TimeCache::pruneList): at that insertion in ROS 1, at the next one in ROS 2 (#680).
    This one is the oldest from when the latest sample stamped before it is pruned until it is
    pruned itself; out-of-order arrivals can stretch that, so the moments are checked by
    asking tf2, never taken on trust.
    """
    stamps = history.stamps
    start = history.received[index]
    before = [k for k in range(index) if stamps[k] < stamps[index]]
    if before:
        start = max(start, _pruned(history, max(before, key=stamps.__getitem__),
                                   cache_time_s)[0])
    return start, _pruned(history, index, cache_time_s)[1]


def _pruned(history: EdgeHistory, index: int, cache_time_s: float) -> Tuple[float, float]:
    """Return the arrivals at which ROS 1's tf2 and ROS 2's prune sample index (inf: never)."""
    limit = history.stamps[index] + cache_time_s
    past = next((k for k in range(index + 1, len(history.stamps))
                 if history.stamps[k] > limit), None)
    if past is None:
        return float('inf'), float('inf')
    after = history.received[past + 1] if past + 1 < len(history.received) else float('inf')
    return history.received[past], after


# -- lookup -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LookedUp:
    """The answer to `frame-audit lookup`: one explanation (--at) or a summary (--every)."""

    recording: str
    target: str
    source: str
    wait_s: float
    distro: str
    one: Optional[Explanation] = None
    summary: Optional[Summary] = None
    start: float = 0.0  # the recording's first arrival: times are told from it
    drops: Tuple[Drops, ...] = ()  # what tf2 dropped or kept twice on the lookup's chain
    jumps: Tuple[ClockJump, ...] = ()
    tf2: str = ''  # which tf2 answered: the model, or tf2_py's BufferCore
    series: Optional[LagSeries] = None  # the limiting edge's lag, for --plot
    tried: Tuple[Tried, ...] = ()  # each printed fix, asked again of tf2


def lookup_in(path: Path, target: str, source: str, at: Optional[str] = None,
              every: Optional[str] = None, wait_s: float = DEFAULT_WAIT_S,
              config_path: Optional[str] = None, distro: str = DEFAULT_DISTRO,
              tf2: str = 'auto') -> LookedUp:
    """
    Ask target <- source of the recording once (--at T) or for every message of a topic.

    tf2: who answers (auto: tf2_py where it imports, else the model; model; tf2_py).
    """
    if (at is None) == (every is None):
        raise UsageError('lookup takes one of --at T and --every TOPIC')
    real = choose(tf2, '--tf2 ' + tf2)
    loaded = _load(path, command_config(config_path), distro, every, real=real)
    replay = loaded.replay
    result = LookedUp(str(path), target, source, wait_s, distro, start=replay.start,
                      tf2=replay.tf2)
    result = replace(result, **_chain_drops(replay, (target, source)))
    if at is not None:
        requested = _requested(at, replay)
        asked = requested + receive_clock(replay).delay_s + wait_s if requested else \
            max((m.received for m in replay.messages), default=0.0)
        one = prove(replay, explain(replay, target, source, requested, asked, wait_s))
        return replace(result, one=one, series=_one_series(loaded, one, path))
    assert every is not None
    if not loaded.stamped:
        raise UsageError('{}: {} holds no messages'.format(path, every))
    summary = summarize(replay, loaded.stamped, every, target, source, wait_s)
    edge = max(summary.edges, key=summary.edges.__getitem__, default=None)
    worst = summary.worst
    series = _series(loaded, edge, summary.refused_at, worst.edge, wait_s, '{}: {} of {} {} '
                     'refused in {}'.format(path.name, summary.refused, summary.asked, every,
                                            target)) \
        if edge is not None and worst is not None and worst.edge is not None else None
    if worst is not None:
        summary = replace(summary, worst=prove(replay, worst))
    return replace(result, summary=summary, series=series,
                   tried=_tried(loaded, summary, target, source, wait_s))


def _tried(loaded: Loaded, summary: Summary, target: str, source: str,
           wait_s: float) -> Tuple[Tried, ...]:
    """
    Apply each fix the summary prints and ask the refused lookups again (issue 30).

    The wait: asked that much after each arrival. The stamp: the late edge re-stamped that much
    later in the recording's own messages, replayed into the same tf2. A fix is a claim about
    tf2; here it is tested, and the text says what share it places.
    """
    replay = loaded.replay
    arrived = set(summary.refused_at)
    refused = [m for m in loaded.stamped if m.received in arrived]
    tried = []
    if summary.wait_needed_s is not None:
        still, unknown = refusals(replay, refused, target, source, summary.wait_needed_s)
        tried.append(Tried('wait', len(refused) - len(still) - unknown, len(refused), unknown))
    if summary.stamp_later_s is not None and ' → ' in summary.late_edge:
        parent, child = summary.late_edge.split(' → ', 1)
        changed = restamped(replay.messages, (parent, child), summary.stamp_later_s)
        fixed = Replay(changed, replay.distro, replay.cache_time_s, replay.start, replay.real)
        still, unknown = refusals(fixed, refused, target, source, wait_s)
        tried.append(Tried('stamp', len(refused) - len(still) - unknown, len(refused), unknown))
    return tuple(tried)


def _one_series(loaded: Loaded, one: Optional[Explanation], path: Path) -> Optional[LagSeries]:
    """Return the series of one lookup's limiting edge, None where it has none."""
    if one is None or one.edge is None:
        return None
    arrived = () if one.answer.ok else (one.asked_at - one.wait_s,)
    return _series(loaded, one.edge.name, arrived, one.edge, one.wait_s, '{}: {} in {} {}'.format(
        path.name, one.source or '-', one.target, 'placed' if one.answer.ok else 'refused'))


def _series(loaded: Loaded, name: Optional[str], refused: Tuple[float, ...],
            facts: EdgeFacts, wait_s: float, title: str) -> Optional[LagSeries]:
    """Return the named edge's lag over the recording, against facts' asker and the wait."""
    replay = loaded.replay
    history = next((h for h in replay.histories.values() if h.name == name), None)
    if history is None or facts.asker_s is None:
        return None
    start = replay.start
    return LagSeries(title, history.name, tuple(r - start for r in history.received),
                     tuple(history.delays()), facts.asker_s, facts.asker, wait_s,
                     tuple(r - start for r in refused), loaded.clock)


def _requested(at: str, replay: Replay) -> float:
    """Return --at as a stamp: seconds, '+S' after the first /tf stamp, or 0 for the latest."""
    text = at.strip()
    try:
        value = float(text)
    except ValueError:
        raise UsageError('--at {}: give a stamp in seconds (as tf2 prints "Requested time"), '
                         "'+S' for S seconds after the recording's first /tf stamp, or 0 for "
                         'the latest'.format(at)) from None
    if not math.isfinite(value) or abs(value) > MAX_S:  # 'nan', 'inf', '1e400'
        raise UsageError('--at {}: a stamp is a finite number of seconds, at most {} (the '
                         'latest tf2 holds)'.format(at, MAX_S))
    if text.startswith('+'):
        stamps = _tf_stamps(replay)
        return (min(stamps) if stamps else 0.0) + value
    return value


def _tf_stamps(replay: Replay) -> List[float]:
    """Return the stamps of the recording's /tf samples (not /tf_static's)."""
    return [s for h in replay.histories.values() if not h.static for s in h.stamps]


def refused_share(looked: LookedUp) -> Tuple[int, int]:
    """Return (refused, asked) of a lookup: 1 or 0 of 1 for --at."""
    if looked.summary is not None:
        return looked.summary.refused, looked.summary.asked
    return (0 if looked.one is not None and looked.one.answer.ok else 1), 1
