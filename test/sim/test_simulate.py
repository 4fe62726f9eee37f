# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The simulated drive: deterministic, realistic, and stepped on demand as the live node needs."""
import math
import statistics
from typing import Dict, List, Tuple

from frame_audit.engine.config import AuditConfig
from frame_audit.engine.geometry import yaw_of
from frame_audit.engine.lookup import lookup
from frame_audit.engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from frame_audit.engine.store import FrameStore
from frame_audit.sim.car import drive, FAULT_START, FAULTS, SimulatedCar, START_TIME
import pytest

DURATION = 20.0


@pytest.fixture(scope='module')
def clean() -> List[Message]:
    return list(drive(DURATION, seed=4))


@pytest.fixture(scope='module')
def gyro() -> List[Message]:
    return list(drive(DURATION, seed=4, gyro=True))


def transforms(messages: List[Message], child: str,
               topic: str = TF_TOPIC) -> List[Tuple[Message, TransformRecord]]:
    """Return every transform to child on topic, with the message that carried it."""
    return [(m, t) for m in messages if m.topic == topic for t in m.payload if t.child == child]


def store_of(messages: List[Message]) -> FrameStore:
    """Return a store fed with the drive's transforms."""
    store = FrameStore(AuditConfig())
    for message in messages:
        if message.topic in (TF_TOPIC, TF_STATIC_TOPIC):
            store.add_transforms(message.payload, message.arrival)
    return store


def rate(messages: List[Message]) -> float:
    """Return the mean receive rate of messages."""
    return (len(messages) - 1) / (messages[-1].received - messages[0].received)


def test_same_seed_same_drive(clean: List[Message]) -> None:
    """A seed gives one drive; another seed another."""
    assert list(drive(DURATION, seed=4)) == clean
    assert list(drive(DURATION, seed=5)) != clean


def test_advance_in_steps_gives_the_same_drive(clean: List[Message]) -> None:
    """The live node advances in small steps; the messages are those of one long step."""
    car = SimulatedCar(seed=4)
    stepped: List[Message] = []
    until = START_TIME
    while until < START_TIME + DURATION:
        until = min(until + 0.037, START_TIME + DURATION)
        batch = car.advance(until)
        assert all(m.received <= until for m in batch)
        stepped += batch
    assert stepped == clean


def test_messages_in_receive_order_with_publishers(clean: List[Message]) -> None:
    """Messages come in receive order, each with the node that sent it."""
    received = [m.received for m in clean]
    assert received == sorted(received)
    assert received[0] == START_TIME and received[-1] <= START_TIME + DURATION
    assert all(m.publisher for m in clean)


def test_topics_and_rates(clean: List[Message]) -> None:
    """Each topic at the car's rate (docs/car.md)."""
    by_topic: Dict[str, List[Message]] = {}
    for message in clean:
        by_topic.setdefault(message.topic, []).append(message)
    assert rate(by_topic['/odom']) == pytest.approx(50, rel=0.02)
    assert rate(by_topic['/scan']) == pytest.approx(40, rel=0.02)
    assert rate(by_topic['/pf/viz/inferred_pose']) == pytest.approx(40, rel=0.02)
    assert rate(by_topic['/slam_pose']) == pytest.approx(4, rel=0.05)
    assert rate([m for m, _ in transforms(clean, 'base_link')]) == pytest.approx(50, rel=0.02)
    assert rate([m for m, _ in transforms(clean, 'odom')]) == pytest.approx(20, rel=0.02)
    assert all(isinstance(m.payload, HeaderRecord) and m.payload.frame_id == 'laser'
               for m in by_topic['/scan'])


def test_static_laser_once(clean: List[Message]) -> None:
    """base_link -> laser is sent once, on /tf_static, at the measured offset."""
    static = [m for m in clean if m.topic == TF_STATIC_TOPIC]
    assert len(static) == 1 and static[0].publisher == 'base_link_to_laser'
    (record,) = static[0].payload
    assert (record.parent, record.child) == ('base_link', 'laser')
    assert record.translation == (0.26, 0.0, 0.11) and record.rotation == (0, 0, 0, 1)


def test_slam_is_future_dated_and_jumps(clean: List[Message]) -> None:
    """The map -> odom transform is stamped its scan's time + 1 s, and changes only every 0.5 s."""
    slam = transforms(clean, 'odom')
    ahead = [t.stamp - m.received for m, t in slam]
    assert 0.4 < min(ahead) and max(ahead) < 1.0  # the scan is up to 0.55 s old
    values = [t.translation + t.rotation for _, t in slam]
    changes = sum(1 for a, b in zip(values, values[1:]) if a != b)
    assert changes == pytest.approx(DURATION / 0.5, abs=2)


def test_odom_stamp_differs_from_tf_by_milliseconds(clean: List[Message]) -> None:
    """vesc_to_odom stamps /odom with the state's time, its transform when sent."""
    odom = [m.payload for m in clean if m.topic == '/odom']
    tf = [t for _, t in transforms(clean, 'base_link')]
    assert len(odom) == len(tf)
    gaps = [t.stamp - o.pose.stamp for o, t in zip(odom, tf)]
    assert all(0.0005 < gap < 0.0065 for gap in gaps)
    assert all(o.pose.position == t.translation for o, t in zip(odom, tf))
    assert all(isinstance(o, OdometryRecord) and o.child_frame_id == 'base_link' for o in odom)


def test_car_drives_the_track(clean: List[Message]) -> None:
    """The car laps a 10 x 6 m track at 1.5 to 4 m/s."""
    poses = [m.payload for m in clean if m.topic == '/slam_pose']
    xs = [p.position[0] for p in poses]
    ys = [p.position[1] for p in poses]
    assert max(xs) - min(xs) == pytest.approx(10, abs=0.5)
    assert max(ys) - min(ys) == pytest.approx(6, abs=0.5)
    odom = [m.payload.pose for m in clean if m.topic == '/odom']
    speeds = [math.dist(a.position, b.position) / (b.stamp - a.stamp)
              for a, b in zip(odom[50:], odom[51:])]
    assert 1.4 < min(speeds) and max(speeds) < 4.1 and max(speeds) > 3.0


def test_odometry_drifts_in_heading(clean: List[Message]) -> None:
    """The odometry heading drifts from the truth; map -> odom corrects it."""
    first, last = transforms(clean, 'odom')[0][1], transforms(clean, 'odom')[-1][1]
    assert abs(yaw_of(last.rotation) - yaw_of(first.rotation)) > 0.02


def pose_errors(messages: List[Message], topic: str, frame: str) -> List[float]:
    """Return how far each pose on topic is from TF's map -> frame at its stamp."""
    store = store_of(messages)
    errors = []
    for message in messages:
        if message.topic == topic:
            pose: PoseRecord = message.payload
            found = lookup(store, 'map', frame, pose.stamp)
            if found.ok:
                errors.append(math.dist(found.transform.translation[:2], pose.position[:2]))
    return errors


@pytest.mark.parametrize('topic,frame,other', [('/pf/viz/inferred_pose', 'laser', 'base_link'),
                                               ('/slam_pose', 'base_link', 'laser')])
def test_poses_fit_their_frame(clean: List[Message], topic: str, frame: str,
                               other: str) -> None:
    """The pf pose is the LiDAR's, /slam_pose the rear axle's, within a few cm of TF."""
    fit = statistics.median(pose_errors(clean, topic, frame))
    assert fit < 0.05
    assert statistics.median(pose_errors(clean, topic, other)) > fit + 0.15


def test_gyro_inserts_odom_imu(gyro: List[Message]) -> None:
    """With gyro odometry slam corrects odom_imu, and odom_imu -> odom comes at 50 Hz."""
    store = store_of(gyro)
    assert store.ancestry('laser') == ['laser', 'base_link', 'odom', 'odom_imu', 'map']
    assert rate([m for m, _ in transforms(gyro, 'odom')]) == pytest.approx(50, rel=0.02)
    assert {m.publisher for m, _ in transforms(gyro, 'odom')} == {'vehicle_state_node'}
    assert statistics.median(pose_errors(gyro, '/slam_pose', 'base_link')) < 0.05


def test_faults_leave_the_rest_of_the_drive_alone(clean: List[Message]) -> None:
    """A fault changes what it changes: the scans of a drive with a fault are the same."""
    faulty = list(drive(DURATION, seed=4, faults=['pf_rear_axle']))
    assert [m for m in faulty if m.topic == '/scan'] == [m for m in clean if m.topic == '/scan']
    assert [m for m in faulty if m.topic == '/pf/viz/inferred_pose'] != \
        [m for m in clean if m.topic == '/pf/viz/inferred_pose']


def test_fault_switched_on_mid_drive() -> None:
    """enable_fault() acts from the next step; disable_fault() stops it."""
    car = SimulatedCar(seed=1)
    before = car.advance(START_TIME + 2.0)
    car.enable_fault('laser_on_tf')
    during = car.advance(START_TIME + 4.0)
    car.disable_fault('laser_on_tf')
    after = car.advance(START_TIME + 6.0)
    assert not transforms(before, 'laser')
    sent = transforms(during + after, 'laser')
    assert len(sent) == pytest.approx(40, abs=1)
    assert all(START_TIME + 2.0 < t.stamp <= START_TIME + 4.005 for _, t in sent)


def test_unknown_fault_is_a_clear_error() -> None:
    """A misspelt fault names the known ones."""
    with pytest.raises(ValueError, match='unknown fault .*pf_rear_axle'):
        list(drive(1.0, faults=['pf_rear']))
    with pytest.raises(ValueError, match='unknown fault'):
        SimulatedCar().enable_fault('nope')


def test_every_fault_is_described_and_scheduled() -> None:
    """FAULTS gives one line per fault (for --list-faults); FAULT_START covers them all."""
    assert set(FAULT_START) == set(FAULTS)
    assert all(name.replace('_', '').isalnum() and name.islower() for name in FAULTS)
    assert all(description and '\n' not in description for description in FAULTS.values())
    assert all(0.0 <= start < 1.0 for start in FAULT_START.values())


def test_config_frames_and_topics_are_used() -> None:
    """The simulator names the frames and topics of the configuration."""
    config = AuditConfig(odom_frame='odometry', odom_topic='/vesc/odom', scan_topic='/lidar')
    messages = list(drive(2.0, config=config))
    topics = {m.topic for m in messages}
    assert {'/vesc/odom', '/lidar'} <= topics and '/odom' not in topics
    assert transforms(messages, 'odometry') and transforms(messages, 'base_link')[0][1].parent \
        == 'odometry'


def test_static_faults_switched_while_driving_resend_the_static_transform():
    car = SimulatedCar(seed=2)
    car.advance(car.start_time + 2.0)
    car.enable_fault('laser_027')
    statics = [m for m in car.advance(car.start_time + 3.0) if m.topic == '/tf_static']
    assert [m.payload[0].translation[0] for m in statics] == [0.27]
    car.disable_fault('laser_027')
    statics = [m for m in car.advance(car.start_time + 4.0) if m.topic == '/tf_static']
    assert [m.payload[0].translation[0] for m in statics] == [0.26]
