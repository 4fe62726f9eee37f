# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""What the tree checks share: an edge that holds in the window, frames the tree lacks."""
import math
from typing import Dict, Optional, Sequence, Tuple

from .common import init_pointer, is_another_robot, judged_from, LOST_STATIC_NOTE, moving_chain, \
    static_lost, tree_frames, undecoded_tf, warming_up
from ..check_ids import CHAIN
from ..config import AuditConfig
from ..edge import Edge
from ..findings import Finding, Level
from ..store import FrameStore
from ..tree_view import TreeReader


def holds_in_window(edge: Edge, start: float) -> bool:
    """Return whether an edge holds within the window: latched on /tf_static, or recent."""
    return edge.static_value is not None or edge.last_received >= start


def missing_frames(frames: Sequence[str], key: str, check: str, store: FrameStore,
                   config: AuditConfig, now: float, what: str) -> Tuple[Optional[Finding], str]:
    """
    Report frames that should be in the tree, in one finding, unless the audit is too young.

    A lost /tf_static excuses only frames a static edge would bring: map, odom and the base
    are joined by moving edges, so their absence stays an ERROR. Where /tf or /tf_static
    messages could not be decoded, what they held is unknown: no finding, but the reason the
    check cannot say (its STALE summary), with the count, never that nothing publishes them.
    Returns (the finding, the reason it cannot be known); at most one of them.
    """
    absent = [frame for frame in frames if frame not in store.frames]
    if not absent or warming_up(store, config, now):
        return None, ''
    names = ', '.join(absent)
    verb = 'is' if len(absent) == 1 else 'are'
    undecoded = undecoded_tf(store)
    pronoun = 'it' if len(absent) == 1 else 'them'
    if undecoded:
        return None, ('{} {} not in the tree as read: {}, so whether anything publishes {} '
                      'cannot be known; the audit cannot vouch for {}'.format(
                          names, verb, undecoded, pronoun, pronoun))
    if not store.frames and store.rejections:  # sent, every one refused: the cause is that
        return None, ('{} {} not in the tree, which is empty: tf2 refused every transform '
                      'received (transform_values says why), so whether anything publishes {} '
                      'cannot be known'.format(names, verb, pronoun))
    if static_lost(store) and not set(absent) & set(moving_chain(config)):
        return Finding(check, Level.WARN, '{} {} not in the tree: {}'.format(
            names, verb, LOST_STATIC_NOTE), key, frames=tuple(absent),
            values=judged_from(store, config)), ''
    hint, level = '', Level.ERROR
    if check == CHAIN and (is_another_robot(store, config) or unclaimed(store, config, absent)):
        level, pointer = init_pointer(store, config)
        hint = '. The tree has {}; {}'.format(tree_frames(store), pointer)
    return Finding(check, level, '{} {} not in the tree: {}{}'.format(
        names, verb, what, hint), key, frames=tuple(absent),
        values=judged_from(store, config)), ''


def header_frames(store: TreeReader, config: AuditConfig, start: float = -math.inf,
                  children: bool = True) -> Dict[str, Dict[str, int]]:
    """
    Return frame -> {topic: messages} for every frame named in a header since start.

    With children, an odometry topic's child_frame_id counts too: the data names that frame
    as well. Without, header.frame_id alone, for what is said of that field.
    """
    named: Dict[str, Dict[str, int]] = {}

    def add(frame: str, topic: str, count: int, last: float) -> None:
        if last >= start:
            named.setdefault(frame.lstrip('/'), {})[topic] = count

    for frame, count in store.scan_frames.items():
        add(frame, config.scan_topic, count, store.scan_last[frame])
    for topic, track in store.tracks.items():
        for frame, count in track.header_frames.items():
            add(frame, topic, count, track.header_last[frame])
        for frame, count in track.child_frames.items() if children else ():
            add(frame, topic, count, track.child_last[frame])
    return named


def unclaimed(store: TreeReader, config: AuditConfig, frames: Sequence[str]) -> bool:
    """
    Return whether frames are only the assumed car's: no --config, no recorded header names them.

    Without a config a robot lacking map or a LiDAR may simply have none (a diff drive with
    no localization, a boat): the car's frames stand in for nobody's claim. A frame the
    recording's own messages name (a scan in laser, a pose in map) is expected by the robot.
    """
    if not config.assumed:
        return False
    named = header_frames(store, config)
    return not any(frame in named for frame in frames)
