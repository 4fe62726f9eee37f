# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the live node forgets and how it words what it publishes, without DDS (fast).

Every status must clear once its cause is gone: each simulator fault switched on and off in
the engine, as the node runs it (forget, then check, once a second); the record of a static
value changed and changed back, a static edge's /tf stream, the limits.max_frames WARN, each
against its healthy twin that must stay reported. Then the node's own parts: its stall judged
STALE, its rqt rows, its log lines, and the launch's reading of a parameters file checked
against rcl's own parser.
"""
import json
import math
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence

from diagnostic_msgs.msg import DiagnosticStatus
from frame_audit.engine.audit import Audit
from frame_audit.engine.check_ids import LOOKUPS
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.findings import CheckResult, Finding, Level
from frame_audit.engine.records import Message, TF_STATIC_TOPIC, TF_TOPIC
from frame_audit.engine.stall import judge_discovery, judge_stall, Stall
from frame_audit.reports.diagnostics import MAX_MESSAGE_CHARS, row_message, status_content
from frame_audit.ros.launch_checks import rcl_problem
from frame_audit.ros.node import FrameAuditNode, log_lines
from frame_audit.sim.car import FAULTS, SimulatedCar
from nested import in_process_domain
import pytest
import rclpy
from rclpy.context import Context
from robots import drive, Robot
from trees import tf

HISTORY_S = 6.0
CONFIG = AuditConfig(history_s=HISTORY_S)


class LiveAudit:
    """An audit run as the node runs it: messages in, then forget and check once a second."""

    def __init__(self, config: AuditConfig = CONFIG):
        """Start empty."""
        self.audit = Audit(config)

    def take(self, messages: Sequence[Message]) -> None:
        """Hand messages to the audit."""
        for message in messages:
            self.audit.add(message)

    def check(self, now: float) -> Dict[str, CheckResult]:
        """Forget what the window left behind, then run every check."""
        self.audit.forget(now)
        return {result.check: result for result in self.audit.check(now)}


def not_ok(results: Dict[str, CheckResult], ignore: Sequence[str] = ()) -> Dict[str, str]:
    """Return the checks that are not OK, with their messages."""
    return {check: r.message for check, r in results.items()
            if r.level != Level.OK and check not in ignore}


@pytest.mark.parametrize('fault', sorted(set(FAULTS) - {'time_loop', 'no_tf_static'}))
def test_every_fault_clears_within_the_window_once_off(fault):
    car = SimulatedCar(seed=4, config=CONFIG, start_time=1.7e9)
    live = LiveAudit()
    now = car.now

    def run(seconds: int, ignore: Sequence[str] = ()) -> List[Dict[str, str]]:
        nonlocal now
        seen = []
        for _ in range(seconds):
            now += 1.0
            live.take(car.advance(now))
            seen.append(not_ok(live.check(now), ignore))
        return seen

    assert run(15)[-1] == {}  # the healthy twin: the car before the fault
    car.enable_fault(fault)
    assert any(run(8)), fault
    car.disable_fault(fault)
    # lookups is new and another's (an issue of its own): its clearing is judged over DDS
    after = run(int(HISTORY_S) + 3, ignore=(LOOKUPS,))
    cleared = next((i + 1 for i, seen in enumerate(after) if not seen), None)
    assert cleared is not None and cleared <= HISTORY_S + 1, after[-1]
    assert not any(after[cleared:]), after  # and it stays clear


@pytest.mark.parametrize('reset', [True, False])
def test_an_odometry_reset_after_a_second_source_has_gone_is_reported(reset):
    """The live class's order: ekf_odom_tf on and off, then vesc_to_odom restarts (or not)."""
    car = SimulatedCar(seed=4, config=CONFIG, start_time=1.7e9)
    live = LiveAudit()
    now = car.now
    odometry = []  # once the EKF's evidence has left the window
    for second in range(50):
        if second in (15, 25):  # an EKF also sends odom -> base_link for 10 s
            (car.enable_fault if second == 15 else car.disable_fault)('ekf_odom_tf')
        if second == 25 + HISTORY_S + 2 and reset:
            car.enable_fault('odom_reset')  # once odom is 3 m from its origin
        now += 1.0
        live.take(car.advance(now))
        results = live.check(now)
        if second == 24:
            assert results['parent_uniqueness'].level == Level.ERROR  # the two sources
        if second == 25 + HISTORY_S + 1:
            assert not_ok(results, ignore=(LOOKUPS,)) == {}, 'the EKF is gone: all clear'
        if second > 25 + HISTORY_S + 1:
            odometry.append(results['odometry'])
    jumped = [r for r in odometry if 'jumped' in r.message]
    assert all(r.level == Level.ERROR for r in jumped)
    assert (len(jumped) >= HISTORY_S - 1) == reset and (not jumped) != reset, \
        [r.message for r in odometry]


def _wheel_odometry(start: float, seconds: float, reset_at: Optional[float],
                    ekf_until: float) -> List[Message]:
    """
    Return a diff drive's odom -> base_footprint at 30 Hz (ros2_control), on a 2 m circle.

    robot_localization's EKF also sends the edge, 0.3 m off, until ekf_until (its
    publish_tf left on); the controller restarts at reset_at: odometry back at the origin.
    """
    messages = []
    for step in range(int(seconds * 30)):
        at = start + step / 30.0
        since = at - start if reset_at is None or at < start + reset_at else \
            at - start - reset_at
        angle = 0.15 * since
        x, y = 2.0 * math.sin(angle), 2.0 * (1.0 - math.cos(angle))
        messages.append(Message(at, TF_TOPIC, (tf('odom', 'base_footprint', at, x, y,
                                                  yaw=angle),), 'diff_drive_controller'))
        if at < start + ekf_until:
            messages.append(Message(at + 0.01, TF_TOPIC, (tf(
                'odom', 'base_footprint', at + 0.01, x + 0.3, y, yaw=angle),), 'ekf_node'))
    return messages


@pytest.mark.parametrize('reset', [True, False])
def test_a_diff_drive_reset_after_its_ekf_stopped_sending_is_reported(reset):
    config = AuditConfig(base_frame='base_footprint', laser_frame='base_scan',
                         pose_topics=(), history_s=HISTORY_S)
    live = LiveAudit(config)
    messages = _wheel_odometry(100.0, 40.0, 29.5 if reset else None, ekf_until=10.0)
    seen = {}
    for second in range(1, 40):
        seen[second] = _check_at(live, [m for m in messages if m.received > 99.0 + second],
                                 100.0 + second)['odometry']
    assert seen[9].level != Level.ERROR  # the EKF's second track is parent_uniqueness's
    jumped = [second for second, result in seen.items() if 'jumped' in result.message]
    assert jumped == (list(range(30, 36)) if reset else []), jumped


def _static(parent: str, child: str, x: float, at: float, publisher: str) -> Message:
    return Message(at, TF_STATIC_TOPIC, (tf(parent, child, at, x=x),), publisher)


def _turtlebot(seconds: float, config: AuditConfig) -> List[Message]:
    """Return a healthy TurtleBot's drive (base_footprint, base_scan) of so many seconds."""
    return drive(Robot(seconds=seconds))


def _turtlebot_config() -> AuditConfig:
    return AuditConfig(base_frame='base_footprint', laser_frame='base_scan',
                       laser_translation=(-0.032, 0.0, 0.182), pose_topics=(),
                       history_s=HISTORY_S, odom_topic='/odom', scan_topic='/scan')


def _check_at(live: LiveAudit, messages: Sequence[Message], now: float,
              extra: Sequence[Message] = ()) -> Dict[str, CheckResult]:
    live.take(sorted([m for m in messages if m.received <= now] + list(extra),
                     key=lambda m: m.received))
    return live.check(now)


@pytest.mark.parametrize('back', [True, False])
def test_a_static_value_changed_back_leaves_no_record(back):
    """A second static_transform_publisher with 0.27 m, then the right one again (or not)."""
    live = LiveAudit()
    base, laser = 'base_link', 'laser'
    live.take([_static(base, laser, 0.26, 100.0, 'base_link_to_laser'),
               _static(base, laser, 0.27, 101.0, 'static_transform_publisher_upstream')])
    for second in range(102, 104):
        live.take([Message(second, TF_TOPIC, (tf('odom', base, second),), 'vesc')])
    assert live.check(103.0)['static_transforms'].level == Level.ERROR
    if back:
        live.take([_static(base, laser, 0.26, 104.0, 'base_link_to_laser')])
    results = live.check(104.5)
    if back:
        assert results['static_transforms'].level == Level.OK, results['static_transforms']
        # the replaced latch ages out of "sent by 2 nodes at once" with the window
        assert live.check(104.0 + HISTORY_S + 1)['parent_uniqueness'].level == Level.OK
    else:  # the twin: tf2 keeps 0.27 m, the record stays
        assert results['static_transforms'].level == Level.ERROR
        assert live.check(103.0 + 3 * HISTORY_S)['static_transforms'].level == Level.ERROR


def test_a_turtlebot_whose_static_publisher_restarts_with_the_same_value_stays_quiet():
    config = _turtlebot_config()
    live = LiveAudit(config)
    messages = _turtlebot(12.0, config)
    start = messages[0].received
    again = [Message(start + 5.0, TF_STATIC_TOPIC, messages[0].payload, 'robot_state_publisher')]
    results = _check_at(live, messages, start + 12.0, again)
    assert results['static_transforms'].level == Level.OK, results['static_transforms']


@pytest.mark.parametrize('static', [True, False])
def test_a_static_edges_tf_stream_ages_out_a_moving_edge_stays_stopped(static):
    """base_link -> laser also on /tf for a while is static again; odom -> base_link is not."""
    live = LiveAudit()
    if static:
        live.take([_static('base_link', 'laser', 0.26, 100.0, 'base_link_to_laser')])
    for step in range(60):  # 3 s at 20 Hz on /tf, then silent
        at = 100.0 + step * 0.05
        live.take([Message(at, TF_TOPIC, (tf('base_link', 'laser', at, x=0.26),),
                           'tf_publisher'),
                   Message(at, TF_TOPIC, (tf('odom', 'base_link', at),), 'vesc')])
    for second in range(4, 30):  # odom -> base_link goes on for the static robot only
        at = 100.0 + second
        if static:
            live.take([Message(at, TF_TOPIC, (tf('odom', 'base_link', at),), 'vesc')])
        results = live.check(at)
    timing = results['timing']
    if static:
        assert timing.level == Level.OK, timing.message
        assert results['static_transforms'].level == Level.OK
    else:  # the twin: a chain edge that stopped stays stopped while it is
        assert timing.level == Level.ERROR and 'stopped' in timing.message


@pytest.mark.parametrize('flood_goes_on', [False, True])
def test_the_max_frames_warn_ages_out_once_the_flood_ends(flood_goes_on):
    config = AuditConfig(history_s=HISTORY_S, max_frames=20)
    live = LiveAudit(config)
    for second in range(40):
        at = 100.0 + second
        live.take([Message(at, TF_TOPIC, (tf('odom', 'base_link', at),), 'vesc')])
        if second < 5 or flood_goes_on:
            live.take([Message(at, TF_TOPIC, tuple(tf('flood_root', 'flood_{}'.format(i), at)
                                                   for i in range(50)), 'flooder')])
        results = live.check(at)
        if second == 4:
            assert 'limits.max_frames' in results['transform_values'].message
    message = results['transform_values'].message
    assert ('limits.max_frames' in message) == flood_goes_on, message


# -- the node's own stall -----------------------------------------------------------------

def _stopped(age_s: float) -> Finding:
    return Finding('timing', Level.ERROR, 'map → odom stopped: the last one arrived {} s '
                   'ago'.format(age_s), 'stopped:map → odom', values={'age_s': age_s})


def test_a_stop_the_nodes_own_stall_explains_is_stale_then_the_cars_error():
    stall = Stall(end=100.0, seconds=3.1)
    lag = Finding('timing', Level.WARN, 'odom → base_link arrives late', 'lag:odom → base_link')
    results = [CheckResult('timing', '2 moving edges on time', [_stopped(3.5)]),
               CheckResult('timing', '', [_stopped(3.5), lag]),
               CheckResult('parent_uniqueness', '', [Finding(
                   'parent_uniqueness', Level.ERROR, 'odom has 2 parents', 'parents:odom')])]
    alone, with_lag, parents = judge_stall(results, stall, 100.5, 1.0, HISTORY_S)
    assert alone.level == Level.STALE and alone.message.startswith(
        'cannot know: the audit stalled for 3.1 s, 0.5 s ago; 1 verdict on that gap')
    assert with_lag.level == Level.WARN and with_lag.findings == [lag]  # a real fault stays
    assert parents is results[2]  # nothing of the gap
    # silent since the stall, past the settle time: the car's own stop
    (later,) = judge_stall([CheckResult('timing', '', [_stopped(6.0)])], stall, 104.0, 1.0,
                           HISTORY_S)
    assert later.level == Level.ERROR
    # arrived after the stall, then stopped: the car's
    (fresh,) = judge_stall([CheckResult('timing', '', [_stopped(1.5)])], stall, 102.0, 1.0,
                           HISTORY_S)
    assert fresh.level == Level.ERROR
    jump = Finding('odometry', Level.ERROR, 'odom → base_link jumped 11 m', 'jump')
    (withheld,) = judge_stall([CheckResult('odometry', '', [jump])], stall, 105.0, 1.0,
                              HISTORY_S)
    assert withheld.level == Level.STALE
    (judged,) = judge_stall([CheckResult('odometry', '', [jump])], stall, 107.0, 1.0,
                            HISTORY_S)
    assert judged.level == Level.ERROR  # the window after the stall has passed
    # odometry against TF interpolated across the stall's hole (a flood's batch, the /tf
    # queue overflowed): 1.46 m "off" on a loaded machine, withheld like a jump
    apart = Finding('odometry', Level.ERROR, "/odom's pose is 1.460 m", 'vs_tf')
    (withheld,) = judge_stall([CheckResult('odometry', '', [apart])], stall, 105.0, 1.0,
                              HISTORY_S)
    assert withheld.level == Level.STALE
    assert judge_stall(results, None, 100.5, 1.0, HISTORY_S) == results
    # the clock jumped back 6 s since (a loop): the stall is of the side before, not this one
    assert judge_stall([CheckResult('odometry', '', [jump])], stall, 94.5, 1.0,
                       HISTORY_S)[0].level == Level.ERROR


def test_a_batch_that_took_seconds_is_known_before_its_diagnostics(monkeypatch):
    """
    A flood's batch leaves the car's messages queued: the diagnostics right after it know.

    The node itself, in this process: fed a healthy drive, then one batch that takes 1.5 s
    (10,000 new frames, on a loaded machine) with diagnostics due at its end. The car's
    edges look 1.5 s old then; the stall explains it (STALE), never "stopped" (ERROR).
    """
    context = Context()
    rclpy.init(args=['--ros-args', '-p', 'timing.history_s:={}'.format(HISTORY_S)],
               context=context, domain_id=in_process_domain())  # no other test's car
    try:
        node = FrameAuditNode(context=context)
        published = []
        monkeypatch.setattr(node._diagnostics, 'publish', published.append)
        now = node.now_seconds()
        for message in SimulatedCar(seed=3, start_time=now - 5.0).advance(now):
            node.audit.add(message)
        monkeypatch.setattr(node.intake, 'take_batch', lambda: time.sleep(1.5))
        node._last_batch, node._next_diagnostics = time.monotonic(), 0.0
        node.run_batch()
        (array,) = published
        timing = next(s for s in array.status if s.name == 'frame_audit: timing')
        assert timing.level != DiagnosticStatus.ERROR, timing.message
        assert 'stalled' in timing.message, timing.message
        node.destroy_node()
    finally:
        context.try_shutdown()


# The node in a process of its own (a heap of its own): a healthy drive, then one /tf message of
# 10,000 new frames that stop at once, then the cycle that forgets them. Prints resident MB.
FORGOTTEN_FLOOD = """
import json, sys
from pathlib import Path
import rclpy
from rclpy.context import Context
from frame_audit.engine.records import Message, TF_TOPIC, TransformRecord
from frame_audit.ros.node import FrameAuditNode
from frame_audit.sim.car import SimulatedCar


def resident_mb():
    status = Path('/proc/self/status').read_text().splitlines()
    return int(next(line.split()[1] for line in status if line.startswith('VmRSS'))) / 1024


context = Context()
rclpy.init(args=['--ros-args', '-p', 'timing.history_s:=6.0'], context=context,
           domain_id=int(sys.argv[1]))
node = FrameAuditNode(context=context)
now = node.now_seconds()
car = SimulatedCar(seed=3, start_time=now - 30.0)


def drive(start, end):
    for second in range(start, end):
        for message in car.advance(now + second):
            node.audit.add(message)
        node.audit.check(now + second)


drive(-29, -10)
node.publish_diagnostics()
before = resident_mb()
node.audit.add(Message(now - 9.5, TF_TOPIC, tuple(TransformRecord(
    'flood_root', 'flood_{}'.format(i), now - 9.5, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    for i in range(10000)), 'flooder'))
drive(-9, 0)
peak = resident_mb()
node.publish_diagnostics()  # forgets the flood: silent for longer than timing.history_s
print(json.dumps({'before': before, 'peak': peak, 'after': resident_mb(),
                  'frames': len(node.audit.store.tree.frames)}))
node.destroy_node()
context.try_shutdown()
"""


def test_a_forgotten_flood_gives_its_memory_back(env):
    """
    Once the node forgets a flood's 10,000 frames, the heap they took goes back to the system.

    The allocator kept it: 75 MB before, 211 MB with the flood, 187 MB once it was forgotten.
    """
    done = subprocess.run([sys.executable, '-c', FORGOTTEN_FLOOD, str(in_process_domain())],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    rss = json.loads(done.stdout)
    assert rss['frames'] < 10, rss  # the flood is forgotten; the car stays
    flood_mb = rss['peak'] - rss['before']
    assert flood_mb > 50, rss  # the flood did take memory: the measure can fail
    print('resident MB: {before:.0f} before, {peak:.0f} with the flood, {after:.0f} once '
          'forgotten'.format(**rss))
    assert rss['after'] - rss['before'] < 0.5 * flood_mb, rss


def test_a_silent_topic_is_not_judged_while_discovery_runs():
    silent = Finding('pose_frame', Level.WARN, 'no messages on /ghost_pose (poses.ghost.topic'
                     '): a misspelled topic', 'silent:/ghost_pose', topics=('/ghost_pose',))
    wrong = Finding('pose_frame', Level.ERROR, "/pf/viz/inferred_pose's poses are base_link's",
                    'frame:/pf/viz/inferred_pose')
    alone, with_fault, other = judge_discovery([
        CheckResult('pose_frame', '', [silent]), CheckResult('pose_frame', '', [silent, wrong]),
        CheckResult('timing', '2 moving edges on time')], 5.0)
    assert alone.level == Level.STALE
    assert alone.message == 'waiting 5 s for discovery before judging /ghost_pose'
    assert with_fault.findings == [wrong] and with_fault.level == Level.ERROR
    assert other.level == Level.OK


# -- rqt rows and the log ------------------------------------------------------------------

def _pose_findings() -> List[Finding]:
    minor = Finding('pose_frame', Level.ERROR, '/pf/viz/inferred_pose: consumers convert it '
                    'to the rear axle with laser_offset_x 0.2600 m (poses.pf.laser_offset_x in '
                    'car2.yaml), but the tree has x 0.2700 m: every converted pose is 0.0100 m '
                    'off', 'offset:/pf/viz/inferred_pose',
                    values={'laser_offset_x': 0.26, 'tree_x': 0.27, 'off_m': 0.01})
    major = Finding('pose_frame', Level.ERROR, '/slam_pose is declared pose_frame base_link '
                    "(poses.slam.pose_frame in car2.yaml), but its poses are laser's: over 24 "
                    'samples the median is 0.020 m from laser, 0.267 m from base_link',
                    'frame:/slam_pose', values={'samples': 24, 'median_m_base_link': 0.2671,
                                                'median_m_laser': 0.0196})
    warn = Finding('pose_frame', Level.WARN, '/ghost_pose fits no frame: over 30 samples the '
                   'median is 3.1 m', 'fit:/ghost_pose', values={'median_m_base_link': 3.1})
    return [warn, minor, major]


def test_an_rqt_row_leads_with_the_most_severe_then_largest_finding():
    result = CheckResult('pose_frame', '', _pose_findings())
    row = row_message(result)
    assert len(row) <= MAX_MESSAGE_CHARS < 100
    # issue 35: the verdict in words, whole, before any number; here no number fits beside it
    assert row == "/slam_pose is declared pose_frame base_link, but its poses are laser's " \
        '(+2 more)'
    short = Finding('odometry', Level.ERROR, 'odom → base_link jumped 0.50 m (vesc_to_odom_node): '
                    'the odometry reset', 'jump',
                    values={'jump_m': 0.5, 'dt_s': 0.02, 'node': 'vesc_to_odom_node'})
    assert row_message(CheckResult('odometry', '', [short])) == \
        'odom → base_link jumped 0.50 m [jump_m=0.5 dt_s=0.02]'  # numbers only, whole
    two = Finding('parent_uniqueness', Level.ERROR, 'base_link → laser is sent by 2 nodes '
                  '(base_link_to_laser, static_transform_publisher_upstream_of_the_lidar_mount): '
                  'one too many; keep one', 'two', values={
                      'publishers': 'base_link_to_laser, static_transform_publisher_upstream',
                      'count': 2})
    laser = Finding('laser_offset', Level.ERROR, 'base_link → laser is (0.2700, 0.0000, 0.1100) '
                    'm, yaw 0.0000 rad (base_link → laser from /tf_static), but the car was '
                    'measured at (0.2600, 0.0000, 0.1100) m, yaw 0.0000 rad: x is 0.2700 m',
                    'offset', values={'x': 0.27, 'expected_x': 0.26, 'rotation_error_rad': 0.0})
    assert row_message(CheckResult('laser_offset', '', [laser])) == \
        'base_link → laser is [x=0.27 expected_x=0.26 rotation_error_rad=0]'  # its subject
    narrow = row_message(CheckResult('parent_uniqueness', '', [two]), limit=40)
    assert narrow == 'base_link → laser is sent by 2 nodes', narrow  # its verdict, whole
    cut = row_message(CheckResult('parent_uniqueness', '', [two]), limit=30)
    assert cut == 'base_link → laser is sent by…', cut  # between words, no bracket left open
    content = status_content(result, 'car')
    values = dict(content.values)
    assert content.message == row
    assert values['finding 1'] == 'ERROR: ' + _pose_findings()[2].message  # full, worst first
    assert values['finding 3'].startswith('WARN: /ghost_pose')


def test_a_row_without_numbers_keeps_the_verdict_and_a_passing_row_keeps_its_summary():
    finding = Finding('chain_order', Level.ERROR, 'base_link → odom is sent (/tf, 20.0 Hz, by '
                      'tf_publisher), but REP 105 orders map → odom → base_link: the edge is '
                      'inverted. Send odom → base_link instead', 'reversed:base_link → odom')
    row = row_message(CheckResult('chain_order', '', [finding]))
    assert len(row) <= MAX_MESSAGE_CHARS and row.startswith('base_link → odom is sent')
    assert row.endswith('Send odom → base_link instead')
    summary = '/pf/viz/inferred_pose describes laser, as declared; ' * 4
    content = status_content(CheckResult('pose_frame', summary), 'car')
    assert len(content.message) <= MAX_MESSAGE_CHARS and dict(content.values)['summary'] == \
        summary
    short = status_content(CheckResult('timing', '2 moving edges on time'), 'car')
    assert short.message == '2 moving edges on time' and 'summary' not in dict(short.values)


def test_the_log_says_one_line_per_cause_not_per_frame():
    flood = {'timing:stopped:flood_root → f{}'.format(i): (
        Level.ERROR, 'flood_root → f{} stopped'.format(i)) for i in range(10000)}
    flood['parent_uniqueness:parents:odom'] = (Level.ERROR, 'odom has 2 parents')
    flood['timing:future:map → odom'] = (Level.WARN, 'map → odom is stamped ahead')
    lines = log_lines(flood, {})
    assert len(lines) == 3
    stopped = next(line for level, line in lines if 'stopped (10000)' in line)
    assert stopped.startswith('timing stopped (10000): flood_root → f0 stopped; ')
    assert stopped.endswith('and 9997 more')
    assert ('parent_uniqueness odom has 2 parents' in [line for _, line in lines])
    assert log_lines(flood, flood) == []  # nothing new: nothing said


# -- the launch reads a parameters file as rcl will ------------------------------------------

def _rcl_reads(path: str) -> Optional[str]:
    """Return rcl's own error reading a parameters file, None when it reads it."""
    context = Context()
    try:
        rclpy.init(args=['--ros-args', '--params-file', path], context=context)
    except Exception as error:  # rcl's parse error, as the node would die with
        return str(error)
    context.try_shutdown()
    return None


@pytest.mark.parametrize('value', [
    '[0.26, 0, 0.11]', '[0.26, 0.0, 0.11]', '[1e-3, 0.5]', '[map, 1]', '[true, 1]',
    "['1', 2]", '[base_link, laser]', '[1, 2, 3]', '[[1, 2], [3, 4]]', '0.26', '[yes, no]'])
def test_the_launch_check_reads_lists_as_rcl_does(tmp_path, value):
    path = tmp_path / 'car.yaml'
    path.write_text('frame_audit:\n  ros__parameters:\n    laser_offset:\n      translation: '
                    '{}\n'.format(value))
    problem = rcl_problem(path.read_text())
    assert (problem is None) == (_rcl_reads(str(path)) is None), (value, problem)
    if problem:
        assert problem.startswith('laser_offset.translation: ')
