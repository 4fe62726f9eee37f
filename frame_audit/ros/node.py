# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live audit: a thin rclpy adapter that feeds the car's topics to Audit, diagnostics out.

It listens to /tf, /tf_static, the odometry topic, the pose topics and the scan's header,
hands each message to engine.audit.Audit as a record, with the node clock's time (so
use_sim_time follows a bag's /clock) and the publishing node where the middleware says, and
publishes one DiagnosticStatus per check on /diagnostics every diagnostic_period. It knows
nothing of the checks. Runs on Humble and newer.

The node holds the parameters, the audit, the timer, the diagnostics and the log; taking the
messages (in batches, every BATCH_PERIOD_S), naming their publishers and placing them in
time is the intake's (ros.intake). One steady timer drives the intake, discovery and
diagnostics.
"""
import ctypes
import dataclasses
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from diagnostic_msgs.msg import DiagnosticArray
from nav_msgs.msg import Odometry
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

from . import messages
from .executables import ignore_signals, SIGNALS
from .intake import Intake, raw_feed, Topic
from .parameters import declare_all
from .real_tf2 import choose, Real
from ..engine.audit import Audit
from ..engine.checks import TREE
from ..engine.config import AuditConfig, config_from_parameters, is_ros_parameter, NODE_NAME, \
    parameters_of
from ..engine.findings import CheckResult, Level
from ..engine.records import TF_STATIC_TOPIC, TF_TOPIC
from ..engine.stall import judge_discovery, judge_stall, Stall, STALL_S
from ..errors import ConfigError, UsageError
from ..message_types import LASER_SCAN, ODOMETRY, odometry_record, pose_record, \
    TF2_MESSAGE, transform_records
from ..plain_cdr import cdr_header
from ..reports.diagnostics import DIAGNOSTICS_TOPIC

BATCH_PERIOD_S = 0.1  # the node wakes this often and takes everything queued
# Queues hold a period at ten times the car's load, and a stall of a few periods besides.
TF_QOS = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE)
# Transient local: a node started after the car still gets the static transforms.
TF_STATIC_QOS = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL)
SCAN_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT,
                      durability=DurabilityPolicy.VOLATILE)
DISCOVERY_PERIOD_S = 1.0  # how often the graph is read for topic types and publishers
# DDS discovery takes a few seconds on a busy machine: before that, a topic the graph does not
# show yet is not called unused.
DISCOVERY_GRACE_S = 5.0
LOG_EVERY_S = 10.0
SHOWN_IN_LOG = 3  # findings of one cause named in its log line; the rest are counted
# Edges forgotten (since the heap was last handed back) past which the freed heap is handed
# back to the system: a flood's, whether it came in one message or over seconds.
GIVE_BACK_AFTER = 1000


def _tf2_chosen(config: AuditConfig) -> Optional[Real]:
    """Return tf2 itself (tf2_py, on the car) for the lookups check, as lookups.tf2 asks."""
    try:
        return choose(config.lookups_tf2, config.key('lookups.tf2'))
    except UsageError as error:  # the key asks for a tf2 this machine does not have
        raise ConfigError(str(error)) from None


class FrameAuditNode(Node):
    """
    The frame_audit node: parameters -> AuditConfig, topics -> Audit, results -> /diagnostics.

    A wrong parameter raises ConfigError naming the key, before anything is subscribed.
    """

    def __init__(self, **kwargs: Any):
        """Read the configuration from the parameters, subscribe, start the timers."""
        super().__init__(NODE_NAME, automatically_declare_parameters_from_overrides=True,
                         **kwargs)
        self.config = config_from_parameters(self._audit_parameters())
        declare_all(self, parameters_of(self.config))  # `ros2 param list` shows what runs
        self.audit = Audit(self.config, real=_tf2_chosen(self.config))
        self.check_failures = 0
        self.stall: Optional[Stall] = None
        self._logged_at = -1e9
        self._diagnostics = self.create_publisher(DiagnosticArray,
                                                  DIAGNOSTICS_TOPIC, 10)
        self.intake = Intake(self, [self._tf_topic(TF_TOPIC, TF_QOS),
                                    self._tf_topic(TF_STATIC_TOPIC, TF_STATIC_QOS)],
                             self._configured_topics(), self.now_seconds, self._log_throttled,
                             sim_time=self.get_parameter('use_sim_time').value)
        self._shown: Dict[str, Tuple[Level, str]] = {}  # finding key -> (level, message)
        self.add_on_set_parameters_callback(self._refuse_changes)
        self._next_diagnostics = time.monotonic() + self.config.diagnostic_period
        self._next_discovery = time.monotonic()
        self._graph_from = time.monotonic() + DISCOVERY_GRACE_S
        self._graph_known = False  # the audit has the graph, read after the grace
        self._last_batch = time.monotonic()
        self._lost = 0
        self._stalled = False
        self._forgotten = 0  # edges forgotten since the heap was last handed back
        # one steady timer drives everything: diagnostics flow while a bag pauses
        self.create_timer(BATCH_PERIOD_S, self.run_batch,
                          clock=Clock(clock_type=ClockType.STEADY_TIME))
        self.discover()

    # -- configuration --------------------------------------------------------------------

    def _audit_parameters(self) -> Dict[str, Any]:
        params = {}
        for name, parameter in self.get_parameters_by_prefix('').items():
            value = parameter.value
            params[name] = value.tolist() if hasattr(value, 'tolist') else value  # array.array
        return params

    def _refuse_changes(self, parameters: List[Parameter]) -> SetParametersResult:
        """Refuse run-time changes to the audit's parameters: it reads them once, at start."""
        names = [p.name for p in parameters if not is_ros_parameter(p.name)]
        if not names:
            return SetParametersResult(successful=True)
        reason = '{} read at start only: restart frame_audit to change it'.format(
            ', '.join(names))
        self.get_logger().warning('refused: ' + reason)
        return SetParametersResult(successful=False, reason=reason)

    # -- what the node listens to -------------------------------------------------------

    def _tf_topic(self, name: str, qos: QoSProfile) -> Topic:
        return Topic(name, {TF2_MESSAGE: raw_feed(TF2_MESSAGE, TFMessage, transform_records,
                                                  self.audit.add_transforms)}, qos)

    def _configured_topics(self) -> List[Topic]:
        odometry = raw_feed(ODOMETRY, Odometry, odometry_record, self.audit.add_odometry)
        pose_feeds = {name: raw_feed(name, kind, pose_record, self.audit.add_pose)
                      for name, kind in messages.POSE_CLASSES.items()}
        topics = [Topic(self.config.odom_topic, {ODOMETRY: odometry}),
                  Topic(self.config.scan_topic, {LASER_SCAN: (
                      LaserScan, cdr_header, self.audit.add_scan)}, SCAN_QOS)]
        topics.extend(Topic(pose.topic, pose_feeds) for pose in self.config.pose_topics or ())
        return topics

    def run_batch(self) -> None:
        """
        Take everything queued, hand it to the audit; discover and publish when due.

        The stall is noted once the batch is taken, before any check runs: a batch that took
        seconds (a flood of 10,000 frames) left the car's messages waiting in their queues,
        and the diagnostics published right after it must know that.
        """
        self.intake.take_batch()
        self._note_stall(time.monotonic() - self._last_batch)
        now = self._last_batch = time.monotonic()
        if now >= self._next_discovery:
            self._next_discovery = now + DISCOVERY_PERIOD_S
            self.discover()
        if now >= self._next_diagnostics:
            self._next_diagnostics = max(self._next_diagnostics + self.config.diagnostic_period,
                                         now)
            self.publish_diagnostics()

    def discover(self) -> None:
        """Follow the configured topics the graph shows; tell the audit who uses them."""
        graph = self.intake.discover()
        if time.monotonic() >= self._graph_from:  # discovery had its time
            self.audit.set_topic_graph(graph)
            self._graph_known = True

    def _note_stall(self, gap_s: float) -> None:
        """
        Note the node's own stall: a late batch, a backlog older than STALL_S, lost messages.

        What the car seemed to do meanwhile is the audit's gap, judged STALE (engine.stall).
        """
        now = self.now_seconds()
        behind = max(gap_s - BATCH_PERIOD_S, self.intake.behind_s(now))
        lost = self.intake.lost - self._lost
        self._lost = self.intake.lost
        stalled = behind >= STALL_S or lost > 0
        if stalled:
            self.stall = Stall(now, behind, lost)
            if not self._stalled:  # one line per stall, however many batches it lasts
                self.get_logger().warning(self.stall.describe(now) + ': verdicts on that gap '
                                          "are withheld (STALE), not the car's")
        self._stalled = stalled

    # -- diagnostics ----------------------------------------------------------------------

    def now_seconds(self) -> float:
        """Return the node clock's time (sim time under use_sim_time) in seconds."""
        return self.get_clock().now().nanoseconds * 1e-9

    def publish_diagnostics(self) -> None:
        """Run every check now and publish one DiagnosticStatus per result."""
        now = self.now_seconds()
        try:
            # the panel shows the car as it is now; the log keeps the rest
            self._forgotten += self.audit.forget(now)
            if self._forgotten >= GIVE_BACK_AFTER:
                give_memory_back()
                self._forgotten = 0
            results = judge_stall(self.audit.check(now), self.stall, now,
                                  self.config.stale_after_s, self.config.history_s)
            if not self._graph_known:
                results = judge_discovery(results, DISCOVERY_GRACE_S)
            results = [self._with_counters(r) for r in results]
            msg = messages.diagnostic_array(results, now, self.config.hardware_id)
        except Exception as error:  # reported; the next cycle runs
            self.check_failures += 1
            self._log_throttled('check cycle failed: {!r}'.format(error))
            return
        self._diagnostics.publish(msg)
        self._log_changes(results)

    def _log_changes(self, results: List[CheckResult]) -> None:
        """
        Log findings when they appear and when they clear: the panel shows only now.

        One line per cause (check and kind of finding), not per frame: a flood of 10,000
        frames that stop is one line with the first few and a count.
        """
        shown = {'{}:{}'.format(f.check, f.key): (f.level, f.message)
                 for result in results for f in result.findings}
        logger = self.get_logger()
        for level, line in log_lines(shown, self._shown):
            if level == Level.ERROR:  # rclpy wants one severity per call site
                logger.error(line)
            else:
                logger.warning(line)
        for _, line in log_lines(self._shown, shown):
            logger.info('cleared: ' + line)
        self._shown = shown

    def _with_counters(self, result: CheckResult) -> CheckResult:
        if result.check != TREE:  # the informational status carries the node's own counters
            return result
        counters = {'node: messages taken': self.intake.taken,
                    'node: messages not taken': self.intake.bad_messages,
                    'node: messages lost behind': self.intake.lost,
                    'node: failed check cycles': self.check_failures}
        return dataclasses.replace(result, values={**result.values, **counters})

    def _log_throttled(self, text: str) -> None:
        if time.monotonic() - self._logged_at >= LOG_EVERY_S:
            self._logged_at = time.monotonic()
            self.get_logger().error(text)


def give_memory_back() -> None:
    """
    Hand the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing).

    The allocator keeps what a flood of 10,000 frames freed once they are forgotten (RSS
    stayed 112 MB above the start, of 136 MB the flood took); trimmed, about 3 MB a flood
    stays: heap pages that objects still in use pin (docs/node.md).
    """
    trim = getattr(ctypes.CDLL(None), 'malloc_trim', None)
    if trim is not None:
        trim(0)


def log_lines(findings: Dict[str, Tuple[Level, str]],
              known: Dict[str, Tuple[Level, str]]) -> List[Tuple[Level, str]]:
    """
    Return one log line per cause among the findings not in known, worst level first.

    A cause is a check and the kind of finding (its key up to the first ':'): 'timing stopped
    (10000): a → b stopped ...; c → d stopped ...; and 9998 more'.
    """
    causes: Dict[str, List[Tuple[Level, str]]] = {}
    for key, (level, message) in findings.items():
        if key not in known:
            check, kind = (key.split(':') + [''])[:2]
            causes.setdefault('{} {}'.format(check, kind), []).append((level, message))
    lines = []
    for cause, found in causes.items():
        level = max(level for level, _ in found)
        if len(found) == 1:
            lines.append((level, '{} {}'.format(cause.split(' ')[0], found[0][1])))
            continue
        more = len(found) - SHOWN_IN_LOG
        lines.append((level, '{} ({}): {}{}'.format(
            cause, len(found), '; '.join(message for _, message in found[:SHOWN_IN_LOG]),
            '; and {} more'.format(more) if more > 0 else '')))
    return sorted(lines, key=lambda line: -int(line[0]))


STOP = threading.Event()  # Ctrl-C or SIGTERM arrived: start() and spin() end at their next step
NodeT = TypeVar('NodeT', bound=Node)  # the node start() makes, of its own class


def spin(node: Node, done: Callable[[], bool] = lambda: False) -> None:
    """
    Spin node until Ctrl-C, SIGTERM or done(), then destroy it, in order, in this thread.

    The node, then rclpy: nothing else destroys them meanwhile (start() leaves rclpy's own
    signal handler out), and once the cleanup begins every further signal is ignored. A
    signal is seen within one spin_once (0.1 s) and the callback it lands in.
    """
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while node.context.ok() and not done() and not STOP.is_set():
            executor.spin_once(timeout_sec=0.1)
    except ExternalShutdownException:
        pass
    except rclpy_implementation.RCLError:
        if node.context.ok():
            raise
    finally:
        ignore_signals()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()


def _asked_to_stop(signum: int, frame: Optional[FrameType]) -> None:
    """
    Ask start() and spin() to end, in this thread, at their next step; ignore later signals.

    A flag, never an exception: Python runs a handler wherever the main thread is, and a
    KeyboardInterrupt raised inside one of importlib's weakref callbacks (a message's type
    support imported as the node starts) was "ignored", leaving a node that no signal could
    stop (1 run in 80 under load). rclpy's own handler would shut the context down from a
    thread of its own, destroying its nodes while spin() destroys them here: the simulator's
    eight nodes crashed in that race at exit (-11, 1 run in 3 after a Ctrl-C).
    """
    ignore_signals()
    STOP.set()


def start(make: Callable[[], NodeT], name: str, errors: Tuple[Type[BaseException], ...],
          args: Optional[List[str]] = None) -> NodeT:
    """
    Start rclpy and make the node; a bad parameter exits with one line and code 1.

    Ctrl-C or SIGTERM while it starts is a quiet exit with code 0 once the node is made:
    before this function, the executable's own handler ends the process (ros.executables);
    from here on it asks to stop (_asked_to_stop). An ignored signal (one the launch ignores
    for its children) stays ignored.
    """
    for number in SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, _asked_to_stop)
    try:
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
        node = make()
    except errors + (rclpy_implementation.RCLError,) as error:
        ignore_signals()
        rclpy.try_shutdown()
        if STOP.is_set():
            sys.exit(0)
        sys.exit('{}: cannot start: {}'.format(name, str(error).splitlines()[0]))
    if STOP.is_set():
        ignore_signals()
        node.destroy_node()
        rclpy.try_shutdown()
        sys.exit(0)
    return node


def main(args: Optional[List[str]] = None) -> None:
    """Run the node until shutdown; a wrong parameter exits with a one-line error."""
    node = start(FrameAuditNode, NODE_NAME, (ConfigError, ParameterException), args)
    spin(node)


if __name__ == '__main__':
    main()
