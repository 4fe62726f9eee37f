# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live node over real rclpy and Fast DDS, in its own process as `ros2 run` starts it.

The simulated car (one rclpy node per node of its stack) drives in real time; the node's
/diagnostics must be all OK once warmed up, then name the faults switched on in the running
car: the particle filter's poses (declared laser) sent as rear-axle poses, a second parent
for odom, a LiDAR re-sent at 0.27 m. Under use_sim_time it follows /clock through a bag loop.
A configured topic whose publisher restarts with another reliability is followed. The
simulator's own node and the monitor run as processes too.
"""
import signal
import subprocess
import sys
import time
from typing import Callable, Dict, List, Set

from frame_audit.engine.checks import CHECK_IDS
from frame_audit.engine.findings import Level
from frame_audit.engine.records import TransformRecord
from frame_audit.reports.diagnostics import FINDING_PREFIX
from frame_audit.ros import messages as rm, monitor
from frame_audit.ros.intake import gives_publisher_gid
from frame_audit.ros.sim_node import CarPublishers
from frame_audit.sim.car import SimulatedCar
from live import Car, command, drive_until, Listener, node_command, set_faults
from nav_msgs.msg import Odometry
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from tf2_msgs.msg import TFMessage

pytestmark = [pytest.mark.ros, pytest.mark.slow]


def test_wrong_parameter_is_one_line_naming_the_key(env):
    result = subprocess.run(node_command('-p', 'laser_offset.translation:=[0.26, 0.0]'),
                            env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert 'Traceback' not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and 'laser_offset.translation' in lines[0], result.stderr


def test_lookups_tf2_asking_for_a_missing_tf2_is_one_line_naming_the_key(env):
    """This machine has no tf2_py: lookups.tf2 tf2_py stops the node; auto takes the model."""
    result = subprocess.run(node_command('-p', 'lookups.tf2:=tf2_py'), env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and 'Traceback' not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and 'lookups.tf2' in lines[0], result.stderr
    assert 'tf2_py is not importable' in lines[0]


def monitor_command(*options: str) -> List[str]:
    """Return `frame-audit monitor`'s command line (its module, as the CLI runs it)."""
    return [sys.executable, '-m', 'frame_audit', 'monitor'] + list(options)


def test_monitor_without_diagnostics_says_so(env):
    result = subprocess.run(monitor_command('--once', '--timeout', '1'), env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert result.stderr.strip() == \
        'frame-audit monitor: no frame_audit diagnostics on /diagnostics'


def test_monitor_lines_colour_levels_and_fit_the_terminal():
    status = rm.Status('laser_offset', Level.ERROR, 'x' * 200, 'car', {'x_m': '0.27'})
    line = monitor.status_line(status, colour=True, width=60)
    assert line.startswith(monitor.COLOURS[Level.ERROR] + 'ERROR' + monitor.RESET)
    assert len(line) - len(monitor.COLOURS[Level.ERROR] + monitor.RESET) == 60
    plain = monitor.status_line(rm.Status('timing', Level.OK, 'fine', 'car', {'rate': '50'}),
                                colour=False)
    assert plain == 'OK    timing             fine  [rate=50]'


def test_with_no_car_every_row_says_what_it_waits_for(graph, env):
    """Issue 35: with nothing sent, rows read as passes ("one tree of 0 frames")."""
    listener, executor = graph
    listener.latest = {}
    node = subprocess.Popen(node_command(), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        heard = drive_until(lambda: None, executor,
                            lambda: len(listener.latest) == len(CHECK_IDS) + 1, timeout=25.0)
        assert heard, listener.describe()
        assert {s.level for s in listener.latest.values()} == {Level.STALE}, listener.describe()
        for check in ('parent_uniqueness', 'transform_values', 'timing', 'static_transforms',
                      'connectivity', 'tree'):
            assert listener.latest[check].message == 'nothing to judge: no transform received ' \
                'yet on /tf or /tf_static', listener.describe()
    finally:
        node.terminate()
        _, stderr = node.communicate(timeout=15)
    assert 'Traceback' not in stderr, stderr


def test_healthy_car_then_faults(graph, car, env):
    listener, executor = graph
    # The car drives before the node starts: /tf_static must reach it through transient local.
    drive_until(car.step, executor, lambda: False, 1.0)
    node = subprocess.Popen(node_command(), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        _healthy_then_faults(car, listener, executor, env)
    finally:
        node.terminate()
        _, stderr = node.communicate(timeout=15)
    assert 'Traceback' not in stderr, stderr


def _healthy_then_faults(car: Car, listener: Listener, executor: SingleThreadedExecutor,
                         env: Dict[str, str]):
    all_ok = drive_until(car.step, executor, lambda: len(listener.latest) == len(CHECK_IDS) + 1
                         and not listener.not_ok(), timeout=25.0)
    assert all_ok, 'not all OK once warmed up:\n' + listener.describe()
    assert set(listener.latest) == set(CHECK_IDS) | {'tree'}
    tree = listener.latest['tree']
    assert tree.hardware_id == 'f1tenth_car'
    if gives_publisher_gid():  # each message names its sender
        assert 'by vesc_to_odom_node' in tree.values['base_link'], tree.values
    else:  # /tf has several publishers: who sent an edge is not known, and not guessed
        assert ' by ' not in tree.values['base_link'], tree.values
    assert 'by base_link_to_laser' in tree.values['laser'], tree.values  # /tf_static's only
    assert tree.values['node: messages not taken'] == '0'
    _monitor_shows_all_ok(car, executor, env)

    # The pose fault first: a second parent for odom cuts map off base_link (tf2 follows the
    # newest parent), after which no pose can be placed against TF.
    car.sim.enable_fault('pf_rear_axle')
    named = drive_until(car.step, executor, lambda: _pf_found_at(listener, 'base_link'),
                        timeout=20.0)
    assert named, 'rear-axle poses declared laser not named:\n' + listener.describe()

    car.sim.enable_fault('odom_two_parents')
    car.sim.enable_fault('static_changed')  # a second static publisher says x = 0.27 m
    wanted = {'parent_uniqueness', 'laser_offset'}
    named = drive_until(car.step, executor, lambda: wanted <= listener.errors(),
                        timeout=10.0)
    assert named, 'faults not named:\n' + listener.describe()
    assert 'odom_imu' in listener.text('parent_uniqueness')
    assert 'vehicle_state_node' in listener.text('parent_uniqueness') or \
        not gives_publisher_gid()
    assert 'x=0.27 expected_x=0.26' in listener.latest['laser_offset'].message  # the row


def _monitor_shows_all_ok(car: Car, executor: SingleThreadedExecutor, env: Dict[str, str]):
    viewer = subprocess.Popen(monitor_command('--once'), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    drive_until(car.step, executor, lambda: viewer.poll() is not None, timeout=20.0)
    out, err = viewer.communicate(timeout=10)
    assert viewer.returncode == 0, err
    head, *lines = out.strip().splitlines()
    assert head.startswith('frame_audit on f1tenth_car at ')
    assert head.endswith(': {} OK, 0 WARN, 0 ERROR, 0 STALE'.format(len(CHECK_IDS) + 1))
    assert [line.split()[:2] for line in lines] == [['OK', c] for c in CHECK_IDS + ('tree',)]


def _pf_found_at(listener: Listener, frame: str) -> bool:
    """Return whether pose_frame has an ERROR: the pf topic's poses are frame's, not laser's."""
    status = listener.latest.get('pose_frame')
    if status is None or status.level != Level.ERROR:
        return False
    values = status.values
    findings = [key for key in values
                if key.startswith(FINDING_PREFIX) and key[len(FINDING_PREFIX):].isdigit()]
    return any(values[key].startswith('ERROR') and values.get(key + ' frames') == 'laser, '
               + frame and values.get(key + ' topics') == '/pf/viz/inferred_pose'
               for key in findings)


def test_sim_time_follows_clock_through_a_bag_loop(graph, car, env):
    listener, executor = graph
    clock = listener.node.create_publisher(Clock, '/clock', 10)
    node = subprocess.Popen(node_command('-p', 'use_sim_time:=true'), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for seconds in (6.0, 4.0):  # the recording plays, then loops back to its start
            _play(SimulatedCar(seed=1, start_time=1000.0), car.publishers, clock, executor,
                  seconds)
    finally:
        node.terminate()
        _, stderr = node.communicate(timeout=15)
        listener.node.destroy_publisher(clock)
    assert 'Traceback' not in stderr, stderr
    assert 1000.0 < listener.stamp < 1007.0  # diagnostics stamped with /clock's time
    assert 'time jumped back' in listener.latest['timing'].message
    assert not listener.errors(), listener.describe()


def _play(sim: SimulatedCar, publishers: CarPublishers, clock, executor, seconds: float):
    """Send a recording from sim's start time, with /clock, as `ros2 bag play --clock`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        now = sim.start_time + time.monotonic() - start
        clock.publish(Clock(clock=rm.time_message(now)))
        for message in sim.advance(now):
            publishers.publish(message)
        executor.spin_once(timeout_sec=0.005)


def test_sim_node_switches_faults_at_run_time(graph, env):
    listener, executor = graph
    node = listener.node
    edges: Dict[tuple, float] = {}

    def take(msg: TFMessage) -> None:
        for t in msg.transforms:
            edges.setdefault((t.header.frame_id, t.child_frame_id), time.monotonic())

    subscription = node.create_subscription(TFMessage, '/tf', take, 100)
    started = time.monotonic()
    sim = subprocess.Popen(command('frame_audit_sim', 'frame_audit.ros.sim_node', '-p',
                                   'faults:=pf_map_laser', '-p', 'fault_after_s:=1.5',
                                   '-p', 'duration_s:=30.0'),
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        def spin(until: Callable[[], bool]) -> bool:
            return drive_until(lambda: None, executor, until, timeout=10.0)

        assert spin(lambda: ('/map', '/laser') in edges), edges
        assert edges[('/map', '/laser')] - started >= 1.5  # fault_after_s
        wanted = {'vesc_to_odom_node', 'slam_toolbox', 'particle_filter'}

        def publishers() -> set:  # the graph names a node a moment after its endpoint
            return {i.node_name for i in node.get_publishers_info_by_topic('/tf')}
        assert spin(lambda: wanted <= publishers()), publishers()

        assert set_faults(node, 'odom_two_parents', executor).successful
        assert spin(lambda: ('odom_imu', 'odom') in edges), edges
        refused = set_faults(node, 'odom_two_parents, no_such_fault', executor)
        assert not refused.successful and 'no_such_fault' in refused.reason
    finally:
        node.destroy_subscription(subscription)
        sim.terminate()
        _, stderr = sim.communicate(timeout=15)
    assert 'Traceback' not in stderr, stderr


def start_node(env: Dict[str, str], *ros_args: str) -> subprocess.Popen:
    """Start the node in its own process; its stderr is read when it ends."""
    return subprocess.Popen(node_command(*ros_args), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def stop(node: subprocess.Popen) -> str:
    """Stop the node; return its stderr, which must hold no traceback."""
    node.terminate()
    try:
        _, stderr = node.communicate(timeout=15)
    except subprocess.TimeoutExpired:  # where it hangs (PYTHONFAULTHANDLER), then end it
        node.send_signal(signal.SIGABRT)
        _, stderr = node.communicate(timeout=15)
        raise AssertionError('the node did not end on SIGTERM:\n' + stderr[-6000:])
    assert 'Traceback' not in stderr, stderr
    return stderr


HISTORY_S = 6.0  # timing.history_s for the tests that wait for a status to clear (/slam_pose
# at 4 Hz needs 5 s for pose_frame.min_samples)


def test_an_error_clears_when_its_cause_is_gone(graph, car, env):
    listener, executor = graph
    node = start_node(env, '-p', 'timing.history_s:={}'.format(HISTORY_S))
    try:
        assert drive_until(car.step, executor, lambda: len(listener.latest) == len(CHECK_IDS)
                           + 1 and not listener.not_ok(), 25.0), listener.describe()
        car.sim.enable_fault('odom_two_parents')
        assert drive_until(car.step, executor,
                           lambda: 'parent_uniqueness' in listener.errors(), 10.0)
        car.sim.disable_fault('odom_two_parents')
        stopped = time.monotonic()
        assert drive_until(car.step, executor, lambda: not listener.not_ok(),
                           HISTORY_S + 2 * 1.0 + 3.0), listener.describe()
        assert time.monotonic() - stopped >= HISTORY_S - 1.0  # tf2 keeps it as long
    finally:
        stderr = stop(node)
    assert 'cleared: parent_uniqueness odom has 2 parents' in stderr


def test_both_faults_from_the_first_message(graph, env):
    listener, executor = graph
    car = Car()
    car.sim.enable_fault('odom_two_parents')
    car.sim.enable_fault('pf_rear_axle')
    node = start_node(env)
    try:
        both = drive_until(car.step, executor, lambda: {'parent_uniqueness', 'pose_frame'}
                           <= listener.errors(), 30.0)
        assert both, listener.describe()
        assert "its poses are base_link's" in listener.text('pose_frame')
        assert 'map' in listener.text('chain_order')  # odom's REP 105 parent
    finally:
        stop(node)
        car.publishers.destroy()


def test_a_hostile_phase_then_a_healthy_car(graph, car, env):
    listener, executor = graph
    hostile = listener.node.create_publisher(TFMessage, '/tf', 100)
    node = start_node(env, '-p', 'timing.history_s:={}'.format(HISTORY_S))
    nan = rm.tf_message([TransformRecord('odom', 'base_link', time.time(),
                                         (float('nan'), 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))])
    try:
        assert drive_until(car.step, executor, lambda: len(listener.latest) == len(CHECK_IDS)
                           + 1 and not listener.not_ok(), 25.0), listener.describe()
        end = time.monotonic() + 3.0
        frame = 0
        while time.monotonic() < end:  # NaN, self-parented ids, a flood, stamps looping
            car.step()
            now = time.time()
            frame += 1
            hostile.publish(nan)
            hostile.publish(rm.tf_message([
                TransformRecord('laser', 'laser', now, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
                TransformRecord('flood_root', 'flood_{}'.format(frame), now, (0.0, 0.0, 0.0),
                                (0.0, 0.0, 0.0, 1.0)),
                TransformRecord('world', 'looping', now - 30.0 * (frame % 2), (0.0, 0.0, 0.0),
                                (0.0, 0.0, 0.0, 1.0))]))
            executor.spin_once(timeout_sec=0.002)
        assert {'transform_values', 'connectivity'} <= listener.errors(), listener.describe()
        calm = drive_until(car.step, executor, lambda: not listener.not_ok(),
                           HISTORY_S + 2 * 1.0 + 3.0)
        assert calm, listener.describe()
    finally:
        stop(node)
        listener.node.destroy_publisher(hostile)


def test_a_burst_after_a_stall_is_only_the_stall(graph, car, env):
    listener, executor = graph
    node = start_node(env)
    try:
        assert drive_until(car.step, executor, lambda: len(listener.latest) == len(CHECK_IDS)
                           + 1 and not listener.not_ok(), 25.0), listener.describe()
        seen = set()
        drive_until(lambda: None, executor, lambda: False, 3.0)  # the car's computer stalls
        car.step()  # then sends everything due at once, each with its own stamp

        def watch() -> bool:
            seen.update(listener.errors())
            return False
        drive_until(car.step, executor, watch, 5.0)
        assert seen <= {'timing'}, listener.describe()
        assert not listener.errors(), listener.describe()
    finally:
        stop(node)


def test_topics_not_in_use_and_topics_waited_for(graph, car, env):
    listener, executor = graph
    waiting = listener.node.create_subscription(TFMessage, '/wanted_pose', lambda m: None, 10)
    node = start_node(env, '-p', 'pose_topics:=[pf, slam, ghost, wanted]',
                      '-p', 'poses.ghost.topic:=/ghost_pose',
                      '-p', 'poses.ghost.pose_frame:=base_link',
                      '-p', 'poses.wanted.topic:=/wanted_pose',
                      '-p', 'poses.wanted.pose_frame:=base_link')
    try:
        def judged() -> bool:
            status = listener.latest.get('pose_frame')
            return status is not None and status.level == Level.WARN
        assert drive_until(car.step, executor, judged, 25.0), listener.describe()
        status = listener.latest['pose_frame']
        assert '/wanted_pose (poses.wanted.topic in' in listener.text('pose_frame')
        assert 'has 1 subscriber waiting for it and no publisher' in listener.text('pose_frame')
        assert 'ghost' not in status.message and 'finding 2' not in status.values
    finally:
        stop(node)
        listener.node.destroy_subscription(waiting)


class RestartingPublisher:
    """One of the car's topics, sent by a publisher the test can restart with another QoS."""

    def __init__(self, topic: str, kind: type, qos: QoSProfile):
        """Publish topic from a node of the test's own."""
        self.node = rclpy.create_node('frame_audit_test_restarting',
                                      start_parameter_services=False)
        self.topic, self.kind = topic, kind
        self.publisher = self.node.create_publisher(kind, topic, qos)
        self.sent = 0  # by the current publisher

    def publish(self, msg) -> None:
        """Send msg from the current publisher."""
        self.publisher.publish(msg)
        self.sent += 1

    def restart(self, qos: QoSProfile) -> int:
        """Destroy the publisher, create another with qos; return what the old one sent."""
        self.node.destroy_publisher(self.publisher)
        self.publisher = self.node.create_publisher(self.kind, self.topic, qos)
        sent, self.sent = self.sent, 0
        return sent

    def destroy(self) -> None:
        """Destroy the node."""
        self.node.destroy_node()


def _odometry_messages(listener: Listener) -> int:
    """Return how many odometry messages the audit has taken, as its diagnostics say."""
    status = listener.latest.get('odometry')
    return int(status.values.get('messages', 0)) if status is not None else 0


def _tree_frames(listener: Listener) -> Set[str]:
    """Return the frames the tree status lists."""
    status = listener.latest.get('tree')
    return {key for key, value in status.values.items()
            if value == 'root' or value.startswith('parent ')} if status is not None else set()


def test_a_publisher_restarting_with_another_reliability_is_followed(graph, car, env):
    listener, executor = graph
    odometry = RestartingPublisher('/odom', Odometry, QoSProfile(
        depth=10, reliability=ReliabilityPolicy.RELIABLE))

    def step() -> None:  # the car drives; its /odom goes out through the restarting publisher
        for message in car.sim.advance(time.time()):
            if message.topic == '/odom':
                odometry.publish(rm.ros_message(message))
            else:
                car.publishers.publish(message)
    node = start_node(env)
    try:
        assert drive_until(step, executor, lambda: len(listener.latest) == len(CHECK_IDS) + 1
                           and not listener.not_ok(), 25.0), listener.describe()
        frames = _tree_frames(listener)
        assert {'map', 'odom', 'base_link', 'laser'} <= frames, listener.describe()
        taken = _odometry_messages(listener)
        assert taken > 0, listener.describe()
        # The odometry node restarts best effort: the reliable subscription cannot take it.
        sent_before = odometry.restart(QoSProfile(depth=10,
                                                  reliability=ReliabilityPolicy.BEST_EFFORT))
        restarted = time.monotonic()
        followed = drive_until(step, executor, lambda: _odometry_messages(listener)
                               > sent_before + 20, 15.0)
        assert node.poll() is None, 'the node stopped'
        assert followed, 'the new publisher is not followed ({} taken of {} sent before it)' \
            '\n{}'.format(_odometry_messages(listener), sent_before, listener.describe())
        assert _odometry_messages(listener) >= taken  # what it took before is kept
        assert frames <= _tree_frames(listener), listener.describe()
        stamp = listener.stamp
        assert drive_until(step, executor, lambda: listener.stamp >= stamp + 2.0, 5.0), \
            'no /diagnostics since {:.1f} s after the restart'.format(
                time.monotonic() - restarted)
        assert node.poll() is None, 'the node stopped'
    finally:
        stderr = stop(node)
        odometry.destroy()
    assert stderr.count('listening to /odom (nav_msgs/msg/Odometry)') == 2, stderr
