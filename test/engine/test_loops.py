# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A recording replayed in a loop is no fault of the car: every ordering a loop produces.

The messages are the simulated car's, played twice from one start time (`ros2 bag play
--loop`), and handed to the audit as the node hands them: forget, then check, once a second.
At the jump, the middleware and the node's batches mix the two sides: messages stamped just
before the jump arrive after it, /tf and /odom cross it in either order, a loop comes twice in
10 s. The one finding each may give is the clock's own ("time jumped back", or without
--clock "stamps went back"); the same orderings with a real odometry reset still give the
reset's ERROR.
"""
import dataclasses
from typing import Callable, List, Sequence

from frame_audit.engine.audit import Audit
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import Level
from frame_audit.engine.records import Arrival, Message, PoseRecord, TF_TOPIC
from frame_audit.sim.car import SimulatedCar
import pytest

START = 1000.0
TAIL_S = 0.1  # the last seconds of a side whose messages cross the jump
ODOMETRY_TOPIC = AuditConfig().odom_topic


def side(seconds: float, faults: Sequence[str] = ()) -> List[Message]:
    """Return one play of the recording: the car's first seconds, received on its clock."""
    car = SimulatedCar(seed=1, start_time=START, faults=faults)
    return car.advance(START + seconds)


def arriving(messages: Sequence[Message], at: float) -> List[Message]:
    """Return messages taken one after another from receive time at (a batch taken late)."""
    return [dataclasses.replace(m, received=at + 1e-4 * i) for i, m in enumerate(messages)]


def shifted(messages: Sequence[Message], by: float) -> List[Message]:
    """Return messages received by seconds later (a replay without --clock: wall time runs on)."""
    return [dataclasses.replace(m, received=m.received + by) for m in messages]


def problems(stream: Sequence[Message]) -> List[str]:
    """Feed the stream as the node does and return every WARN and ERROR seen, once each."""
    audit = Audit(AuditConfig())
    seen: List[str] = []
    next_check = stream[0].received + 1.0
    for message in stream:
        audit.add(message)
        if abs(message.received - next_check) >= 1.0 or message.received >= next_check:
            next_check = message.received + 1.0
            audit.forget(message.received)
            for result in audit.check(message.received):
                seen += ['{}: {}'.format(result.check, f.message) for f in result.findings
                         if f.level >= Level.WARN and '{}: {}'.format(
                             result.check, f.message) not in seen]
    return seen


def split(messages: Sequence[Message], keep: Callable[[Message], bool]):
    """Return (the messages keep holds for, the rest), each in order."""
    return [m for m in messages if keep(m)], [m for m in messages if not keep(m)]


def tail(messages: Sequence[Message], seconds: float) -> float:
    """Return the receive time from which the last seconds of messages begin."""
    return messages[-1].received - seconds


def only_the_clock(found: List[str], words: str = 'time jumped back') -> None:
    """Assert the clock's jump is all that was found."""
    assert found and all(words in problem for problem in found), found


def looped_with_clock_and_late_stragglers(faults: Sequence[str] = ()) -> List[Message]:
    """With --clock: the old side's last messages are taken after the new side's first."""
    first, second = side(6.0), side(4.0, faults)
    late, early = split(first, lambda m: m.received > tail(first, TAIL_S))
    return early + second[:5] + arriving(late, second[4].received) + second[5:]


def test_odometry_stamped_before_the_jump_and_taken_after_it_is_no_jump():
    only_the_clock(problems(looped_with_clock_and_late_stragglers()))


@pytest.mark.parametrize('first_topic', [TF_TOPIC, ODOMETRY_TOPIC])
def test_tf_and_odom_crossing_the_jump_in_either_order(first_topic):
    first, second = side(6.0), side(4.0)
    head, rest = second[:40], second[40:]
    crossing, later = split(head, lambda m: m.topic == first_topic)  # one topic on the old clock
    stream = first + arriving(crossing, first[-1].received + 1e-3) + later + rest
    only_the_clock(problems(stream))


def test_two_loops_in_ten_seconds():
    first, second, third = side(6.0), side(3.0), side(4.0)
    late, early = split(first, lambda m: m.received > tail(first, TAIL_S))
    late2, early2 = split(second, lambda m: m.received > tail(second, TAIL_S))
    stream = early + second[:5] + arriving(late, second[4].received) + early2[5:] + \
        third[:5] + arriving(late2, third[4].received) + third[5:]
    found = problems(stream)
    only_the_clock(found)
    assert len([p for p in found if 'time jumped back' in p]) == 2, found


def test_a_loop_without_clock_is_judged_on_each_side_of_it():
    """Stamps go back while wall time runs on; the old side's last stamps come after."""
    first, second = side(6.0), shifted(side(4.0), 6.0)
    late, early = split(first, lambda m: m.received > tail(first, TAIL_S))
    stream = early + second[:5] + arriving(late, second[4].received) + second[5:]
    found = [p for p in problems(stream) if 'after its stamp, every time' not in p]
    only_the_clock(found, 'stamps went back')  # (a lag a loop without --clock makes is real)


def test_a_real_odometry_reset_after_the_loop_is_still_an_error():
    found = problems(looped_with_clock_and_late_stragglers(faults=('odom_reset',)))
    assert any(p.startswith('odometry: odom → base_link jumped') for p in found), found


def test_the_stragglers_are_counted_on_their_edges():
    audit = Audit(AuditConfig())
    for message in looped_with_clock_and_late_stragglers():
        audit.add(message)
    edge = audit.store.edges[('odom', 'base_link')]
    assert edge.from_before_jump > 0
    assert audit.store.tracks['/odom'].from_before_jump > 0


def test_a_pose_topics_own_jump_is_forgotten_once_the_receive_clock_jumps():
    """Stamps back without --clock, then the receive clock back: a new-side pose is this side's."""
    store = Audit(AuditConfig()).store

    def pose_at(stamp: float, received: float) -> None:
        store.add_pose(PoseRecord('map', stamp, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
                       Arrival('/slam_pose', received))

    for step in range(31):  # stamps and receipts together, 1000 to 1003 s
        pose_at(START + step / 10, START + step / 10)
    pose_at(START, 1003.1)  # the topic's stamps go back 3 s; receipts run on
    pose_at(START + 1.4, 1004.5)  # the new side goes on: one jump, not one per sample
    assert store.tracks['/slam_pose'].stamp_jump.number == 0
    pose_at(1003.1, 1003.2)  # the receive clock back 1.3 s: the new side, on its own clock
    track = store.tracks['/slam_pose']
    assert len(store.clock.time_jumps) == 1 and track.from_before_jump == 0
    assert [sample.record.stamp for sample in track.pending] == [1003.1]
