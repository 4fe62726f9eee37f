# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reading a pasted tf2 error: which lookup it was, at what time, and what tf2 held.

Takes ROS 2's and ROS 1's wordings, with or without a log prefix ("[WARN] [1700000013.1]
[slam_toolbox]: ...", "[ WARN] [...]: ...") or a wrapper around it (Nav2's "Timed out waiting
for transform ..., tf error: ..."). Times are read digit by digit into nanoseconds, so a
printed stamp matches a recorded one exactly.
"""
from dataclasses import dataclass, replace
import math
import re
from typing import Optional

from .distros import MAX_S, NS

EXPECTED = ('a tf2 error: "Lookup would require extrapolation ...", "... passed to '
            'lookupTransform argument ... does not exist", "Could not find a connection '
            'between ...", "The tf tree is invalid because it contains a loop", "Message '
            'Filter dropping message: frame ... at time ...", "TF_REPEATED_DATA ignoring data '
            '..." or "TF_OLD_DATA ignoring data from the past ..."')

_TIME = r'(-?\d+(?:[.,]\d+)?)'  # a comma where the node's locale writes one ("224,014000")
_FRAMES = r', when looking up transform from frame \[([^\]]*)\] to frame \[([^\]]*)\]'
_FUTURE_PAST = re.compile(r'Lookup would require extrapolation (?:([0-9.]+)s )?into the '
                          r'(future|past)\.\s+Requested time ' + _TIME + r' but the '
                          r'(?:latest|earliest) data is at time ' + _TIME + _FRAMES)
_SINGLE = re.compile(r'Lookup would require extrapolation at time ' + _TIME + r', but only '
                     r'time ' + _TIME + r' is in the buffer?' + _FRAMES)
_NO_FRAME = re.compile(r'"([^"]*)" passed to (?:lookupTransform|canTransform) argument '
                       r'(target_frame|source_frame) does not exist'
                       r'|Invalid frame ID "([^"]*)" passed to \w+ argument '
                       r'(target_frame|source_frame) - frame does not exist'
                       # ROS 1's canTransform (noetic buffer_core.cpp), inside Nav2's and
                       # costmap_2d's "tf error: ..."
                       r'|canTransform: (target_frame|source_frame) (\S+) does not exist')
# RViz's status for a fixed frame tf2 does not hold: what it transforms into (the target)
_FIXED_FRAME = re.compile(r'Fixed Frame \[([^\]]*)\] does not exist', re.IGNORECASE)
_TWO_TREES = re.compile(r"Could not find a connection between '([^']*)' and '([^']*)' "
                        r'because they are not part of the same tree')
_LOOP = re.compile(r'The tf tree is invalid because it contains a loop')
# ROS 1 before noetic printed the time with %g: 1.71835e+09, six digits
_ANY_TIME = r'(-?\d+(?:[.,]\d+)?(?:e[+-]?\d+)?)'
_INSERTION = (r'for frame (.+?)(?: \(parent (.+?)\))? at time ' + _ANY_TIME +
              r'(?: according to authority (.+?))?(?: at line \d+ in \S+| Possible reasons|$)')
_REPEATED = re.compile(r'TF_REPEATED_DATA ignoring data with (?:a )?redundant timestamp ' +
                       _INSERTION)
_OLD = re.compile(r'TF_OLD_DATA ignoring data from the past (\(Possible reasons are listed at '
                  r'\S+\) )?' + _INSERTION)
_FILTER = re.compile(r"Message Filter dropping message: frame '([^']*)' at time " + _TIME +
                     r" for reason '([^']*)'"
                     r"|Drop message: frame '([^']*)' at time " + _TIME + r' for reason\((\d+)\)')
# A wrapper's own line when tf2's words are not in it (issue 30): the lookup's frames, and its
# stamp and wait where the line gives them. RViz: "No transform from [a] to [b]", "For frame
# [a]: No transform to fixed frame [b]"; Nav2's costmap: "Timed out waiting for transform from
# a to b to become available, tf error: ." (an empty error); robot_localization: "Transform
# from a to b was unavailable for the time requested. Using latest instead."; rtabmap: "Could
# not get transform from a to b (stamp=s) after w seconds" (its lookup's target is a).
_NAME = r'\[?([^\]\s]*?)\]?'
_RVIZ = re.compile(r'No transform from ' + _NAME + r' to ' + _NAME + r'(?:\s|$|\.)')
_RVIZ_FIXED = re.compile(r'For frame \[([^\]]*)\]: No transform to fixed frame ?\[([^\]]*)\]')
_NAV2_TIMED_OUT = re.compile(r'Timed out waiting for transform from (\S+) to (\S+) to become '
                             r'available.*?(?:timeout was (\d+(?:\.\d+)?))?\.?$')
_LATEST_INSTEAD = re.compile(r'Transform from (\S+) to (\S+) was unavailable for the time '
                             r'requested')
_RTABMAP = re.compile(r'Could not get transform from (\S+) to (\S+) \(stamp=(\d+(?:\.\d+)?)\) '
                      r'after (\d+(?:\.\d+)?) seconds')
_REPEATED_UNTIMED = re.compile(r'TF_REPEATED_DATA ignoring data with (?:a )?redundant timestamp '
                               r'for frame (\S+)(?: \(parent (\S+)\))?(?: at time)?\s*$')
ANY_STAMP_NS = 1 << 62  # a line that names no stamp: any stamp of the frame is the one

# the wording before Humble prints the reason's number: its place in FilterFailureReason,
# whose first three values are these in noetic's and in Humble's message_filter.h alike
FILTER_REASON_ORDER = ('unknown',
                       'the timestamp on the message is earlier than all the data in the '
                       'transform cache',
                       'the frame id of the message is empty')


# What a message filter's reason says, read in tf2_ros's message_filter.h (ROS 1, ROS 2 before
# Humble: a message pushed off the queue is 'Unknown'; Humble on: 'queue is full')
FILTER_REASONS = {
    'discarding message because the queue is full':
        "newer messages filled the filter's queue while this one still waited for its "
        "transform: the wait is the queue's span (slam_toolbox's queue holds 1 scan, one scan "
        'period; give that span as --tolerance)',
    'unknown':
        "pushed off the filter's queue by newer messages while it still waited for its "
        "transform (ROS 1's and ROS 2's before Humble name this 'Unknown'; later, 'queue is "
        "full'): the wait is the queue's span, give it as --tolerance",
    'the timestamp on the message is earlier than all the data in the transform cache':
        'its stamp is older than all tf2 holds for the chain: no wait brings that back',
    'the frame id of the message is empty': "the message's header.frame_id is empty",
    'did not find a valid transform, this usually happens at startup ...':
        'tf2 had no transform for the chain yet',
}


class PasteError(ValueError):
    """A pasted text the model cannot read as a tf2 error; the app says so as a usage error."""


def filter_reason(reason: str) -> str:
    """Return what a message filter's printed reason means, or '' for one not known."""
    return FILTER_REASONS.get(reason.strip().lower(), '')


@dataclass(frozen=True)
class Pasted:
    """What a tf2 error says: the kind, the lookup (target <- source) and its times (ns)."""

    kind: str  # future, past, single, no_frame, two_trees, loop, filter, repeated, old_data;
    # no_transform: a wrapper's line naming the lookup but not what tf2 said
    target: str = ''
    source: str = ''
    requested: int = 0
    nearest: int = 0
    frame: str = ''  # no_frame: the missing frame; filter: the message's frame; repeated and
    # old_data: the child frame of the sample tf2 refused
    role: str = ''  # no_frame: target_frame or source_frame
    reason: str = ''  # filter: the message filter's reason
    ros1_wording: bool = False  # stamps printed to the nanosecond, or a stated distance
    precision_ns: int = 0  # a time printed with few digits (%g) names any stamp this near
    parent: str = ''  # repeated and old_data: the parent, where the line names it
    authority: str = ''  # repeated and old_data: who sent the sample tf2 refused
    wait_s: Optional[float] = None  # no_transform: the wait the line gives (a timeout)
    asked: str = ''  # no_transform without a stamp: 'latest' (time 0) or 'now' (its clock)


def stamp_ns(text: str) -> int:
    """Return a printed time ("1700000013.000000000" or "...13.000000") in nanoseconds."""
    if 'e' in text.lower():  # %g: 1.71835e+09
        mantissa, _, exponent = text.lower().partition('e')
        seconds = float(mantissa) * 10.0 ** min(int(exponent), 300) if len(exponent) < 6 \
            else math.inf
        if not math.isfinite(seconds) or abs(seconds) > MAX_S:
            raise PasteError('the time {} is later than any tf2 holds ({} s, the most its int64 '
                             'nanoseconds reach): was the paste cut or joined?'.format(
                                 text, MAX_S))
        return int(round(seconds * NS))
    whole, _, fraction = text.replace(',', '.').partition('.')
    if len(whole.lstrip('0')) > len(str(MAX_S)) or int(whole) > MAX_S:
        shown = whole if len(whole) <= 24 else '{}...({} digits)'.format(whole[:12], len(whole))
        raise PasteError('the time {} is later than any tf2 holds ({} s, the most its int64 '
                         'nanoseconds reach): was the paste cut or joined?'.format(shown, MAX_S))
    return int(whole) * NS + int((fraction + '000000000')[:9] or 0)


def precision_ns(text: str) -> int:
    """Return how near a time printed with an exponent (%g: 1.71835e+09) names a stamp."""
    if 'e' not in text.lower():
        return 0
    mantissa, _, exponent = text.lower().partition('e')
    digits = len(mantissa.partition('.')[2])
    return int(0.5 * 10.0 ** min(int(exponent) - digits, 30) * NS)


def parse_tf2_error(text: str) -> Pasted:
    """Return what the error says, or a PasteError saying what was expected."""
    text = re.sub(r'(\d)\r?\n(\d)', r'\1\2', str(text))  # a number a line wrap cut in two
    text = ' '.join(text.split())  # a paste may wrap lines
    found = _FUTURE_PAST.search(text)
    if found:
        distance, way, asked, held, source, target = found.groups()
        return Pasted(way, target, source, stamp_ns(asked), stamp_ns(held),
                      ros1_wording=bool(distance) or len(asked.partition('.')[2]) == 9)
    found = _SINGLE.search(text)
    if found:
        asked, held, source, target = found.groups()
        return Pasted('single', target, source, stamp_ns(asked), stamp_ns(held),
                      ros1_wording=len(asked.partition('.')[2]) == 9)
    found = _NO_FRAME.search(text)
    if found:
        groups = found.groups()
        frame, role = (groups[0], groups[1]) if groups[1] else (groups[2], groups[3]) \
            if groups[3] else (groups[5], groups[4])
        return Pasted('no_frame', frame=frame, role=role)
    found = _FIXED_FRAME.search(text)
    if found:
        return Pasted('no_frame', frame=found.group(1), role='target_frame')
    found = _TWO_TREES.search(text)
    if found:
        return Pasted('two_trees', found.group(1), found.group(2))
    if _LOOP.search(text):
        return Pasted('loop')
    found = _REPEATED.search(text)
    if found:  # only tf2s that refuse a repeated stamp print it: ROS 1's (and ROS 2's < 0.25.6)
        child, parent, at, authority = found.groups()
        return Pasted('repeated', requested=stamp_ns(at), frame=child, ros1_wording=True,
                      parent=parent or '', authority=(authority or '').strip(),
                      precision_ns=precision_ns(at))
    found = _OLD.search(text)
    if found:
        ros1, child, parent, at, authority = found.groups()
        return Pasted('old_data', requested=stamp_ns(at), frame=child, ros1_wording=bool(ros1),
                      parent=parent or '', authority=(authority or '').strip(),
                      precision_ns=precision_ns(at))
    found = _FILTER.search(text)
    if found:
        frame, at, reason, old_frame, old_at, number = found.groups()
        if old_frame is not None:
            index = int(number)
            frame, at = old_frame, old_at
            reason = FILTER_REASON_ORDER[index] if index < len(FILTER_REASON_ORDER) else ''
        return Pasted('filter', source=frame, requested=stamp_ns(at), frame=frame,
                      reason=reason)
    wrapped = _wrapper(text)
    if wrapped:
        return wrapped
    shown = text if len(text) <= 60 else text[:57] + '...'
    raise PasteError('cannot read {!r} as a tf2 error; expected {}'.format(shown, EXPECTED))


def _wrapper(text: str) -> Optional[Pasted]:
    """Return a wrapper's own line read as the lookup it names, None for another text."""
    found = _REPEATED_UNTIMED.search(text)
    if found:
        return Pasted('repeated', frame=found.group(1), parent=found.group(2) or '',
                      ros1_wording=True, precision_ns=ANY_STAMP_NS)
    found = _RTABMAP.search(text)
    if found:
        target, source, at, wait = found.groups()
        return Pasted('no_transform', target, source, stamp_ns(at), wait_s=float(wait))
    for pattern, asked in ((_RVIZ_FIXED, 'latest'), (_RVIZ, 'latest'),
                           (_NAV2_TIMED_OUT, 'latest'), (_LATEST_INSTEAD, 'now')):
        found = pattern.search(text)
        if found and pattern is _RVIZ_FIXED:
            return Pasted('no_transform', found.group(2), found.group(1), asked=asked)
        if found and all(found.groups()[:2]):
            wait = found.groups()[2] if len(found.groups()) > 2 else None
            return Pasted('no_transform', found.group(2), found.group(1), asked=asked,
                          wait_s=float(wait) if wait else None)
    return None


def with_target(pasted: Pasted, target: Optional[str]) -> Pasted:
    """Return the pasted error with the target frame the text does not name (--target)."""
    if pasted.target or not target:
        return pasted
    return replace(pasted, target=target)
