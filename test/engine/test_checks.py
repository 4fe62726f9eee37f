# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Each check fires on its fault and stays quiet on a healthy car: one change per test."""
from dataclasses import replace

from frame_audit.engine.audit import Audit
from frame_audit.engine.checks import CHECK_IDS
from frame_audit.engine.config import AuditConfig, PoseTopic
from frame_audit.engine.findings import Level
from frame_audit.engine.records import Arrival, HeaderRecord
from hypothesis import assume, given, HealthCheck, settings, strategies as st
import pytest
from trees import audit_car, by_id, Car, feed, pose, problems, T0, tf


def findings_of(results, check):
    """Return the WARN and ERROR findings of one check."""
    return [f for f in by_id(results)[check].findings if f.level in (Level.WARN, Level.ERROR)]


def only(results, check, level):
    """Assert that check alone reports, at level, and return its findings."""
    others = [p for p in problems(results) if not p.startswith(check + ':')]
    assert others == []
    found = findings_of(results, check)
    assert found and all(f.level == level for f in found), found
    return found


@pytest.mark.parametrize('car', [
    Car(), Car(gyro=True), Car(speed=0.0), Car(drift_per_s=0.0), Car(noise=0.04),
    Car(slam_future_s=0.0), Car(odom_stamp_offset_s=0.0), Car(seconds=30.0),
    Car(speed=6.0, odom_stamp_offset_s=0.012), Car(speed=4.0, tf_late_every=25, tf_late_s=0.017),
    Car(speed=8.0), Car(speed=4.0, scale_error=0.03, drift_per_s=0.02),
    Car(slam_every=5, slam_noise=0.03), Car(speed=0.0, slam_every=5, slam_noise=0.03),
    Car(correct_every=400, scale_error=0.02)],
    ids=['default', 'gyro_odom', 'standing_still', 'no_drift', 'noisy_localization',
         'slam_not_future_dated', 'same_odom_stamps', 'long_drive', 'fast_vesc_stamps',
         'late_tf_sends', 'eight_m_per_s', 'real_odometry_drift', 'noisy_map_odom_at_40_hz',
         'noisy_map_odom_standing', 'slam_every_2_s'])
def test_healthy_car_is_all_green(car):
    results = audit_car(car)
    assert problems(results) == []
    assert [r.check for r in results] == list(CHECK_IDS) + ['tree']
    assert all(r.level == Level.OK for r in results)


def test_a_car_that_just_started_is_stale_at_most():
    for results in feed(Audit(AuditConfig()), Car(seconds=1.5)):
        assert problems(results) == []
    assert by_id(results)['pose_frame'].level == Level.STALE


def test_nothing_received_is_stale():
    results = Audit(AuditConfig()).check(T0)
    assert {r.check: r.level for r in results if r.check != 'odometry'} == \
        {check: Level.STALE for check in list(CHECK_IDS) + ['tree'] if check != 'odometry'}


def test_slam_toolbox_with_base_frame_laser_is_intended():
    # slam_toolbox with base_frame: laser publishes the LiDAR's pose; declared as such, fine.
    config = replace(AuditConfig(), pose_topics=(
        PoseTopic('slam_toolbox', '/pf/viz/inferred_pose', 'laser', None),))
    assert problems(audit_car(Car(), config)) == []


def test_slam_jumps_are_counted_not_reported():
    results = audit_car(Car(slip_m=0.3))
    assert problems(results) == []
    assert by_id(results)['odometry'].values['map_odom_corrections'] >= 1


def test_pose_topic_carrying_the_rear_axle():
    found = only(audit_car(Car(pf_point='base')), 'pose_frame', Level.ERROR)
    assert len(found) == 1
    assert ('declared pose_frame laser (poses.pf.pose_frame, the F1TENTH default), but its '
            "poses are base_link's") in found[0].message
    assert found[0].frames == ('laser', 'base_link')


def test_rear_axle_topic_declared_laser():
    config = replace(AuditConfig(), pose_topics=(
        PoseTopic('slam', '/slam_pose', 'laser', 0.26),))
    found = only(audit_car(Car(), config), 'pose_frame', Level.ERROR)
    assert "but its poses are base_link's" in found[0].message


def test_pose_topic_fitting_no_frame_warns():
    config = replace(AuditConfig(), pose_topics=(
        PoseTopic('pf', '/pf/viz/inferred_pose', 'laser', 0.26),))
    found = only(audit_car(Car(noise=1.0), config), 'pose_frame', Level.WARN)
    assert 'fits no frame of the robot' in found[0].message


def test_conversion_offset_disagreeing_with_the_tree():
    config = replace(AuditConfig(), pose_topics=(
        PoseTopic('pf', '/pf/viz/inferred_pose', 'laser', 0.275),))
    found = only(audit_car(Car(), config), 'pose_frame', Level.ERROR)
    assert 'laser_offset_x 0.2750 m (poses.pf.laser_offset_x, the F1TENTH default)' \
        in found[0].message
    assert 'x 0.2600 m' in found[0].message


def test_laser_offset_of_27_cm():
    results = audit_car(Car(laser_x=0.27))
    found = findings_of(results, 'laser_offset')
    assert len(found) == 1 and found[0].level == Level.ERROR
    assert 'x is 0.2700 m, 0.2600 m expected' in found[0].message
    assert '/tf_static, by base_link_to_laser' in found[0].message


def test_laser_offset_within_a_tenth_of_a_millimetre():
    assert problems(audit_car(Car(laser_x=0.26009))) == []
    assert findings_of(audit_car(Car(laser_x=0.26011)), 'laser_offset')


def test_laser_on_tf_instead_of_tf_static():
    found = findings_of(audit_car(Car(laser_on_tf=True)), 'laser_offset')
    assert [f.level for f in found] == [Level.WARN]
    assert 'is sent on /tf' in found[0].message


def test_lost_tf_static_is_reported_as_such():
    results = audit_car(Car(static=False))
    assert all(f.level == Level.WARN for f in findings_of(results, 'laser_offset'))
    assert 'no /tf_static was received' in findings_of(results, 'laser_offset')[0].message
    assert not [p for p in problems(results) if 'ERROR' in p]


def test_laser_missing_with_tf_static_received_is_an_error():
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', 'imu', T0)], Arrival('/tf_static', T0))
    results = feed(audit, Car(static=False))[-1]
    found = findings_of(results, 'laser_offset')
    assert found[0].level == Level.ERROR and 'laser is not in the tree' in found[0].message


def test_second_parent_for_odom():
    found = findings_of(audit_car(Car(odom_parent='odom_ekf')), 'parent_uniqueness')
    assert len(found) == 1 and found[0].level == Level.ERROR
    assert found[0].message.startswith('odom has 2 parents: map (/tf, 20.0 Hz, by '
                                       'slam_toolbox) and odom_ekf (/tf, 20.0 Hz, by ekf)')
    assert found[0].frames == ('odom', 'map', 'odom_ekf')


def test_inverted_chain():
    results = audit_car(Car(reversed_base=True))
    chain = [f.message for f in findings_of(results, 'chain_order')]
    assert any(m.startswith('base_link → odom is sent') and 'inverted' in m for m in chain)
    parents = [f.message for f in findings_of(results, 'parent_uniqueness')]
    assert any(m.startswith('cycle: base_link → odom → base_link') for m in parents)


def test_odom_frame_id_mismatch():
    found = findings_of(audit_car(Car(odom_frame_id='odom_vesc'), replace(
        AuditConfig(), required_frames=('base_link', 'laser'))), 'odometry')
    assert any("/odom's header.frame_id is 'odom_vesc'" in f.message for f in found)


def test_odometry_reset_is_a_jump():
    found = findings_of(audit_car(Car(reset_at=4.0)), 'odometry')
    jumps = [f for f in found if f.key == 'jump']
    assert len(jumps) == 1 and jumps[0].level == Level.ERROR
    assert jumps[0].message.startswith('odom → base_link jumped once in the last 10 s')


def test_scan_in_a_frame_missing_from_the_tree():
    found = only(audit_car(Car(scan_frame='laser_frame')), 'connectivity', Level.ERROR)
    assert found[0].message.startswith('laser_frame is not in the tree: /scan (320 messages) '
                                       'names laser_frame in its header')


def test_odometry_that_stops():
    found = only(audit_car(Car(odom_stops_at=4.0)), 'timing', Level.ERROR)
    assert found[0].message.startswith('odom → base_link stopped')


def test_every_check_can_fire():
    """No check that cannot fire: each appears in some test car's findings above."""
    cars = [Car(pf_point='base'), Car(laser_x=0.27), Car(odom_parent='odom_ekf'),
            Car(reversed_base=True), Car(scan_frame='laser_frame'), Car(odom_stops_at=4.0),
            Car(laser_on_tf=True), Car(reset_at=4.0), Car(slam_future_s=-0.3)]
    fired = {f.check for car in cars for r in audit_car(car) for f in r.findings}
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('/map', 'odom', T0)], Arrival('/tf', T0))
    fired |= {f.check for r in audit.check(T0) for f in r.findings}
    assert fired == set(CHECK_IDS)


def test_a_misspelled_pose_topic_warns_instead_of_passing():
    config = replace(AuditConfig(), pose_topics=(
        PoseTopic('pf', '/pf/viz/inferred_pos', 'laser', 0.26),))
    found = only(audit_car(Car(), config), 'pose_frame', Level.WARN)
    assert found[0].message.startswith('no messages on /pf/viz/inferred_pos (poses.pf.topic')


def test_a_verdict_does_not_outlive_its_data():
    audit = Audit(AuditConfig())
    feed(audit, Car(seconds=5.0))
    results = feed(audit, Car(seconds=30.0, static=False, pf=False))[-1]
    pose_frame = by_id(results)['pose_frame']
    assert pose_frame.level == Level.STALE
    assert '/pf/viz/inferred_pose: 0 samples placed against laser by TF in the last 10 s, 20 ' \
        'needed' in pose_frame.summary


def test_samples_that_cannot_be_placed_are_counted_by_reason_not_by_stamp():
    audit = Audit(AuditConfig())
    feed(audit, Car(seconds=5.0))
    for i in range(2000):  # 50 s of poses in a frame no transform reaches
        t = T0 + 5.0 + i * 0.025
        audit.add_pose(pose('nowhere', t, 0.0, 0.0, 0.0), Arrival('/pf/viz/inferred_pose', t))
        if i % 40 == 0:
            audit.check(t)
    reasons = audit.store.tracks['/pf/viz/inferred_pose'].unscorable
    assert len(reasons) <= 2 and reasons['nowhere is not in the tree'] > 300, reasons


def test_two_nodes_sending_one_edge_at_once_and_a_handover():
    audit = Audit(AuditConfig())
    for i in range(100):  # vesc_to_odom alone, then an EKF alongside it, then alone again
        t = T0 + i * 0.02
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * i)],
                             Arrival('/tf', t, 'vesc_to_odom_node'))
    restarted = Audit(AuditConfig())
    for i in range(100):  # a node restarted under another name takes over: no fault
        t = T0 + i * 0.02
        restarted.add_transforms([tf('odom', 'base_link', t, x=0.02 * i)], Arrival(
            '/tf', t, 'vesc_to_odom_node' if i < 50 else 'vesc_to_odom_node_restarted'))
    assert by_id(restarted.check(T0 + 2.0))['parent_uniqueness'].findings == []
    for i in range(50):
        t = T0 + 2.0 + i * 0.02
        audit.add_transforms([tf('odom', 'base_link', t, x=0.02 * i)], Arrival('/tf', t, 'ekf'))
        audit.add_transforms([tf('odom', 'base_link', t + 0.01, x=0.02 * i)],
                             Arrival('/tf', t + 0.01, 'vesc_to_odom_node'))
    found = by_id(audit.check(T0 + 3.0))['parent_uniqueness'].findings
    assert found[0].message.startswith('odom → base_link is sent by 2 nodes at once: ekf (50 '
                                       'messages), vesc_to_odom_node (150 messages)')


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(speed=st.floats(0.0, 8.0), gyro=st.booleans(), drift=st.floats(-0.02, 0.02),
       scale=st.floats(-0.03, 0.03), noise=st.floats(0.0, 0.03),
       slam_every=st.integers(4, 40), late_every=st.integers(0, 30),
       late=st.floats(0.0, 0.02), vesc_offset=st.floats(0.0, 0.01))
def test_no_false_alarm_on_any_healthy_car(speed, gyro, drift, scale, noise, slam_every,
                                           late_every, late, vesc_offset):
    # A TF sent late by `late` (and vesc_to_odom's own offset) trails the car by speed x
    # that. Up to 10 cm it is a habit the audit allows; beyond, the tree itself trails the
    # car by nearly the LiDAR's offset and no data can tell base_link's poses from the
    # laser's: that is no healthy car (odometry's own comparison then fails too).
    assume(speed * (late * (late_every > 0) + vesc_offset) <= 0.10)
    # slam_toolbox corrects after each 0.5 m of travel (minimum_travel_distance), at least
    # every 2 s: the tree is as good as the odometry over that stretch.
    correct_every = min(400, int(100 / max(speed, 0.25)))
    car = Car(seconds=10.0, speed=speed, gyro=gyro, drift_per_s=drift, scale_error=scale,
              noise=noise, slam_every=slam_every, correct_every=correct_every,
              tf_late_every=late_every, tf_late_s=late, odom_stamp_offset_s=vesc_offset)
    assert problems(audit_car(car)) == []


def scans_for(audit, start, seconds, scan_frame):
    """Feed a parked car's tree and its scans (20 Hz) from start on; return the last check."""
    for i in range(int(seconds * 20)):
        t = start + i / 20.0
        audit.add_transforms([tf('map', 'odom', t), tf('odom', 'base_link', t)],
                             Arrival('/tf', t, 'slam_toolbox'))
        audit.add_scan(HeaderRecord(scan_frame, t), Arrival('/scan', t))
        audit.forget(t)
    return audit.check(t)


def test_a_slashed_scan_frame_clears_once_the_driver_is_fixed():
    """The urg_node says '/laser' (ROS 1's habit); fixed, the WARN goes once the window passes."""
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', 'laser', T0, 0.26, 0.0, 0.11)],
                         Arrival('/tf_static', T0, 'base_link_to_laser'))
    slashed = findings_of(scans_for(audit, T0, 5.0, '/laser'), 'connectivity')
    assert [f.key for f in slashed] == ['slash:/laser'] and slashed[0].level == Level.WARN
    fixed = findings_of(scans_for(audit, T0 + 5.0, 5.0, 'laser'), 'connectivity')
    assert [f.key for f in fixed] == ['slash:/laser']  # within timing.history_s (10 s)
    assert findings_of(scans_for(audit, T0 + 10.0, 6.0, 'laser'), 'connectivity') == []
    twin = Audit(AuditConfig())  # the twin: 'laser' from the start
    twin.add_transforms([tf('base_link', 'laser', T0, 0.26, 0.0, 0.11)],
                        Arrival('/tf_static', T0, 'base_link_to_laser'))
    assert findings_of(scans_for(twin, T0, 5.0, 'laser'), 'connectivity') == []


WALL = 1.7e9  # a recorder's wall time: 2023


def _arm(obj_clock: float) -> list:
    """Feed a simulated arm (stamps 100 s on, received on wall time) and a marker's edge."""
    audit = Audit(AuditConfig())
    for i in range(100):  # 10 s at 10 Hz
        wall = WALL + i / 10.0
        audit.add_transforms([tf('base_link', 'shoulder_link', 100.0 + i / 10.0, 0.1),
                              tf('shoulder_link', 'forearm_link', 100.0 + i / 10.0, 0.3)],
                             Arrival('/tf', wall, 'robot_state_publisher'))
        audit.add_transforms([tf('base_link', 'obj_1', obj_clock + i / 10.0, 0.5)],
                             Arrival('/tf', wall, 'aruco_tracker'))
    return audit.check(WALL + 10.0)


def test_one_tree_on_two_clocks_is_an_error():
    """
    Say a UR5 simulation whose ArUco node stamps base_link → obj_1 with the wall clock.

    tf2 holds the arm at 100 s and the marker at 1.7e9 s: no lookup between them. The twin:
    the marker on the simulation's clock too, its lag not judged as the arm's is not.
    """
    (two,) = [f for f in findings_of(_arm(WALL), 'timing') if f.key.startswith('two_clocks')]
    assert two.level == Level.ERROR and 'base_link → obj_1' in two.message
    assert 'holds 2 moving edges stamped on a simulation clock' in two.message
    assert findings_of(_arm(100.0), 'timing') == []


def _boat(senders: tuple) -> list:
    """Feed odom → base_link from these senders, /ekf_se's stamps 20 s ahead, for 10 s."""
    audit = Audit(AuditConfig())
    for i in range(100):
        t = T0 + i / 10.0
        for sender in senders:
            stamp = t + 20.0 if sender == '/ekf_se' else t
            audit.add_transforms([tf('odom', 'base_link', stamp, 0.1 * i)],
                                 Arrival('/tf', t, sender))
    return audit.check(T0 + 10.0)


def test_the_sender_stamping_ahead_is_named_beside_one_that_is_not():
    """
    Name /ekf_se as the sender stamping 20 s ahead where the ZED sends the edge on time.

    A sailboat's two odometry nodes (round F2); the twin, /ekf_se alone, names nobody.
    """
    ahead = [f for f in findings_of(_boat(('/ekf_se', '/zed')), 'timing')
             if f.key.startswith('future')]
    assert ahead and 'odom → base_link from /ekf_se (/zed is not ahead)' in ahead[0].message
    alone = [f for f in findings_of(_boat(('/ekf_se',)), 'timing') if f.key.startswith('future')]
    assert alone and ' from ' not in alone[0].message.split(' was ')[0].split(' is ')[0]


def _lagging(scan_lag: float) -> list:
    """Feed the car's tree stamped 5 s before it arrives, and its scans this far behind."""
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', 'laser', T0, 0.26, 0.0, 0.11)],
                         Arrival('/tf_static', T0, 'base_link_to_laser'))
    for i in range(200):  # 10 s at 20 Hz
        t = T0 + i / 20.0
        audit.add_transforms([tf('map', 'odom', t - 5.0), tf('odom', 'base_link', t - 5.0)],
                             Arrival('/tf', t, 'slam_toolbox'))
        audit.add_scan(HeaderRecord('laser', t - scan_lag), Arrival('/scan', t))
    return audit.check(T0 + 10.0)


def test_whose_clock_is_off_is_said_where_the_scan_decides():
    """
    Say the receiver's clock is ahead where /scan lags as TF does (johnny5, round F2).

    The twin: /scan on time, so the machine sending TF is behind.
    """
    (alike,) = [f for f in findings_of(_lagging(5.0), 'timing') if f.key.startswith('lag')]
    assert "/scan lags alike (5.000 s): the receiving machine's clock is ahead" in alike.message
    (behind,) = [f for f in findings_of(_lagging(0.0), 'timing') if f.key.startswith('lag')]
    assert '/scan arrives on time (0.000 s), so the receiving clock is right' in behind.message
