# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Why tf2 refused a sample on insertion: TF_REPEATED_DATA (one stamp sent twice), TF_OLD_DATA.

The recording's samples at the stamp say who sent them, and what tf2 held when they came.
"""
from collections import Counter
from typing import List, Optional

from .buffer_core import Answer, Tf2Error
from .diagnose import edge_facts, EdgeFacts, Explanation, PASTED
from .distros import distro as distro_named, to_ns, to_s
from .replay import EdgeHistory, receive_clock, Replay
from ..findings import fmt
from ..records import TransformRecord

STAMP_MATCH_NS = 1000  # a printed stamp (six decimals) names a recorded one within 1 us


def explain_insertion(replay: Replay, kind: str, parent: str, child: str, stamp: int,
                      wait_s: float, text: str, precision_ns: int = 0) -> Optional[Explanation]:
    """
    Explain a sample tf2 refused on insertion (repeated: TF_REPEATED_DATA, else TF_OLD_DATA).

    Finds the edge's samples at the stamp in the recording, who sent them and what was held
    when they arrived; None where the recording holds that stamp for that frame at most once
    (repeated) or never (old data): the refused sample did not reach the recorder. A time
    printed with few digits (precision_ns) names every stamp that near: of those, the samples
    that arrived older than tf2's window are the ones it refused as old.
    """
    sent = [(m.received, r, m.publisher) for m in replay.messages for r in m.records
            if r.child.lstrip('/') == child and (not parent or r.parent.lstrip('/') == parent)
            and abs(to_ns(r.stamp) - stamp) <= max(STAMP_MATCH_NS, precision_ns)]
    if precision_ns > STAMP_MATCH_NS:  # the samples that time may name: the ones tf2 refused
        if kind == 'repeated':  # the first stamp sent more than once
            sent_at = Counter(to_ns(s[1].stamp) for s in sent)
            twice = next((s for s in sent if sent_at[to_ns(s[1].stamp)] > 1), None)
            sent = [s for s in sent if twice and to_ns(s[1].stamp) == to_ns(twice[1].stamp)]
        else:
            sent = [s for s in sent if _arrived_old(replay, s[1], s[0])]
        stamp = to_ns(sent[0][1].stamp) if sent else stamp
    if len(sent) < (2 if kind == 'repeated' else 1):
        return None
    first = sent[0][1]
    edge = replay.histories[(first.parent.lstrip('/'), child)]
    code = 'TF_REPEATED_DATA' if kind == 'repeated' else 'TF_OLD_DATA'
    base = {'target': edge.parent, 'source': child, 'requested': to_s(stamp),
            'asked_at': sent[-1][0], 'wait_s': wait_s, 'distro': replay.distro, 'tf2': PASTED,
            'answer': Answer(error=Tf2Error(code, kind, ' '.join(text.split()), child, stamp))}
    facts = edge_facts(edge, sent[-1][0], wait_s, None, receive_clock(replay))
    senders = sorted({who for _, _, who in sent if who}) or ['not recorded']
    if kind == 'repeated':
        return _repeated(replay, base, edge, facts, sent, senders)
    return _old_data(replay, base, edge, facts, sent[0][0], senders)


def _newest_before(edge: EdgeHistory, arrived: float) -> Optional[float]:
    """Return the newest stamp of the edge that arrived before a moment (None: none)."""
    return max((s for r, s in zip(edge.received, edge.stamps) if r < arrived), default=None)


def _arrived_old(replay: Replay, record: TransformRecord, arrived: float) -> bool:
    """Return whether a sample arrived more than tf2's window behind its edge's newest."""
    edge = replay.histories[(record.parent.lstrip('/'), record.child.lstrip('/'))]
    newest = _newest_before(edge, arrived)
    return newest is not None and newest - record.stamp > replay.cache_time_s


def _repeated(replay: Replay, base: dict, edge: EdgeHistory, facts: EdgeFacts,
              sent: list, senders: List[str]) -> Explanation:
    """Explain one stamp sent more than once: two publishers, or one re-sending."""
    values = {(r.translation, r.rotation) for _, r, _ in sent}
    spread = sent[-1][0] - sent[0][0]
    if distro_named(replay.distro).repeated == 'reject':
        kept = 'tf2 (noetic) keeps the first and drops the other {} with this warning'.format(
            len(sent) - 1)
    else:
        kept = ('tf2 ({}) prints no such warning: it {} (the line comes from ROS 1, or a '
                'ROS 2 tf2 before Humble)'.format(
                    replay.distro, 'keeps every copy' if distro_named(replay.distro).repeated
                    == 'insert_all' else 'skips an identical copy and keeps a different value '
                    'beside the first'))
    if len(values) > 1:
        who = 'two publishers of one edge, or one stamping two poses alike'
        fix = 'send {} from one node only (publish_tf / enable_odom_tf false on the other: ' \
            'robot_localization, a diff drive controller; Gazebo beside joint_state_publisher)' \
            .format(edge.name)
    else:
        who = 'one publisher re-sending its last transform without a new stamp (a timer ' \
            'faster than its data, or sim time stepping coarser than its rate)'
        fix = 'send {} only when its data is new, or stamp every send anew'.format(edge.name)
    why = ('{} was sent {} times stamped {} ({}; the copies arrived over {} s from {}; senders: '
           '{}): {}. {}'.format(
               edge.name, len(sent), fmt(base['requested']), 'one value' if len(values) == 1
               else '{} different values'.format(len(values)), fmt(spread),
               replay.into(sent[0][0]), ', '.join(senders), who, kept))
    return Explanation(cause='resent', edge=facts, why=why, fix=fix, **base)


def _old_data(replay: Replay, base: dict, edge: EdgeHistory, facts: EdgeFacts, arrived: float,
              senders: List[str]) -> Optional[Explanation]:
    """Explain a sample older than tf2's window behind the newest already held."""
    newest = _newest_before(edge, arrived)
    stamp = base['requested']
    if newest is None or newest - stamp <= replay.cache_time_s:
        return None  # tf2 took it in this recording: the node held other data
    back = newest - stamp
    reset = sum(1 for r, s in zip(edge.received, edge.stamps)  # they stayed back
                if r >= arrived and s < newest - replay.cache_time_s) > 1
    why = ('{} stamped {} arrived {} from {}, {} s older than the newest sample already held '
           "({}): past tf2's window of {} s, so tf2 drops it{}".format(
               edge.name, fmt(stamp), replay.into(arrived), ', '.join(senders), fmt(back),
               fmt(newest), fmt(replay.cache_time_s),
               ': its stamps went back and stayed back while the recording ran on (a simulator '
               'reset, a bag replayed without --clock, or a publisher on another clock)'
               if reset else ': one old sample among newer ones (a publisher out of order, or '
               'two publishers of one edge on clocks apart)'))
    return Explanation(cause='reset' if reset else 'old_data', edge=facts, why=why,
                       fix='restart the nodes after a simulator reset (tf2_ros clears its '
                       'buffer only when its own clock jumps back), and give every node the '
                       'same use_sim_time' if reset else 'send {} from one node on one clock'
                       .format(edge.name), fix_s=back, **base)
