# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the pose_frame and odometry checks share: samples placed against TF, and topics.

The car's speed (a pose stamped late lies behind by speed times the lag), the window a
verdict is drawn from, and how a configured topic that is silent or not recorded is said.
"""
import math
from typing import List, Sequence, Union

from .common import plural, warming_up
from ..config import AuditConfig
from ..findings import Finding, Level
from ..store import FrameStore


VERDICT_WINDOW = 30  # the most recent placed samples (3 s) a verdict is drawn from
SPEED_SAMPLES = 25  # odom -> base_link samples the car's speed is measured over


def silent_topic(store: FrameStore, config: AuditConfig, now: float, topic: str, key: str,
                 check: str) -> Union[Finding, str]:
    """
    Say why a configured topic has no messages: a finding, or a summary when nothing is wrong.

    Live, the graph tells: a topic nobody publishes or subscribes is simply not used on this
    car (the particle filter runs, SLAM does not); one that nodes wait for but nobody
    publishes is a misspelled name; one published but silent is a node that does not send.
    """
    graph = store.topic_graph
    if graph is not None and topic in graph:
        publishers, subscribers = graph[topic]
        if not publishers and not subscribers:
            return '{}: not in use (no node publishes or subscribes it)'.format(topic)
        if not publishers:
            return Finding(check, Level.WARN, '{} ({}) has {} waiting for it and no publisher: '
                           'a misspelled name on one side?'.format(
                               topic, key, plural(subscribers, 'subscriber')),
                           'silent:' + topic, topics=(topic,), values={
                               'subscribers': subscribers})
    if warming_up(store, config, now):
        return '{}: no messages yet'.format(topic)
    return Finding(check, Level.WARN, 'no messages on {} ({}){}: a misspelled topic, or its '
                   'node is not running or not sending'.format(
                       topic, key, ', though {} publish{} it'.format(
                           plural(graph[topic][0], 'node'), 'es' if graph[topic][0] == 1
                           else '') if graph is not None and topic in graph else ''),
                   'silent:' + topic, topics=(topic,))


def not_recorded(store: FrameStore, topic: str) -> bool:
    """Return whether a recording was read and does not hold topic at all."""
    return store.recorded is not None and topic not in store.recorded


def unlisted_topics(store: FrameStore, config: AuditConfig, types: Sequence[str]) -> List[str]:
    """Return 'topic (type)' for recorded topics of these types that the config does not list."""
    listed = {config.odom_topic, config.scan_topic} | \
        {p.topic for p in config.pose_topics or ()}
    return ['{} ({})'.format(topic, msgtype.rsplit('/', 1)[-1])
            for topic, msgtype in sorted((store.recorded or {}).items())
            if msgtype in types and topic not in listed]


def car_speed(store: FrameStore, config: AuditConfig) -> float:
    """Return how fast odom -> base_link has moved over its last samples (m/s, 0 unknown)."""
    edge = store.edges.get((config.odom_frame, config.base_frame))
    if edge is None or len(edge.stamps) < 2:
        return 0.0
    stamps, values = edge.stamps[-SPEED_SAMPLES:], edge.values[-SPEED_SAMPLES:]
    span = stamps[-1] - stamps[0]
    path = sum(math.dist(a.translation, b.translation) for a, b in zip(values, values[1:]))
    return path / span if span > 0 else 0.0
