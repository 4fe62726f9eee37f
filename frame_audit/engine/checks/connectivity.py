# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""One connected tree holding every frame the car names: connectivity."""
from typing import Dict, List

from .common import explained_by_lost_static, LOST_STATIC_NOTE, no_transform, plural, \
    split_judged_from, static_lost, unreadable, warming_up, window
from .tree_shape import header_frames, missing_frames
from ..check_ids import CONNECTIVITY
from ..config import AuditConfig
from ..findings import CheckResult, Finding, Level
from ..store import FrameStore
from ..tree_view import TreeReader


def expected_missing(store: TreeReader, config: AuditConfig) -> Dict[str, str]:
    """Return frames that should be in the tree and are not, each with why it is expected."""
    missing = {frame: 'required ({})'.format(config.key('frames.required'))
               for frame in config.required_frames or () if frame not in store.frames}
    for frame, topics in header_frames(store, config).items():
        if frame and frame not in store.frames:
            missing.setdefault(frame, 'named in the header of ' + ', '.join(sorted(topics)))
    return missing


def check_connectivity(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that every frame a header names is in the tree and reaches the base; one tree."""
    findings = []
    base_root = store.ancestry(config.base_frame)[-1] if config.base_frame in store.frames \
        else None
    named = header_frames(store, config, window(config, now))
    if '' in named:
        topics = named.pop('')
        findings.append(Finding(CONNECTIVITY, Level.ERROR, 'an empty header.frame_id on {}'.format(
            _named_by(topics)), 'header:', topics=tuple(sorted(topics))))
    # the LiDAR's absence is laser_offset's to report, a required frame's chain_order's
    absent = [frame for frame in sorted(named) if frame not in store.frames
              and frame != config.laser_frame and frame not in (config.required_frames or ())]
    missing, unknown = missing_frames(
        absent, 'header:' + ','.join(absent), CONNECTIVITY, store, config, now,
        '{}, but no transform reaches {}, so no node can place that data'.format(
            '; '.join('{} names {} in its header'.format(_named_by(named[f]), f)
                      for f in absent), 'it' if len(absent) == 1 else 'them'))
    if missing:
        missing.topics = tuple(sorted({t for f in absent for t in named[f]}))
        findings.append(missing)
    # trees only join, and a recorder often starts before a node: a split is judged once the
    # warm-up has passed, a recording's at its end, dated from when it held
    early = warming_up(store, config, now)
    waiting = []
    for frame, topics in sorted(named.items()):
        if frame not in store.frames or base_root is None \
                or store.ancestry(frame)[-1] == base_root:
            continue
        if early:
            waiting.append('waiting for {} to join {}'.format(frame, config.base_frame))
            continue
        lost = explained_by_lost_static(store, frame, config.base_frame)
        findings.append(Finding(
            CONNECTIVITY, Level.WARN if lost else Level.ERROR,
            "{} (named by {}) is not connected to {}: its tree has root {}, {}'s has "
            'root {}{}'.format(frame, _named_by(topics), config.base_frame,
                               store.ancestry(frame)[-1], config.base_frame, base_root,
                               '. ' + LOST_STATIC_NOTE if lost else ''),
            'header:' + frame, frames=(frame, config.base_frame), topics=tuple(sorted(topics)),
            values=split_judged_from(store, config, ([frame], [config.base_frame]))))
    findings += _slashed_scan(store, config, window(config, now))
    findings += unreadable(store, CONNECTIVITY, (config.scan_topic,), now)
    trees = store.trees()
    if len(trees) > 1 and early:
        waiting.append('{} trees so far'.format(len(trees)))
    elif len(trees) > 1:
        lost = static_lost(store)
        findings.append(Finding(
            CONNECTIVITY, Level.WARN if lost else Level.ERROR,
            '{} separate trees: {}. Frames in different trees cannot be transformed into each '
            'other{}'.format(len(trees), '; '.join('{{{}}}'.format(', '.join(t)) for t in trees),
                             '; ' + LOST_STATIC_NOTE if lost else ''),
            'trees', frames=tuple(t[0] for t in trees),
            values=split_judged_from(store, config, trees)))
    read = sorted({topic for topics in named.values() for topic in topics})
    listed = ' and '.join([', '.join(read[:-1])] * (len(read) > 1) + read[-1:])
    summary = unknown or '; '.join(waiting) or ('one tree of {}{}'.format(
        plural(len(store.frames), 'frame'), ', holding the frames {} name{}'.format(
            listed, 's' if len(read) == 1 else '') if read else '')
        if trees else no_transform(store))  # the topics read, never ones the audit skipped
    return CheckResult(CONNECTIVITY, summary, findings, {'trees': len(trees)},
                       stale=not trees or bool(unknown) or bool(waiting))


def _slashed_scan(store: FrameStore, config: AuditConfig, start: float) -> List[Finding]:
    """
    Report a scan header since start whose frame id starts with '/' where TF's ids do not.

    tf2 refuses such an id in a lookup ("frame_ids cannot start with a '/'"), so the scan
    cannot be placed. A robot whose transforms carry the '/' too (ROS 1's habit) has one
    cause, which transform_values reports. Live, a driver fixed clears it once the window
    passes, as the other header checks do.
    """
    if any(r.reason == 'leading_slash' for r in store.rejections.values()):
        return []
    return [Finding(
        CONNECTIVITY, Level.ERROR,
        "{}'s header names '{}' ({} messages), but tf2 refuses a frame id that starts with "
        "'/' in a lookup (\"frame_ids cannot start with a '/'\"), so no node can place the "
        "scan; the tree has {}: drop the '/' from the LiDAR driver's frame_id".format(
            config.scan_topic, frame, count,
            frame.lstrip('/') if frame.lstrip('/') in store.frames else 'no such frame'),
        'slash:' + frame, frames=(frame,), topics=(config.scan_topic,))
        for frame, count in sorted(store.scan_frames.items())
        if frame.startswith('/') and frame.lstrip('/') and store.scan_last[frame] >= start]


def _named_by(topics: Dict[str, int]) -> str:
    return ', '.join('{} ({} messages)'.format(t, n) for t, n in sorted(topics.items()))
