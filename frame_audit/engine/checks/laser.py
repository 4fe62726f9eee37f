# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The LiDAR's offset: the tree's base_link → laser against the one measured on the car."""
import math
from typing import Dict, List, Tuple

from .common import arrow, describe, disputed, explained_by_lost_static, init_pointer, \
    is_another_robot, judged_from, lidars_by_name, LOST_STATIC_NOTE, moves, sent_at_once, source, \
    static_lost, undecoded_tf, warming_up, window
from .tree_shape import unclaimed
from ..check_ids import LASER
from ..config import AuditConfig
from ..edge import Edge
from ..findings import CheckResult, Finding, fmt, Level, Value, within_tolerance
from ..geometry import quat_from_rpy, rotation_angle, Transform
from ..lookup import lookup
from ..records import TF_TOPIC
from ..store import FrameStore


def offset_key(config: AuditConfig) -> str:
    """Name the config keys of the LiDAR's mount, and where their values came from."""
    return config.key('laser_offset.translation', 'laser_offset.rpy')


def laser_path(store: FrameStore, config: AuditConfig) -> List[Edge]:
    """Return the edges from the laser up to the base, as tf2 would follow them."""
    edges = []
    frame = config.laser_frame
    while frame != config.base_frame:
        edge = store.parent_of(frame)
        if edge is None or edge in edges:
            return []
        edges.append(edge)
        frame = edge.parent
    return edges


def laser_mismatches(value: Transform, config: AuditConfig) -> Tuple[List[str], float]:
    """Return the axes off by more than the tolerance, and the rotation's error."""
    axes = ['{} is {} m, {} m expected'.format(axis, fmt(got, 4), fmt(want, 4))
            for axis, got, want in zip('xyz', value.translation, config.laser_translation)
            if not within_tolerance(got, want, config.tolerance_m)]
    angle = rotation_angle(value.rotation, quat_from_rpy(*config.laser_rpy))
    return axes, angle


def _scan_frames(store: FrameStore, config: AuditConfig) -> str:
    """Return the scan's header frames that the tree has, for a message ('' if none)."""
    frames = sorted(f.lstrip('/') for f in store.scan_frames if f.lstrip('/') in store.frames)
    return ', '.join(frames)


def _laser_missing(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Say why base → laser cannot be checked: too early, a lost static, or another robot."""
    base, laser = config.base_frame, config.laser_frame
    name = arrow(base, laser)
    if warming_up(store, config, now):
        return CheckResult(LASER, 'waiting for {}'.format(name), stale=True)
    if base not in store.frames:
        return CheckResult(LASER, '{} cannot be checked: {} is not in the tree (chain_order '
                           'says why)'.format(name, base), stale=True)
    scanned = _scan_frames(store, config)  # the LiDAR's edge came: nothing static was lost
    lidars = lidars_by_name(store, base)  # what init would take for this robot's LiDAR
    unplaced = sorted({f.lstrip('/') for f in store.scan_frames} - {laser})
    if static_lost(store) and not scanned and not lidars and not unplaced \
            and not unclaimed(store, config, (laser,)):  # a rig with no LiDAR: the pointer
        return CheckResult(LASER, '', [Finding(
            LASER, Level.WARN, '{} cannot be checked, {} is not in the tree: {}'.format(
                name, laser, LOST_STATIC_NOTE), 'missing', frames=(base, laser),
            values=judged_from(store, config))])
    level, hint = init_pointer(store, config)
    if scanned:
        return CheckResult(LASER, '', [Finding(
            LASER, level,
            'there is no {} frame ({}), but {} ({} header) is in the tree: set frames.laser '
            'to the LiDAR frame; {}'.format(laser, config.key('frames.laser'), scanned,
                                            config.scan_topic, hint),
            'missing', frames=(laser,) + tuple(scanned.split(', ')),
            topics=(config.scan_topic,), values=judged_from(store, config))])
    undecoded = undecoded_tf(store)
    if undecoded:  # the missing edge may be in what could not be read
        return CheckResult(LASER, '{} cannot be checked: {} is not in the tree as read, and {}, '
                           'so whether anything publishes {} cannot be known'.format(
                               name, laser, undecoded, name), stale=True)
    scans = sum(count for frame, count in store.scan_frames.items() if frame.lstrip('/') == laser)
    # the scans name this LiDAR (whoever's config), or it is this robot's own: none placed
    if scans or not is_another_robot(store, config) and not unclaimed(store, config, (laser,)):
        return CheckResult(LASER, '', [Finding(
            LASER, Level.ERROR, '{} is not in the tree: nothing publishes {} ({}){}{}'.format(
                laser, name, config.key('frames.laser'),
                "; {}'s header names it ({} messages), so no node can place a scan".format(
                    config.scan_topic, scans) if scans else '',
                "; {} below {} {} named like a LiDAR: the driver's frame_id and the transform "
                'disagree on its name'.format(' and '.join(lidars), base,
                                              'is' if len(lidars) == 1 else 'are')
                if lidars else '; a static transform in the bringup launch sends it'),
            'missing', frames=(base, laser) + tuple(lidars),
            topics=(config.scan_topic,) if scans else (), values=judged_from(store, config))])
    said = 'but {} below {} {} named like a LiDAR: set frames.laser to the LiDAR frame'.format(
        ' and '.join(lidars), base, 'is' if len(lidars) == 1 else 'are') if lidars else \
        "but {}'s header names {}, which the tree lacks too".format(
            config.scan_topic, ' and '.join(unplaced)) if unplaced else \
        'and no frame below {} is named like a LiDAR'.format(base)
    return CheckResult(LASER, '', [Finding(
        LASER, level, 'there is no {} frame ({}), {}; {}'.format(
            laser, config.key('frames.laser'), said, hint),
        'missing', frames=(laser,) + tuple(lidars), values=judged_from(store, config))])


def check_laser_offset(store: FrameStore, config: AuditConfig, now: float) -> CheckResult:
    """Check that base_link → laser is the configured offset and rotation, sent as static."""
    base, laser = config.base_frame, config.laser_frame
    if not laser:
        return CheckResult(LASER, 'not checked: no LiDAR is configured (frames.laser is empty)')
    name = arrow(base, laser)
    if laser == base:
        return CheckResult(LASER, 'not checked: {} is {} itself: the scan is taken in the base '
                           'frame (merged from several LiDARs, or re-projected), so no mount lies '
                           'between them'.format(config.key('frames.laser'), base), stale=True)
    if laser not in store.frames or base not in store.frames:
        return _laser_missing(store, config, now)
    found = lookup(store, base, laser)
    path = laser_path(store, config)
    value = found.transform
    if value is None or not path:
        lost = explained_by_lost_static(store, base, laser)
        level, hint = init_pointer(store, config) if is_another_robot(store, config) else \
            (Level.ERROR, '')
        return CheckResult(LASER, '', [Finding(
            LASER, Level.WARN if lost else level, '{} cannot be composed: {}{}'.format(
                name, found.reason or '{} is not below {}'.format(laser, base),
                '. ' + LOST_STATIC_NOTE if lost else '; ' + hint if hint else ''),
            'unreachable', frames=(base, laser))])
    moving = [edge for edge in path if moves(edge)]
    apart = [edge for edge in moving if disputed(edge)]
    if apart:
        return CheckResult(LASER, '{} cannot be checked: {}, with values apart '
                           '(parent_uniqueness reports it), so the mount has no one '
                           'value'.format(name, '; '.join(sent_at_once(edge) for edge in apart)),
                           stale=True)
    if moving:
        return CheckResult(LASER, '', [_no_mount(edge, base, laser) for edge in moving])
    where = '; '.join('{} from {}'.format(arrow(e.parent, e.child), source(e)) for e in path)
    # a /tf edge still so far may move later: a recording is judged at its end (live: now)
    findings = _sent_on_tf(path, config, now) if store.ended or store.recorded is None else []
    x, y, z = value.translation
    values: Dict[str, Value] = {'x_m': round(x, 6), 'y_m': round(y, 6), 'z_m': round(z, 6)}
    if not config.chose('laser_offset.translation'):
        return CheckResult(LASER, '{} is {} ({}); not compared: {} sets no laser_offset, so '
                           'no mount is configured (frame-audit init writes the one it '
                           'measures)'.format(name, describe(value), where, config.source),
                           findings, values, stale=True)
    axes, angle = laser_mismatches(value, config)
    if axes or not within_tolerance(angle, 0.0, config.tolerance_rad):
        expected = Transform(config.laser_translation, quat_from_rpy(*config.laser_rpy))
        problems = axes + (['the rotation is off by {} rad'.format(fmt(angle, 4))]
                           if not within_tolerance(angle, 0.0, config.tolerance_rad) else [])
        findings.append(Finding(
            LASER, Level.ERROR,
            '{} is {} ({}), but the car was measured at {} ({}): {}. Measure the LiDAR, then '
            'fix whichever is wrong'.format(
                name, describe(value), where, describe(expected),
                offset_key(config),
                '; '.join(problems)),
            'offset', frames=(base, laser), topics=tuple(sorted({t for e in path
                                                                for t in e.topics})),
            values={'x': value.translation[0], 'expected_x': config.laser_translation[0],
                    'rotation_error_rad': round(angle, 6)}))
    return CheckResult(LASER, '{} is {}, as configured'.format(name, describe(value)), findings,
                       {**values, 'rotation_error_rad': round(angle, 6)})


def _sent_on_tf(path: List[Edge], config: AuditConfig, now: float) -> List[Finding]:
    """Return a WARN for each edge of the mount sent on /tf in the window."""
    return [Finding(
        LASER, Level.WARN,
        '{} is sent on /tf ({}), not /tf_static: a fixed mount belongs on /tf_static, where a '
        'node that starts late still gets it'.format(arrow(edge.parent, edge.child),
                                                     source(edge)),
        'dynamic:' + arrow(edge.parent, edge.child), frames=edge.key, topics=edge.topics)
        for edge in path if edge.topic_last.get(TF_TOPIC, -math.inf) >= window(config, now)]


def _no_mount(edge: Edge, base: str, laser: str) -> Finding:
    """
    Say that an edge between the base and the LiDAR moves: no mount, so no offset to check.

    Odometry sent under the base drives such an edge metres; calling it a mount to move to
    /tf_static, or comparing its value now with the measured mount, sends the user to the
    wrong fix. chain_order reports where the robot's motion belongs.
    """
    name = arrow(edge.parent, edge.child)
    return Finding(
        LASER, Level.WARN,
        '{} cannot be checked: {} moves up to {} m and turns up to {} rad ({}), so between {} '
        'and {} it is no mount but a joint or a vehicle, and the LiDAR has no one offset '
        "(chain_order says where a robot's motion belongs)".format(
            arrow(base, laser), name, fmt(edge.reach_m, 2), fmt(edge.reach_rad, 2),
            source(edge), base, laser),
        'moving:' + name, frames=edge.key, topics=edge.topics,
        values={'reach_m': round(edge.reach_m, 4), 'reach_rad': round(edge.reach_rad, 4)})
