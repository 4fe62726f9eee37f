# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live audit: a thin rclpy adapter that feeds the car's topics to Audit, diagnostics out.

It listens to /tf, /tf_static, the odometry topic, the pose topics and the scan's header,
hands each message to engine.audit.Audit as a record, with the node clock's time (so
use_sim_time follows a bag's /clock) and the publishing node where the middleware says, and
publishes one DiagnosticStatus per check on /diagnostics every diagnostic_period. It knows
nothing of the checks. Runs on Humble and newer.

The audit needs its verdict once a period, not each message within a millisecond, and rclpy
waking once per message is most of a listener's cost: the executor never waits on the
subscriptions (their callback group never lets it); one loop every BATCH_PERIOD_S takes
everything queued on each, as the executor itself takes a message, with its info (the
publisher, the receive time), and drives discovery and diagnostics too. A scan is taken raw
and only its header is read.
"""
import bisect
import dataclasses
import math
import sys
import time
import collections
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence, Set, Tuple, Type

from diagnostic_msgs.msg import DiagnosticArray
from nav_msgs.msg import Odometry
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.clock import Clock, ClockType
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation
from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.subscription import Subscription
from rosgraph_msgs.msg import Clock as ClockMessage
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

from . import messages
from ..engine.audit import Audit
from ..engine.checks import TREE
from ..engine.checks.timing import WALL_CLOCK_S  # a time beyond it is wall time
from ..engine.config import config_from_parameters, ConfigError, is_ros_parameter, NODE_NAME
from ..engine.findings import CheckResult, Level
from ..engine.records import Arrival, TF_STATIC_TOPIC, TF_TOPIC
from ..reports.diagnostics import DIAGNOSTICS_TOPIC
from ..message_types import cdr_header, LASER_SCAN, ODOMETRY, odometry_record, pose_record, \
    stamp_seconds, TF2_MESSAGE, transform_records

BATCH_PERIOD_S = 0.1  # the node wakes this often and takes everything queued
# Queues hold a period at ten times the car's load, and a stall of a few periods besides.
TF_QOS = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE)
# Transient local: a node started after the car still gets the static transforms.
TF_STATIC_QOS = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL)
SCAN_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT,
                      durability=DurabilityPolicy.VOLATILE)
TOPIC_DEPTH = 200
CLOCK_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT,
                       durability=DurabilityPolicy.VOLATILE)
SIM_TIME_SAMPLES = 500  # /clock arrivals kept to place the batch's messages in sim time
DISCOVERY_PERIOD_S = 1.0  # how often the graph is read for topic types and publishers
LOG_EVERY_S = 10.0
# A publisher's first messages can arrive before the graph shows it (a static transform the
# moment the subscription matches): they wait this long for its name, in arrival order.
HOLD_S = 0.5
UNKNOWN_NODE = '_NODE_NAME_UNKNOWN_'  # what the graph says before it links endpoint and node
MAX_HELD = 2000

# Where each rclpy keeps it: rclpy.exceptions on Iron and newer, the C module on Humble.
InvalidHandle = getattr(__import__('rclpy.exceptions', fromlist=['InvalidHandle']),
                        'InvalidHandle', rclpy_implementation.InvalidHandle)
Converter = Callable[[Any], Any]
Feed = Tuple[Type[Any], Converter, Callable[[Any, Arrival], None]]


def quiet_events() -> Any:
    """
    Return subscription event callbacks without rclpy's defaults.

    Each default QoS event handler is one more entity the executor waits on for every
    message, most of the node's cost at the car's rates; an incompatible publisher shows up
    in the audit as a topic that stays silent.
    """
    try:
        from rclpy.event_handler import SubscriptionEventCallbacks
    except ImportError:  # Humble
        from rclpy.qos_event import SubscriptionEventCallbacks
    return SubscriptionEventCallbacks(use_default_callbacks=False)


class TakenInBatches(CallbackGroup):
    """A callback group the executor never runs: the node takes its messages in batches."""

    def can_execute(self, entity: Any) -> bool:
        """Never: the executor must not wait on these subscriptions."""
        return False

    def beginning_execution(self, entity: Any) -> bool:
        """Never begin."""
        return False

    def ending_execution(self, entity: Any) -> None:
        """Nothing ran."""


def gives_publisher_gid() -> bool:
    """
    Return whether this rclpy's message info names the publisher (its gid).

    Kilted's does; Humble's and Jazzy's (rclpy 7.1) do not, and a topic with several
    publishers then leaves an edge's sender unknown: the engine judges from the data.
    """
    from rclpy import subscription
    info = getattr(subscription, 'MessageInfo', None)
    return 'publisher_gid' in getattr(info, '__annotations__', {})


def ignore(*_: Any) -> None:
    """Stand for a subscription's callback, which never runs: messages are taken by hand."""


def take_queued(subscription: Subscription) -> List[Tuple[Any, Dict[str, Any]]]:
    """Return every message queued on a subscription, with its info, as the executor takes."""
    taken = []
    try:
        with subscription.handle:
            while True:
                message_and_info = subscription.handle.take_message(subscription.msg_type,
                                                                    subscription.raw)
                if message_and_info is None:
                    return taken
                taken.append(message_and_info)
    except InvalidHandle:  # destroyed meanwhile (a topic re-subscribed with another type)
        return taken


def node_label(name: str, namespace: str) -> str:
    """Return a node's name as reports show it: 'name', or 'ns/name' outside the root."""
    space = namespace.strip('/')
    return '{}/{}'.format(space, name) if space else name


class PublisherNames:
    """
    Who sent a message: the publisher's gid (Kilted+) mapped to its node through the graph.

    Without a gid (Humble, Jazzy), a topic with exactly one publishing node names that node;
    otherwise the publisher is unknown (None) and the engine judges from the data. A message
    can arrive before the graph names its sender (a latched static transform the moment the
    subscription matches): it waits while the graph is incomplete, and a gid the graph still
    does not show after a while (a non-ROS sender) is given up on.
    """

    MAX_GIDS = 1000  # publishers come and go; forget them all past this
    READ_EVERY_S = 0.1  # graph reads on a miss, at most this often per topic

    def __init__(self, node: Node):
        """Start with nothing known; the graph is read on demand."""
        self._node = node
        self._by_gid: Dict[bytes, str] = {}
        self._given_up: Set[bytes] = set()
        self._sole: Dict[str, Optional[str]] = {}
        self._incomplete: Dict[str, bool] = {}  # topic -> the graph showed an unnamed sender
        self._read_at: Dict[str, float] = {}

    def name(self, topic: str, gid: Optional[bytes]) -> Optional[str]:
        """Return the node that published on topic with this gid, None if unknown."""
        known = self._sole.get(topic) if gid is None else self._by_gid.get(gid)
        if known is None and (gid is not None or self._incomplete.get(topic, True)) \
                and time.monotonic() - self._read_at.get(topic, -1e9) >= self.READ_EVERY_S:
            self.read(topic)
            known = self._sole.get(topic) if gid is None else self._by_gid.get(gid)
        return known

    def worth_waiting(self, topic: str, gid: Optional[bytes]) -> bool:
        """Return whether the graph may still name this message's sender soon."""
        if gid is None:
            return self._incomplete.get(topic, True)
        return gid not in self._given_up

    def give_up(self, gid: bytes) -> None:
        """Stop waiting for the graph to name gid."""
        if len(self._given_up) > self.MAX_GIDS:
            self._given_up.clear()
        self._given_up.add(gid)

    def read(self, topic: str) -> None:
        """Read topic's publishers from the graph."""
        self._read_at[topic] = time.monotonic()
        infos = self._node.get_publishers_info_by_topic(topic)
        if len(self._by_gid) > self.MAX_GIDS:
            self._by_gid.clear()
        labels = set()
        unnamed = not infos  # a message came, so someone sends: the graph lags
        for info in infos:
            if info.node_name == UNKNOWN_NODE:
                unnamed = True  # the endpoint is known before its node: ask again later
                continue
            label = node_label(info.node_name, info.node_namespace)
            self._by_gid[bytes(info.endpoint_gid)] = label
            labels.add(label)
        self._incomplete[topic] = unnamed
        self._sole[topic] = labels.pop() if len(labels) == 1 and not unnamed else None


@dataclasses.dataclass
class Held:
    """A message waiting for the graph to name its publisher (it may arrive first)."""

    topic: str
    convert: Converter
    add: Callable[[Any, Arrival], None]
    msg: Any
    gid: Optional[bytes]
    received: float
    held_at: float


def publisher_qos(infos: Sequence[Any]) -> QoSProfile:
    """Return a volatile QoS every publisher can serve: reliable unless one is best effort."""
    best_effort = any(info.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT
                      for info in infos)
    return QoSProfile(depth=10, durability=DurabilityPolicy.VOLATILE,
                      reliability=(ReliabilityPolicy.BEST_EFFORT if best_effort
                                   else ReliabilityPolicy.RELIABLE))


@dataclasses.dataclass
class Topic:
    """A topic the node takes: /tf at once, a configured one when the graph shows its type."""

    name: str
    feeds: Dict[str, Feed]  # type name -> (message class, converter, Audit.add_*)
    qos: Optional[QoSProfile] = None  # None: chosen from the publishers
    subscription: Optional[Subscription] = None
    signature: Tuple[str, int] = ('', 0)  # (type name, reliability) subscribed with
    convert: Optional[Converter] = None
    add: Optional[Callable[[Any, Arrival], None]] = None
    raw: bool = False  # take the serialized message (a scan: only its header is read)


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
        self.audit = Audit(self.config)
        self.bad_messages = 0
        self.check_failures = 0
        self.taken = 0
        self._logged_at = -1e9
        self._names = PublisherNames(self)
        self._held: Deque[Held] = collections.deque()
        self._batched = TakenInBatches()
        self._diagnostics = self.create_publisher(DiagnosticArray,
                                                  DIAGNOSTICS_TOPIC, 10)
        self._tf = [self._tf_topic(TF_TOPIC, TF_QOS), self._tf_topic(TF_STATIC_TOPIC,
                                                                     TF_STATIC_QOS)]
        self._topics = self._configured_topics()
        self._shown: Dict[str, Tuple[Level, str]] = {}  # finding key -> (level, message)
        self.add_on_set_parameters_callback(self._refuse_changes)
        # Under use_sim_time, /clock's own arrivals map the middleware's wall-clock arrival
        # times to sim time: a bag that loops jumps the clock back between two batches.
        self._clock_feed: Optional[Subscription] = None
        self._sim_time: Deque[Tuple[int, float]] = collections.deque(maxlen=SIM_TIME_SAMPLES)
        if self.get_parameter('use_sim_time').value:
            self._clock_feed = self.create_subscription(
                ClockMessage, '/clock', ignore, CLOCK_QOS, callback_group=self._batched,
                event_callbacks=quiet_events())
        self._next_diagnostics = time.monotonic() + self.config.diagnostic_period
        self._next_discovery = time.monotonic()
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
        return SetParametersResult(successful=False, reason='{} read at start only: restart '
                                   'frame_audit to change it'.format(', '.join(names)))

    # -- subscriptions --------------------------------------------------------------------

    def _tf_topic(self, name: str, qos: QoSProfile) -> Topic:
        topic = Topic(name, {TF2_MESSAGE: (TFMessage, transform_records,
                                           self.audit.add_transforms)}, qos)
        self._subscribe(topic, TF2_MESSAGE, qos)
        return topic

    def _configured_topics(self) -> List[Topic]:
        odometry = (Odometry, odometry_record, self.audit.add_odometry)
        pose_feeds = {name: (kind, pose_record, self.audit.add_pose)
                      for name, kind in messages.POSE_CLASSES.items()}
        topics = [Topic(self.config.odom_topic, {ODOMETRY: odometry}),
                  Topic(self.config.scan_topic, {LASER_SCAN: (
                      LaserScan, cdr_header, self.audit.add_scan)}, SCAN_QOS, raw=True)]
        topics.extend(Topic(pose.topic, pose_feeds) for pose in self.config.pose_topics)
        return topics

    def run_batch(self) -> None:
        """Take everything queued, hand it to the audit; discover and publish when due."""
        if self._clock_feed is not None:
            self._sim_time.extend((info.get('received_timestamp', 0) or time.time_ns(),
                                   stamp_seconds(msg.clock))
                                  for msg, info in take_queued(self._clock_feed))
        now = self.now_seconds()
        for topic in self._tf + self._topics:
            if topic.subscription is not None:
                self._take_all(topic, now)
        self.release_held()
        now = time.monotonic()
        if now >= self._next_discovery:
            self._next_discovery = now + DISCOVERY_PERIOD_S
            self.discover()
        if now >= self._next_diagnostics:
            self._next_diagnostics = max(self._next_diagnostics + self.config.diagnostic_period,
                                         now)
            self.publish_diagnostics()

    def discover(self) -> None:
        """Subscribe to each configured topic whose type the graph now shows, or shows anew."""
        types = dict(self.get_topic_names_and_types())
        graph = {}
        for topic in self._topics:
            known = [name for name in types.get(topic.name, []) if name in topic.feeds]
            if known:
                self._follow(topic, known[0])
            ours = 1 if topic.subscription is not None else 0
            graph[topic.name] = (self.count_publishers(topic.name),
                                 max(0, self.count_subscribers(topic.name) - ours))
        self.audit.set_topic_graph(graph)
        for name in (TF_TOPIC, TF_STATIC_TOPIC):
            self._names.read(name)

    def _follow(self, topic: Topic, type_name: str) -> None:
        qos = topic.qos or publisher_qos(self.get_publishers_info_by_topic(topic.name))
        signature = (type_name, int(qos.reliability))
        if signature == topic.signature:
            return
        if topic.subscription is not None:
            self._take_all(topic)  # what the old subscription holds still counts
            self.destroy_subscription(topic.subscription)
        self._subscribe(topic, type_name, qos)
        self.get_logger().info('listening to {} ({})'.format(topic.name, type_name))

    def _subscribe(self, topic: Topic, type_name: str, qos: QoSProfile) -> None:
        kind, topic.convert, topic.add = topic.feeds[type_name]
        depth = QoSProfile(depth=max(qos.depth, TOPIC_DEPTH), reliability=qos.reliability,
                           durability=qos.durability)
        topic.subscription = self.create_subscription(
            kind, topic.name, ignore, depth, callback_group=self._batched,
            event_callbacks=quiet_events(), raw=topic.raw)
        topic.signature = (type_name, int(qos.reliability))

    def _take_all(self, topic: Topic, now: float) -> None:
        """Hand every message queued on the topic to the audit, each at its receive time."""
        taken = take_queued(topic.subscription)
        if not taken:
            return
        self.taken += len(taken)
        for msg, info in taken:
            gid = info.get('publisher_gid') if isinstance(info, dict) else None
            arrived_ns = info.get('received_timestamp', 0) if isinstance(info, dict) else 0
            self.take(topic, msg, bytes(gid['data']) if gid else None,
                      self._node_time(arrived_ns, now))

    def _node_time(self, arrived_ns: int, now: float) -> float:
        """
        Return the node-clock time of an arrival the middleware stamped on the wall clock.

        With the wall clock, that is the arrival itself; under use_sim_time, the sim time of
        the last /clock that arrived before it, plus the wall time since (never past the next
        /clock). A message taken a batch late keeps the time it came, even across a loop.
        """
        if not arrived_ns:
            return now
        if self._clock_feed is None:
            return min(arrived_ns * 1e-9, now) if now > WALL_CLOCK_S else now
        samples = self._sim_time
        index = bisect.bisect_right(samples, (arrived_ns, math.inf)) - 1
        if index < 0:
            return now
        wall_ns, sim = samples[index]
        later = (samples[index + 1][0] - wall_ns) * 1e-9 if index + 1 < len(samples) else math.inf
        return sim + min((arrived_ns - wall_ns) * 1e-9, later)

    def take(self, topic: Topic, msg: Any, gid: Optional[bytes], received: float) -> None:
        """Give one message to the audit, or hold it until the graph names its publisher."""
        if received <= 0.0:
            self.bad_messages += 1
            self._log_throttled('no time yet: use_sim_time is set and /clock is silent')
            return
        self._held.append(Held(topic.name, topic.convert, topic.add, msg, gid, received,
                               time.monotonic()))
        self.release_held(force=len(self._held) > MAX_HELD)

    def release_held(self, force: bool = False) -> None:
        """Give the held messages to the audit, oldest first, once named or waited for."""
        while self._held:
            item = self._held[0]
            publisher = self._names.name(item.topic, item.gid)
            if publisher is None and self._names.worth_waiting(item.topic, item.gid):
                if not force and time.monotonic() - item.held_at < HOLD_S:
                    return
                if item.gid is not None:
                    self._names.give_up(item.gid)
            self._held.popleft()
            self._give(item, publisher)
            force = False

    def _give(self, item: Held, publisher: Optional[str]) -> None:
        try:
            item.add(item.convert(item.msg), Arrival(item.topic, item.received, publisher))
        except Exception as error:  # a bad message must never stop the audit
            self.bad_messages += 1
            self._log_throttled('could not take a message on {}: {!r}'.format(
                item.topic, error))

    # -- diagnostics ----------------------------------------------------------------------

    def now_seconds(self) -> float:
        """Return the node clock's time (sim time under use_sim_time) in seconds."""
        return self.get_clock().now().nanoseconds * 1e-9

    def publish_diagnostics(self) -> None:
        """Run every check now and publish one DiagnosticStatus per result."""
        now = self.now_seconds()
        try:
            self.audit.forget(now)  # the panel shows the car as it is now; the log keeps the rest
            results = [self._with_counters(r) for r in self.audit.check(now)]
            msg = messages.diagnostic_array(results, now, self.config.hardware_id)
        except Exception as error:  # reported; the next cycle runs
            self.check_failures += 1
            self._log_throttled('check cycle failed: {!r}'.format(error))
            return
        self._diagnostics.publish(msg)
        self._log_changes(results)

    def _log_changes(self, results: List[CheckResult]) -> None:
        """Log each finding when it appears and when it clears: the panel shows only now."""
        shown = {'{}:{}'.format(f.check, f.key): (f.level, f.message)
                 for result in results for f in result.findings}
        logger = self.get_logger()
        for key, (level, message) in shown.items():
            if key in self._shown:
                continue
            line = '{} {}'.format(key.split(':', 1)[0], message)
            if level == Level.ERROR:  # rclpy wants one severity per call site
                logger.error(line)
            else:
                logger.warning(line)
        for key, (level, message) in self._shown.items():
            if key not in shown:
                logger.info('cleared: {} {}'.format(key.split(':', 1)[0], message))
        self._shown = shown

    def _with_counters(self, result: CheckResult) -> CheckResult:
        if result.check != TREE:  # the informational status carries the node's own counters
            return result
        counters = {'node: messages taken': self.taken,
                    'node: messages not taken': self.bad_messages,
                    'node: failed check cycles': self.check_failures}
        return dataclasses.replace(result, values={**result.values, **counters})

    def _log_throttled(self, text: str) -> None:
        if time.monotonic() - self._logged_at >= LOG_EVERY_S:
            self._logged_at = time.monotonic()
            self.get_logger().error(text)


def spin(node: Node, done: Callable[[], bool] = lambda: False) -> None:
    """
    Spin node until shutdown (Ctrl-C, SIGTERM) or done(), then destroy it.

    A shutdown that lands while the executor waits is a normal end, not a traceback.
    """
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while node.context.ok() and not done():
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except rclpy_implementation.RCLError:
        if node.context.ok():
            raise
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()


def main(args: Optional[List[str]] = None) -> None:
    """Run the node until shutdown; a wrong parameter exits with a one-line error."""
    try:
        rclpy.init(args=args)
        node = FrameAuditNode()
    except (ConfigError, rclpy_implementation.RCLError) as error:
        rclpy.try_shutdown()
        sys.exit('{}: cannot start: {}'.format(NODE_NAME, str(error).splitlines()[0]))
    spin(node)


if __name__ == '__main__':
    main()
