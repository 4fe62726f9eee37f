# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live intake without DDS: a stand-in node's graph and queued messages, the real Intake.

A held message points at its topic and is given through the feed of the type it was taken
as; a topic whose publishers come back with another reliability is re-subscribed, and what
the old subscription still held reaches the audit. The node's tests (test_node.py) run the
same over real DDS.
"""
import dataclasses
from typing import Any, Dict, List, Optional, Tuple

from frame_audit.engine.records import Arrival
from frame_audit.ros.intake import HeldMessage, Intake, Topic
import pytest
from rclpy.qos import QoSProfile, ReliabilityPolicy

pytestmark = pytest.mark.ros

TOPIC = '/odom'
NOW = 1.8e9  # the wall clock, in seconds


class Handle:
    """A subscription's handle: the messages queued on it, taken as rclpy takes them."""

    def __init__(self, queued: List[Tuple[Any, Dict[str, Any]]]):
        """Queue these (message, info) pairs."""
        self.queued = queued

    def __enter__(self) -> 'Handle':
        """Hold the handle."""
        return self

    def __exit__(self, *_: Any) -> None:
        """Release it."""

    def take_message(self, kind: Any, raw: bool) -> Optional[Tuple[Any, Dict[str, Any]]]:
        """Return the next queued message and its info, None when none is left."""
        return self.queued.pop(0) if self.queued else None


@dataclasses.dataclass
class Subscription:
    """A subscription as take_queued sees it."""

    msg_type: Any
    qos: QoSProfile
    handle: Handle
    raw: bool = False


@dataclasses.dataclass
class PublisherInfo:
    """What the graph says of one publisher."""

    node_name: str
    node_namespace: str
    endpoint_gid: bytes
    qos_profile: QoSProfile


class Logger:
    """Keep what the intake logs."""

    def __init__(self):
        """Nothing logged yet."""
        self.lines: List[str] = []

    def info(self, line: str) -> None:
        """Keep an info line."""
        self.lines.append(line)


class Graph:
    """The part of rclpy.Node the intake uses, over a graph the test sets."""

    def __init__(self):
        """One topic with no publisher yet."""
        self.types: Dict[str, List[str]] = {}
        self.publishers: List[PublisherInfo] = []
        self.subscriptions: List[Subscription] = []
        self.destroyed: List[Subscription] = []
        self.logger = Logger()

    def publish_as(self, type_name: str, reliability: ReliabilityPolicy) -> None:
        """Let the graph show one publisher of TOPIC, of this type and reliability."""
        self.types[TOPIC] = [type_name]
        self.publishers = [PublisherInfo('vesc_to_odom_node', '/', b'\x01' * 16,
                                         QoSProfile(depth=10, reliability=reliability))]

    def get_topic_names_and_types(self) -> List[Tuple[str, List[str]]]:
        """Return the topics and their types."""
        return list(self.types.items())

    def get_publishers_info_by_topic(self, topic: str) -> List[PublisherInfo]:
        """Return the topic's publishers."""
        return list(self.publishers) if topic == TOPIC else []

    def count_publishers(self, topic: str) -> int:
        """Return how many publish on topic."""
        return len(self.get_publishers_info_by_topic(topic))

    def count_subscribers(self, topic: str) -> int:
        """Return how many subscribe to topic: only the intake here."""
        return sum(1 for s in self.subscriptions if s not in self.destroyed)

    def create_subscription(self, kind: Any, topic: str, callback: Any, qos: QoSProfile,
                            callback_group: Any = None, event_callbacks: Any = None,
                            raw: bool = False) -> Subscription:
        """Subscribe: nothing queued yet."""
        subscription = Subscription(kind, qos, Handle([]), raw)
        self.subscriptions.append(subscription)
        return subscription

    def destroy_subscription(self, subscription: Subscription) -> None:
        """Destroy a subscription."""
        self.destroyed.append(subscription)

    def get_logger(self) -> Logger:
        """Return the logger."""
        return self.logger


class Feeds:
    """Two feeds of one topic, keeping what each was given and converted."""

    def __init__(self):
        """Nothing given yet."""
        self.given: List[Tuple[str, Any, Arrival]] = []

    def feed(self, kind: str) -> Tuple[Any, Any, Any]:
        """Return a feed whose converter marks the message with kind."""
        return (kind, lambda msg: (kind, msg),
                lambda record, arrival: self.given.append((record[0], record[1], arrival)))


def make_intake(graph: Graph, feeds: Feeds, now: float = NOW) -> Tuple[Intake, Topic, List]:
    """Return an intake of one configured topic with two types, and what it complained."""
    complaints: List[str] = []
    topic = Topic(TOPIC, {'pkg/msg/A': feeds.feed('A'), 'pkg/msg/B': feeds.feed('B')})
    intake = Intake(graph, [], [topic], lambda: now, complaints.append)
    return intake, topic, complaints


def arrival_info(seconds: float) -> Dict[str, Any]:
    """Return a message info without a gid (Humble, Jazzy), received at seconds."""
    return {'received_timestamp': int(seconds * 1e9)}


def test_a_held_message_points_at_its_topic_not_at_copies_of_its_functions():
    fields = {field.name for field in dataclasses.fields(HeldMessage)}
    assert 'topic' in fields and not {'convert', 'add'} & fields
    assert HeldMessage.__dataclass_fields__['topic'].type in (Topic, 'Topic')


def test_a_topic_is_followed_when_its_publisher_comes_back_best_effort():
    graph, feeds = Graph(), Feeds()
    intake, topic, complaints = make_intake(graph, feeds)
    graph.publish_as('pkg/msg/A', ReliabilityPolicy.RELIABLE)
    assert intake.discover() == {TOPIC: (1, 0)}
    first = topic.subscription
    assert first.qos.reliability == ReliabilityPolicy.RELIABLE
    first.handle.queued.append(('before', arrival_info(NOW - 3.0)))
    intake.take_batch()
    # The publisher restarts best effort; the old subscription still holds a message.
    first.handle.queued.append(('left over', arrival_info(NOW - 2.0)))
    graph.publish_as('pkg/msg/A', ReliabilityPolicy.BEST_EFFORT)
    intake.discover()
    assert graph.destroyed == [first] and topic.subscription is not first
    assert topic.subscription.qos.reliability == ReliabilityPolicy.BEST_EFFORT
    topic.subscription.handle.queued.append(('after', arrival_info(NOW - 1.0)))
    intake.take_batch()
    assert [(kind, msg, a.received, a.publisher) for kind, msg, a in feeds.given] == [
        ('A', 'before', NOW - 3.0, 'vesc_to_odom_node'),
        ('A', 'left over', NOW - 2.0, 'vesc_to_odom_node'),
        ('A', 'after', NOW - 1.0, 'vesc_to_odom_node')]
    assert intake.taken == 3 and intake.bad_messages == 0 and not complaints
    assert graph.logger.lines == ['listening to /odom (pkg/msg/A)'] * 2


def test_a_held_message_keeps_the_feed_of_the_type_it_was_taken_as():
    graph, feeds = Graph(), Feeds()
    intake, topic, _ = make_intake(graph, feeds)
    graph.publish_as('pkg/msg/A', ReliabilityPolicy.RELIABLE)
    graph.publishers = []  # the graph shows the type before it names the sender: held
    intake.discover()
    topic.subscription.handle.queued.append(('taken as A', arrival_info(NOW - 3.0)))
    intake.take_batch()
    assert not feeds.given
    graph.publish_as('pkg/msg/B', ReliabilityPolicy.RELIABLE)  # another type meanwhile
    intake.discover()
    assert topic.type_name == 'pkg/msg/B'
    intake.release_held(force=True)
    assert [(kind, msg) for kind, msg, _ in feeds.given] == [('A', 'taken as A')]


def test_a_message_without_a_time_is_not_taken_and_said_once():
    graph, feeds = Graph(), Feeds()
    intake, topic, complaints = make_intake(graph, feeds, now=0.0)
    graph.publish_as('pkg/msg/A', ReliabilityPolicy.RELIABLE)
    intake.discover()
    topic.subscription.handle.queued.append(('early', {}))
    intake.take_batch()
    assert intake.bad_messages == 1 and not feeds.given
    assert complaints == ['no time yet: use_sim_time is set and /clock is silent']


def test_a_topics_messages_keep_the_order_they_were_taken_in():
    """
    A sample repaired after a loss in a burst arrives after the ones that follow it.

    The reader hands samples over in their writer's order; sorted by arrival, a burst after a
    3 s stall went back 3 s and the node called it an odometry jump (a clean-clone run).
    """
    graph, feeds = Graph(), Feeds()
    intake, topic, complaints = make_intake(graph, feeds)
    graph.publish_as('pkg/msg/A', ReliabilityPolicy.RELIABLE)
    intake.discover()
    topic.subscription.handle.queued.extend([
        ('stamped 0 s, repaired', arrival_info(NOW - 0.5)),
        ('stamped 1 s', arrival_info(NOW - 0.9)), ('stamped 2 s', arrival_info(NOW - 0.8)),
        ('stamped 3 s', arrival_info(NOW - 0.4))])
    intake.take_batch()
    assert [msg for _, msg, _ in feeds.given] == [
        'stamped 0 s, repaired', 'stamped 1 s', 'stamped 2 s', 'stamped 3 s']
    # each received once it was available: after the repaired one, as the reader gave them
    assert [a.received for _, _, a in feeds.given] == pytest.approx(
        [NOW - 0.5, NOW - 0.5, NOW - 0.5, NOW - 0.4], abs=1e-6)
    assert not complaints


@pytest.mark.parametrize('kind_name', ['TFMessage', 'Odometry', 'PoseStamped',
                                       'PoseWithCovarianceStamped', 'Odometry as a pose'])
def test_a_raw_feed_reads_what_rclpy_would_hand_over_in_either_byte_order(kind_name: str) -> None:
    """The node takes its topics serialized: the records are those of rclpy's messages."""
    from frame_audit.message_types import odometry_record, pose_record, transform_records
    from frame_audit.ros.intake import raw_feed
    from geometry_msgs.msg import PoseStamped, PoseWithCovarianceStamped, TransformStamped
    from nav_msgs.msg import Odometry
    from rclpy.serialization import serialize_message
    from rosbags.typesys import get_typestore, Stores
    from tf2_msgs.msg import TFMessage

    kind, convert = {'TFMessage': (TFMessage, transform_records),
                     'Odometry': (Odometry, odometry_record),
                     'PoseStamped': (PoseStamped, pose_record),
                     'PoseWithCovarianceStamped': (PoseWithCovarianceStamped, pose_record),
                     'Odometry as a pose': (Odometry, pose_record)}[kind_name]
    message = kind()
    if kind is TFMessage:
        one = TransformStamped(child_frame_id='base_link')
        one.header.frame_id, one.header.stamp.sec, one.header.stamp.nanosec = 'odom', 7, 5
        one.transform.translation.x, one.transform.rotation.z = 1.25, 0.6
        message.transforms = [one, TransformStamped(child_frame_id='laser')]
    else:
        message.header.frame_id, message.header.stamp.sec = 'map', 9
        pose = message.pose.pose if hasattr(message.pose, 'covariance') else message.pose
        pose.position.y, pose.orientation.w = -3.5, 0.8
        if kind is Odometry:
            message.child_frame_id = 'base_link'
    type_name = '{}/msg/{}'.format(kind.__module__.split('.')[0], kind.__name__)
    _, read, _ = raw_feed(type_name, kind, convert, lambda *_: None)
    little = serialize_message(message)
    store = get_typestore(Stores.ROS2_HUMBLE)
    big = bytes(store.serialize_cdr(store.deserialize_cdr(little, type_name), type_name,
                                    little_endian=False))
    assert little[1] == 1 and big[1] == 0
    assert read(little) == read(big) == convert(message)
