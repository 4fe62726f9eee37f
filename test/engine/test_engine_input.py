# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""No input makes the engine raise: random and hostile transform streams (hypothesis)."""
from dataclasses import replace
import math

from frame_audit.engine.audit import Audit, AuditLog
from frame_audit.engine.checks import CHECKS
from frame_audit.engine.config import AuditConfig, LookupEntry
from frame_audit.engine.findings import Level, one_line
from frame_audit.engine.records import Arrival, HeaderRecord, OdometryRecord, PoseRecord, \
    TransformRecord
from frame_audit.engine.stall import RECORDING_GAP, Stall
from hypothesis import given, settings, strategies as st
import pytest
from trees import audit_car, by_id, Car, feed, T0, tf

frames = st.sampled_from(['map', 'odom', 'base_link', 'laser', '/map', '', '/', 'odom_imu',
                          'a b', 'laser\n', 'x' * 300])
numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.floats(-1e3, 1e3), st.just(0.0))
quaternions = st.one_of(st.tuples(numbers, numbers, numbers, numbers),
                        st.just((0.0, 0.0, 0.0, 1.0)), st.just((0.0, 0.0, 0.0, 0.0)),
                        st.just((0.0, 0.0, 0.0, 2.0)))
transforms = st.builds(TransformRecord, frames, frames, numbers,
                       st.tuples(numbers, numbers, numbers), quaternions)
times = st.one_of(st.floats(0.0, 2e9), st.just(float('nan')), st.just(-5.0))
topics = st.sampled_from(['/tf', '/tf_static', '/odom', '/pf/viz/inferred_pose', '/scan'])
poses = st.builds(PoseRecord, frames, numbers, st.tuples(numbers, numbers, numbers),
                  quaternions)
messages = st.one_of(
    st.tuples(st.just('tf'), st.lists(transforms, max_size=4), times, topics),
    st.tuples(st.just('pose'), poses, times, topics),
    st.tuples(st.just('odom'), st.builds(OdometryRecord, poses, frames), times, topics),
    st.tuples(st.just('scan'), st.builds(HeaderRecord, frames, numbers), times, topics))


@settings(max_examples=150, deadline=None)
@given(st.lists(messages, max_size=40), times)
def test_hostile_streams_never_raise(stream, now):
    audit = Audit(AuditConfig())
    for kind, payload, received, topic in stream:
        arrival = Arrival(topic, received)
        {'tf': audit.add_transforms, 'pose': audit.add_pose, 'odom': audit.add_odometry,
         'scan': audit.add_scan}[kind](payload, arrival)
        results = audit.check(now)
    results = audit.check(now)
    assert {check.check_id for check in CHECKS} <= {r.check for r in results}
    assert all(isinstance(r.message, str) and r.level in Level for r in results)


def test_each_bad_transform_is_reported_with_what_tf2_did():
    audit = Audit(AuditConfig())
    bad = [tf('odom', 'base_link', T0, x=float('nan')),
           TransformRecord('odom', 'base_link', T0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0)),
           TransformRecord('odom', 'base_link', T0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.1, 1.2)),
           tf('', 'base_link', T0), tf('laser', 'laser', T0), tf('/map', '/odom', T0)]
    audit.add_transforms(bad, Arrival('/tf', T0, 'pf'))
    found = by_id(audit.check(T0))['transform_values'].findings
    messages = [f.message for f in found]
    assert len(found) == 5, messages
    assert sum('tf2 drops these transforms' in m for m in messages) == 4
    renamed = "'/map' → '/odom' becomes map → odom"
    assert any("tf2 strips the '/'" in m and renamed in m for m in messages)
    assert {'map', 'odom'} == audit.store.frames  # only the renamed one entered the tree


@pytest.mark.parametrize('name,said', [('left wheel', True), ('left\twheel', True),
                                       ('left_wheel', False), ('left-wheel', False)])
def test_a_frame_id_holding_whitespace_is_said_and_kept(name: str, said: bool):
    """Issue 32: `left wheel` was "well named"; tf2 keeps it, the tools that split words do not."""
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', name, T0)], Arrival('/tf_static', T0, 'rsp'))
    found = by_id(audit.check(T0))['transform_values'].findings
    assert [f.level for f in found] == ([Level.WARN] if said else [])
    assert not said or 'holding whitespace on /tf_static, by rsp: 1 message on 1 edge' in \
        found[0].message and repr(name) in found[0].message
    assert name in audit.store.frames  # tf2 keeps it


def test_time_going_backwards_clears_history_and_keeps_the_tree():
    audit = Audit(AuditConfig())
    feed(audit, Car(seconds=5.0))
    frames_before = set(audit.store.frames)
    audit.add_transforms([tf('odom', 'base_link', T0 - 100.0)], Arrival('/tf', T0 - 100.0))
    results = by_id(audit.check(T0 - 100.0))
    assert audit.store.frames == frames_before
    jumps = [f for f in results['timing'].findings if f.key.startswith('time_jump')]
    assert len(jumps) == 1 and 'time jumped back' in jumps[0].message
    assert len(audit.store.edges[('odom', 'base_link')].stamps) == 1


def test_future_stamps_beyond_slam_toolbox_habit_warn():
    results = audit_car(Car(slam_future_s=5.0))
    found = by_id(results)['timing'].findings
    assert found and found[0].level == Level.WARN
    assert found[0].message.startswith('map → odom is stamped up to 5.00 s after it arrives')


def test_memory_is_bounded_by_the_window():
    audit = Audit(AuditConfig())
    for i in range(20000):
        t = T0 + i * 0.01
        audit.add_transforms([tf('odom', 'base_link', t, x=i * 0.001)], Arrival('/tf', t))
    edge = audit.store.edges[('odom', 'base_link')]
    assert len(edge.stamps) <= 10.0 / 0.01 + 1


def test_huge_frame_counts_are_capped_and_reported():
    audit = Audit(AuditConfig(max_frames=50))
    audit.add_transforms([tf('f{}'.format(i), 'f{}'.format(i + 1), T0) for i in range(200)],
                         Arrival('/tf_static', T0))
    assert len(audit.store.frames) <= 50
    found = by_id(audit.check(T0))['transform_values'].findings
    assert any('limits.max_frames' in f.message for f in found)


def test_two_interleaved_sources_without_publisher_identity():
    audit = Audit(AuditConfig())
    for i in range(300):
        t = T0 + i * 0.01
        offset = 0.0 if i % 2 else 0.3 + 0.001 * i
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * i + offset)],
                             Arrival('/tf', t))
    found = by_id(audit.check(T0 + 3.0))['parent_uniqueness'].findings
    assert len(found) == 1 and 'comes from two sources' in found[0].message
    assert not math.isnan(found[0].values['separation_m'])


def test_a_second_identical_source_doubles_the_rate():
    audit = Audit(AuditConfig())
    for i in range(600):  # 50 Hz for 4 s, then a second node sends the same values
        t = T0 + (i * 0.02 if i < 200 else 4.0 + (i - 200) * 0.01)
        audit.add_transforms([tf('odom', 'base_link', t, x=0.01 * i)], Arrival('/tf', t))
    found = by_id(audit.check(T0 + 8.0))['parent_uniqueness'].findings
    assert len(found) == 1 and found[0].level == Level.ERROR
    assert found[0].message.startswith('odom → base_link went from 50.0 Hz to 100.0 Hz')


def test_a_steady_rate_with_jitter_is_one_source():
    audit = Audit(AuditConfig())
    jitter = [0.0, 0.004, -0.003, 0.002, -0.004]
    for i in range(1000):
        t = T0 + i * 0.02 + jitter[i % 5]
        audit.add_transforms([tf('odom', 'base_link', t, x=0.01 * i)], Arrival('/tf', t))
    assert by_id(audit.check(T0 + 20.0))['parent_uniqueness'].findings == []


def test_an_edge_that_stops_after_a_bag_loop_is_reported():
    audit = Audit(AuditConfig())
    feed(audit, Car(seconds=6.0))
    results = feed(audit, Car(seconds=6.0, static=False, odom_stops_at=2.0))[-1]
    stopped = [f for f in by_id(results)['timing'].findings if f.key.startswith('stopped')]
    assert [f.frames for f in stopped] == [('odom', 'base_link')]
    assert 'arrived 4.0 s ago' in stopped[0].message


def test_a_stamp_beyond_tf2s_window_is_an_error():
    audit = Audit(AuditConfig())
    feed(audit, Car(seconds=3.0))
    t = T0 + 3.0
    audit.add_transforms([tf('odom', 'base_link', t + 60.0)], Arrival('/tf', t))
    found = [f for f in by_id(audit.check(t))['timing'].findings if f.key.startswith('future')]
    assert found[0].level == Level.ERROR and 'drops every later' in found[0].message


def test_every_stamp_ahead_beyond_tf2s_window_is_kept_but_never_reached():
    """
    Each odom → base_link stamped 15 s after it arrives (round E: a ROS 1 robot's clock).

    The stamps rise steadily: tf2 drops none as too old (the words for one stamp far ahead,
    above), but holds nothing as old as the current time.
    """
    audit = Audit(AuditConfig())
    for i in range(200):
        t = T0 + i * 0.02
        audit.add_transforms([tf('odom', 'base_link', t + 15.0, x=0.01 * i)], Arrival('/tf', t))
    found = [f for f in by_id(audit.check(T0 + 4.0))['timing'].findings
             if f.key.startswith('future')]
    assert found[0].level == Level.ERROR and 'every time' in found[0].message
    assert 'holds nothing as old as the current time' in found[0].message
    assert 'drops every later' not in found[0].message


def test_a_clock_that_keeps_jumping_back_keeps_memory_bounded():
    audit = Audit(AuditConfig())
    for i in range(3000):  # the clock alternates between two times 100 s apart
        t = T0 + (100.0 if i % 2 else 0.0) + i * 0.001
        audit.add_transforms([tf('odom', 'base_link', t, x=0.001 * i)], Arrival('/tf', t))
    assert len(audit.store.clock.time_jumps) <= 100
    assert audit.store.clock.time_jumps[-1].number == 1498
    found = by_id(audit.check(T0 + 3.0))['timing'].findings
    assert found and all(f.level == Level.WARN for f in found)


def test_one_stamp_with_two_values_is_two_sources():
    audit = Audit(AuditConfig())
    for i in range(100):  # two nodes stamp each tick alike; their estimates 10 cm apart
        t = T0 + i * 0.02
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * i)], Arrival('/tf', t))
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * i + 0.1)],
                             Arrival('/tf', t + 0.001))
    found = by_id(audit.check(T0 + 2.0))['parent_uniqueness'].findings
    assert len(found) == 1 and 'comes from two sources' in found[0].message
    assert audit.store.edges[('odom', 'base_link')].sources.conflicts.total >= 95
    quiet = Audit(AuditConfig())
    for i in range(100):  # the same message received twice (two subscriptions) is no conflict
        t = T0 + i * 0.02
        for _ in range(2):
            quiet.add_transforms([tf('odom', 'base_link', t, x=0.02 * i)], Arrival('/tf', t))
    assert by_id(quiet.check(T0 + 2.0))['parent_uniqueness'].findings == []


# -- limits.max_frames drops a flood, never the car ---------------------------------------------

def flood(names: str, count: int, parent: str = 'world'):
    """Return one TFMessage's worth of transforms to count new frames."""
    return [tf(parent, '{}_{}'.format(names, i), T0) for i in range(count)]


def small_car(audit, seconds, flood_at=None, extra=lambda t: (), lidar=True):
    """Drive odom -> base_link under map, the LiDAR static, a flood at flood_at s: the checks."""
    if lidar:
        audit.add_transforms([tf('base_link', 'laser', T0, 0.26, 0.0, 0.11)],
                             Arrival('/tf_static', T0, 'laser_mount'))
    results = []
    for step in range(1, int(seconds * 50) + 1):
        t = T0 + step / 50
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * step)],
                             Arrival('/tf', t, 'odom_node'))
        audit.add_transforms([tf('map', 'odom', t)], Arrival('/tf', t, 'slam'))
        for record, topic in extra(t):
            audit.add_transforms([record], Arrival(topic, t, 'other'))
        if flood_at is not None and step == int(flood_at * 50):
            audit.add_transforms(flood('marker', 500, 'base_link'), Arrival('/tf', t, 'flood'))
        if step % 50 == 0:
            results = audit.check(t)
    return by_id(results)


def test_a_flood_sent_first_never_keeps_the_car_out():
    flooded = Audit(AuditConfig(max_frames=100))
    flooded.add_transforms(flood('marker', 500), Arrival('/tf', T0, 'flood'))
    assert len(flooded.store.frames) == 100
    results = small_car(flooded, 4.0)
    healthy = small_car(Audit(AuditConfig(max_frames=100)), 4.0)
    assert {'map', 'odom', 'base_link', 'laser'} <= flooded.store.frames
    assert len(flooded.store.frames) == 104
    for check in ('chain_order', 'laser_offset', 'parent_uniqueness'):
        assert results[check].findings == healthy[check].findings == [], check
    limit = [f for f in results['transform_values'].findings if f.key == 'too_many_frames']
    assert len(limit) == 1 and limit[0].values['not_stored'] == 401
    assert not any(f.key == 'too_many_frames' for f in healthy['transform_values'].findings)


def test_a_flood_never_hides_a_second_parent_sent_later():
    def second_parent(t):
        return [(tf('ekf_world', 'odom', t), '/tf')] if t > T0 + 3.0 else []

    flooded = small_car(Audit(AuditConfig(max_frames=100)), 6.0, flood_at=2.0,
                        extra=second_parent)
    healthy = small_car(Audit(AuditConfig(max_frames=100)), 6.0, extra=second_parent)
    quiet = small_car(Audit(AuditConfig(max_frames=100)), 6.0, flood_at=2.0)
    for results in (flooded, healthy):
        found = results['parent_uniqueness'].findings
        assert len(found) == 1 and found[0].level == Level.ERROR and 'odom' in found[0].frames
    assert quiet['parent_uniqueness'].findings == []


def test_a_flood_never_hides_a_changed_lidar_mount():
    def moved(t):
        return [(tf('base_link', 'laser', t, 0.27, 0.0, 0.11), '/tf_static')] \
            if t > T0 + 3.0 else []

    flooded = small_car(Audit(AuditConfig(max_frames=100)), 6.0, flood_at=2.0, extra=moved)
    healthy = small_car(Audit(AuditConfig(max_frames=100)), 6.0, extra=moved)
    quiet = small_car(Audit(AuditConfig(max_frames=100)), 6.0, flood_at=2.0)
    for results in (flooded, healthy):
        found = results['laser_offset'].findings
        assert found and found[0].level == Level.ERROR and '0.2700' in found[0].message
    assert quiet['laser_offset'].findings == []


def mounted_car(flood_first: bool, latches, lidar_x: float = 0.06):
    """
    Drive a car whose LiDAR sits on a mount (base_link -> laser_mount -> laser).

    The base runs first; the LiDAR's statics come after it (its driver started later).
    latches: how the body is latched, as lists of edges per /tf_static message: one
    robot_state_publisher message (the mount before the LiDAR), or two publishers.
    """
    audit = Audit(AuditConfig(max_frames=100))
    if flood_first:
        audit.add_transforms(flood('marker', 500), Arrival('/tf', T0, 'flood'))
    audit.add_transforms([tf('map', 'odom', T0), tf('odom', 'base_link', T0)],
                         Arrival('/tf', T0, 'odom_node'))
    body = {'mount': tf('base_link', 'laser_mount', T0, 0.20, 0.0, 0.10),
            'lidar': tf('laser_mount', 'laser', T0, lidar_x, 0.0, 0.01)}
    for publisher, names in latches:
        audit.add_transforms([body[name] for name in names],
                             Arrival('/tf_static', T0, publisher))
    return small_car(audit, 3.0, lidar=False), audit.store


@pytest.mark.parametrize('latches', [
    [('robot_state_publisher', ['mount', 'lidar'])],
    [('mount_tf', ['mount']), ('lidar_tf', ['lidar'])],
    [('lidar_tf', ['lidar']), ('mount_tf', ['mount'])]])
def test_a_mount_above_the_lidar_is_kept_past_the_flood(latches):
    """Past limits.max_frames, the mount latched before the LiDAR's edge is not lost."""
    flooded, store = mounted_car(True, latches)
    healthy, _ = mounted_car(False, latches)
    assert store.ancestry('laser') == ['laser', 'laser_mount', 'base_link', 'odom', 'map']
    for check in ('laser_offset', 'chain_order', 'parent_uniqueness'):
        assert flooded[check].findings == healthy[check].findings == [], check
    limit = [f for f in flooded['transform_values'].findings if f.key == 'too_many_frames']
    assert len(limit) == 1 and limit[0].values['not_stored'] == 401  # the flood's, alone
    # the twin with the LiDAR 1 cm further out: the fault is found through the kept mount
    moved, _ = mounted_car(True, latches, lidar_x=0.07)
    found = moved['laser_offset'].findings
    assert len(found) == 1 and found[0].level == Level.ERROR and '0.2700' in found[0].message


car_edges = st.sampled_from([('map', 'odom'), ('odom', 'base_link'), ('base_link', 'laser'),
                             ('earth', 'map'), ('ekf_world', 'odom')])
floods = st.builds(lambda name, count, parent: flood(name, count, parent),
                   st.sampled_from(['a', 'b', 'c']), st.integers(1, 60),
                   st.sampled_from(['world', 'base_link', 'laser']))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(car_edges, floods), max_size=30), st.integers(5, 40))
def test_floods_in_any_order_never_cost_a_configured_frame_or_its_parents(stream, limit):
    audit = Audit(AuditConfig(max_frames=limit))
    sent = set()
    for item in stream:
        if isinstance(item, tuple):
            audit.add_transforms([tf(*item, T0)], Arrival('/tf', T0))
            sent.add(item)
        else:
            audit.add_transforms(item, Arrival('/tf', T0))
    assert sent <= set(audit.store.edges)
    assert len(audit.store.frames) <= max(limit, 0) + 100


@pytest.mark.parametrize('topic,check,said', [
    ('/tf_static', 'timing', 'nothing to judge: no edge sent on /tf 3 times yet'),
    ('/tf', 'static_transforms', 'nothing to judge: no edge came on /tf_static')])
def test_a_check_with_nothing_to_judge_says_so_never_passes(topic: str, check: str, said: str):
    """Issue 35: "0 moving edges on time" and "0 static edges, ... unchanged" read as passes."""
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', 'laser', T0)], Arrival(topic, T0, 'a'))
    result = by_id(audit.check(T0))[check]
    assert (result.level, result.message) == (Level.STALE, said)
    twin = by_id(audit_car(Car()))[check]  # the car sends both: judged
    assert twin.level == Level.OK and not twin.message.startswith('nothing to judge')


def test_a_rows_first_words_agree_with_its_level():
    """Issue 35: a STALE pose_frame row began "/pf/viz/inferred_pose describes laser, as ..."."""
    cycles = [by_id(results)['pose_frame'] for results in feed(Audit(AuditConfig()), Car())]
    mixed = [r for r in cycles if r.level == Level.STALE and 'as declared' in r.message]
    assert mixed, [r.message for r in cycles]  # one topic judged, the other still too few
    assert all(r.message.startswith('/slam_pose: ') and 'samples placed' in
               r.message.split(';')[0] for r in mixed), [r.message for r in mixed]
    judged = [r for r in cycles if r.level == Level.OK]
    assert judged and all(r.message.startswith('/pf/viz/inferred_pose describes laser')
                          for r in judged)


def test_an_ok_lookups_row_leads_with_what_was_judged():
    """Issue 35: an OK lookups row read "/scan in map: cannot know: every one of 426 ..."."""
    config = replace(AuditConfig(), lookups=(LookupEntry('/scan', 'ghost', 0.1),
                                             LookupEntry('/scan', 'odom', 0.1)))
    result = by_id(audit_car(Car(), config))['lookups']
    assert result.level == Level.OK
    assert result.message.startswith('/scan in odom: 316 of 316 placed within 0.1 s; /scan in '
                                     'ghost: cannot know'), result.message


def test_one_clock_behind_is_one_finding_and_two_clocks_are_two():
    """Issue 32: one clock offset on six edges was six ERRORs: one cause, one finding."""
    audit = Audit(AuditConfig())
    behind = {('a', 'b'): 2.0, ('b', 'c'): 2.3, ('c', 'd'): 2.1, ('x', 'y'): 5.0}
    sent = sorted((T0 + step * 0.1 + lag, parent, child, step) for step in range(60)
                  for (parent, child), lag in behind.items())
    for arrival, parent, child, step in sent:  # in arrival order, each stamped lag before it
        audit.add_transforms([tf(parent, child, arrival - behind[(parent, child)],
                                 x=0.01 * step)], Arrival('/tf', arrival, 'n'))
    lags = [f for f in by_id(audit.check())['timing'].findings if f.key.startswith('lag:')]
    assert sorted((f.values['edges'], f.values['lag_s']) for f in lags) == [(1, 5.0), (3, 2.0)]
    three = next(f for f in lags if f.values['edges'] == 3)
    assert three.message.startswith('3 edges arrive 2.000 to 2.300 s after their stamps')
    assert three.frames == ('a', 'b', 'c', 'd')


def test_one_clock_behind_stays_one_finding_while_slower_edges_join():
    """Review: a 1 Hz edge joining the group later made the log keep two findings."""
    audit, log = Audit(AuditConfig()), AuditLog()
    rates = {('odom', 'base'): 50, ('map', 'odom'): 1}
    sent = sorted((T0 + k / rate + 5.0, parent, child, k) for (parent, child), rate in
                  rates.items() for k in range(rate * 12))
    next_check = T0 + 6.0
    for arrival, parent, child, k in sent:
        while next_check <= arrival:
            log.record(audit.check(next_check), next_check - T0)
            next_check += 1.0
        audit.add_transforms([tf(parent, child, arrival - 5.0, x=0.01 * k)],
                             Arrival('/tf', arrival, 'n'))
    lags = [s for s in log.findings() if s.finding.check == 'timing'
            and 'after' in s.finding.message and 'stamp' in s.finding.message]
    assert len(lags) == 1, [s.finding.message for s in lags]
    assert lags[0].finding.values['edges'] == 2


def test_the_base_at_odom_is_judged_without_a_traceback():
    """Review: frames.base: odom left chain_order an empty chain to index."""
    results = by_id(audit_car(Car(), replace(AuditConfig(), base_frame='odom')))
    assert results['chain_order'].level in (Level.OK, Level.WARN, Level.ERROR, Level.STALE)


def test_a_moment_inside_a_gap_is_said_so_never_a_negative_ago():
    gap = Stall(T0 + 5.0, 2.0, what=RECORDING_GAP)
    assert gap.describe(T0 + 4.0) == ('every recorded topic stopped at once for 2.0 s, this '
                                      'moment inside it')
    assert gap.describe(T0 + 6.0).endswith('for 2.0 s, 1.0 s ago')


def test_one_line_never_leaves_a_bracket_open():
    text = 'odom → base_link moved (over many many samples of the window). Fix it.'
    cut = one_line(text, 60)
    assert cut.count('(') == cut.count(')') and cut.endswith('Fix it.') and len(cut) <= 60, cut
