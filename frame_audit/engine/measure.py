# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A robot described from a known-good recording: what `frame-audit init` writes as a config.

The frames are found by structure: odom is the odometry topic's header frame (or the frame
named odom), the base its child, map odom's parent, the LiDAR the scan's header frame. Only
when no scan was recorded is the LiDAR taken by its name (base_scan, rplidar_link, LDS-01),
and the config says so. The LiDAR mount is the tree's base → LiDAR; each pose topic's
pose_frame is the frame of the robot its poses fit, decided from the data as the pose_frame
check decides.
"""
from dataclasses import dataclass, field
import re
from typing import List, Mapping, Optional, Sequence

from .checks.common import arrow, describe, disputed, first_of, moves, odometry_untied, \
    sent_at_once
from .checks.pose_frame import placed_medians
from .config import AuditConfig, LookupEntry, PoseTopic
from .edge import Edge
from .findings import fmt
from .geometry import rpy_of, Transform
from .lookup import lookup
from .scoring import candidate_frames
from .tree_view import TreeReader
from ..errors import MeasureError


@dataclass
class MeasuredPose:
    """A pose topic and the frame its poses were found to describe."""

    name: str
    topic: str
    pose_frame: str
    note: str


@dataclass
class Measured:
    """A robot as its recording shows it."""

    map_frame: Optional[str]
    odom_frame: str
    base_frame: str
    laser_frame: str  # '' when the recording has no LiDAR in the tree
    laser_mount: Optional[Transform]
    odom_topic: Optional[str]
    scan_topic: Optional[str]
    poses: List[MeasuredPose] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    laser_by_name: bool = False  # no scan recorded: the LiDAR is the frame named like one
    rooted: bool = False  # no odometry: map and odom are the tree's root (a note says how)


# the names LiDAR frames go by: laser, base_scan, rplidar_link, LDS-01, velodyne, os_lidar
def _most(counts: Mapping[str, int], frames: Sequence[str]) -> Optional[str]:
    """Return the most frequent name in counts that is one of frames ('/' stripped)."""
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    return next((name.lstrip('/') for name, _ in ranked if name.lstrip('/') in frames), None)


@dataclass
class FoundFrames:
    """The frames init found, by the tree's structure, and how where it is not the usual way."""

    odom: str
    base: str
    map_frame: Optional[str]
    laser: str
    note: str = ''  # no odometry: odom is the world-fixed root, said so


def measure_frames(store: TreeReader, odom_topic: Optional[str]) -> FoundFrames:
    """Return the robot's frames found by the tree's structure (MeasureError)."""
    track = store.tracks.get(odom_topic) if odom_topic else None
    frames = sorted(store.frames)
    if not frames:
        raise MeasureError('no transform to measure: the recording has no /tf or /tf_static '
                           'transform that tf2 accepts (`frame-audit audit` says why of any it '
                           'refuses)')
    untied = odometry_untied(track.header_frames if track else (), store.frames)
    if untied:
        raise MeasureError(
            "no odom frame: {}'s header names {}, which no transform of the recording "
            "carries, and no frame is named 'odom' (frames: {}): send that transform (is the "
            "odometry node's TF publishing off?), or write this robot's config by hand, with "
            'config/frame_audit.yaml as the model (frames.odom, frames.base, frames.map, '
            'frames.required)'.format(odom_topic, ' and '.join(untied), first_of(frames, 12)))
    odom = _most(track.header_frames, frames) if track else None
    odom = odom or ('odom' if 'odom' in store.frames else None)
    laser = _most(store.scan_frames, frames) or ''
    if odom is None:
        return _world_fixed(store, laser)
    children = sorted(child for parent, child in store.edges if parent == odom)
    base = _most(track.child_frames, children) if track else None
    if base is None:
        below = [c for c in children if laser and c in store.ancestry(laser)]
        base = next(iter(below or children), None)
    if base is None:
        raise MeasureError('no base frame: {} has no child in the tree'.format(odom))
    parent = store.parent_of(odom)
    if laser and base not in store.ancestry(laser):
        laser = ''
    return FoundFrames(odom, base, parent.parent if parent else None, laser)


BODY_M = 1e-4  # a moving edge whose origin moves this far moves as a body, not a joint turning


def _world_fixed(store: TreeReader, laser: str) -> FoundFrames:
    """
    Return a robot without odometry's frames: the root it moves in, and its body.

    A drone or a car tracked by motion capture (world → body), a turtle: odom's role is the
    world-fixed root's, and the base is a child that moves as a body under it, its origin too
    (the one above the scan, else the one with the most frames below). None: a fixed base
    (an arm, whose joints turn in place), the root itself. How each was chosen goes in the
    config, to check.
    """
    trees = sorted(store.trees(), key=lambda tree: (-len(tree), sorted(tree)))
    tree = next((t for t in trees if laser in t), trees[0])
    root = store.ancestry(tree[0])[-1]
    bodies = sorted(child for (parent, child), edge in store.edges.items()
                    if parent == root and moves(edge) and edge.reach_m > BODY_M)
    above_scan = [c for c in bodies if laser and c in store.ancestry(laser)]
    size = {c: sum(c in store.ancestry(f) for f in tree) for c in bodies}
    ranked = above_scan or sorted(bodies, key=lambda c: -size[c])
    why = "no odometry topic names a frame of the tree and no frame is named 'odom': map and " \
        'odom are taken to be {}, the root of the tree{}'.format(
            root, '' if len(trees) == 1 else ' of {} frames'.format(len(tree)))
    if not ranked:
        return _rooted(store, root, root, laser, why + ', and the base that root too: nothing '
                       "below it moves as a body (a fixed base, as an arm's: its joints turn in "
                       'place)')
    base = ranked[0]
    others = [c for c in bodies if c != base]
    how = 'the child of {} above the scan'.format(root) if above_scan else \
        'the child that moves as a body under it' if not others else \
        'of the children that move as bodies under it the one with the most frames below'
    return _rooted(store, root, base, laser, '{}, and the base {}, {}{}'.format(
        why, base, how, '; {} move{} there too'.format(
            first_of(others, 4), 's' if len(others) == 1 else '') if others else ''))


def _rooted(store: TreeReader, root: str, base: str, laser: str, why: str) -> FoundFrames:
    """Return frames whose odom and map are the root (no map or odom of its own), said why."""
    return FoundFrames(root, base, root, laser if laser and base in store.ancestry(laser) else '',
                       why + ': check frames.map, frames.odom and frames.base')


def pose_name(topic: str, taken: Sequence[str]) -> str:
    """Return a parameter name for a topic: '/amcl_pose' -> 'amcl_pose', unique."""
    name = re.sub(r'[^A-Za-z0-9_]+', '_', topic).strip('_') or 'pose'
    unique, number = name, 2
    while unique in taken:
        unique, number = '{}_{}'.format(name, number), number + 1
    return unique


def measure_pose(store: TreeReader, config: AuditConfig, pose: PoseTopic) -> MeasuredPose:
    """Decide which frame of the robot a pose topic's samples describe."""
    track = store.tracks.get(pose.topic)
    frames = candidate_frames(store)
    medians = placed_medians(track, frames, config.pose_min_samples, -float('inf'))[0] \
        if track else {}
    if not medians:
        return MeasuredPose(pose.name, pose.topic, config.base_frame,
                            'too few samples placed against TF to decide; assumed {}'.format(
                                config.base_frame))
    best = min(medians, key=medians.__getitem__)
    if medians[best] > config.pose_fit_m:
        return MeasuredPose(pose.name, pose.topic, config.base_frame,
                            'fits no frame (closest {}, {} m); assumed {}: check it'.format(
                                best, fmt(medians[best], 3), config.base_frame))
    alike = [f for f in frames if f in medians
             and medians[f] - medians[best] < config.pose_margin_m]
    # frames the data cannot tell apart: prefer the base, then the LiDAR, then the closest
    preferred = [f for f in (config.base_frame, config.laser_frame) if f in alike]
    chosen = preferred[0] if preferred else best
    others = [f for f in alike if f != chosen]
    return MeasuredPose(pose.name, pose.topic, chosen, 'median {} m from it{}'.format(
        fmt(medians[chosen], 3), '; {} too close to tell apart'.format(', '.join(others))
        if others else ''))


def laser_mount(store: TreeReader, base: str, laser: str) -> Optional[Transform]:
    """Return the tree's base → LiDAR; None without a LiDAR, in the base, through a moving edge."""
    if not laser or laser == base or [e for e in _between(store, base, laser) if moves(e)]:
        return None
    found = lookup(store, base, laser)
    return found.transform if found.ok else None


def _between(store: TreeReader, base: str, frame: str) -> List[Edge]:
    """Return the edges from a frame up to the base above it ([] where it is not below)."""
    if frame not in store.frames:
        return []
    chain = store.ancestry(frame)
    if base not in chain:
        return []
    edges = [store.parent_of(child) for child in chain[:chain.index(base)]]
    return [edge for edge in edges if edge is not None]


def moving_edges(store: TreeReader, base: str, frame: str) -> List[str]:
    """
    Return the edges between base and a frame below it whose values move, as 'a → b'.

    A mount is fixed: an edge that moves (odometry sent under the base, a pan joint) has no
    one value to write, so init never writes it as one. An edge whose values move only
    between two nodes sending it at once is not among them: disputed_edges says it.
    """
    return [arrow(*edge.key) for edge in _between(store, base, frame)
            if moves(edge) and not disputed(edge)]


def disputed_edges(store: TreeReader, base: str, frame: str) -> List[str]:
    """Return the edges between base and a frame that two nodes send at once, values apart."""
    return [sent_at_once(edge) for edge in _between(store, base, frame)
            if moves(edge) and disputed(edge)]


def disagreeing_statics(store: TreeReader) -> List[str]:
    """Return each static edge that two static publishers sent with different values."""
    return ['{} ({}, then {})'.format(arrow(*edge.key), describe(old), describe(new))
            for edge in sorted(store.edges.values(), key=lambda e: e.key)
            for old, new, _ in edge.static_changes[:1]]


def _number(value: float) -> str:
    return '{:.6f}'.format(value).rstrip('0').rstrip('.') if value else '0.0'


ROOTED = '  # the root of the tree: no odometry was recorded (a note says how): check it'


def config_text(measured: Measured, config: AuditConfig, source: str) -> str:
    """Return the robot's config as YAML, commented like config/frame_audit.yaml."""
    m = measured
    required = config.required_frames or ()  # each once: a scan merged in the base is both
    lines = [
        '# frame_audit configuration measured from {} by `frame-audit init`.'.format(source),
        '# Audit later recordings of this robot with: frame-audit audit REC --config THIS_FILE',
        '# Each value was read from the recording; check the ones marked "check" by hand.',
        'frame_audit:',
        '  ros__parameters:',
        '    hardware_id: {}'.format(_quoted(config.hardware_id)),
        '',
        '    frames:',
        '      map: {}{}'.format(_quoted(m.map_frame or 'map'),
                                 ROOTED if m.rooted else '' if m.map_frame
                                 else '  # not in the recording'),
        '      odom: {}{}'.format(_quoted(m.odom_frame), ROOTED if m.rooted else ''),
        '      base: {}  # {}'.format(_quoted(m.base_frame), (
            'the root itself: nothing moves as a body under it (a note says how): check it'
            if m.base_frame == m.odom_frame else 'moves under the root (a note says how): '
            'check it') if m.rooted else "odom's child"),
        '      laser: {}{}'.format(_quoted(m.laser_frame), _laser_comment(m)),
        '      required: [{}]  # the frames present in the recording'.format(
            ', '.join(_quoted(f) for f in required)),
    ]
    if m.laser_mount is not None:
        translation = ', '.join(_number(v) for v in m.laser_mount.translation)
        rpy = ', '.join(_number(v) for v in rpy_of(m.laser_mount.rotation))
        lines += [
            '',
            '    laser_offset:  # {} -> {}, as the tree has it'.format(
                m.base_frame, m.laser_frame),
            '      translation: [{}]'.format(translation),
            '      rpy: [{}]'.format(rpy),
            '      tolerance_m: {}'.format(_number(config.tolerance_m)),
            '      tolerance_rad: {}'.format(_number(config.tolerance_rad)),
        ]
    lines += ['', '    odometry:']
    if m.odom_topic:
        lines.append('      topic: {}'.format(_quoted(m.odom_topic)))
    else:
        lines.append('      topic: /odom  # not in the recording')
    lines += ['', '    scan:', '      topic: {}{}'.format(
        _quoted(m.scan_topic or '/scan'), '' if m.scan_topic else '  # not in the recording')]
    # into the frames the recording has, each once: no map, no lookup into one
    targets = tuple(dict.fromkeys(f for f in (m.map_frame, m.odom_frame) if f))
    lookups = tuple(LookupEntry(m.scan_topic or '/scan', frame) for frame in targets) \
        if m.laser_frame else ()
    if lookups:  # what the audit would ask anyway, said: a wait is no recording's to measure
        lines += ['', "    lookups:  # check: your nodes' TF waits; not measured, the F1TENTH "
                  "car's stand in",
                  '      entries: [{}]'.format(', '.join(
                      "'{}'".format(entry.text) for entry in lookups))]
    lines += ['', '    pose_topics: [{}]'.format(', '.join(p.name for p in m.poses))]
    if m.poses:
        lines.append('    poses:')
        for pose in m.poses:
            lines += ['      {}:  # {}'.format(pose.name, pose.note),
                      '        topic: {}'.format(_quoted(pose.topic)),
                      '        pose_frame: {}'.format(_quoted(pose.pose_frame))]
    for note in m.notes:
        lines.append('# note: ' + note)
    return '\n'.join(lines) + '\n'


def _laser_comment(measured: Measured) -> str:
    """Return the comment of frames.laser: how the LiDAR was found, or that it was not."""
    if measured.laser_by_name:
        return '  # named like a LiDAR; no scan topic was recorded: check it'
    if measured.laser_frame == measured.base_frame:
        return "  # the scan's header frame: the base itself, no mount"
    if measured.laser_frame:
        return "  # the scan's header frame"
    return '  # no LiDAR in the tree: laser checks do not run'


def _quoted(name: str) -> str:
    """Return a YAML scalar for a name, quoted when YAML would read it otherwise."""
    if re.fullmatch(r'[A-Za-z_/][A-Za-z0-9_/.\-]*', name) and name.lower() not in (
            'true', 'false', 'yes', 'no', 'on', 'off', 'null', 'y', 'n'):
        return name
    return "'" + name.replace("'", "''") + "'"
