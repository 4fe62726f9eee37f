# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Made-up trees for the engine's tests: a car driving a circle, with one thing changed.

Each keyword of drive() changes one thing from the healthy car, as a good geometry test changes
one value, so a test names exactly what it breaks.
"""
from dataclasses import dataclass
import math
from typing import Dict, List, Optional, Sequence

from frame_audit.engine.audit import Audit
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import CheckResult, Level
from frame_audit.engine.geometry import base_to_laser, compose, inverse, quat_from_rpy
from frame_audit.engine.records import Arrival, HeaderRecord, OdometryRecord, PoseRecord, \
    TransformRecord

T0 = 1000.0
RADIUS = 3.0
SPEED = 2.0  # m/s


def tf(parent: str, child: str, stamp: float, x: float = 0.0, y: float = 0.0, z: float = 0.0,
       yaw: float = 0.0) -> TransformRecord:
    """Return a transform record with a planar pose."""
    return TransformRecord(parent, child, stamp, (x, y, z), quat_from_rpy(0.0, 0.0, yaw))


def pose(frame: str, stamp: float, x: float, y: float, yaw: float) -> PoseRecord:
    """Return a planar pose record."""
    return PoseRecord(frame, stamp, (x, y, 0.0), quat_from_rpy(0.0, 0.0, yaw))


def truth(t: float, speed: float = SPEED) -> tuple:
    """Return the rear axle's map pose at t: a circle around the origin."""
    angle = speed * (t - T0) / RADIUS
    return (RADIUS * math.cos(angle), RADIUS * math.sin(angle), angle + math.pi / 2)


@dataclass
class Car:
    """What to change from the healthy car; the defaults are the healthy car."""

    seconds: float = 8.0
    speed: float = SPEED
    gyro: bool = False
    laser_x: float = 0.26
    laser_on_tf: bool = False
    static: bool = True
    pf_point: str = 'laser'  # the point /pf/viz/inferred_pose really carries
    odom_frame_id: str = 'odom'
    scan_frame: str = 'laser'
    odom_parent: Optional[str] = None  # a second parent for odom
    reversed_base: bool = False  # tf_publisher.py's base_link -> odom
    drift_per_s: float = 0.01  # odometry's heading drift (rad/s)
    noise: float = 0.02  # localization noise (m)
    slam_future_s: float = 1.0
    odom_stamp_offset_s: float = 0.003  # vesc_to_odom stamps TF when it sends, /odom earlier
    pf: bool = True
    odom_stops_at: Optional[float] = None
    slip_m: float = 0.0  # wheels slip this far within half a second, 3 s into the drive
    reset_at: Optional[float] = None  # vesc_to_odom restarts: odom jumps back to the origin
    scale_error: float = 0.0  # odometry believes the car went this much further (0.03: 3 %)
    tf_late_every: int = 0  # every n-th odom -> base_link is sent (and stamped) late
    tf_late_s: float = 0.0
    slam_every: int = 10  # steps of 5 ms between two map -> odom messages
    correct_every: int = 100  # steps between two SLAM corrections
    slam_noise: float = 0.0  # each map -> odom message's noise (a localizer without filter)


def odom_estimate(t: float, car: Car) -> tuple:
    """Return odometry's belief of the rear axle in odom: the truth, rotated by its drift."""
    drift = car.drift_per_s * (t - T0)
    slip = car.slip_m * min(1.0, max(0.0, (t - T0 - 3.0) / 0.5))
    pose = compose((slip, 0.0, drift), truth(t, car.speed * (1.0 + car.scale_error)))
    if car.reset_at is not None and t >= T0 + car.reset_at:
        return compose(inverse(odom_estimate(T0 + car.reset_at - 1e-9, car)), pose)
    return pose


def feed(audit: Audit, car: Car, check_every: float = 1.0) -> List[List[CheckResult]]:
    """Drive the car into the audit, checking once a second; return every cycle's results."""
    cycles = []
    rng = _Noise()
    odom = car.odom_frame_id if not car.gyro else 'odom'
    top = 'odom_imu' if car.gyro else 'odom'
    if car.static:
        audit.add_transforms([tf('base_link', 'laser', T0, car.laser_x, 0.0, 0.11)],
                             Arrival('/tf_static', T0, 'base_link_to_laser'))
    steps = int(car.seconds * 200)
    next_check = T0 + check_every
    map_odom = (0.0, 0.0, 0.0)
    for step in range(1, steps + 1):
        t = T0 + step / 200.0
        if step % 4 == 0 and (car.odom_stops_at is None or t < T0 + car.odom_stops_at):
            est = odom_estimate(t, car)  # the VESC state at t, sent (and stamped) later
            sent = t + car.odom_stamp_offset_s + (
                car.tf_late_s if car.tf_late_every and (step // 4) % car.tf_late_every == 0
                else 0.0)
            audit.add_transforms([tf(odom, 'base_link', sent, est[0], est[1], 0.0, est[2])],
                                 Arrival('/tf', sent, 'vesc_to_odom_node'))
            audit.add_odometry(OdometryRecord(pose(odom, t, *est), 'base_link'),
                               Arrival('/odom', sent))
            if car.gyro:
                audit.add_transforms([tf('odom_imu', 'odom', t)],
                                     Arrival('/tf', t, 'vehicle_state_node'))
            if car.laser_on_tf:
                audit.add_transforms([tf('base_link', 'laser', t, car.laser_x, 0.0, 0.11)],
                                     Arrival('/tf', t, 'tf_publisher'))
            if car.reversed_base:
                audit.add_transforms([tf('base_link', 'odom', t)], Arrival('/tf', t,
                                                                           'tf_publisher'))
        if step % car.correct_every == 0:  # SLAM corrects the drift in a jump
            true_pose = truth(t, car.speed)
            map_odom = compose(true_pose, inverse(odom_estimate(t, car)))
        if step % car.slam_every == 0:  # map -> odom republished, future-dated
            audit.add_transforms([tf('map', top, t + car.slam_future_s,
                                     map_odom[0] + rng.sample() * car.slam_noise,
                                     map_odom[1] + rng.sample() * car.slam_noise, 0.0,
                                     map_odom[2])],
                                 Arrival('/tf', t, 'slam_toolbox'))
            if car.odom_parent:
                audit.add_transforms([tf(car.odom_parent, odom, t)], Arrival('/tf', t, 'ekf'))
        if step % 5 == 0:
            axle = truth(t - 0.02, car.speed)
            point = base_to_laser(axle, 0.26) if car.pf_point == 'laser' else axle
            if car.pf:
                audit.add_pose(pose('map', t - 0.02, point[0] + rng.sample() * car.noise,
                                    point[1] + rng.sample() * car.noise, point[2]),
                               Arrival('/pf/viz/inferred_pose', t))
            audit.add_scan(HeaderRecord(car.scan_frame, t), Arrival('/scan', t))
        if step % 50 == 0:
            axle = truth(t - 0.05, car.speed)
            audit.add_pose(pose('map', t - 0.05, axle[0], axle[1], axle[2]),
                           Arrival('/slam_pose', t))
        if t >= next_check:
            cycles.append(audit.check(t))
            next_check += check_every
    return cycles


class _Noise:
    """A small deterministic noise source in [-1, 1] (no global random state in tests)."""

    def __init__(self) -> None:
        self.state = 12345

    def sample(self) -> float:
        self.state = (1103515245 * self.state + 12345) % 2 ** 31
        return self.state / 2 ** 30 - 1.0


def audit_car(car: Car, config: Optional[AuditConfig] = None) -> List[CheckResult]:
    """Return the last cycle's results for a drive of car."""
    audit = Audit(config or AuditConfig())
    return feed(audit, car)[-1]


def by_id(results: Sequence[CheckResult]) -> Dict[str, CheckResult]:
    """Return results by check id."""
    return {result.check: result for result in results}


def problems(results: Sequence[CheckResult]) -> List[str]:
    """Return 'check: LEVEL message' for every WARN or ERROR finding."""
    return ['{}: {} {}'.format(f.check, f.level.name, f.message)
            for result in results for f in result.findings
            if f.level in (Level.WARN, Level.ERROR)]
