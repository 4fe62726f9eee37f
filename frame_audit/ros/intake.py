# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live intake: the node's topics taken in batches, each message with its sender and time.

The audit needs its verdict once a period, not each message within a millisecond, and rclpy
waking once per message is most of a listener's cost: the executor never waits on the
subscriptions (their callback group never lets it); the node calls Intake.take_batch every
batch period, which takes everything queued on each subscription, as the executor itself
takes a message, with its info (the publisher, the receive time). Messages are taken raw,
serialized: a scan's header alone is read, and the audited types are read from their bytes
(plain_cdr) rather than built as rclpy messages field by field (raw_feed).

Each message is handed to its topic's feed (a converter and an Audit.add_* method) with an
engine Arrival: the topic, the node clock's time it arrived (so use_sim_time follows a bag's
/clock) and the publishing node where the middleware says (PublisherNames). A message whose
publisher the graph does not name yet waits a moment for it (HeldMessage). A configured topic is
subscribed when the graph shows its type, and again when its publishers come back with
another type or reliability. Runs on Humble and newer.
"""
import bisect
import collections
import dataclasses
import math
import time
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Set, Tuple, \
    Type

from rclpy.callback_groups import CallbackGroup
from rclpy.impl.implementation_singleton import rclpy_implementation
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from rclpy.subscription import Subscription
from rosgraph_msgs.msg import Clock as ClockMessage

from ..engine.checks.timing import WALL_CLOCK_S  # a time beyond it is wall time
from ..engine.records import Arrival, TF_STATIC_TOPIC, TF_TOPIC
from ..message_types import stamp_seconds
from ..plain_cdr import NotPlain, PLAIN_READERS

TOPIC_DEPTH = 200
CLOCK_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT,
                       durability=DurabilityPolicy.VOLATILE)
SIM_TIME_SAMPLES = 500  # /clock arrivals kept to place the batch's messages in sim time
# A publisher's first messages can arrive before the graph shows it (a static transform the
# moment the subscription matches): they wait this long for its name, in arrival order.
HOLD_S = 0.5
UNKNOWN_NODE = '_NODE_NAME_UNKNOWN_'  # what the graph says before it links endpoint and node
MAX_HELD = 2000  # messages waiting for their publisher's name; past it they go on unnamed
# A batch hands the audit messages for at most this long, a huge TFMessage a slice at a time,
# so /diagnostics keeps its period; what is left waits for the next batch, up to MAX_BACKLOG
# messages (past it the oldest are lost, and counted: the node fell behind).
BATCH_BUDGET_S = 0.25
SLICE = 1000  # transforms of one message handed over at once
MAX_BACKLOG = 20000

# Where each rclpy keeps it: rclpy.exceptions on Iron and newer, the C module on Humble.
InvalidHandle = getattr(__import__('rclpy.exceptions', fromlist=['InvalidHandle']),
                        'InvalidHandle', rclpy_implementation.InvalidHandle)
Converter = Callable[[Any], Any]
# a message as taken: (middleware arrival ns, order taken, node time, topic, message, gid)
Taken = Tuple[int, int, float, 'Topic', Any, Optional[bytes]]
Feed = Tuple[Type[Any], Converter, Callable[[Any, Arrival], None]]


def raw_feed(type_name: str, kind: Type[Any], convert: Converter,
             add: Callable[[Any, Arrival], None]) -> Feed:
    """
    Return the feed of a topic taken raw: read from its bytes, or deserialized and converted.

    A message the fixed layout does not fit (a big-endian sender) is deserialized by rclpy
    and converted as a taken message would be.
    """
    plain = PLAIN_READERS.get((convert, type_name))

    def read(raw: bytes) -> Any:
        if plain is not None:
            try:
                return plain(raw)
            except NotPlain:
                pass
        return convert(deserialize_message(raw, kind))
    return kind, read, add


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


def take_queued(subscription: Subscription) -> List[Tuple[Any, Mapping[str, Any]]]:
    """Return every message queued on a subscription, with its info, as the executor takes."""
    taken: List[Tuple[Any, Mapping[str, Any]]] = []  # the info: a dict, rclpy's MessageInfo
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
    feeds: Mapping[str, Feed]  # type name -> (message class, converter, Audit.add_*)
    qos: Optional[QoSProfile] = None  # None: chosen from the publishers
    subscription: Optional[Subscription] = None
    signature: Tuple[str, int] = ('', 0)  # (type name, reliability) subscribed with

    @property
    def type_name(self) -> str:
        """Return the type name the topic is subscribed with ('' before it is)."""
        return self.signature[0]


@dataclasses.dataclass
class HeldMessage:
    """A message waiting for the graph to name its publisher, or for the next batch."""

    topic: Topic
    type_name: str  # the type it was taken as: its feed in topic.feeds, whatever comes since
    msg: Any
    gid: Optional[bytes]
    received: float
    held_at: float
    converted: bool = False  # msg is the rest of a huge message's records, already converted
    publisher: Optional[str] = None  # named already (the rest of a huge message)


class Intake:
    """
    The node's subscriptions and what they hand the audit.

    The node gives the topics (/tf and /tf_static subscribed at once, the configured ones
    when the graph shows their types) with their feeds; the intake takes their messages in
    batches, names their publishers, places them on the node clock, and feeds the audit.
    complain(text) reports a message it could not take (the node throttles the log).
    """

    def __init__(self, node: Node, tf: Sequence[Topic], configured: Sequence[Topic],
                 clock: Callable[[], float], complain: Callable[[str], None],
                 sim_time: bool = False):
        """Subscribe to the tf topics, and to /clock under use_sim_time."""
        self._node = node
        self._clock = clock
        self._complain = complain
        self.taken = 0
        self.bad_messages = 0
        self.lost = 0  # messages dropped from the backlog: the node fell behind
        self._names = PublisherNames(node)
        self._held: Deque[HeldMessage] = collections.deque()
        self._batched = TakenInBatches()
        self.tf = list(tf)
        for topic in self.tf:
            type_name, = topic.feeds
            assert topic.qos is not None  # the node gives /tf and /tf_static their QoS
            self.subscribe(topic, type_name, topic.qos)
        self.topics = list(configured)
        # Under use_sim_time, /clock's own arrivals map the middleware's wall-clock arrival
        # times to sim time: a bag that loops jumps the clock back between two batches.
        self._clock_feed: Optional[Subscription] = None
        self._sim_time: Deque[Tuple[int, float]] = collections.deque(maxlen=SIM_TIME_SAMPLES)
        if sim_time:
            self._clock_feed = node.create_subscription(
                ClockMessage, '/clock', ignore, CLOCK_QOS, callback_group=self._batched,
                event_callbacks=quiet_events())

    # -- subscriptions --------------------------------------------------------------------

    def discover(self) -> Dict[str, Tuple[int, int]]:
        """
        Subscribe to each configured topic whose type the graph now shows, or shows anew.

        Return each configured topic's publishers and subscribers besides this node, and
        read /tf's and /tf_static's publishers.
        """
        node = self._node
        types = dict(node.get_topic_names_and_types())
        graph = {}
        for topic in self.topics:
            known = [name for name in types.get(topic.name, []) if name in topic.feeds]
            if known:
                self.follow(topic, known[0])
            ours = 1 if topic.subscription is not None else 0
            graph[topic.name] = (node.count_publishers(topic.name),
                                 max(0, node.count_subscribers(topic.name) - ours))
        for name in (TF_TOPIC, TF_STATIC_TOPIC):
            self._names.read(name)
        return graph

    def follow(self, topic: Topic, type_name: str) -> None:
        """Subscribe to topic with this type and its publishers' reliability, if not already."""
        qos = topic.qos or publisher_qos(self._node.get_publishers_info_by_topic(topic.name))
        signature = (type_name, int(qos.reliability))
        if signature == topic.signature:
            return
        if topic.subscription is not None:
            self._take_all(topic, self._clock())  # what the old subscription holds still counts
            self._node.destroy_subscription(topic.subscription)
        self.subscribe(topic, type_name, qos)
        self._node.get_logger().info('listening to {} ({})'.format(topic.name, type_name))

    def subscribe(self, topic: Topic, type_name: str, qos: QoSProfile) -> None:
        """Subscribe to topic as type_name, its messages taken in batches."""
        kind = topic.feeds[type_name][0]
        depth = QoSProfile(depth=max(qos.depth, TOPIC_DEPTH), reliability=qos.reliability,
                           durability=qos.durability)
        topic.subscription = self._node.create_subscription(
            kind, topic.name, ignore, depth, callback_group=self._batched,
            event_callbacks=quiet_events(), raw=True)  # read by its feed (raw_feed)
        topic.signature = (type_name, int(qos.reliability))

    # -- taking ---------------------------------------------------------------------------

    def take_batch(self) -> None:
        """Take everything queued on every subscription and hand it to the audit."""
        if self._clock_feed is not None:
            self._sim_time.extend((info.get('received_timestamp', 0) or time.time_ns(),
                                   stamp_seconds(msg.clock))
                                  for msg, info in take_queued(self._clock_feed))
        now = self._clock()
        arrivals: List[Taken] = []
        for topic in self.tf + self.topics:
            if topic.subscription is not None:
                arrivals += self._queued(topic, now, len(arrivals))
        # in the middleware's arrival order across topics (its wall clock: sim time may loop),
        # so a topic taken after another is not time going back; within a topic, in the order
        # taken: a reliable reader hands samples over in their writer's order, and a sample
        # repaired after a loss in a burst arrives later than the ones it precedes (sorted by
        # arrival, 3 s of a burst went back 3 s: a false odometry jump)
        for _, _, received, topic, msg, gid in sorted(arrivals, key=lambda a: a[:2]):
            self.take(topic, msg, gid, received)
        self.release_held(deadline=time.monotonic() + BATCH_BUDGET_S)

    def behind_s(self, now: float) -> float:
        """Return how long ago the oldest message still waiting for the audit arrived."""
        return max(0.0, now - self._held[0].received) if self._held else 0.0

    def _queued(self, topic: Topic, now: float, counted: int = 0) -> List[Taken]:
        """Return every message queued on the topic, each with its arrival and node time."""
        assert topic.subscription is not None  # taken only from a topic subscribed to
        taken = take_queued(topic.subscription)
        self.taken += len(taken)
        arrivals = []
        available_ns = 0  # a sample is available once every one before it of its topic came
        for index, (msg, info) in enumerate(taken, start=counted):
            gid = info.get('publisher_gid') if isinstance(info, dict) else None
            arrived_ns = info.get('received_timestamp', 0) if isinstance(info, dict) else 0
            available_ns = max(available_ns, arrived_ns)
            arrivals.append((available_ns, index, self._node_time(available_ns, now), topic, msg,
                             bytes(gid['data']) if gid else None))
        return arrivals

    def _take_all(self, topic: Topic, now: float) -> None:
        """Hand every message queued on the topic to the audit, each at its receive time."""
        for _, _, received, _, msg, gid in self._queued(topic, now):
            self.take(topic, msg, gid, received)
        self.release_held()

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
            self._complain('no time yet: use_sim_time is set and /clock is silent')
            return
        self._held.append(HeldMessage(topic, topic.type_name, msg, gid, received,
                                      time.monotonic()))
        while len(self._held) > MAX_BACKLOG:  # the node fell behind: the oldest are lost
            self._held.popleft()
            self.lost += 1

    def release_held(self, force: bool = False, deadline: float = math.inf) -> None:
        """
        Give the held messages to the audit, oldest first, once named or waited for.

        force gives the oldest at once; past MAX_HELD waiting, the oldest go on unnamed; past
        the deadline the rest waits for the next batch.
        """
        while self._held and time.monotonic() < deadline:
            item = self._held[0]
            name = item.topic.name
            publisher = item.publisher or self._names.name(name, item.gid)
            if publisher is None and self._names.worth_waiting(name, item.gid):
                if not force and len(self._held) <= MAX_HELD \
                        and time.monotonic() - item.held_at < HOLD_S:
                    return
                if item.gid is not None:
                    self._names.give_up(item.gid)
            self._held.popleft()
            self._give(item, publisher)
            force = False

    def _give(self, item: HeldMessage, publisher: Optional[str]) -> None:
        """Hand one message to the audit; of a huge one, a slice, the rest held first."""
        _, convert, add = item.topic.feeds[item.type_name]
        try:
            records = item.msg if item.converted else convert(item.msg)
            if isinstance(records, (list, tuple)) and len(records) > SLICE:
                self._held.appendleft(dataclasses.replace(
                    item, msg=records[SLICE:], converted=True, publisher=publisher))
                records = records[:SLICE]
            add(records, Arrival(item.topic.name, item.received, publisher))
        except Exception as error:  # a bad message must never stop the audit
            self.bad_messages += 1
            self._complain('could not take a message on {}: {!r}'.format(
                item.topic.name, error))
