# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
tf2 itself behind the engine's Tf2 interface: tf2_py's BufferCore, the C++ the car's nodes run.

Imported lazily, with the messages of whichever ROS is present: ROS 2's geometry_msgs and
builtin_interfaces with rclpy's Time and Duration, or ROS 1's geometry_msgs with rospy's
(genpy) Time and Duration, which ROS 1's binding reads. Nothing here is loaded unless a
caller asks for tf2_py (--tf2, lookups.tf2), so the engine and the model stay pure.
"""
import importlib
from typing import Any, Optional, Tuple

from ..engine.tf2.backend import CHOICES, Real, refusal
from ..engine.tf2.buffer_core import Answer
from ..errors import UsageError

NAME = "tf2 (tf2_py, the car's BufferCore)"
NS = 1_000_000_000


class Tf2Py:
    """tf2_py.BufferCore fed and asked as the model is (stamps in nanoseconds)."""

    def __init__(self, cache_time_s: float = 10.0):
        """Make an empty BufferCore keeping cache_time_s, in the ROS that is installed."""
        self._tf2, self._ros1 = _import()
        if self._ros1:
            rospy = importlib.import_module('rospy')
            self._time = lambda ns: rospy.Time(ns // NS, ns % NS)
            duration = rospy.Duration.from_sec(cache_time_s)
        else:
            time = importlib.import_module('rclpy.time')
            span = importlib.import_module('rclpy.duration')
            self._time = lambda ns: time.Time(nanoseconds=ns)
            duration = span.Duration(nanoseconds=int(round(cache_time_s * NS)))
        self._message = importlib.import_module('geometry_msgs.msg').TransformStamped
        self._core = self._tf2.BufferCore(duration)

    def set_transform(self, parent: str, child: str, stamp: int,
                      translation: Tuple[float, float, float],
                      rotation: Tuple[float, float, float, float],
                      authority: str = 'default_authority', static: bool = False) -> None:
        """Hand one transform to BufferCore (its log lines go to the process's stderr)."""
        message = self._message()
        message.header.frame_id, message.child_frame_id = parent, child
        if self._ros1:
            message.header.stamp = self._time(stamp)
        else:
            message.header.stamp.sec, message.header.stamp.nanosec = divmod(stamp, NS)
        moved, turned = message.transform.translation, message.transform.rotation
        moved.x, moved.y, moved.z = (float(v) for v in translation)
        turned.x, turned.y, turned.z, turned.w = (float(v) for v in rotation)
        (self._core.set_transform_static if static else self._core.set_transform)(
            message, authority)

    def clear(self) -> None:
        """Forget the dynamic history, as tf2_ros does when its clock jumps back."""
        self._core.clear()

    def lookup(self, target: str, source: str, time: int = 0) -> Answer:
        """Return BufferCore's answer for target <- source at time (ns; 0: latest), or error."""
        try:
            found = self._core.lookup_transform_core(target, source, self._time(time))
        except self._tf2.TransformException as error:
            return Answer(error=refusal(type(error).__name__, str(error)))
        stamp = found.header.stamp
        ns = stamp.secs * NS + stamp.nsecs if self._ros1 else stamp.sec * NS + stamp.nanosec
        moved, turned = found.transform.translation, found.transform.rotation
        return Answer((moved.x, moved.y, moved.z), (turned.x, turned.y, turned.z, turned.w), ns)


def _import() -> Tuple[Any, bool]:
    """Return tf2_py and whether it is ROS 1's (rospy beside it, no rclpy)."""
    tf2 = importlib.import_module('tf2_py')
    try:
        importlib.import_module('rclpy')
    except ImportError:
        importlib.import_module('rospy')
        return tf2, True
    return tf2, False


def missing() -> str:
    """Return why tf2_py cannot be used here ('' where it can)."""
    try:
        _import()
    except ImportError as error:
        return str(error)
    return ''


def choose(choice: str, asked_by: str) -> Optional[Real]:
    """
    Return the real tf2 the choice asks for, None where the model answers.

    auto: tf2_py where it imports, else the model; tf2_py where it does not: one line naming
    asked_by (the option or config key) and what is missing.
    """
    if choice not in CHOICES:
        raise UsageError('{}: {!r} is not one of {}'.format(asked_by, choice, ', '.join(CHOICES)))
    if choice == 'model':
        return None
    why = missing()
    if why and choice == 'tf2_py':
        raise UsageError('{} asks for tf2 itself, but tf2_py is not importable here ({}): '
                         'install tf2_ros (ROS 2) or python3-tf2 (ROS 1), or use the model '
                         '(model or auto)'.format(asked_by, why))
    return None if why else Real(NAME, Tf2Py)
