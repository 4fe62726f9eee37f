# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Other people's robots, as their recordings look: made-up drives with their trees and habits.

A Robot describes a tree (REP 105's map, odom and base, and a body of static frames), its
topics and its rates; its keywords change one habit at a time (a recorder started after
/tf_static, ROS 1 '/' ids, a clock seconds behind, a second odometry node, a stalled
computer), as a good geometry test changes one value. drive() returns the messages as the
recorder received them; record() writes them with the project's own writer.
"""
from dataclasses import dataclass, field, replace
import math
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from frame_audit.engine.geometry import compose, inverse, quat_from_rpy
from frame_audit.engine.records import HeaderRecord, Message, OdometryRecord, PoseRecord, \
    TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from frame_audit.message_types import POSE_STAMPED, POSE_WITH_COVARIANCE, TF1_MESSAGE, TF2_MESSAGE
from frame_audit.recordings.write import write_bag

T0 = 1_700_000_000.0
SPIN_S = 1.5  # a spinning robot reverses its turn this often
Mount = Tuple[str, str, Tuple[float, float, float], float]  # parent, child, xyz, yaw


@dataclass(frozen=True)
class PoseOut:
    """A pose topic: which point of the robot it carries, in which frame, how often."""

    topic: str
    point: str  # the frame whose pose it is
    rate_hz: float
    msgtype: str = POSE_STAMPED


@dataclass(frozen=True)
class Robot:
    """A robot's tree, topics and habits; the defaults are a healthy TurtleBot-style robot."""

    name: str = 'turtlebot'
    map_frame: Optional[str] = 'map'  # None: no localization in this recording
    odom_frame: str = 'odom'
    base: str = 'base_footprint'
    body: Tuple[Mount, ...] = (('base_footprint', 'base_link', (0.0, 0.0, 0.010), 0.0),
                               ('base_link', 'base_scan', (-0.032, 0.0, 0.172), 0.0),
                               ('base_link', 'imu_link', (-0.032, 0.0, 0.068), 0.0))
    scan_frame: Optional[str] = 'base_scan'  # None: no LiDAR
    scan_hz: float = 5.0
    odom_topic: Optional[str] = '/odom'
    odom_hz: float = 30.0
    map_hz: float = 10.0
    map_future_s: float = 0.5  # AMCL's transform_tolerance dates map -> odom ahead
    poses: Tuple[PoseOut, ...] = (PoseOut('/amcl_pose', 'base_footprint', 5.0,
                                          POSE_WITH_COVARIANCE),)
    speed: float = 0.22  # m/s, a TurtleBot3's top speed
    radius: float = 1.5
    seconds: float = 20.0
    # habits and faults, one keyword each
    tf_static: bool = True  # False: the recorder started after /tf_static was latched
    slash: bool = False  # ROS 1 ids: '/odom', '/base_link'
    lag_s: float = 0.0  # every stamp this far behind the receiving clock
    second_odom_hz: float = 0.0  # a second node also sends odom -> base, with its own drift
    stall: Optional[Tuple[float, float]] = None  # (at, for): delivery stops, then a burst
    loop_at: Optional[float] = None  # stamps restart from T0 here; receipts run on
    map_missing: bool = False
    ros1: bool = False
    extra_edges: Tuple[Mount, ...] = ()  # further static edges, sent on /tf_static
    odom_from: float = 0.0  # the odometry node starts this far in: the recorder came first
    spin: float = 0.0  # rad/s: turning back and forth instead of circling, reversing every SPIN_S
    odom_periods: Tuple[float, ...] = ()  # odometry's periods in turn: irregular stamps

    def frames(self) -> List[str]:
        """Return every frame the robot's tree has."""
        names = [self.odom_frame, self.base] + ([self.map_frame] if self.map_frame else [])
        return names + [child for _, child, _, _ in self.body + self.extra_edges]


FOXBOT = Robot(  # a ROS 1 field robot: odom -> base_link by an EKF, a Velodyne, no map
    name='foxbot', map_frame=None, base='base_link',
    body=(('base_link', 'velodyne', (0.35, 0.0, 0.60), 0.0),
          ('base_link', 'imu_link', (0.0, 0.0, 0.2), 0.0)),
    scan_frame='velodyne', scan_hz=10.0, odom_topic='/odometry/filtered', odom_hz=50.0,
    poses=(PoseOut('/gps_pose', 'base_link', 10.0, POSE_WITH_COVARIANCE),),
    speed=1.0, radius=4.0, ros1=True)

TURTLESIM = Robot(  # none of a car's frames: world -> turtle1, a pose of the turtle
    name='turtlesim', map_frame=None, odom_frame='world', base='turtle1', body=(),
    scan_frame=None, odom_topic=None, odom_hz=60.0, poses=(), speed=1.0, radius=2.0,
    seconds=1.5)

BOAT = Robot(  # a ROS 1 boat: an EKF's odom -> base_link at 10 Hz, a GPS and an IMU, no LiDAR
    name='boat', base='base_link', body=(('base_link', 'gps', (0.2, 0.0, 1.0), 0.0),
                                         ('base_link', 'imu', (0.0, 0.0, 0.3), 0.0)),
    scan_frame=None, odom_topic='/odometry/filtered', odom_hz=10.0, map_future_s=0.0,
    poses=(), speed=1.0, radius=10.0, seconds=60.0, ros1=True)

RACECAR = Robot(  # a simulator's car: a LiDAR 0.275 m ahead, a particle filter on its pose
    name='racecar', base='base_link',
    body=(('base_link', 'lidar', (0.275, 0.0, 0.09), 0.0),),
    scan_frame='lidar', scan_hz=40.0, odom_hz=50.0, map_hz=20.0, map_future_s=0.0,
    poses=(PoseOut('/pf/pose', 'lidar', 40.0),), speed=2.0, radius=3.0)


MOCAP_CAR = Robot(  # a car tracked by motion capture: map -> car from Vicon, its pose beside it
    name='mocap_car', map_frame=None, odom_frame='map', base='car',
    body=(('car', 'imu', (0.05, 0.0, 0.04), 0.0),), scan_frame=None, odom_topic=None,
    odom_hz=100.0, poses=(PoseOut('/vicon/car', 'car', 100.0),), speed=1.0, radius=1.5,
    seconds=8.0)

Motion = Callable[[float], Tuple[float, float, float]]  # seconds in -> planar (x, y, yaw)
Joint = Tuple[str, str, float, Motion]  # parent, child, z, the child's planar pose over time


def joints(moving: Sequence[Joint], static: Sequence[Mount] = (), seconds: float = 8.0,
           hz: float = 10.0) -> List[Message]:
    """
    Return a tree whose edges move as given, not a vehicle driving: an arm, a drone.

    The static mounts come once on /tf_static; each moving edge at hz on /tf, one message
    per tick as robot_state_publisher sends its joints.
    """
    messages = [Message(T0, TF_STATIC_TOPIC, tuple(
        _tf(p, c, T0, (xyz[0], xyz[1], yaw), xyz[2]) for p, c, xyz, yaw in static))] \
        if static else []
    for i in range(1, int(seconds * hz) + 1):
        t = T0 + i / hz
        messages.append(Message(t, TF_TOPIC, tuple(
            _tf(parent, child, t, motion(t - T0), z) for parent, child, z, motion in moving)))
    return messages


def _tf(parent: str, child: str, stamp: float, pose: Tuple[float, float, float],
        z: float = 0.0) -> TransformRecord:
    return TransformRecord(parent, child, stamp, (pose[0], pose[1], z),
                           quat_from_rpy(0.0, 0.0, pose[2]))


@dataclass
class _Clock:
    """Receive times and stamps: a stall holds deliveries back, a loop restarts the stamps."""

    robot: Robot
    held: List[Message] = field(default_factory=list)

    def stamp(self, t: float) -> float:
        loop = self.robot.loop_at
        back = loop if loop is not None and t >= T0 + loop else 0.0
        return t - back - self.robot.lag_s

    def received(self, t: float) -> float:
        stall = self.robot.stall
        if stall is not None and T0 + stall[0] <= t < T0 + stall[0] + stall[1]:
            # queued while the computer is stalled, all delivered in its last millisecond, in
            # order, before anything sent after it
            return T0 + stall[0] + stall[1] - 1e-3 + (t - T0 - stall[0]) / stall[1] * 0.9e-3
        return t


def _body_offset(robot: Robot, frame: str) -> Tuple[float, float, float]:
    """Return a frame's planar pose in the base, by the static body."""
    parents = {child: (parent, xyz, yaw) for parent, child, xyz, yaw in robot.body}
    pose = (0.0, 0.0, 0.0)
    while frame != robot.base:
        parent, xyz, yaw = parents[frame]
        pose = compose((xyz[0], xyz[1], yaw), pose)
        frame = parent
    return pose


def _name(robot: Robot, frame: str) -> str:
    return '/' + frame if robot.slash else frame


def drive(robot: Robot) -> List[Message]:
    """Return the robot's messages for a drive around a circle, in the order received."""
    clock = _Clock(robot)
    messages: List[Message] = []
    n = _name

    def send(t: float, topic: str, payload: object) -> None:
        messages.append(Message(clock.received(t), topic, payload))  # type: ignore[arg-type]

    if robot.tf_static:
        send(T0, TF_STATIC_TOPIC, tuple(
            _tf(n(robot, p), n(robot, c), T0, (xyz[0], xyz[1], yaw), xyz[2])
            for p, c, xyz, yaw in robot.body + robot.extra_edges))

    def truth(t: float) -> Tuple[float, float, float]:
        if robot.spin:  # back and forth at its speed, turning at its rate, both reversing
            turns, into = divmod(t - T0, SPIN_S)
            along = into if turns % 2 == 0 else SPIN_S - into
            return (robot.radius + robot.speed * along, 0.0, robot.spin * along)
        angle = robot.speed * (t - T0) / robot.radius
        return (robot.radius * math.cos(angle), robot.radius * math.sin(angle),
                angle + math.pi / 2)

    def odometry(t: float, drift: float) -> Tuple[float, float, float]:
        return compose((0.0, 0.0, drift * (t - T0)), truth(t))

    step = 0.001
    periods: Dict[str, float] = {'odom': 1.0 / robot.odom_hz, 'map': 1.0 / robot.map_hz}
    if robot.scan_frame:
        periods['scan'] = 1.0 / robot.scan_hz
    periods.update({pose.topic: 1.0 / pose.rate_hz for pose in robot.poses})
    if robot.second_odom_hz:
        periods['second'] = 1.0 / robot.second_odom_hz
    due = {name: T0 + period for name, period in periods.items()}
    map_odom = (0.0, 0.0, 0.0)
    odom_sent = 0
    for i in range(1, int(robot.seconds / step) + 1):
        t = T0 + i * step
        stamp = clock.stamp(t)
        for name in [name for name, when in due.items() if when <= t + 1e-9]:
            due[name] += periods[name]
            if name == 'odom' and robot.odom_periods:
                odom_sent += 1
                due[name] += robot.odom_periods[odom_sent % len(robot.odom_periods)] - \
                    periods[name]
            if name == 'odom':
                if t < T0 + robot.odom_from:
                    continue
                est = odometry(t, 0.01)
                send(t, TF_TOPIC, (_tf(n(robot, robot.odom_frame), n(robot, robot.base),
                                       stamp, est),))
                if robot.odom_topic:
                    record = PoseRecord(n(robot, robot.odom_frame), stamp, (est[0], est[1], 0.0),
                                        quat_from_rpy(0.0, 0.0, est[2]))
                    send(t, robot.odom_topic, OdometryRecord(record, n(robot, robot.base)))
            elif name == 'second':  # another node's estimate of the same motion
                est = odometry(t, -0.03)
                send(t, TF_TOPIC, (_tf(n(robot, robot.odom_frame), n(robot, robot.base),
                                       stamp, compose((0.05, 0.02, 0.0), est)),))
            elif name == 'scan' and robot.scan_frame:
                send(t, '/scan', HeaderRecord(n(robot, robot.scan_frame), stamp))
            elif name == 'map':
                if int((t - T0) * 2) != int((t - T0 - periods['map']) * 2):
                    map_odom = compose(truth(t), inverse(odometry(t, 0.01)))  # a correction
                if robot.map_frame and not robot.map_missing:
                    send(t, TF_TOPIC, (_tf(n(robot, robot.map_frame), n(robot, robot.odom_frame),
                                           stamp + robot.map_future_s, map_odom),))
            else:
                pose = next(p for p in robot.poses if p.topic == name)
                where = truth(t) if robot.map_frame else odometry(t, 0.01)  # no map: in odom
                point = compose(where, _body_offset(robot, pose.point))
                frame = robot.map_frame or robot.odom_frame
                send(t, name, PoseRecord(n(robot, frame), stamp, (point[0], point[1], 0.0),
                                         quat_from_rpy(0.0, 0.0, point[2])))
    messages.sort(key=lambda message: message.received)
    return messages


class Audited:
    """A recording's audit through the command line: exit code and JSON report."""

    def __init__(self, code: int, report: dict):
        self.code = code
        self.report = report

    def findings(self, check: Optional[str] = None) -> List[dict]:
        """Return the findings, or one check's."""
        return [f for f in self.report['findings'] if check is None or f['check'] == check]

    def level(self, check: str) -> str:
        """Return one check's level."""
        return next(c['level'] for c in self.report['checks'] if c['check'] == check)

    def message(self, check: str) -> str:
        """Return one check's message: its worst finding's, or its summary."""
        return next(c['message'] for c in self.report['checks'] if c['check'] == check)

    def checks(self) -> List[str]:
        """Return the check of each finding, sorted."""
        return sorted(f['check'] for f in self.findings())


def record(folder: Path, robot: Robot, suffix: str = '') -> Path:
    """Write a drive of robot as a recording (ROS 1 .bag for a ROS 1 robot, else .mcap)."""
    suffix = suffix or ('.bag' if robot.ros1 else '.mcap')
    path = Path(folder) / (robot.name + suffix)
    write_bag(path, drive(robot), pose_types={p.topic: p.msgtype for p in robot.poses},
              tf_type=TF1_MESSAGE if robot.ros1 else TF2_MESSAGE, beams=16)
    return path


def variant(robot: Robot, name: str, **changes: object) -> Robot:
    """Return the robot with one habit changed, under a name of its own."""
    return replace(robot, name=name, **changes)  # type: ignore[arg-type]
