# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What `frame-audit explain` and `frame-audit lookup` print: text for a person, JSON for tools.

Every number says where it came from: the recording (arrivals, stamps), the tf2 that
answered (the model of a distribution, or tf2 itself through tf2_py), or the command line
(the wait).
"""
from dataclasses import asdict
import json
from typing import Any, List, Optional

from ..engine.findings import fmt, printable
from ..engine.tf2 import to_s
from ..engine.tf2.backend import model_name
from ..engine.tf2.diagnose import Explanation, PASTED
from ..engine.tf2.parse import ANY_STAMP_NS, filter_reason

KINDS = {'future': 'extrapolation into the future', 'past': 'extrapolation into the past',
         'single': 'extrapolation (one sample held)', 'no_frame': 'frame does not exist',
         'two_trees': 'not part of the same tree', 'loop': 'a loop in the tree',
         'filter': "a message filter's drop", 'repeated': 'a stamp sent twice (TF_REPEATED_DATA)',
         'old_data': "data older than tf2's window (TF_OLD_DATA)",
         'no_transform': "a wrapper's own line (RViz, Nav2, robot_localization, rtabmap): the "
                         "lookup it names, without tf2's words"}
NO_SENDER = 'not recorded (rosbag2 keeps no publisher per message)'


def _since(value: Optional[float], start: float) -> str:
    return 'never' if value is None else '{} s into the recording'.format(fmt(value - start, 2))


def explanation_lines(explanation: Explanation, start: float,
                      wait_from: str = '--tolerance') -> List[str]:
    """Return an explanation as lines: the answer, the limiting edge, the cause, the fix."""
    e = explanation
    asked = 'at {}'.format(fmt(e.requested)) if e.requested else 'at the latest common time'
    error = e.answer.error
    if error is not None and error.kind in ('repeated', 'old_data'):
        lines = ['insertion: {} → {} stamped {}, the last copy arriving {} (receive clock)'
                 .format(e.target, e.source, fmt(e.requested), _since(e.asked_at, start))]
        return lines + _edge_lines(e, start, 'edge') + _cause_lines(e)
    lookup = '{} in {} {}'.format(e.source or '-', e.target, asked) if e.target else \
        'none named by the error'
    lines = ['lookup: {}, asked {} (receive clock), wait {} s ({})'.format(
        lookup, _since(e.asked_at, start), fmt(e.wait_s), wait_from)]
    if error is None:  # e.answer.ok
        lines.append('{}: answered'.format(e.tf2))
    else:
        lines.append('{}: {}: {}'.format(e.tf2, error.exception, error.text.strip()))
    return lines + _edge_lines(e, start) + _cause_lines(e)


def _edge_lines(e: Explanation, start: float, label: str = 'limiting edge') -> List[str]:
    """Return the limiting edge's numbers, each with where it came from."""
    edge = e.edge
    if edge is None:
        return []
    lines = ['{}: {} on {}; sender: {}; rate: {} (from its stamps)'.format(
        label, edge.name, edge.topic, ', '.join(edge.publishers) or NO_SENDER,
        '{} Hz'.format(fmt(edge.rate_hz, 1)) if edge.rate_hz else 'under 3 samples')]
    if edge.behind_s is not None:
        # found with behind_s: its max from the same delays, the usual from all of them (a
        # superset), the asker's from the clock
        assert edge.behind_max_s is not None and edge.usual_s is not None \
            and edge.asker_s is not None
        lines.append('  its stamps run {} s behind their arrival (median around the lookup; '
                     'up to {} s; {} s over the recording); {} runs {} s behind; first more '
                     'than the wait behind it {}'.format(
                         fmt(edge.behind_s), fmt(edge.behind_max_s), fmt(edge.usual_s),
                         edge.asker, fmt(edge.asker_s), _since(edge.behind_since_s, start)))
    return lines


def _cause_lines(e: Explanation) -> List[str]:
    """
    Return the cause and the fix, and what tf2 answered with each fix applied (issue 30).

    Where no part of the fix placed the lookup, it is no fix: said so, with what was tried.
    """
    lines = ['cause: {}: {}'.format(e.cause, e.why)]
    if not e.fix:
        return lines
    tf2 = model_name(e.distro) if e.tf2 == PASTED else e.tf2
    if e.tried and not any(t.placed == t.refused for t in e.tried):
        last = e.tried[-1]
        return lines + ['fix: none proven: {}; {} still refuses it with that applied (places {} '
                        'of {}); the advice was: {}'.format(_applied(e, last), tf2, last.placed,
                                                            last.refused, e.fix)]
    error = e.answer.error
    if error is not None and error.kind in ('repeated', 'old_data'):
        then = 'then drops none of {} and keeps no copy'.format(e.edge.name if e.edge else '')
    elif not e.source:
        then = 'then knows {}'.format(e.target)
    else:
        then = 'then places it'
    return lines + ['fix: {}'.format(e.fix)] + [
        '  tried: {}: {} {}'.format(_applied(e, t), tf2, then) if t.placed == t.refused else
        '  tried: {}: {} still refuses it: that part is no fix'.format(_applied(e, t), tf2)
        for t in e.tried]


def _applied(e: Explanation, tried: Any) -> str:
    """Return what was changed in the recording to try a fix, as a person would say it."""
    edge = e.edge.name if e.edge is not None else ''
    said = {'wait': 'asked {} s after the message arrived'.format(fmt(e.wait_needed_s or 0.0)),
            'stamp': '{} stamped {} s later'.format(edge, fmt(e.fix_s or 0.0)),
            'clock': "{} stamped {} s later, on the lookup's clock".format(
                edge, fmt(e.fix_s or 0.0)),
            'rate': '{} also sent at {} Hz'.format(edge, fmt(e.rate_needed_hz or 0.0)),
            'static': '{} sent on /tf_static'.format(edge),
            'cache': 'a cache_time of {} s'.format(fmt(e.fix_s or 0.0)),
            'ask_later': 'asked at {}'.format(fmt(e.fix_s or 0.0)),
            'once': 'each stamp of {} sent once'.format(edge),
            'one_clock': "{}'s samples older than tf2's window left out".format(edge)}
    return said.get(tried.fix, tried.note)


def drops_lines(result: Any) -> List[str]:
    """Return what tf2 dropped or kept twice on the lookup's chain, per edge and publisher."""
    lines = []
    for jump in result.jumps:
        lines.append('the receive clock went back {} s at {} (a loop or a restart): tf2_ros '
                     'clears its buffer there'.format(fmt(jump.back_s), _since(jump.at,
                                                                               result.start)))
    for drops in result.drops:
        if not drops.changed_anything:
            continue
        parts = ['{} {}'.format(count, code) for code, count in sorted(drops.refused.items())]
        if drops.after_reset:
            parts.append('{} of them after its stamps went back (a reset)'.format(
                drops.after_reset))
        if drops.kept_twice:
            parts.append('{} kept twice (a second value at a stamp held)'.format(
                drops.kept_twice))
        if drops.skipped_duplicates:
            parts.append('{} identical copies skipped'.format(drops.skipped_duplicates))
        lines.append('tf2 on {} from {}: {} taken; {}'.format(
            drops.name, drops.publisher, drops.taken, '; '.join(parts)))
    return lines or ['tf2 dropped nothing on this chain']


def explained_text(explained: Any) -> str:
    """Return `frame-audit explain`'s text."""
    pasted = explained.pasted
    wording = 'ROS 1' if pasted.ros1_wording else 'ROS 2'
    head = 'tf2 error: {} ({} wording)'.format(KINDS[pasted.kind], wording) \
        if pasted.kind != 'no_transform' else 'pasted: {}'.format(KINDS[pasted.kind])
    if pasted.requested:
        head += ', requested time {:.9f}'.format(to_s(pasted.requested))
    lines = [head, 'recording: {}'.format(explained.recording)]
    if pasted.kind == 'filter':
        lines.append("the filter's reason: '{}': {}".format(
            pasted.reason, filter_reason(pasted.reason) or 'not a reason tf2_ros prints'))
    if explained.explanation is None:
        lines.append('not found: {}'.format(explained.note))
        return _terminal(lines)
    if pasted.kind in ('future', 'past', 'single', 'filter') or pasted.requested:
        lines.append(_message_line(explained))
    if explained.reproduced is not None:
        lines.append('reproduced: {}'.format(
            'yes, {} prints the text pasted'.format(explained.tf2) if explained.reproduced else
            'the same kind of refusal; {} words it: {}'.format(explained.tf2,
                                                               explained.model_text)))
    if pasted.precision_ns == ANY_STAMP_NS:
        lines.append('the line names no stamp: the first stamp of {} sent twice is the one '
                     'explained'.format(pasted.frame))
    lines += explanation_lines(explained.explanation, explained.start,
                               "the line's timeout" if pasted.wait_s is not None else
                               '--tolerance')
    lines += drops_lines(explained)
    return _terminal(lines)


def _message_line(explained: Any) -> str:
    """Return where the lookup's own message came from: recorded, or assumed (and how)."""
    pasted, arrived = explained.pasted, explained.arrived
    message = 'the message: stamped {:.6f} in {}'.format(to_s(pasted.requested),
                                                         pasted.source or pasted.frame)
    if arrived is not None:
        return '{}, recorded on {}, arrived {}; waits are told from there'.format(
            message, arrived.topic, _since(arrived.received, explained.start))
    edge = explained.explanation.edge
    return '{}: not in the recording, so its arrival is taken as its stamp plus {} s ({})'.format(
        message, fmt(edge.asker_s) if edge and edge.asker_s is not None else 'the usual delay',
        edge.asker if edge and edge.asker else 'the most punctual /tf edge')


def _summary_wait(s: Any) -> str:
    """Return the wait that would have placed every refused message, or why there is none."""
    ended = ' ({} more where the recording ends before the next sample: cannot know)'.format(
        s.cut_off) if s.cut_off else ''
    if s.wait_needed_s is not None:
        return 'a wait of {} s after each arrival would have placed every one{}'.format(
            fmt(s.wait_needed_s), ended)
    if not s.never_covered:
        return 'cannot know the wait: the recording ends before the next sample of each'
    return 'no wait would have placed every one: {} of {} were never covered{}'.format(
        s.never_covered, s.refused, ended)


def _tried_text(tried: Any) -> str:
    """Return what tf2 answered when the fix was applied and the refused asked again."""
    if tried is None:
        return ''
    unknown = ", {} asked past the recording's end: cannot know".format(tried.unknown) \
        if tried.unknown else ''
    if tried.placed == tried.refused - tried.unknown:
        return '; tried: tf2 then places all {} refused{}'.format(tried.placed, unknown)
    return '; tried: tf2 then places only {} of the {} refused{}: not a fix for all'.format(
        tried.placed, tried.refused, unknown)


def looked_up_text(looked: Any) -> str:
    """Return `frame-audit lookup`'s text."""
    lines = ['recording: {}'.format(looked.recording)]
    if looked.one is not None:
        lines += explanation_lines(looked.one, looked.start) + drops_lines(looked)
        return _terminal(lines)
    s = looked.summary
    share = 100.0 * s.refused / s.asked if s.asked else 0.0
    lines.append('{} of {} messages of {} ({} %) could not be placed in {} within {} s '
                 '({} answered, asked at each arrival plus the wait)'.format(
                     s.refused, s.asked, s.topic, fmt(share, 1), looked.target,
                     fmt(looked.wait_s), looked.tf2))
    if s.unjudged:
        lines.append('{} more refused by what the recording held, but asked after its end: '
                     'cannot know, not counted'.format(s.unjudged))
    if s.refused:
        lines.append('first refused: {}'.format(_since(s.first_refused, 0.0)))
        lines.append('causes: {}'.format(', '.join('{} {}'.format(cause, count) for cause, count
                                                   in sorted(s.causes.items()))))
        if s.edges:
            lines.append('limiting edges: {}'.format(', '.join(
                '{} ({})'.format(name, count) for name, count in sorted(s.edges.items()))))
        tried = {t.fix: t for t in looked.tried}
        if s.stamp_later_s is not None:
            lines.append("fix for the {} late_stamps: stamp {} {} s later (its publisher's "
                         'transform timeout or tolerance){}'.format(
                             s.causes['late_stamps'], s.late_edge, fmt(s.stamp_later_s),
                             _tried_text(tried.get('stamp'))))
        lines.append('fix: {}{}'.format(_summary_wait(s), _tried_text(tried.get('wait'))))
        if len(s.wait_by_cause) > 1:
            lines.append('  the wait each cause needed: {}'.format(', '.join(
                '{} {}'.format(cause, 'none would do' if wait is None else fmt(wait) + ' s')
                for cause, wait in sorted(s.wait_by_cause.items()))))
        if s.worst is not None:
            lines.append('the worst one:')
            lines += ['  ' + line for line in explanation_lines(s.worst, looked.start)]
    lines += drops_lines(looked)
    return _terminal(lines)


def _terminal(lines: List[str]) -> str:
    """
    Return lines as a terminal shows them safely: control characters escaped, as audit does.

    A frame id from the recording, or the pasted text, may hold ESC, BEL or NUL; the JSON
    output keeps them exact (escaped by JSON itself).
    """
    return ''.join(printable(line) + '\n' for line in '\n'.join(lines).split('\n'))


def as_json(result: Any) -> str:
    """Return either result as JSON (times in seconds, the tf2 answer as numbers)."""
    document = asdict(result)
    document.pop('series', None)  # the picture's data: --plot draws it
    return json.dumps(document, indent=2) + '\n'
