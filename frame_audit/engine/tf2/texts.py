# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
tf2's messages, word for word, per distribution: what a node's log shows.

ROS 2's wording is buffer_core.cpp and cache.cpp of geometry2 (Humble, Jazzy, Kilted);
ROS 1's is geometry2 0.7.6 as Debian's python3-tf2 prints it (test/engine/test_tf2_oracle.py
compares every one). docs/tf2.md lists where they differ.
"""
import math
from typing import List, Sequence, Tuple

from .cache import Miss
from .distros import Distro, show_time, to_s

WIKI = 'http://wiki.ros.org/tf/Errors%20explained'


def validation(distro: Distro, parent: str, child: str, translation: Sequence[float],
               rotation: Sequence[float], authority: str,
               unit: bool) -> List[Tuple[str, str]]:
    """Return setTransform's refusals of one transform (code, log line): empty if taken."""
    refused = []
    if child == parent:
        refused.append(('TF_SELF_TRANSFORM', 'TF_SELF_TRANSFORM: Ignoring transform from '
                        'authority "{}" with frame_id and child_frame_id  "{}" because they '
                        'are the same'.format(authority, child)))
    if not child:
        refused.append(('TF_NO_CHILD_FRAME_ID', 'TF_NO_CHILD_FRAME_ID: Ignoring transform from '
                        'authority "{}" because child_frame_id not set '.format(authority)))
    if not parent:
        refused.append(('TF_NO_FRAME_ID', 'TF_NO_FRAME_ID: Ignoring transform with '
                        'child_frame_id "{}"  from authority "{}" because frame_id not '
                        'set'.format(child, authority)))
    values = tuple(translation) + tuple(rotation)
    if any(math.isnan(value) for value in values):
        refused.append(('TF_NAN_INPUT', 'TF_NAN_INPUT: Ignoring transform for child_frame_id '
                        '"{}" from authority "{}" because of a nan value in the transform '
                        '({:f} {:f} {:f}) ({:f} {:f} {:f} {:f})'.format(
                            child, authority, *values)))
    if not unit:
        refused.append(('TF_DENORMALIZED_QUATERNION', 'TF_DENORMALIZED_QUATERNION: Ignoring '
                        'transform for child_frame_id "{}" from authority "{}" because of an '
                        'invalid quaternion in the transform ({:f} {:f} {:f} {:f})'.format(
                            child, authority, *rotation)))
    return refused


def insertion_refused(distro: Distro, why: str, parent: str, child: str, stamp: int,
                      authority: str) -> Tuple[str, str]:
    """Return the code and log line of a sample the cache refused ('old' or 'repeated')."""
    at = '{:f}'.format(to_s(stamp)) if distro.ros1 else show_time(stamp, False)
    if why == 'repeated':
        return 'TF_REPEATED_DATA', ('TF_REPEATED_DATA ignoring data with redundant timestamp '
                                    'for frame {} at time {} according to authority {}'.format(
                                        child, at, authority))
    if distro.ros1:
        return 'TF_OLD_DATA', ('TF_OLD_DATA ignoring data from the past (Possible reasons are '
                               'listed at {}) for frame {} at time {} according to authority '
                               '{}'.format(WIKI, child, at, authority))
    return 'TF_OLD_DATA', ('TF_OLD_DATA ignoring data from the past for frame {} at time {} '
                           'according to authority {}\nPossible reasons are listed at '
                           '{}'.format(child, at, authority, WIKI))


def extrapolation(distro: Distro, miss: Miss) -> str:
    """Return the cache's extrapolation message (without the frames tf2 appends)."""
    asked, held = show_time(miss.requested, distro.ros1), show_time(miss.nearest, distro.ros1)
    if miss.kind == 'empty':
        return ''
    if miss.kind == 'single':
        # geometry2 0.7.6 ends this one "buffe": its last letter is lost (seen in python3-tf2)
        return 'Lookup would require extrapolation at time {}, but only time {} is in the ' \
            '{}'.format(asked, held, 'buffe' if distro.ros1 else 'buffer')
    way, which = ('future', 'latest') if miss.kind == 'future' else ('past', 'earliest')
    distance = ''
    if distro.states_distance:
        distance = show_time(abs(miss.requested - miss.nearest), True) + 's '
    return 'Lookup would require extrapolation {}into the {}.  Requested time {} but the {} ' \
        'data is at time {}'.format(distance, way, asked, which, held)


def while_looking_up(source: str, target: str) -> str:
    """Return what tf2 appends to an extrapolation message."""
    return ', when looking up transform from frame [{}] to frame [{}]'.format(source, target)


def two_trees(target: str, source: str) -> str:
    """Return the ConnectivityException's message."""
    return "Could not find a connection between '{}' and '{}' because they are not part of " \
        'the same tree.Tf has two or more unconnected trees.'.format(target, source)


def loop(frames: Sequence[Tuple[str, str]]) -> str:
    """Return the message of a walk that went round a loop, with every frame's parent."""
    listing = ''.join('Frame {} exists with parent {}.\n'.format(frame, parent)
                      for frame, parent in frames)
    return 'The tf tree is invalid because it contains a loop.\n{}\n'.format(listing)


def no_frame(frame: str, argument: str) -> str:
    """Return validateFrameId's message for a frame the buffer never saw."""
    return '"{}" passed to {} does not exist. '.format(frame, argument)


def invalid_frame(distro: Distro, frame: str, argument: str) -> Tuple[str, str]:
    """Return ('invalid', message) for an empty or slashed frame id, else ('', '')."""
    if frame and not frame.startswith('/'):
        return '', ''
    if distro.ros1:
        if not frame:
            return 'invalid', 'Invalid argument passed to {} in tf2 frame_ids cannot be ' \
                'empty'.format(argument)
        return 'invalid', 'Invalid argument "{}" passed to {} in tf2 frame_ids cannot start ' \
            "with a '/' like: ".format(frame, argument)
    reason = 'cannot be empty' if not frame else "cannot start with a '/'"
    return 'invalid', 'Invalid argument "{}" passed to {} - in tf2 frame_ids {}'.format(
        frame, argument, reason)
