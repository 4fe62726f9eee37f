# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tf2 model where ROS 2's tf2 differs from ROS 1's, from geometry2's source (docs/tf2.md).

ROS 1's behaviour is checked against tf2 itself in test_tf2_oracle.py; these tests hold the
ROS 2 distributions (Humble, Jazzy, Kilted) to what their buffer_core.cpp and cache.cpp do,
each beside the Noetic answer to the same input, so the difference is stated, not assumed.
"""
from dataclasses import replace

from frame_audit.engine.audit import Audit
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.records import Arrival, TransformRecord
from frame_audit.engine.tf2 import Buffer, DEFAULT_DISTRO, distro, DISTRO_NAMES, to_ns
from frame_audit.errors import ConfigError
import pytest

T0 = 1700000000.0
ROS2 = ('humble', 'jazzy', 'kilted')
Q = (0.0, 0.0, 0.0, 1.0)


def put(buffer: Buffer, parent: str, child: str, stamp: float, x: float = 0.0,
        static: bool = False, who: str = 'tester'):
    """Set one planar transform; return tf2's Insertion."""
    return buffer.set_transform(parent, child, to_ns(stamp) if stamp else 0, (x, 0.0, 0.0), Q,
                                who, static)


def x_at(buffer: Buffer, target: str, source: str, stamp: float) -> float:
    """Return the x of target <- source at stamp, failing the test on an error."""
    answer = buffer.lookup(target, source, to_ns(stamp) if stamp else 0)
    assert answer.ok, answer.error.text
    return answer.translation[0]


@pytest.mark.parametrize('name', ROS2)
def test_ros2_keeps_a_second_value_at_a_stamp_and_skips_only_an_exact_copy(name):
    """cache.cpp TimeCache::insertData (#636, #680): only an identical sample is skipped."""
    buffer = Buffer(distro=name)
    put(buffer, 'odom', 'base_link', T0, x=0.0)
    put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0)
    again = put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0)
    other = put(buffer, 'odom', 'base_link', T0 + 1.0, x=5.0, who='second_publisher')
    put(buffer, 'odom', 'base_link', T0 + 2.0, x=2.0)
    assert again.taken and again.skipped_duplicate and not again.log
    assert other.taken and not other.codes
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.0) == pytest.approx(5.0)  # the newer
    # findClosest pairs a time before the stamp with the sample inserted first, after it with
    # the one inserted last: the two values of one stamp bracket it differently
    assert x_at(buffer, 'odom', 'base_link', T0 + 0.5) == pytest.approx(0.5)
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.5) == pytest.approx(3.5)


@pytest.mark.parametrize('name,after_copy', [('humble-0.25.5', 1.0), ('humble-0.25.6', 5.0),
                                             ('jazzy-0.36.3', 5.0), ('humble', 5.0)])
def test_humble_0_25_5_keeps_every_copy_and_0_25_6_skips_an_exact_one(name, after_copy):
    """
    Humble 0.25.5's insertData inserts every copy (ros2-0.25.5/cache.cpp); #636 skips one.

    A stamp held with 1.0, then 5.0 (a second publisher), then 1.0 again: 0.25.5 takes the
    copy as the newest value of that stamp, 0.25.6 on skip it, so 5.0 stays.
    """
    buffer = Buffer(distro=name)
    put(buffer, 'odom', 'base_link', T0, x=0.0)
    put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0)
    put(buffer, 'odom', 'base_link', T0 + 1.0, x=5.0, who='second_publisher')
    copy = put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0)
    assert copy.taken and copy.skipped_duplicate is (after_copy == 5.0) and not copy.log
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.0) == pytest.approx(after_copy)


def test_noetic_refuses_a_second_value_at_a_stamp():
    """ROS 1 (#459): TF_REPEATED_DATA, the first value stays."""
    buffer = Buffer(distro='noetic')
    put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0)
    refused = put(buffer, 'odom', 'base_link', T0 + 1.0, x=5.0, who='second_publisher')
    assert refused.codes == ('TF_REPEATED_DATA',)
    assert 'according to authority second_publisher' in refused.log[0]
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.0) == pytest.approx(1.0)


@pytest.mark.parametrize('name,old_kept', [('noetic', False), ('humble', True),
                                           ('jazzy', True), ('kilted', True),
                                           ('humble-0.25.5', False), ('humble-0.25.6', False),
                                           ('jazzy-0.36.3', False)])
def test_ros2_prunes_before_it_inserts(name, old_kept):
    """
    ROS 2 prunes at the next insertion (#680), ROS 1 right after inserting the new one.

    So did ROS 2 before #680 reached Humble (0.25.7) and Jazzy (0.36.4): their cache.cpp in
    ../shared/reference/geometry2 (ros2-0.25.5, ros2-0.25.6, ros2-0.36.3) prunes last.
    """
    buffer = Buffer(distro=name)
    for i in range(6):
        put(buffer, 'map', 'odom', T0 + i, x=float(i))
    put(buffer, 'map', 'odom', T0 + 17.0, x=17.0)  # after a 12 s stall
    answer = buffer.lookup('map', 'odom', to_ns(T0 + 3.5))
    assert answer.ok is old_kept
    put(buffer, 'map', 'odom', T0 + 17.5, x=17.5)
    assert not buffer.lookup('map', 'odom', to_ns(T0 + 3.5)).ok  # gone for everyone now


@pytest.mark.parametrize('name,static_stays', [('noetic', True), ('humble', False),
                                               ('kilted', False)])
def test_a_frame_moving_from_tf_static_to_tf(name, static_stays):
    """ROS 2 (#151) gives the frame a new cache of the new kind; ROS 1 keeps the first."""
    buffer = Buffer(distro=name)
    put(buffer, 'base_link', 'laser', 0, x=0.27, static=True)
    put(buffer, 'base_link', 'laser', T0 + 1.0, x=0.30)
    answer = buffer.lookup('base_link', 'laser', to_ns(T0 + 5.0))
    assert answer.ok is static_stays
    if not static_stays:
        assert answer.error.kind == 'single'
        assert answer.error.text.startswith('Lookup would require extrapolation at time '
                                            '1700000005.000000, but only time 1700000001.000000 '
                                            'is in the buffer, when looking up')


def test_ros2_wording_states_times_to_the_microsecond_without_the_distance():
    """cache.cpp createExtrapolationException2/3 and time.cpp displayTimePoint."""
    texts = {}
    for name in ('noetic', 'kilted'):
        buffer = Buffer(distro=name)
        put(buffer, 'map', 'odom', T0 + 12.58)
        put(buffer, 'map', 'odom', T0 + 12.68)
        put(buffer, 'odom', 'laser', 0, static=True)
        texts[name] = (buffer.lookup('map', 'laser', to_ns(T0 + 13.0)).error.text,
                       buffer.lookup('map', 'laser', to_ns(T0 + 12.0)).error.text)
    assert texts['kilted'][0] == (
        'Lookup would require extrapolation into the future.  Requested time 1700000013.000000 '
        'but the latest data is at time 1700000012.680000, when looking up transform from '
        'frame [laser] to frame [map]')
    assert texts['kilted'][1].startswith('Lookup would require extrapolation into the past.  '
                                         'Requested time 1700000012.000000 but the earliest')
    assert texts['noetic'][0].startswith('Lookup would require extrapolation 0.319999933s into '
                                         'the future.  Requested time 1700000013.000000000')


@pytest.mark.parametrize('name', DISTRO_NAMES)
def test_a_healthy_nav2_tree_answers_every_lookup(name):
    """The healthy twin: map, odom, base_footprint, base_link, the scan; every ask answered."""
    buffer = Buffer(distro=name)
    put(buffer, 'base_footprint', 'base_link', 0, static=True)
    put(buffer, 'base_link', 'base_scan', 0, x=-0.03, static=True)
    for i in range(100):
        put(buffer, 'odom', 'base_footprint', T0 + i * 0.02, x=i * 0.01)
    for i in range(10):
        put(buffer, 'map', 'odom', T0 + i * 0.2 + 0.05, x=0.5)  # amcl, future-dated a little
    for i in range(5, 90):
        for target in ('map', 'odom'):
            assert buffer.lookup(target, 'base_scan', to_ns(T0 + i * 0.02)).ok
    assert buffer.lookup('base_link', 'base_scan').stamp == 0  # statics only: time zero


def test_clearing_after_a_jump_back_keeps_the_statics():
    """tf2_ros clears on a jump back in time; StaticCache::clearList keeps its value."""
    buffer = Buffer()
    put(buffer, 'base_link', 'laser', 0, x=0.27, static=True)
    put(buffer, 'odom', 'base_link', T0, x=1.0)
    buffer.clear()
    assert buffer.lookup('base_link', 'laser').ok
    assert buffer.lookup('odom', 'base_link', to_ns(T0)).error.kind == 'empty'


def test_the_distribution_is_named_or_refused():
    """The default is the newest supported; a misspelt one is a ConfigError naming them."""
    assert DEFAULT_DISTRO == 'kilted' and Buffer().distro.name == 'kilted'
    assert distro('Jazzy').name == 'jazzy'
    assert distro('humble-0.25.5').name == 'humble-0.25.5'
    with pytest.raises(ConfigError, match='humble, jazzy, kilted'):
        distro('rolling')


@pytest.mark.parametrize('name', ROS2)
def test_a_sender_stuck_on_one_stamp_keeps_two_samples_and_tf2s_answers(name):
    """
    use_sim_time without /clock: every message stamped 0 s; tf2 keeps them all (#680).

    findClosest only ever returns the first and the last value of a stamp held several times,
    so the cache keeps those two: the answers stay tf2's, the memory bounded.
    """
    buffer = Buffer(distro=name)
    put(buffer, 'odom', 'base_link', T0, x=0.0)
    for i in range(2000):
        put(buffer, 'odom', 'base_link', T0 + 1.0, x=1.0 + i)
    put(buffer, 'odom', 'base_link', T0 + 2.0, x=3000.0)
    assert len(buffer.caches['base_link'].samples) == 4  # T0, first and last at T0 + 1, T0 + 2
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.0) == pytest.approx(2000.0)  # the last
    assert x_at(buffer, 'odom', 'base_link', T0 + 0.5) == pytest.approx(0.5)  # the first
    assert x_at(buffer, 'odom', 'base_link', T0 + 1.5) == pytest.approx(2500.0)  # the last
    again = put(buffer, 'odom', 'base_link', T0 + 1.0, x=2000.0)  # the last, again: skipped
    assert again.skipped_duplicate and len(buffer.caches['base_link'].samples) == 4
    stuck = Buffer(distro=name)  # stamped 0 s: a lookup at time zero takes the newest
    for i in range(40000):
        stuck.set_transform('odom', 'base_link', 1, (float(i), 0.0, 0.0), Q, 'sim', False)
    assert len(stuck.caches['base_link'].samples) == 2
    assert stuck.lookup('odom', 'base_link', 1).translation[0] == pytest.approx(39999.0)
    assert stuck.lookup('odom', 'base_link', 0).translation[0] == pytest.approx(39999.0)


def tf_record(parent: str, child: str, stamp: float, x: float = 0.0) -> TransformRecord:
    """Return a planar transform record, as a decoded /tf message holds it."""
    return TransformRecord(parent, child, stamp, (x, 0.0, 0.0), Q)


def live_tree(audit, start: float, seconds: float, trackers: int = 0, slam: bool = True,
              live: bool = True) -> float:
    """
    Feed a racecar for seconds from start; return when it ends.

    odom → base_link at 20 Hz, SLAM's map → odom where slam; trackers: new tracked-object
    frames a second under map (a people tracker's person_N), each sent for one second. Live,
    the audit forgets once a second, as the node does.
    """
    for i in range(int(seconds * 20)):
        t = start + i / 20.0
        records = [tf_record('odom', 'base_link', t)] + (
            [tf_record('map', 'odom', t)] if slam else []) + [
            tf_record('map', 'person_{}'.format(int(t) * trackers + k), t)
            for k in range(trackers)]
        audit.add_transforms(records, Arrival('/tf', t, 'car'))
        if live and i % 20 == 0:
            audit.forget(t)
    return start + seconds


def mounted(config: AuditConfig) -> Audit:
    """Return an audit that holds the racecar's LiDAR mount, latched at T0."""
    audit = Audit(config)
    audit.add_transforms([tf_record('base_link', 'laser', T0, 0.26)],
                         Arrival('/tf_static', T0, 'base_link_to_laser'))
    return audit


def test_configured_frames_are_taken_past_max_frames():
    """
    Past limits.max_frames, tf2's model still takes a configured frame, as the store does.

    limits.max_frames 50, a recording of 150 tracker frames before SLAM starts: SLAM's odom
    is taken and the scan placed in map; the twin has no trackers.
    """
    config = replace(AuditConfig(), max_frames=50)
    for trackers in (5, 0):
        audit = mounted(config)
        now = live_tree(audit, T0, 30.0, trackers, slam=False, live=False)
        held = len(audit.lookups.buffer.caches)  # full: one message may pass the bound
        assert 50 <= held < 50 + trackers if trackers else held == 2
        live_tree(audit, now, 5.0, trackers, live=False)
        assert 'odom' in audit.lookups.buffer.caches
        assert audit.lookups.buffer.lookup('map', 'laser').ok


def test_live_lookups_forget_the_frames_the_store_forgot():
    """Live, an hour of tracker frames must not leave tf2's model without room for new ones."""
    config = replace(AuditConfig(), max_frames=50)
    audit = mounted(config)
    now = live_tree(audit, T0, 30.0, trackers=5)
    caches = audit.lookups.buffer.caches
    assert len(caches) < 55 and sum(1 for c in caches if c.startswith('person_')) >= 40
    now = live_tree(audit, now, 12.0)  # the trackers stopped a window ago: forgotten
    assert sorted(caches) == ['base_link', 'laser', 'odom']
    audit.add_transforms([tf_record('base_link', 'camera', now, 0.1)],
                         Arrival('/tf_static', now, 'camera_tf'))
    assert 'camera' in caches and audit.lookups.buffer.lookup('map', 'camera').ok
    # a chain edge that stops stays: tf2 still holds it, and says so (not "no such frame")
    stopped = audit.lookups.buffer.lookup('map', 'laser', to_ns(now + 20.0))
    assert stopped.error is not None and stopped.error.kind == 'future'
