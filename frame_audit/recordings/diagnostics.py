# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The audit's verdicts on the recording's timeline: /diagnostics written as a rosbag2 recording.

One diagnostic_msgs/DiagnosticArray per check cycle, stamped with the recording's time of that
cycle and holding the statuses the live node would have published then (reports/
diagnostics.py), so Foxglove's diagnostics panel, rqt_bag and PlotJuggler show the frames
going red where they broke. With the recording, every message of it is copied as it was
(rosbag2 recordings: their CDR bytes, definitions and QoS) and /diagnostics is added.

This module only writes: the statuses come in as plain fields (reports/diagnostics.py's
StatusContent has them), so the recordings never import the reports.
"""
from collections import deque
from dataclasses import dataclass
from pathlib import Path
import shutil
from typing import Any, Dict, Iterator, Optional, Protocol, Sequence, Tuple

from . import BagError

DIAGNOSTIC_ARRAY = 'diagnostic_msgs/msg/DiagnosticArray'


class StatusFields(Protocol):
    """A DiagnosticStatus's fields: level (0 OK .. 3 STALE), name, message, id, key-values."""

    @property
    def level(self) -> int:
        """Return the status's level."""

    @property
    def name(self) -> str:
        """Return the status's name."""

    @property
    def message(self) -> str:
        """Return the status's one-line message."""

    @property
    def hardware_id(self) -> str:
        """Return the robot the status is about."""

    @property
    def values(self) -> Sequence[Tuple[str, str]]:
        """Return the status's key-value pairs."""


@dataclass(frozen=True)
class StampedStatuses:
    """One DiagnosticArray: its time on the recording's clock (s) and its statuses."""

    time_s: float
    statuses: Tuple[StatusFields, ...]


def output_folder(path: Path) -> Path:
    """Return the rosbag2 folder written for OUT: OUT.mcap becomes OUT/OUT.mcap + metadata."""
    folder = path.with_suffix('') if path.suffix == '.mcap' else path
    if path.exists() or folder.exists():
        raise BagError('{}: exists already, not overwriting'.format(
            path if path.exists() else folder))
    return folder


def _array(typestore: Any, array: StampedStatuses) -> Any:
    types = typestore.types
    seconds = int(array.time_s // 1)
    stamp = types['builtin_interfaces/msg/Time'](
        sec=seconds, nanosec=min(int(round((array.time_s - seconds) * 1e9)), 999999999))
    statuses = []
    for content in array.statuses:
        statuses.append(types['diagnostic_msgs/msg/DiagnosticStatus'](
            level=content.level, name=content.name, message=content.message,
            hardware_id=content.hardware_id,
            values=[types['diagnostic_msgs/msg/KeyValue'](key=k, value=v)
                    for k, v in content.values]))
    return types[DIAGNOSTIC_ARRAY](header=types['std_msgs/msg/Header'](stamp=stamp,
                                                                       frame_id=''),
                                   status=statuses)


def _copied_definition(connection: Any) -> Tuple[str, str]:
    """
    Return the definition and type hash a copied connection is written with.

    The connection's own definition, as the recording holds it (none: the distribution's),
    resolved alone: another topic's definitions never change this one, and one that cannot
    be read is a BagError naming the topic.
    """
    from .read import connection_types

    text = connection.msgdef.data
    definition = (connection.msgdef.format.name, text) if text else ('NONE', '')
    store = connection_types(definition, connection.msgtype)
    if isinstance(store, str):
        raise BagError('cannot copy {} ({}): {}'.format(
            connection.topic, connection.msgtype, store))
    if not text:
        text = store.generate_msgdef(connection.msgtype, ros_version=2)[0]
    return text, connection.digest or store.hash_rihs01(connection.msgtype)


def _source_messages(source: Path, writer: Any) -> Iterator[Tuple[Any, int, bytes]]:
    """Yield (connection in the new recording, log time ns, raw bytes) of a rosbag2 recording."""
    from rosbags.interfaces import ConnectionExtRosbag2
    from rosbags.rosbag2 import Reader

    if Path(source).suffix == '.bag':
        raise BagError('{}: --with-recording copies rosbag2 recordings (.mcap, .db3); '
                       'convert a ROS 1 bag with rosbags-convert first'.format(source))
    with Reader(source) as reader:
        copies: Dict[int, Any] = {}
        for connection in reader.connections:
            text, digest = _copied_definition(connection)
            ext = connection.ext
            assert isinstance(ext, ConnectionExtRosbag2)  # a rosbag2 reader's connections are
            copies[connection.id] = writer.add_connection(
                connection.topic, connection.msgtype, msgdef=text, rihs01=digest,
                serialization_format=ext.serialization_format,
                offered_qos_profiles=ext.offered_qos_profiles)
        for connection, timestamp, data in reader.messages():
            yield copies[connection.id], timestamp, data


def write_diagnostics(path: Path, topic_name: str, arrays: Sequence[StampedStatuses],
                      recording: Optional[Path] = None) -> Path:
    """Write the arrays on topic_name (and the recording's messages) to a rosbag2 folder."""
    from rosbags.rosbag2 import ReaderError, StoragePlugin, Writer, WriterError
    from rosbags.typesys import get_typestore, Stores

    folder = output_folder(path)
    typestore = get_typestore(Stores.ROS2_HUMBLE)
    pending = deque(sorted(arrays, key=lambda a: a.time_s))
    try:
        with Writer(folder, version=Writer.VERSION_LATEST,
                    storage_plugin=StoragePlugin.MCAP) as writer:
            topic = writer.add_connection(topic_name, DIAGNOSTIC_ARRAY, typestore=typestore)

            def write_until(ns: Optional[int]) -> None:
                while pending and (ns is None or pending[0].time_s * 1e9 <= ns):
                    array = pending.popleft()
                    writer.write(topic, int(round(array.time_s * 1e9)), typestore.serialize_cdr(
                        _array(typestore, array), DIAGNOSTIC_ARRAY))

            if recording is not None:
                for connection, timestamp, data in _source_messages(recording, writer):
                    write_until(timestamp)
                    writer.write(connection, timestamp, data)
            write_until(None)
    except (BagError, OSError, ValueError, KeyError, WriterError, ReaderError) as error:
        shutil.rmtree(folder, ignore_errors=True)  # never leave half a recording behind
        if isinstance(error, BagError):
            raise
        raise BagError('{}: cannot write the diagnostics ({})'.format(
            path, str(error).splitlines()[0] if str(error) else type(error).__name__)) from None
    return folder
