# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A synthetic drive of the F1TENTH car (docs/car.md), clean or with real faults injected.

The car laps a 10 x 6 m elliptical track under pure pursuit, on the kinematic bicycle model.
Each node of the car's stack is emulated with its published rate, stamping habits and errors:
vesc_to_odom's drifting dead reckoning, slam_toolbox's future-dated map -> odom corrections
that arrive as jumps, the particle filter's LiDAR pose, the static LiDAR transform. Output is
engine records (engine.records.Message), so the same drive feeds the bag writer, the
offline audit and the live simulator node. Deterministic for a seed: every publisher draws
its noise from its own random stream, so a fault never changes the rest of the drive.
"""
from dataclasses import dataclass
import heapq
import math
import random
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from ..engine.config import AuditConfig
from ..engine.geometry import base_to_laser, compose, inverse, Pose2D, quat_from_rpy
from ..engine.records import HeaderRecord, Message, OdometryRecord, Payload, PoseRecord, \
    Quaternion, TF_STATIC_TOPIC, TF_TOPIC, TransformRecord
from ..message_types import POSE_STAMPED, POSE_WITH_COVARIANCE

START_TIME = 1_700_000_000.0
STEP_S = 0.005  # physics step; every publisher's period is a whole number of steps
WHEELBASE_M = 0.33
TRACK_A_M, TRACK_B_M = 5.0, 3.0  # the ellipse's semi-axes: a 10 x 6 m track
LOOKAHEAD_M = 1.0
MIN_SPEED, MAX_SPEED = 1.5, 4.0  # m/s
LATERAL_ACCEL = 1.6  # m/s^2 the driver allows in bends
ACCEL = 3.0  # m/s^2
SLAM_TIMEOUT_S = 1.0  # slam_toolbox's transform_timeout: map -> odom is stamped this far ahead
MAP_LATE_S = 0.30  # the map_odom_late fault: map -> odom stamped this far behind the clock

PF_TOPIC = '/pf/viz/inferred_pose'
SLAM_POSE_TOPIC = '/slam_pose'
# The ROS message type of each simulated pose topic (for the bag writer and the live node).
POSE_TYPES: Dict[str, str] = {PF_TOPIC: POSE_STAMPED, SLAM_POSE_TOPIC: POSE_WITH_COVARIANCE}

# Publisher names, as `ros2 node list` would show them on the car.
VESC = 'vesc_to_odom_node'
SLAM = 'slam_toolbox'
STATIC = 'base_link_to_laser'
PF = 'particle_filter'
SLAM_POSE = 'slam_pose_node'
LIDAR = 'urg_node'
GYRO = 'vehicle_state_node'
EKF = 'ekf_filter_node'
TF_PUBLISHER = 'tf_publisher'
STATIC_AGAIN = 'static_transform_publisher_upstream'

FAULTS: Dict[str, str] = {
    'pf_rear_axle': '/pf/viz/inferred_pose carries the rear axle, though consumers take it '
                    'for the LiDAR',
    'slam_pose_laser': '/slam_pose carries the LiDAR, though consumers take it for the rear '
                       'axle',
    'odom_two_parents': "vehicle_state_node's odom_imu -> odom alongside slam_toolbox's "
                        'map -> odom: odom gets a second parent',
    'pf_map_laser': "the particle filter sends '/map' -> '/laser' on /tf: laser gets a "
                    'second parent, with leading slashes',
    'ekf_odom_tf': 'an EKF also sends odom -> base_link, interleaved with vesc_to_odom, '
                   'drifting away from it',
    'ekf_map_tf': 'an EKF also sends map -> odom, interleaved with slam_toolbox',
    'laser_027': 'the static base_link -> laser says x = 0.27 m (upstream f1tenth_system), '
                 'the LiDAR sits at 0.26 m',
    'reversed_edge': "tf_publisher.py's identity base_link -> odom: odom's chain reversed",
    'odom_reset': 'vesc_to_odom restarts mid-drive: odom -> base_link jumps back to the origin',
    'odom_stops': 'vesc_to_odom stops half-way: odom -> base_link and /odom go silent',
    'nan_transform': 'vesc_to_odom sends a NaN position now and then (a VESC state glitch)',
    'bad_quaternion': "odom -> base_link's quaternion is integrated without renormalizing: "
                      'its length creeps away from 1',
    'leading_slash': "the static LiDAR transform names '/base_link' and '/laser' (ROS 1 habit)",
    'static_changed': 'a second static_transform_publisher re-sends base_link -> laser with '
                      'x = 0.27 m half-way',
    'laser_on_tf': 'base_link -> laser is also sent on /tf, at 20 Hz',
    'scan_frame_missing': "the LiDAR driver's default frame_id 'laser_frame' is left in /scan",
    'time_loop': 'the recording loops back in time half-way (a restarted clock)',
    'no_tf_static': 'the recorder started late: no /tf_static message at all',
    'map_odom_late': 'slam_toolbox stamps map -> odom 0.30 s behind the clock instead of ahead '
                     '(a slow scan match, transform_timeout 0): scans cannot be placed in map',
}
# When drive() switches each fault on, as a fraction of the drive; 0 means from the start.
FAULT_START: Dict[str, float] = dict.fromkeys(FAULTS, 0.0)
FAULT_START.update({'odom_two_parents': 1 / 3, 'ekf_odom_tf': 1 / 3, 'ekf_map_tf': 1 / 3,
                    'nan_transform': 1 / 3, 'bad_quaternion': 1 / 3, 'odom_reset': 0.5,
                    'odom_stops': 0.5, 'static_changed': 0.5, 'time_loop': 0.5})

# Publisher periods in physics steps.
VESC_STEPS = 4  # 50 Hz
SCAN_STEPS = 5  # 40 Hz
SLAM_TF_STEPS = 10  # 20 Hz
SLAM_POSE_STEPS = 50  # 4 Hz
SLAM_UPDATE_STEPS = 100  # a scan matched every 0.5 s
SLAM_DELAY_STEPS = 10  # 50 ms to match a scan
TF_PUBLISHER_STEPS = 10  # 20 Hz
EKF_MAP_STEPS = 6  # 33 Hz
NAN_EVERY = 75  # vesc messages between two NaN glitches (1.5 s)
QUATERNION_CREEP = 0.004  # per second: squared length 1.01 after 2.5 s
RESTART_GAP_STEPS = 60  # vesc_to_odom is silent 0.3 s while it restarts
RESTART_FROM_M = 3.0  # odom_reset waits until odom is this far from its origin, to be seen


def _tf(parent: str, child: str, stamp: float, pose: Pose2D, z: float = 0.0,
        rotation: Optional[Quaternion] = None) -> TransformRecord:
    """Return a planar pose as a transform record."""
    x, y, theta = pose
    return TransformRecord(parent, child, stamp, (x, y, z),
                           rotation if rotation is not None else quat_from_rpy(0.0, 0.0, theta))


def _pose(frame: str, stamp: float, pose: Pose2D,
          rotation: Optional[Quaternion] = None) -> PoseRecord:
    """Return a planar pose as a pose record."""
    x, y, theta = pose
    return PoseRecord(frame, stamp, (x, y, 0.0),
                      rotation if rotation is not None else quat_from_rpy(0.0, 0.0, theta))


def _noisy(rng: random.Random, pose: Pose2D, sigma_m: float, sigma_rad: float) -> Pose2D:
    """Return pose with Gaussian noise on position and heading."""
    x, y, theta = pose
    return (x + rng.gauss(0.0, sigma_m), y + rng.gauss(0.0, sigma_m),
            theta + rng.gauss(0.0, sigma_rad))


class RaceTrack:
    """The closed track: an ellipse through the map origin, driven counter-clockwise."""

    def __init__(self, a: float = TRACK_A_M, b: float = TRACK_B_M, points: int = 720):
        """Sample the ellipse centred at (0, b), so the car starts at the origin heading +x."""
        self.points = [(a * math.sin(2 * math.pi * i / points),
                        b - b * math.cos(2 * math.pi * i / points)) for i in range(points)]
        self.spacing = 2 * math.pi * math.sqrt((a * a + b * b) / 2) / points
        self.a, self.b = a, b
        self.index = 0

    def curvature(self) -> float:
        """Return the curvature of the ellipse at the last point followed."""
        phase = 2 * math.pi * self.index / len(self.points)
        a, b = self.a, self.b
        dx, dy = a * math.cos(phase), b * math.sin(phase)
        return a * b / (dx * dx + dy * dy) ** 1.5

    def steer(self, pose: Pose2D) -> float:
        """Return the pure-pursuit steering angle towards the point LOOKAHEAD_M ahead."""
        x, y, theta = pose
        self._follow(x, y)
        count = len(self.points)
        tx, ty = self.points[(self.index + int(LOOKAHEAD_M / self.spacing)) % count]
        alpha = math.atan2(ty - y, tx - x) - theta
        return math.atan2(2.0 * WHEELBASE_M * math.sin(alpha), LOOKAHEAD_M)

    def _follow(self, x: float, y: float) -> None:
        """Move the followed point on to the track point nearest the car."""
        count = len(self.points)
        self.index = min(range(self.index, self.index + 20),
                         key=lambda i: (self.points[i % count][0] - x) ** 2
                         + (self.points[i % count][1] - y) ** 2) % count


@dataclass
class DeadReckoning:
    """An odometry estimate: the car's motion integrated with a scale error and a yaw bias."""

    pose: Pose2D = (0.0, 0.0, 0.0)
    speed_scale: float = 1.0
    yaw_bias: float = 0.0  # rad/s

    def advance(self, speed: float, yaw_rate: float, dt: float) -> None:
        """Integrate one step of measured motion."""
        self.pose = compose(self.pose, (speed * self.speed_scale * dt, 0.0,
                                        (yaw_rate + self.yaw_bias) * dt))


@dataclass
class Slam:
    """slam_toolbox's state: the correction it publishes and the scan it came from."""

    map_to_odom: Optional[Pose2D] = None
    scan_stamp: float = 0.0
    pending: Optional[Tuple[int, Pose2D, float]] = None  # (apply at step, value, stamp)


# Faults in the static transform: switched while driving, the static publisher restarts.
RESENT_STATIC = ('static_changed', 'laser_027', 'leading_slash')


class SimulatedCar:
    """The car and its stack, stepped on demand; faults switch on and off while it drives."""

    def __init__(self, seed: int = 0, faults: Iterable[str] = (), gyro: bool = False,
                 config: AuditConfig = AuditConfig(), start_time: float = START_TIME):
        """Park the car at the map origin; nothing is sent until advance()."""
        self.seed = seed
        self.gyro = gyro
        self.config = config
        self.start_time = start_time
        self.faults: Dict[str, float] = {}  # fault -> drive time it was switched on
        self._streams: Dict[str, random.Random] = {}
        self._step = 0
        self._queue: List[Tuple[float, int, str, Payload, str]] = []
        self._sequence = 0
        self._clock_offset = 0.0  # the recorded clock minus drive time (time_loop)
        self._clock_jumps: List[Tuple[float, float]] = []  # (drive time, offset from then)
        self._track = RaceTrack()
        self._truth: Pose2D = (0.0, 0.0, 0.0)
        self._speed = MIN_SPEED
        self._speed_wish = 0.0
        rng = self._rng('vesc_calibration')
        self._vesc = DeadReckoning(speed_scale=1.0 + rng.choice((-1, 1)) * rng.uniform(
            0.002, 0.006), yaw_bias=rng.choice((-1, 1)) * rng.uniform(0.002, 0.004))
        self._gyro_odom = DeadReckoning(yaw_bias=rng.gauss(0.0, 0.0005))
        self._ekf: Optional[DeadReckoning] = None
        self._ekf_map_error: Pose2D = (0.0, 0.0, 0.0)
        self._vesc_silent_until = 0
        self._reset_pending = False
        self._vesc_sent = 0
        self._slam = Slam()
        for name in faults:
            self.enable_fault(name)

    # -- the public clock ---------------------------------------------------------------

    @property
    def now(self) -> float:
        """Return the drive time reached (start_time plus the seconds driven)."""
        return self.start_time + self._step * STEP_S

    def advance(self, until: float) -> List[Message]:
        """
        Drive until drive time `until`; return the messages received by then, in order.

        With the time_loop fault the messages' receive times jump back; `until` stays on
        the drive's own clock.
        """
        while self.now <= until:  # a message received by `until` was sent by then
            self._advance_step()
        messages = []
        while self._queue and self._queue[0][0] <= until:
            received, _, topic, payload, publisher = heapq.heappop(self._queue)
            messages.append(Message(received + self._offset_at(received), topic, payload,
                                    publisher))
        return messages

    def _offset_at(self, drive_time: float) -> float:
        """Return the recorded clock's offset at a drive time (it jumps with time_loop)."""
        return next((offset for since, offset in reversed(self._clock_jumps)
                     if since <= drive_time), 0.0)

    def enable_fault(self, name: str) -> None:
        """Switch a fault on from now; odom_reset, static_changed and time_loop happen now."""
        if name not in FAULTS:
            raise ValueError('unknown fault {!r} (known: {})'.format(
                name, ', '.join(sorted(FAULTS))))
        if name in self.faults:
            return
        self.faults[name] = self.now
        if name == 'odom_reset':
            self._reset_pending = True
        elif name == 'time_loop':
            self._loop_clock()  # a replayed recording sends /tf_static again
        elif name == 'static_changed' or (name in RESENT_STATIC and self._step):
            self._send_static()  # the static publisher restarts with the wrong value
        elif name == 'ekf_odom_tf':
            rng = self._rng(EKF)
            self._ekf = DeadReckoning(self._vesc.pose, self._vesc.speed_scale + 0.03,
                                      self._vesc.yaw_bias - rng.uniform(0.015, 0.025))

    def _loop_clock(self) -> None:
        """Restart the recorded clock at start_time, as a replayed recording would."""
        jump = self.now - self.start_time
        self._clock_offset -= jump
        self._clock_jumps.append((self.now, self._clock_offset))
        # The restarted recorder misses what was in flight.
        self._queue = [entry for entry in self._queue if entry[0] < self.now]
        heapq.heapify(self._queue)
        self._slam.scan_stamp -= jump
        if self._slam.pending is not None:
            apply_at, value, stamp = self._slam.pending
            self._slam.pending = (apply_at, value, stamp - jump)
        self._send_static()  # a replayed recording sends /tf_static again

    def disable_fault(self, name: str) -> None:
        """Switch a fault off; what it already sent stays sent, a static value is resent."""
        if self.faults.pop(name, None) is not None and name in RESENT_STATIC:
            self._send_static()

    # -- one physics step ---------------------------------------------------------------

    def _rng(self, stream: str) -> random.Random:
        """Return the random stream of one publisher (its own, so faults change nothing else)."""
        rng = self._streams.get(stream)
        if rng is None:
            rng = self._streams[stream] = random.Random('{}:{}'.format(self.seed, stream))
        return rng

    def _emit(self, delay: float, topic: str, payload: Payload, publisher: str) -> None:
        """
        Queue a message received `delay` after this step's drive time.

        Its receive time is read from the recorded clock when it arrives: a message sent
        just before the clock jumps back arrives on the new clock.
        """
        heapq.heappush(self._queue, (self.now + delay, self._sequence, topic, payload,
                                     publisher))
        self._sequence += 1

    def _stamp(self, delay: float = 0.0) -> float:
        """Return the recorded clock at delay after this step."""
        return self.now + delay + self._clock_offset

    def _advance_step(self) -> None:
        """Publish what is due at this step, then move the car one step."""
        step = self._step
        if step == 0:
            self._send_static()
        if step % SCAN_STEPS == 0:
            self._send_scan()
        if step % SLAM_UPDATE_STEPS == 0:
            self._match_scan()
        self._apply_slam(step)
        if step % SLAM_TF_STEPS == 0:
            self._send_slam_tf()
        if step % SLAM_POSE_STEPS == 0:
            self._send_slam_pose()
        if step % VESC_STEPS == 0:
            self._send_vesc()
        self._send_fault_edges(step)
        self._move()
        self._step += 1

    def _move(self) -> None:
        """Drive one step: pure pursuit, a speed for the bend, the bicycle model."""
        rng = self._rng('driver')
        steering = self._track.steer(self._truth)
        if self._step % 200 == 0:
            self._speed_wish = rng.uniform(-0.3, 0.3)
        bend = math.sqrt(LATERAL_ACCEL / max(self._track.curvature(), 1e-3))
        target = min(MAX_SPEED, max(MIN_SPEED, bend + self._speed_wish))
        change = max(-ACCEL * STEP_S, min(ACCEL * STEP_S, target - self._speed))
        self._speed += change
        yaw_rate = self._speed * math.tan(steering) / WHEELBASE_M
        self._truth = compose(self._truth, (self._speed * STEP_S, 0.0, yaw_rate * STEP_S))
        noise = self._rng('wheel')
        measured = self._speed + noise.gauss(0.0, 0.02)
        measured_yaw = yaw_rate + noise.gauss(0.0, 0.01)
        self._vesc.advance(measured, measured_yaw, STEP_S)
        self._restart_vesc()
        self._gyro_odom.advance(measured, yaw_rate + noise.gauss(0.0, 0.002), STEP_S)
        if self._ekf is not None:
            self._ekf.advance(measured, measured_yaw, STEP_S)
        self._ekf_map_error = compose(self._ekf_map_error, (0.004 * STEP_S, 0.015 * STEP_S,
                                                            0.002 * STEP_S))

    def _restart_vesc(self) -> None:
        """odom_reset: once odom is far from its origin, restart vesc_to_odom there."""
        x, y, _ = self._vesc.pose
        if self._reset_pending and math.hypot(x, y) > RESTART_FROM_M:
            self._reset_pending = False
            self._vesc_silent_until = self._step + RESTART_GAP_STEPS
        if self._step < self._vesc_silent_until:  # restarting: it starts again at the origin
            self._vesc.pose = (0.0, 0.0, 0.0)

    # -- the car's nodes ----------------------------------------------------------------

    def _laser_pose(self) -> Pose2D:
        """Return the LiDAR's true map pose."""
        return base_to_laser(self._truth, self.config.laser_translation[0])

    def _send_static(self) -> None:
        """Send base_link -> laser on /tf_static (latched: received at once)."""
        if 'no_tf_static' in self.faults:
            return
        config = self.config
        x, y, z = config.laser_translation
        if 'laser_027' in self.faults or 'static_changed' in self.faults:
            x = 0.27
        parent, child = config.base_frame, config.laser_frame
        if 'leading_slash' in self.faults:
            parent, child = '/' + parent, '/' + child
        record = TransformRecord(parent, child, self._stamp(), (x, y, z),
                                 quat_from_rpy(*config.laser_rpy))
        publisher = STATIC_AGAIN if 'static_changed' in self.faults else STATIC
        self._emit(0.0, TF_STATIC_TOPIC, (record,), publisher)

    def _send_scan(self) -> None:
        """Send the scan's header: the LiDAR driver stamps each scan as it starts."""
        frame = 'laser_frame' if 'scan_frame_missing' in self.faults else self.config.laser_frame
        self._emit(0.001, self.config.scan_topic, HeaderRecord(frame, self._stamp()), LIDAR)
        self._send_pf()

    def _send_pf(self) -> None:
        """Send the particle filter's estimate for this scan: the LiDAR's map pose."""
        rng = self._rng(PF)
        truth = self._truth if 'pf_rear_axle' in self.faults else self._laser_pose()
        estimate = _noisy(rng, truth, 0.025, 0.01)
        delay = rng.uniform(0.01, 0.02)
        self._emit(delay, _pose_topic(self.config, 'pf', PF_TOPIC),
                   _pose(self.config.map_frame, self._stamp(), estimate), PF)
        if 'pf_map_laser' in self.faults:
            record = _tf('/' + self.config.map_frame, '/' + self.config.laser_frame,
                         self._stamp(), estimate, z=self.config.laser_translation[2])
            self._emit(delay, TF_TOPIC, (record,), PF)

    def _slam_odom_frame(self) -> str:
        """Return the frame slam_toolbox corrects: odom_imu with gyro odometry."""
        return 'odom_imu' if self.gyro else self.config.odom_frame

    def _match_scan(self) -> None:
        """Match this step's scan: map -> odom is the estimate composed with odometry undone."""
        rng = self._rng(SLAM)
        estimate = _noisy(rng, self._truth, 0.015, 0.003)
        odometry = self._gyro_odom.pose if self.gyro else self._vesc.pose
        value = compose(estimate, inverse(odometry))
        self._slam.pending = (self._step + SLAM_DELAY_STEPS, value, self._stamp())

    def _apply_slam(self, step: int) -> None:
        """Adopt the matched correction once the matching is done."""
        pending = self._slam.pending
        if pending is not None and pending[0] <= step:
            _, self._slam.map_to_odom, self._slam.scan_stamp = pending
            self._slam.pending = None

    def _send_slam_tf(self) -> None:
        """Send map -> odom at 20 Hz, stamped the scan's time plus transform_timeout."""
        value = self._slam.map_to_odom
        if value is None:
            return
        stamp = self._stamp(-MAP_LATE_S) if 'map_odom_late' in self.faults \
            else self._slam.scan_stamp + SLAM_TIMEOUT_S
        record = _tf(self.config.map_frame, self._slam_odom_frame(), stamp, value)
        self._emit(self._rng(SLAM).uniform(0.0005, 0.002), TF_TOPIC, (record,), SLAM)
        if 'odom_two_parents' in self.faults and self.gyro:
            wrong = _tf(self.config.map_frame, self.config.odom_frame,
                        self._slam.scan_stamp + SLAM_TIMEOUT_S,
                        compose(value, self._gyro_to_wheel()))
            self._emit(0.002, TF_TOPIC, (wrong,), SLAM)

    def _send_slam_pose(self) -> None:
        """Send /slam_pose: the rear axle's map pose at 4 Hz."""
        rng = self._rng(SLAM_POSE)
        truth = self._laser_pose() if 'slam_pose_laser' in self.faults else self._truth
        self._emit(0.03, _pose_topic(self.config, 'slam', SLAM_POSE_TOPIC),
                   _pose(self.config.map_frame, self._stamp(), _noisy(rng, truth, 0.01, 0.005)),
                   SLAM_POSE)

    def _gyro_to_wheel(self) -> Pose2D:
        """Return odom_imu -> odom: the gyro pose composed with the wheel pose undone."""
        return compose(self._gyro_odom.pose, inverse(self._vesc.pose))

    def _vesc_rotation(self, theta: float) -> Quaternion:
        """Return vesc_to_odom's quaternion; bad_quaternion lets its length creep."""
        x, y, z, w = quat_from_rpy(0.0, 0.0, theta)
        since = self.faults.get('bad_quaternion')
        if since is None:
            return (x, y, z, w)
        scale = math.sqrt(1.0 + QUATERNION_CREEP * (self.now - since))
        return (x * scale, y * scale, z * scale, w * scale)

    def _send_vesc(self) -> None:
        """Send odom -> base_link (stamped when sent) and /odom (stamped with the VESC state)."""
        if 'odom_stops' in self.faults or self._step < self._vesc_silent_until:
            return
        rng = self._rng(VESC)
        config = self.config
        state_time = self._stamp()
        send_delay = rng.uniform(0.001, 0.006)
        pose = self._vesc.pose
        self._vesc_sent += 1
        if 'nan_transform' in self.faults and self._vesc_sent % NAN_EVERY == 0:
            pose = (math.nan, math.nan, pose[2])
        rotation = self._vesc_rotation(pose[2])
        record = _tf(config.odom_frame, config.base_frame, state_time + send_delay, pose,
                     rotation=rotation)
        self._emit(send_delay + 0.0005, TF_TOPIC, (record,), VESC)
        odometry = OdometryRecord(_pose(config.odom_frame, state_time, pose, rotation),
                                  config.base_frame)
        self._emit(send_delay + 0.001, config.odom_topic, odometry, VESC)
        if self.gyro and 'odom_two_parents' not in self.faults:
            gyro = _tf('odom_imu', config.odom_frame, state_time, self._gyro_to_wheel())
            self._emit(send_delay + 0.002, TF_TOPIC, (gyro,), GYRO)

    def _send_fault_edges(self, step: int) -> None:
        """Send the transforms that only faulty nodes send."""
        config = self.config
        if 'odom_two_parents' in self.faults and not self.gyro and step % VESC_STEPS == 0:
            record = _tf('odom_imu', config.odom_frame, self._stamp(), self._gyro_to_wheel())
            self._emit(0.002, TF_TOPIC, (record,), GYRO)
        if 'ekf_odom_tf' in self.faults and self._ekf is not None \
                and step % VESC_STEPS == VESC_STEPS // 2:
            record = _tf(config.odom_frame, config.base_frame, self._stamp(), self._ekf.pose)
            self._emit(0.001, TF_TOPIC, (record,), EKF)
        if 'ekf_map_tf' in self.faults and step % EKF_MAP_STEPS == 0:
            estimate = compose(self._truth, self._ekf_map_error)
            value = compose(estimate, inverse(self._vesc.pose))
            record = _tf(config.map_frame, self._slam_odom_frame(), self._stamp(), value)
            self._emit(0.001, TF_TOPIC, (record,), EKF)
        if step % TF_PUBLISHER_STEPS == 0:
            self._send_tf_publisher()

    def _send_tf_publisher(self) -> None:
        """Send what a hand-written tf_publisher node sends on /tf at 20 Hz."""
        config = self.config
        if 'reversed_edge' in self.faults:
            record = _tf(config.base_frame, config.odom_frame, self._stamp(), (0.0, 0.0, 0.0))
            self._emit(0.001, TF_TOPIC, (record,), TF_PUBLISHER)
        if 'laser_on_tf' in self.faults:
            record = TransformRecord(config.base_frame, config.laser_frame, self._stamp(),
                                     config.laser_translation, quat_from_rpy(*config.laser_rpy))
            self._emit(0.001, TF_TOPIC, (record,), TF_PUBLISHER)


def _pose_topic(config: AuditConfig, name: str, default: str) -> str:
    """Return the configured topic of the pose named name, or the car's default."""
    return next((pose.topic for pose in config.pose_topics or () if pose.name == name), default)


def drive(duration_s: float, seed: int = 0, faults: Iterable[str] = (), gyro: bool = False,
          config: AuditConfig = AuditConfig(),
          start_time: float = START_TIME) -> Iterator[Message]:
    """Yield a drive of duration_s seconds; each fault switches on at its FAULT_START."""
    faults = list(dict.fromkeys(faults))
    unknown = [name for name in faults if name not in FAULTS]
    if unknown:
        raise ValueError('unknown fault {!r} (known: {})'.format(
            unknown[0], ', '.join(sorted(FAULTS))))
    car = SimulatedCar(seed, [f for f in faults if FAULT_START[f] == 0.0], gyro, config,
                       start_time)
    for fraction, name in sorted((FAULT_START[f], f) for f in faults if FAULT_START[f] > 0.0):
        yield from _drive_until(car, start_time + fraction * duration_s)
        car.enable_fault(name)
    yield from _drive_until(car, start_time + duration_s)


def _drive_until(car: SimulatedCar, until: float) -> Iterator[Message]:
    """Yield the car's messages up to drive time until, a second at a time (memory stays flat)."""
    while car.now < until:
        yield from car.advance(min(until, car.now + 1.0))
    yield from car.advance(until)
