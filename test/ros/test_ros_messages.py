# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Round trips between the engine's records and ROS messages, and the diagnostics format."""
import math

from diagnostic_msgs.msg import DiagnosticStatus
from frame_audit import message_types as mt
from frame_audit.engine.findings import CheckResult, Finding, Level
from frame_audit.engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, \
    TransformRecord
from frame_audit.reports.diagnostics import MAX_FINDINGS_SHOWN, MAX_MESSAGE_CHARS
from frame_audit.ros import messages as rm
from geometry_msgs.msg import PoseStamped, PoseWithCovarianceStamped
from nav_msgs.msg import Odometry
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from tf2_msgs.msg import TFMessage

pytestmark = pytest.mark.ros

LASER = TransformRecord('base_link', 'laser', 1700000000.123456789, (0.26, 0.0, 0.11),
                        (0.0, 0.0, 0.0, 1.0))
ODOM = TransformRecord('odom', 'base_link', 12.5, (1.0, -2.0, 0.0), (0.0, 0.0, 0.6, 0.8))
POSE = PoseRecord('map', 3.25, (4.0, 5.0, 0.0), (0.0, 0.0, -0.6, 0.8))


def test_time_round_trip_keeps_nanoseconds():
    stamp = rm.time_message(1700000000.123456789)
    assert stamp.sec == 1700000000
    assert abs(stamp.nanosec - 123456789) < 1000  # float64 holds ~0.2 us at this size
    assert mt.stamp_seconds(stamp) == pytest.approx(1700000000.123456789, abs=1e-6)
    assert mt.stamp_seconds(rm.time_message(0.999999999999)) == 1.0


def test_non_finite_time_is_a_value_error():
    with pytest.raises(ValueError, match='nan'):
        rm.time_message(math.nan)


def test_transforms_round_trip_through_the_wire():
    wire = serialize_message(rm.tf_message([LASER, ODOM]))
    back = mt.transform_records(deserialize_message(wire, TFMessage))
    assert [(r.parent, r.child, r.translation, r.rotation) for r in back] == \
        [(r.parent, r.child, r.translation, r.rotation) for r in (LASER, ODOM)]
    assert back[1].stamp == 12.5


def test_transforms_pass_through_unjudged():
    """NaN, slashes and empty names reach the engine as sent: the engine judges them."""
    odd = TransformRecord('/map', '', 1.0, (math.nan, 0.0, 0.0), (0.0, 0.0, 0.0, 2.0))
    (back,) = mt.transform_records(rm.tf_message([odd]))
    assert (back.parent, back.child, back.rotation) == ('/map', '', (0.0, 0.0, 0.0, 2.0))
    assert math.isnan(back.translation[0])


@pytest.mark.parametrize('kind', [PoseStamped, PoseWithCovarianceStamped, Odometry])
def test_every_pose_type_gives_the_same_record(kind):
    assert mt.pose_record(rm.pose_message(POSE, kind)) == POSE


def test_odometry_round_trip():
    record = OdometryRecord(POSE, 'base_link')
    msg = rm.odometry_message(record)
    assert isinstance(msg, Odometry)
    assert mt.odometry_record(msg) == record


def test_scan_carries_its_header_and_a_lidars_size():
    msg = rm.scan_message(HeaderRecord('laser', 2.5))
    assert len(msg.ranges) == rm.SCAN_BEAMS
    assert mt.header_record(msg) == HeaderRecord('laser', 2.5)


def test_ros_message_picks_the_type_by_payload():
    kinds = [type(rm.ros_message(Message(0.0, topic, payload))) for topic, payload in (
        ('/tf', (ODOM,)), ('/odom', OdometryRecord(POSE, 'base_link')), ('/pose', POSE),
        ('/scan', HeaderRecord('laser', 1.0)))]
    assert [k.__name__ for k in kinds] == ['TFMessage', 'Odometry', 'PoseStamped', 'LaserScan']
    typed = rm.ros_message(Message(0.0, '/pose', POSE),
                           {'/pose': 'geometry_msgs/msg/PoseWithCovarianceStamped'})
    assert isinstance(typed, PoseWithCovarianceStamped)


def _results():
    finding = Finding('laser_offset', Level.ERROR, 'base_link → laser is 0.270 m, not 0.260 m',
                      key='offset', frames=('base_link', 'laser'), topics=('/tf_static',),
                      values={'x_m': 0.27})
    return [CheckResult('laser_offset', 'as configured', [finding], {'x_m': 0.27}),
            CheckResult('timing', 'all edges fresh', values={'edges': 3}),
            CheckResult('pose_frame', 'waiting', stale=True)]


def test_diagnostic_array_has_one_status_per_result():
    msg = rm.diagnostic_array(_results(), 5.5, 'car_2')
    assert [s.name for s in msg.status] == \
        ['frame_audit: laser_offset', 'frame_audit: timing', 'frame_audit: pose_frame']
    assert [s.level for s in msg.status] == \
        [DiagnosticStatus.ERROR, DiagnosticStatus.OK, DiagnosticStatus.STALE]
    assert {s.hardware_id for s in msg.status} == {'car_2'}
    assert mt.stamp_seconds(msg.header.stamp) == 5.5
    values = {kv.key: kv.value for kv in msg.status[0].values}
    assert values == {'x_m': '0.27', 'findings': '1',
                      'finding 1': 'ERROR: base_link → laser is 0.270 m, not 0.260 m',
                      'finding 1 frames': 'base_link, laser', 'finding 1 topics': '/tf_static',
                      'finding 1 x_m': '0.27'}


def test_diagnostics_stay_bounded():
    findings = [Finding('timing', Level.WARN, 'x ' * 1000, key=str(i)) for i in range(50)]
    (status,) = rm.diagnostic_array([CheckResult('timing', '', findings)], 0.0, 'car').status
    assert len(status.message) == MAX_MESSAGE_CHARS
    shown = {kv.key for kv in status.values if kv.key.startswith('finding ')}
    assert len(shown) == MAX_FINDINGS_SHOWN


def test_the_status_line_keeps_the_verdict_and_the_fix():
    message = ('odom has 2 parents: ' + ', '.join('frame_{} (/tf, 50.0 Hz)'.format(i)
                                                  for i in range(20))
               + '. A frame has one parent: tf2 keeps whichever came last; stop the node '
               'that should not send it')
    finding = Finding('parent_uniqueness', Level.ERROR, message, key='parents:odom')
    (status,) = rm.diagnostic_array([CheckResult('parent_uniqueness', '', [finding])], 0.0,
                                    'car').status
    assert len(status.message) <= MAX_MESSAGE_CHARS < len(message)
    assert status.message.startswith('odom has 2 parents: frame_0')
    assert status.message.endswith(' … stop the node that should not send it')
    assert {kv.key: kv.value for kv in status.values}['finding 1'] == 'ERROR: ' + message


def test_statuses_read_back():
    msg = rm.diagnostic_array(_results(), 1.0, 'car')
    msg.status.append(DiagnosticStatus(name='other: thing', level=DiagnosticStatus.ERROR))
    statuses = rm.frame_audit_statuses(msg)
    assert [(s.check, s.level) for s in statuses] == [
        ('laser_offset', Level.ERROR), ('timing', Level.OK), ('pose_frame', Level.STALE)]
    assert statuses[0].numbers() == {'x_m': '0.27', 'findings': '1'}
    assert rm.level_of(DiagnosticStatus(level=b'\x07')) == Level.ERROR


def test_every_parameter_describes_itself_and_its_range_agrees_with_the_check():
    """Issue 35: six keys said "see docs/contracts.md"; history_s's range let 0 in."""
    from frame_audit.engine.config import _FIELDS, config_from_parameters, ConfigError, \
        parameter_low_open
    from frame_audit.ros.parameters import descriptor

    for key in _FIELDS:
        described = descriptor(key)
        assert described.description and 'contracts.md' not in described.description, key
        for bounds in described.floating_point_range:
            config_from_parameters({key: bounds.from_value})  # both ends are taken
            config_from_parameters({key: bounds.to_value})
            if parameter_low_open(key):
                with pytest.raises(ConfigError, match='out of range'):
                    config_from_parameters({key: 0.0})
