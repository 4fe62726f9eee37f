# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live node's cost against a bare rclpy listener of the same topics, and its memory.

Not a test: prints numbers. The node runs in its own process as `ros2 run` starts it, and
beside it, measured in the same windows, a bare rclpy node with empty callbacks on the same
topics (the floor every ROS user already pays: a tf2 listener costs about the same). This
process publishes the car's topics at their rates (odom -> base_link and /odom 50 Hz,
map -> odom at SLAM's 20 Hz, the particle filter's pose and the scan 40 Hz, /slam_pose 4 Hz),
stamped with the wall clock, reads both processes' CPU time and resident memory from /proc,
and counts the messages the node took (its tree status says) against those sent. The flood
adds a new frame name every millisecond on top of the tenfold load: the node forgets what
stopped and the store is bounded (limits.max_frames), so memory must level off. Then, at the
car's load, single /tf messages of 10,000 new frames, each forgotten before the next: what the
node keeps of each once forgotten.

    source .venv/env.sh && python benchmarks/bench_node.py [--seconds 10] [--flood-s 60]
"""
import argparse
import math
import os
from pathlib import Path
import shutil
import subprocess
import sys
import time
from typing import Callable, Dict, List, Tuple

from diagnostic_msgs.msg import DiagnosticArray
from frame_audit.engine.records import HeaderRecord, OdometryRecord, PoseRecord, TransformRecord
from frame_audit.ros import messages as rm
from geometry_msgs.msg import PoseStamped, PoseWithCovarianceStamped
from nav_msgs.msg import Odometry
import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

ROOT = Path(__file__).resolve().parents[1]
CAR_RATES_HZ = {'odom_tf': 50.0, 'odom': 50.0, 'slam_tf': 20.0, 'pf': 40.0, 'scan': 40.0,
                'slam_pose': 4.0}
LASER_X = 0.26
MAP_TO_ODOM = (0.5, 0.2, 0.0)
TICKS = int(os.sysconf('SC_CLK_TCK'))
FORGET_S = 14.0  # timing.history_s (10 s), a diagnostics period, and the batches behind


def node_usage(pid: int) -> Tuple[float, int]:
    """Return a process's CPU seconds so far and its resident memory in kB."""
    fields = Path('/proc/{}/stat'.format(pid)).read_text().rsplit(')', 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICKS
    return cpu, status_kb(pid, 'VmRSS')


def status_kb(pid: int, key: str) -> int:
    """Return one kB field of a process's /proc status (VmRSS now, VmHWM its peak)."""
    return next(int(line.split()[1]) for line in
                Path('/proc/{}/status'.format(pid)).read_text().splitlines()
                if line.startswith(key + ':'))


def yaw_q(theta: float) -> Tuple[float, float, float, float]:
    """Return a rotation about z."""
    return (0.0, 0.0, math.sin(theta / 2.0), math.cos(theta / 2.0))


def car_pose(t: float) -> Tuple[float, float, float]:
    """Return the rear axle in odom: a 5 m circle at 2 m/s."""
    theta = 0.4 * t % (2 * math.pi)
    return (5.0 * math.sin(theta), 5.0 * (1.0 - math.cos(theta)), theta)


class Load:
    """The car's publishers, each sending what is due at its rate times a multiplier."""

    def __init__(self, node):
        """Create the publishers the car uses, with its QoS."""
        static = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                            durability=DurabilityPolicy.TRANSIENT_LOCAL)
        sensor = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
        self.tf = node.create_publisher(TFMessage, '/tf', 100)
        self.static = node.create_publisher(TFMessage, '/tf_static', static)
        self.odom = node.create_publisher(Odometry, '/odom', 10)
        self.pf = node.create_publisher(PoseStamped, '/pf/viz/inferred_pose', 10)
        self.slam_pose = node.create_publisher(PoseWithCovarianceStamped, '/slam_pose', 10)
        self.scan = node.create_publisher(LaserScan, '/scan', sensor)
        self.scan_msg = rm.scan_message(HeaderRecord('laser', 0.0))
        self.sends: Dict[str, Callable[[float], None]] = {
            'odom_tf': self._odom_tf, 'odom': self._odom, 'slam_tf': self._slam_tf,
            'pf': self._pf, 'scan': self._scan, 'slam_pose': self._slam_pose}
        self.due: Dict[str, float] = {}
        self.flood_frames = 0
        self.sent = 0

    def send_static(self) -> None:
        """Send base_link -> laser once, latched."""
        self.static.publish(rm.tf_message([TransformRecord(
            'base_link', 'laser', time.time(), (LASER_X, 0.0, 0.11), (0.0, 0.0, 0.0, 1.0))]))

    def step(self, multiplier: float, flood: bool = False) -> None:
        """Send every stream that is due now; in a flood, one more new frame as well."""
        now = time.time()
        for name, rate in CAR_RATES_HZ.items():
            if now >= self.due.get(name, 0.0):
                self.due[name] = max(self.due.get(name, now) + 1.0 / (rate * multiplier), now)
                self.sends[name](now)
                self.sent += 1
        if flood:
            self.flood_frames += 1
            self.tf.publish(rm.tf_message([TransformRecord(
                'base_link', 'junk_{}'.format(self.flood_frames), now, (0.1, 0.0, 0.0),
                (0.0, 0.0, 0.0, 1.0))]))

    def _odom_tf(self, now: float) -> None:
        x, y, t = car_pose(now)
        self.tf.publish(rm.tf_message([TransformRecord('odom', 'base_link', now, (x, y, 0.0),
                                                       yaw_q(t))]))

    def _odom(self, now: float) -> None:
        x, y, t = car_pose(now)
        self.odom.publish(rm.odometry_message(OdometryRecord(
            PoseRecord('odom', now, (x, y, 0.0), yaw_q(t)), 'base_link')))

    def _slam_tf(self, now: float) -> None:
        self.tf.publish(rm.tf_message([TransformRecord(
            'map', 'odom', now + 1.0, (MAP_TO_ODOM[0], MAP_TO_ODOM[1], 0.0), (0, 0, 0, 1.0))]))

    def _map_pose(self, now: float, forward: float) -> PoseRecord:
        x, y, t = car_pose(now)
        return PoseRecord('map', now, (MAP_TO_ODOM[0] + x + forward * math.cos(t),
                                       MAP_TO_ODOM[1] + y + forward * math.sin(t), 0.0), yaw_q(t))

    def _pf(self, now: float) -> None:
        self.pf.publish(rm.pose_message(self._map_pose(now, LASER_X)))

    def _slam_pose(self, now: float) -> None:
        self.slam_pose.publish(rm.pose_message(self._map_pose(now, 0.0),
                                               PoseWithCovarianceStamped))

    def _scan(self, now: float) -> None:
        self.scan_msg.header.stamp = rm.time_message(now)
        self.scan.publish(self.scan_msg)


def run(load: Load, node, seconds: float, multiplier: float, flood: bool = False) -> None:
    """Publish for seconds (nothing at multiplier 0), spinning the load's node as it goes."""
    load.due.clear()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if multiplier > 0:
            load.step(multiplier, flood)
        rclpy.spin_once(node, timeout_sec=0.0)
        time.sleep(0.0002)


def measure(pids: List[int], load: Load, node, seconds: float,
            multiplier: float) -> List[float]:
    """Return each process's CPU share (1.0 = one core) over the same seconds at a load."""
    before = [node_usage(pid)[0] for pid in pids]
    wall0 = time.monotonic()
    run(load, node, seconds, multiplier)
    wall = time.monotonic() - wall0
    return [(node_usage(pid)[0] - cpu) / wall for pid, cpu in zip(pids, before)]


class Taken:
    """The node's own count of messages taken, from its tree status on /diagnostics."""

    def __init__(self, node):
        """Listen to /diagnostics."""
        self.count = 0
        node.create_subscription(DiagnosticArray, '/diagnostics', self._take, 10)

    def _take(self, msg: DiagnosticArray) -> None:
        for status in rm.frame_audit_statuses(msg):
            if status.check == 'tree':
                self.count = int(status.values.get('node: messages taken', self.count))


def counted(load: Load, node, taken: Taken, seconds: float, multiplier: float,
            pids: List[int]) -> Tuple[List[float], int, int]:
    """Measure CPU at a load; return it with the messages sent and taken in that window."""
    settle(load, node)
    sent0, taken0 = load.sent, taken.count
    shares = measure(pids, load, node, seconds, multiplier)
    settle(load, node)
    return shares, load.sent - sent0, taken.count - taken0


def settle(load: Load, node) -> None:
    """Wait, sending nothing, until the node has published a count of everything sent."""
    run(load, node, 2.5, 0.0)


def bare_listener() -> None:
    """Run a bare rclpy node with empty callbacks on the car's topics: the cost floor."""
    rclpy.init()
    node = rclpy.create_node('bare_listener')
    static = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                        durability=DurabilityPolicy.TRANSIENT_LOCAL)
    sensor = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
    for kind, topic, qos in ((TFMessage, '/tf', 100), (TFMessage, '/tf_static', static),
                             (Odometry, '/odom', 10), (PoseStamped, '/pf/viz/inferred_pose', 10),
                             (PoseWithCovarianceStamped, '/slam_pose', 10),
                             (LaserScan, '/scan', sensor)):
        node.create_subscription(kind, topic, lambda msg: None, qos)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass


def start_node(env: Dict[str, str]) -> subprocess.Popen:
    """Start the node as `ros2 run` would, with the package's parameters file."""
    exe = shutil.which('frame_audit_node')
    command: List[str] = ([exe] if exe else [sys.executable, '-m', 'frame_audit.ros.node']) + [
        '--ros-args', '--params-file', str(ROOT / 'config' / 'frame_audit.yaml')]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def main() -> None:
    """Measure and print the node's CPU share and memory."""
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--seconds', type=float, default=10.0, help='each measurement window')
    parser.add_argument('--flood-s', type=float, default=60.0, help='the flood before memory')
    parser.add_argument('--multiplier', type=float, default=10.0, help='the heavy load')
    parser.add_argument('--big-floods', type=int, default=10,
                        help='messages of 10,000 new frames, each forgotten before the next')
    parser.add_argument('--bare-listener', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_listener:
        bare_listener()
        return
    os.environ['ROS_DOMAIN_ID'] = str(215 + os.getpid() % 18)
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.setdefault('ROS_LOG_DIR', '/tmp/frame_audit_bench_logs')
    rclpy.init()
    node = rclpy.create_node('frame_audit_bench_car')
    load = Load(node)
    taken = Taken(node)
    load.send_static()
    process = start_node(dict(os.environ))
    bare = subprocess.Popen([sys.executable, __file__, '--bare-listener'],
                            env=dict(os.environ), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    pids = [process.pid, bare.pid]
    try:
        time.sleep(3.0)
        idle = measure(pids, load, node, args.seconds, 0.0)
        run(load, node, 3.0, 1.0)  # warm up: the node discovers topics, fills its history
        car, car_sent, car_taken = counted(load, node, taken, args.seconds, 1.0, pids)
        _, rss_car = node_usage(process.pid)
        heavy, heavy_sent, heavy_taken = counted(load, node, taken, args.seconds,
                                                 args.multiplier, pids)
        rss_flood, cpu_flood = [], []
        for _ in range(4):  # memory must level off once the store is full
            cpu0, wall0 = node_usage(process.pid)[0], time.monotonic()
            run(load, node, args.flood_s / 4, args.multiplier, flood=True)
            cpu1, rss = node_usage(process.pid)
            rss_flood.append(rss)
            cpu_flood.append((cpu1 - cpu0) / (time.monotonic() - wall0))
        run(load, node, FORGET_S, 1.0)  # the small flood's frames forgotten
        rss_big = big_floods(load, node, process.pid, args.big_floods)
    finally:
        for child in (process, bare):
            child.terminate()
            child.wait(timeout=15)
        node.destroy_node()
        rclpy.shutdown()
    print('CPU share (1.0 = one core), {} s windows: frame_audit_node, a bare rclpy listener '
          "of the same topics, and their ratio (issue 34's aim: at most 0.35):".format(
              args.seconds))
    for label, (mine, floor) in (('idle (no traffic)', idle), ('car load (1x)', car),
                                 ('{:g}x car load'.format(args.multiplier), heavy)):
        print('  {:<18} node {:6.3f}   bare listener {:6.3f}   ratio {:5.2f}'.format(
            label, mine, floor, mine / floor if floor else float('nan')))
    print('messages taken by the node / sent: 1x {}/{} ({:.3f}), {:g}x {}/{} ({:.3f})'.format(
        car_taken, car_sent, car_taken / max(car_sent, 1), args.multiplier, heavy_taken,
        heavy_sent, heavy_taken / max(heavy_sent, 1)))
    print('node memory (RSS):')
    print('  after 1x load              {:6.1f} MB'.format(rss_car / 1024))
    print('  flood: {:g}x load plus {} new frame names over {:g} s'.format(
        args.multiplier, load.flood_frames, args.flood_s))
    for quarter, (rss, cpu) in enumerate(zip(rss_flood, cpu_flood), start=1):
        print('  after {:4.0f} s of flood   {:6.1f} MB (ratio to 1x: {:.2f}), CPU {:.3f} (ratio '
              'to {:g}x without the flood: {:.1f})'.format(
                  quarter * args.flood_s / 4, rss / 1024, rss / rss_car, cpu, args.multiplier,
                  cpu / heavy[0] if heavy[0] else float('nan')))

    print("  {} messages of 10,000 new frames at the car's load, each forgotten ({:g} s) "
          'before the next:'.format(args.big_floods, FORGET_S))
    print('    before {:6.1f} MB, peak {:6.1f} MB'.format(rss_big[0] / 1024, rss_big[1] / 1024))
    for number, rss in enumerate(rss_big[2:], start=1):
        print('    after flood {:2d} was forgotten {:6.1f} MB (ratio to before: {:.2f})'.format(
            number, rss / 1024, rss / rss_big[0]))


def big_floods(load: Load, node, pid: int, count: int) -> List[int]:
    """Send count messages of 10,000 new frames; return RSS (kB) before, peak, after each."""
    run(load, node, 3.0, 1.0)
    Path('/proc/{}/clear_refs'.format(pid)).write_text('5')  # the peak from here on
    rss = [node_usage(pid)[1]]
    for number in range(count):
        load.tf.publish(rm.tf_message([TransformRecord(
            'flood_root', 'big{}_{}'.format(number, i), time.time(), (0.1, 0.0, 0.0),
            (0.0, 0.0, 0.0, 1.0)) for i in range(10000)]))
        run(load, node, FORGET_S, 1.0)
        rss.append(node_usage(pid)[1])
    return rss[:1] + [status_kb(pid, 'VmHWM')] + rss[1:]


if __name__ == '__main__':
    main()
