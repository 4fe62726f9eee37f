# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""One connected tree holding every frame the car names: connectivity."""
from typing import Dict, List, Optional, Set, Tuple

from .common import explained_by_lost_static, LOST_STATIC_NOTE, moves, no_transform, \
    plural, split_judged_from, static_lost, unreadable, warming_up, window
from .tree_shape import header_frames, missing_frames
from ..check_ids import CONNECTIVITY
from ..config import AuditConfig
from ..edge import Edge
from ..findings import CheckResult, Finding, Level, Value
from ..geometry import rotation_angle
from ..store import FrameStore
from ..tree_view import TreeReader


CONVENTION_M = 1e-3  # a fixed edge this short is one point in two conventions (ENU, NED)
CONVENTION_RAD = 0.1  # turned at least this much: not one frame under two names
NO_TURN = (0.0, 0.0, 0.0, 1.0)


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
    named.pop('', None)  # an empty child_frame_id is odometry's to report
    topics = header_frames(store, config, window(config, now), children=False).get('')
    if topics:
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
    findings += _unplaced_samples(store, config, named, base_root)
    findings += unreadable(store, CONNECTIVITY, (config.scan_topic,), now)
    trees, aside = _judged_trees(store, config, named)
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
    values: Dict[str, Value] = {'trees': len(trees) + len(aside)}
    if aside:
        values['static_trees_apart'] = '; '.join('{{{}}}'.format(', '.join(t)) for t in aside)
        summary += '; beside it {} of fixed rotations alone (one point in two conventions) ' \
            'that no message or config names, which nothing here needs placed: {}'.format(
                plural(len(aside), 'tree'), values['static_trees_apart'])
    return CheckResult(CONNECTIVITY, summary, findings, values,
                       stale=not trees or bool(unknown) or bool(waiting))


def _judged_trees(store: FrameStore, config: AuditConfig,
                  named: Dict[str, Dict[str, int]]) -> Tuple[List[List[str]], List[List[str]]]:
    """
    Split the trees into those judged and those set aside: conventions nothing names.

    mavros latches fcu → fcu_frd and local_origin → local_origin_ned as pairs of their own:
    one point in two conventions (ENU and NED, FLU and FRD), a rotation with no offset, for
    conversions no other node asks of tf2. A tree apart with an offset in it (a URDF whose
    root odometry does not drive), a frame the config or a header names, or an edge that
    moves is judged.
    """
    trees = store.trees()
    wanted = _config_frames(config)
    wanted.update(named)
    wanted.update(frame.lstrip('/') for frame in store.sampled_frames)
    turned_only = {child for (_, child), edge in store.edges.items()
                   if _turned_only(edge)}
    children = {child for _, child in store.edges}
    judged: List[List[str]] = []
    aside: List[List[str]] = []
    for tree in trees:
        apart = wanted.isdisjoint(tree) and all(
            frame in turned_only for frame in tree if frame in children)
        (aside if apart else judged).append(tree)
    return (judged, aside) if judged else (trees, [])


def _config_frames(config: AuditConfig) -> Set[str]:
    """Return the frames the config names: map, odom, base, LiDAR and the required ones."""
    return {config.map_frame, config.odom_frame, config.base_frame, config.laser_frame,
            *(config.required_frames or ())}


def _turned_only(edge: Edge) -> bool:
    """
    Return whether an edge is a fixed rotation with no offset: a change of convention.

    ENU to NED, FLU to FRD turn by right angles; one frame under two names (no turn at all)
    is no convention, and a tree apart made of such aliases is judged.
    """
    value = edge.latest()
    return value is not None and not moves(edge) and not edge.static_changes and \
        max(map(abs, value.translation)) <= CONVENTION_M and \
        rotation_angle(NO_TURN, value.rotation) >= CONVENTION_RAD


def _unplaced_samples(store: FrameStore, config: AuditConfig, named: Dict[str, Dict[str, int]],
                      base_root: Optional[str]) -> List[Finding]:
    """
    Report frames the first headers of unconfigured topics name and no transform places.

    mavros stamps eleven topics in base_link that nothing sends; an AUV's DVL and GPS speak
    of frames its tree lacks: no node can take that data into the tree. Said once, at the
    recording's end (the samples are its first messages), as a WARN: whether a node asks
    for that data is not known. Frames of the config and of audited topics are judged above.
    """
    if not store.ended or not store.sampled_frames:
        return []
    own = _config_frames(config)
    absent, apart = [], []
    for frame, topics in sorted(store.sampled_frames.items()):
        name = frame.lstrip('/')
        if not name or name in named or name in own:
            continue
        said = '{} (named by {})'.format(name, ', '.join(
            '{} (in the first {} read)'.format(t, plural(n, 'message'))
            for t, n in sorted(topics.items())))
        if name not in store.frames:
            absent.append((name, said, topics))
        elif base_root is not None and store.ancestry(name)[-1] != base_root:
            apart.append((name, said, topics))
    if not absent and not apart:
        return []
    lost = static_lost(store)
    parts = (['not in the tree: ' + '; '.join(s for _, s, _ in absent)] if absent else []) + \
        (['in a tree apart from {}: '.format(config.base_frame) + '; '.join(
            s for _, s, _ in apart)] if apart else [])
    unplaced = absent + apart
    return [Finding(
        CONNECTIVITY, Level.WARN,
        '{} named in the headers of topics the config does not audit, {}, so no node can '
        'place their data in the tree (robot_localization, RViz, a costmap ask tf2 for it; '
        'the first messages of each topic were read){}'.format(
            plural(len(unplaced), 'frame'), ', and '.join(parts),
            '. ' + LOST_STATIC_NOTE if lost else ''),
        'unplaced_headers', frames=tuple(name for name, _, _ in unplaced),
        topics=tuple(sorted({t for _, _, topics in unplaced for t in topics})),
        values={'frames': len(unplaced)})]


def _slashed_scan(store: FrameStore, config: AuditConfig, start: float) -> List[Finding]:
    """
    Report a scan header since start whose frame id starts with '/' where TF's ids do not.

    tf2's message filters (RViz, costmaps, laser_geometry) strip one leading '/' before they
    ask (MessageFilter::add, stripSlash), so they place the scan; a node that asks
    lookupTransform with the id as sent is refused ("frame_ids cannot start with a '/'"). A
    robot whose transforms carry the '/' too (ROS 1's habit) has one cause, which
    transform_values reports. Live, a driver fixed clears it once the window passes.
    """
    if any(r.reason == 'leading_slash' for r in store.rejections.values()):
        return []
    return [Finding(
        CONNECTIVITY, Level.WARN,
        "{}'s header names '{}' ({} messages): tf2's message filters strip the '/'{}, but a "
        'node that asks lookupTransform with the id as sent is refused ("frame_ids cannot '
        "start with a '/'\"): drop the '/' from the LiDAR driver's frame_id".format(
            config.scan_topic, frame, count, ' and place the scan' if frame.lstrip('/') in
            store.frames else ' (the tree has no {} either)'.format(frame.lstrip('/'))),
        'slash:' + frame, frames=(frame,), topics=(config.scan_topic,))
        for frame, count in sorted(store.scan_frames.items())
        if frame.startswith('/') and frame.lstrip('/') and store.scan_last[frame] >= start]


def _named_by(topics: Dict[str, int]) -> str:
    return ', '.join('{} ({} messages)'.format(t, n) for t, n in sorted(topics.items()))
