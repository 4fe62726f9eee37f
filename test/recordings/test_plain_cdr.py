# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The fixed-layout readers against rosbags' deserializer, on whole and damaged messages.

Every message they read must give the records rosbags' objects give, or the same
InvalidField; every message they cannot read they must leave to rosbags (NotPlain), never
read differently: the audit's verdict on a damaged message is rosbags' error text.
"""
import math
import random
from typing import Any, Callable, Optional, Tuple

from frame_audit.message_types import InvalidField, ODOMETRY, pose_record, POSE_STAMPED, \
    POSE_WITH_COVARIANCE, TF2_MESSAGE
from frame_audit.plain_cdr import NotPlain, PLAIN_READERS
from frame_audit.recordings.read import _standard
import numpy
import pytest
from rosbags.typesys import get_types_from_msg, get_typestore, Stores

STORE = get_typestore(Stores.ROS2_HUMBLE)
TYPES = STORE.types
READINGS = sorted(PLAIN_READERS, key=lambda key: (key[0].__name__, key[1]))


class Maker:
    """Random messages of the four types: odd names, edge-case stamps and numbers."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def name(self) -> str:
        return ''.join(self.rng.choice('ab/_é') for _ in range(self.rng.randrange(0, 9)))

    def number(self) -> float:
        return self.rng.choice([0.0, -1.5, math.nan, math.inf, self.rng.uniform(-1e3, 1e3)])

    def header(self) -> Any:
        rng = self.rng
        return TYPES['std_msgs/msg/Header'](stamp=TYPES['builtin_interfaces/msg/Time'](
            sec=rng.randrange(-2 ** 31, 2 ** 31),
            nanosec=rng.choice([0, 999_999_999, 10 ** 9, rng.randrange(2 ** 32)])),
            frame_id=self.name())

    def vector(self, kind: str) -> Any:
        return TYPES[kind](x=self.number(), y=self.number(), z=self.number())

    def quaternion(self) -> Any:
        return TYPES['geometry_msgs/msg/Quaternion'](x=self.number(), y=self.number(),
                                                     z=self.number(), w=self.number())

    def pose(self) -> Any:
        return TYPES['geometry_msgs/msg/PoseWithCovariance'](
            pose=TYPES['geometry_msgs/msg/Pose'](
                position=self.vector('geometry_msgs/msg/Point'), orientation=self.quaternion()),
            covariance=numpy.zeros(36))

    def message(self, msgtype: str) -> Any:
        if msgtype == TF2_MESSAGE:
            return TYPES[msgtype](transforms=[TYPES['geometry_msgs/msg/TransformStamped'](
                header=self.header(), child_frame_id=self.name(),
                transform=TYPES['geometry_msgs/msg/Transform'](
                    translation=self.vector('geometry_msgs/msg/Vector3'),
                    rotation=self.quaternion())) for _ in range(self.rng.randrange(0, 4))])
        if msgtype == POSE_STAMPED:
            return TYPES[msgtype](header=self.header(), pose=self.pose().pose)
        if msgtype == POSE_WITH_COVARIANCE:
            return TYPES[msgtype](header=self.header(), pose=self.pose())
        still = TYPES['geometry_msgs/msg/Vector3'](x=0.0, y=0.0, z=0.0)
        return TYPES[msgtype](header=self.header(), child_frame_id=self.name(), pose=self.pose(),
                              twist=TYPES['geometry_msgs/msg/TwistWithCovariance'](
                                  twist=TYPES['geometry_msgs/msg/Twist'](linear=still,
                                                                         angular=still),
                                  covariance=numpy.zeros(36)))

    def damaged(self, raw: bytes) -> bytes:
        """Flip bytes, cut the end or pad it: what a damaged file hands the reader."""
        rng, data = self.rng, bytearray(raw)
        for _ in range(rng.randrange(1, 4)):
            choice = rng.random()
            if choice < 0.4 and len(data) > 5:
                data[rng.randrange(len(data))] = rng.randrange(256)
            elif choice < 0.7:
                data = data[:rng.randrange(len(data) + 1)]
            else:
                data += bytes(rng.randrange(1, 9))
        return bytes(data)


def outcome(read: Callable[[], Any]) -> Tuple[str, Optional[str]]:
    """Return what reading gave: the records, the InvalidField, or that it could not."""
    try:
        return 'read', repr(read())
    except NotPlain:
        return 'not plain', None
    except InvalidField as error:
        return 'invalid', str(error)
    except Exception as error:  # rosbags' SerdeError and what it wraps
        return 'refused', type(error).__name__


@pytest.mark.parametrize('record, msgtype', READINGS,
                         ids=['{} of {}'.format(r.__name__, t) for r, t in READINGS])
def test_plain_reader_reads_what_rosbags_reads_or_leaves_it_to_rosbags(
        record: Callable[[Any], Any], msgtype: str) -> None:
    """Each way a topic's messages are read: a pose topic may be recorded as Odometry."""
    maker = Maker(READINGS.index((record, msgtype)))
    seen = {'read': 0, 'invalid': 0, 'not plain': 0}
    for index in range(1500):
        raw = bytes(STORE.serialize_cdr(maker.message(msgtype), msgtype))
        if index % 3 == 0:
            raw = maker.damaged(raw)
        plain = outcome(lambda: PLAIN_READERS[record, msgtype](raw))
        seen[plain[0]] += 1
        if plain[0] == 'not plain':
            continue
        assert plain == outcome(lambda: record(STORE.deserialize_cdr(raw, msgtype))), \
            raw
    assert min(seen.values()) > 50, seen  # each way was taken, many times


def test_big_endian_cdr_is_left_to_rosbags() -> None:
    message = Maker(9).message(POSE_STAMPED)
    message.header.stamp.nanosec = 5
    raw = bytes(STORE.serialize_cdr(message, POSE_STAMPED, little_endian=False))
    with pytest.raises(NotPlain):
        PLAIN_READERS[pose_record, POSE_STAMPED](raw)
    assert pose_record(STORE.deserialize_cdr(raw, POSE_STAMPED)).frame_id == \
        message.header.frame_id


def test_only_the_standard_definitions_are_read_plainly() -> None:
    assert all(_standard(STORE, msgtype) for _, msgtype in READINGS)
    assert not _standard(get_typestore(Stores.ROS1_NOETIC), ODOMETRY)  # a Header with seq
    store = get_typestore(Stores.EMPTY)  # a PoseStamped whose pose is 2D
    store.register(get_types_from_msg('std_msgs/Header header\ngeometry_msgs/Pose2D pose',
                                      POSE_STAMPED))
    store.register(get_types_from_msg('float64 x\nfloat64 y\nfloat64 theta',
                                      'geometry_msgs/msg/Pose2D'))
    store.register(get_types_from_msg('builtin_interfaces/Time stamp\nstring frame_id',
                                      'std_msgs/msg/Header'))
    store.register(get_types_from_msg('int32 sec\nuint32 nanosec', 'builtin_interfaces/msg/Time'))
    assert not _standard(store, POSE_STAMPED)
