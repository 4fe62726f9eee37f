# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A recording for a pasted tf2 error: its own frames and times, and a habit that makes tf2 say it.

Each kind of refusal has the habits real robots show for it (issue 30): a publisher stamping
late or on another clock (into the future), a node asking before an edge was first sent or
after tf2's window (into the past), a frame sent late or by nobody, two trees, a stamp sent
twice, a sample from before a simulator reset, a message filter waiting on a late edge. The
text's frames and times are kept exactly: tf2 prints the text pasted at some moment of the
recording, which is what `explain` must find.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

from frame_audit.engine.records import HeaderRecord, Message, TF_STATIC_TOPIC, TF_TOPIC, \
    TransformRecord
from frame_audit.engine.tf2.parse import Pasted
from frame_audit.recordings.write import write_bag

Q = (0.0, 0.0, 0.0, 1.0)
PERIOD = 0.05  # every edge at 20 Hz
LATE_S = 0.2  # a late publisher's stamps, this far behind what it needed
PUNCTUAL = 'recorder_clock'  # a child frame sent on time: the asker's clock
START = 1_700_000_000.0  # where a text names no time


@dataclass(frozen=True)
class Habit:
    """What the recording does to make tf2 print the text, and what explain must call it."""

    name: str
    causes: Tuple[str, ...]  # the causes that are right for it
    target: str = ''  # for a message filter's line: the frame it transformed into


def _tf(received: float, parent: str, child: str, stamp: float) -> Message:
    return Message(received, TF_TOPIC, (TransformRecord(parent, child, stamp, (0.1, 0.0, 0.0),
                                                        Q),))


def _punctual(parent: str, start: float, end: float) -> List[Message]:
    """Return an edge sent on time (2 ms after its stamp) from start to end of arrivals."""
    count = int((end - start) / PERIOD) + 1
    return [_tf(start + k * PERIOD, parent, PUNCTUAL, start + k * PERIOD - 0.002)
            for k in range(count)]


def _grid(around: float, before: int, after: int) -> List[float]:
    """Return stamps every PERIOD with one exactly at around."""
    return [around + (k - before) * PERIOD for k in range(before + after + 1)]


def habits(pasted: Pasted) -> List[Habit]:
    """Return the habits that make tf2 print this text, each with the causes it is."""
    if pasted.kind == 'future':
        apart = pasted.requested - pasted.nearest + LATE_S * 1e9 >= 1e9
        return [Habit('stamped_late', ('clocks_apart',) if apart else ('late_stamps',))]
    if pasted.kind == 'past':
        found = [Habit('asked_before_first', ('before_first',))]
        if (pasted.nearest - pasted.requested) / 1e9 < 8.0:
            found.append(Habit('asked_after_the_window', ('older_than_cache',)))
        return found
    if pasted.kind == 'no_frame':
        return [Habit('sent_late', ('not_yet',)), Habit('sent_by_nobody', ('nobody_sends',))]
    if pasted.kind == 'two_trees':
        return [Habit('two_trees', ('two_trees',))]
    if pasted.kind == 'repeated':
        return [Habit('sent_twice', ('resent',))]
    if pasted.kind == 'no_transform' and (pasted.requested or pasted.asked == 'now'):
        return [Habit('stamped_late', ('late_stamps',))]
    if pasted.kind == 'no_transform':
        return [Habit('sent_late', ('not_yet',)), Habit('two_trees', ('two_trees',))]
    if pasted.kind == 'old_data':
        return [Habit('simulator_reset', ('reset', 'old_data'))]
    if pasted.kind == 'filter':
        target = 'odom' if pasted.frame != 'odom' else 'map'
        if 'earlier than all' in pasted.reason.lower():
            return [Habit('filter_before_first', ('before_first',), target)]
        return [Habit('filter_waits_on_a_late_edge', ('late_stamps',), target)]
    raise ValueError(pasted.kind)


def write_for(path: Path, pasted: Pasted, habit: Habit) -> Path:
    """Write the recording for the pasted text with the habit; return its path."""
    requested, nearest = pasted.requested / 1e9, pasted.nearest / 1e9
    if pasted.kind in ('no_transform', 'repeated') and not requested:  # no stamp named
        requested = START
    if pasted.kind == 'no_transform':  # the stamp asked is the newest held, LATE_S late
        nearest = requested
    target, source = pasted.target, pasted.source
    messages: List[Message] = []
    if habit.name == 'stamped_late':  # target -> source runs LATE_S behind what was asked
        delay = requested - nearest + LATE_S + (pasted.wait_s or 0.0)
        stamps = _grid(nearest, 40, 40)
        messages += [_tf(s + delay, target, source, s) for s in stamps]
        messages += _punctual(target, stamps[0] + delay, stamps[-1] + delay)
    elif habit.name == 'asked_before_first':  # target -> source first sent at the stamp named
        messages += [_tf(s + 0.002, target, source, s) for s in _grid(nearest, 0, 40)]
    elif habit.name == 'asked_after_the_window':  # asked > 10 s late: the stamp is gone
        messages += [_tf(s + 0.002, target, source, s) for s in _grid(nearest, 60, 240)]
    elif habit.name == 'sent_late' and pasted.kind == 'no_transform':  # source from 4.5 s
        messages += _punctual(target, START, START + 8.0)
        messages += [_tf(START + 4.5 + k * PERIOD, target, source, START + 4.498 + k * PERIOD)
                     for k in range(60)]
    elif habit.name in ('sent_late', 'sent_by_nobody'):
        other = 'odom' if pasted.frame != 'odom' else 'map'
        start = START
        messages += [Message(start, TF_STATIC_TOPIC, (TransformRecord(
            other, 'base_link' if pasted.frame != 'base_link' else 'base', start, (0.0,) * 3,
            Q),))]
        messages += [_tf(start + 0.01 + k * PERIOD, other, 'sensor_frame' if pasted.frame !=
                         'sensor_frame' else 'sensor', start + k * PERIOD) for k in range(80)]
        if habit.name == 'sent_late':
            messages += [_tf(start + 3.0 + k * PERIOD, other, pasted.frame,
                             start + 2.998 + k * PERIOD) for k in range(20)]
    elif habit.name == 'two_trees':
        messages += [_tf(START + k * PERIOD + 0.002, target, target + '_child', START + k * PERIOD)
                     for k in range(80)]
        messages += [_tf(START + k * PERIOD + 0.003, source + '_parent', source,
                         START + k * PERIOD) for k in range(80)]
    elif habit.name in ('sent_twice', 'simulator_reset'):
        parent = pasted.parent or ('map' if pasted.frame != 'map' else 'world')
        if habit.name == 'sent_twice':
            stamps = _grid(requested, 20, 20)
            for s in stamps:
                messages.append(_tf(s + 0.002, parent, pasted.frame, s))
                if s == requested:
                    messages.append(_tf(s + 0.004, parent, pasted.frame, s))
        else:  # the simulator ran 12 s, reset, and sent its first stamp again
            stamps = _grid(requested + 12.0, 40, 0)
            messages += [_tf(s + 0.002, parent, pasted.frame, s) for s in stamps]
            messages.append(_tf(stamps[-1] + 0.05, parent, pasted.frame, requested))
    elif habit.name.startswith('filter'):
        stamp, frame = requested, pasted.frame
        if habit.name == 'filter_before_first':  # the edge starts after the message's stamp
            messages += [_tf(s + 0.002, habit.target, frame, s)
                         for s in _grid(stamp + PERIOD, 0, 40)]
        else:  # the edge comes LATE_S after the message, which waits 0.1 s
            stamps = _grid(stamp, 20, 20)
            messages += [_tf(s + LATE_S + 0.1, habit.target, frame, s) for s in stamps]
            messages += _punctual(habit.target, stamps[0], stamps[-1] + 0.5)
        messages.append(Message(stamp + 0.002, '/scan', HeaderRecord(frame, stamp)))
    else:
        raise ValueError(habit.name)
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=4)
    return path


def asked_target(habit: Habit) -> Optional[str]:
    """Return the --target a message filter's line needs, None for the other kinds."""
    return habit.target or None
