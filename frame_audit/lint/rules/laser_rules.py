# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The LiDAR and the poses: laser_offset and pose_frame, as the audit checks them, from the files.

base_link → laser as declared (a static transform, a URDF joint) against the offset measured
on the car (the frame_audit config); each consumer's pose_frame against the point its pose
topic carries (the config's pose topics); each consumer's laser_offset_x against the tree.
"""
from dataclasses import replace
from typing import List, Optional, Tuple

from ..model import DeclaredEdge, NodeParams, Param
from ..publishers.declared import Declared
from ..publishers.static_tf import taken_by_tf2
from ..publishers.table import sent_edges
from ..readers.params import group_of, is_offset_key, is_topic_key, leaf
from ...engine.check_ids import LASER, POSE
from ...engine.checks.common import arrow, describe, plural
from ...engine.checks.laser import laser_mismatches, offset_key
from ...engine.config import AuditConfig, PoseTopic
from ...engine.findings import CheckResult, Finding, fmt, Level, within_tolerance
from ...engine.geometry import quat_from_rpy, rpy_of, Transform

ROTATION_FIELDS = ('yaw', 'pitch', 'roll', 'qx', 'qy', 'qz', 'qw')


def laser_problems(value: Transform, config: AuditConfig) -> List[str]:
    """Return how a base_link → laser value differs from the measured one ([] if it does not)."""
    axes, angle = laser_mismatches(value, config)
    if not within_tolerance(angle, 0.0, config.tolerance_rad):
        axes.append('the rotation is off by {} rad'.format(fmt(angle, 4)))
    return axes


def _offset_finding(edge: DeclaredEdge, value: Transform, config: AuditConfig) -> Finding:
    problems = laser_problems(value, config)
    axes = [axis for axis in 'xyz' if any(p.startswith(axis + ' ') for p in problems)]
    where = edge.at(*(axes or ROTATION_FIELDS))
    expected = Transform(config.laser_translation, quat_from_rpy(*config.laser_rpy))
    return Finding(
        LASER, Level.ERROR,
        '{}: {} is {} ({}), but the car was measured at {} ({}): {}. Measure the LiDAR, then '
        'fix whichever is wrong'.format(
            where, arrow(config.base_frame, config.laser_frame), describe(value), edge.via,
            describe(expected), offset_key(config), '; '.join(problems)),
        'offset:{}'.format(edge.where), frames=(config.base_frame, config.laser_frame),
        values=dict(where.values(), x=value.translation[0],
                    expected_x=config.laser_translation[0]))


def _disagreeing(values: List[Tuple[DeclaredEdge, Transform]],
                 config: AuditConfig) -> List[Finding]:
    """Return base_link → laser declared with two values: the files disagree with each other."""
    first_edge, first = values[0]
    reference = replace(config, laser_translation=first.translation,
                        laser_rpy=rpy_of(first.rotation))
    return [Finding(
        LASER, Level.ERROR,
        '{}: {} is {} ({}), but {} ({}): {}. The files disagree about where the LiDAR is; '
        'measure it, then fix whichever is wrong'.format(
            edge.at('x'), arrow(config.base_frame, config.laser_frame), describe(value),
            edge.via, describe(first), first_edge.describe(),
            '; '.join(laser_problems(value, reference))),
        'disagree:{}'.format(edge.where), frames=(config.base_frame, config.laser_frame),
        values=dict(edge.at('x').values(), x=value.translation[0], other_x=first.translation[0]))
        for edge, value in values[1:] if laser_problems(value, reference)]


def check_laser_offset(declared: Declared) -> CheckResult:
    """Check every declared base_link → laser against the measured offset, or each other."""
    config = declared.config
    if not config.laser_frame:
        unread = '; {} may declare one'.format(declared.possible[0][0]) \
            if declared.possible else ''
        return CheckResult(LASER, 'not judged: no --config, and the files name no one LiDAR '
                           'frame (no driver frame_id, no description link such as laser, '
                           'lidar, base_scan){}: which frame is the LiDAR cannot be '
                           'known'.format(unread), stale=True)
    values = declared.laser_values()
    edge = arrow(config.base_frame, config.laser_frame)
    if values and not declared.measured:
        return CheckResult(LASER, '{} is {} ({}); no --config, so not compared with a '
                           'measurement of the robot'.format(edge, describe(values[0][1]),
                                                             values[0][0].where),
                           _disagreeing(values, config))
    findings = [_offset_finding(edge, value, config) for edge, value in values
                if laser_problems(value, config)]
    if values:
        return CheckResult(LASER, '{} is {}, as configured ({})'.format(
            edge, describe(values[0][1]), values[0][0].where), findings)
    unvalued = declared.parents().get(config.laser_frame, [])
    if unvalued:  # sent, but by numbers the files do not give: no verdict either way
        first = unvalued[0]
        chain = '' if first.key == (config.base_frame, config.laser_frame) else \
            ', below which {} cannot be composed'.format(edge)
        why = 'tf2 drops it (transform_values says why), so the LiDAR hangs from nothing' \
            if first.value is not None and not taken_by_tf2(first) else \
            'a number known only when the launch runs, or a transform that moves'
        return CheckResult(LASER, 'not judged: {} sends {}{}: {}'.format(
            first.describe(), arrow(*first.key), chain, why), stale=True)
    if declared.possible:  # what the lint cannot read may declare it: no verdict
        return CheckResult(LASER, 'not judged: no {} the lint can read, and {} may declare '
                           'it'.format(edge, declared.possible[0][0]), stale=True)
    return CheckResult(LASER, 'not judged: no {} declared in the workspace, so no mount to '
                       'judge'.format(edge), stale=True)


def _pose_topics(node: NodeParams, config: AuditConfig,
                 group: Optional[str] = None) -> List[Tuple[Param, PoseTopic]]:
    """Return the node's parameters that name a configured pose topic (in group, if given)."""
    topics = {t.topic.lstrip('/'): t for t in config.pose_topics or ()}
    return [(p, topics[p.value.lstrip('/')]) for p in node.params.values()
            if is_topic_key(p.name) and isinstance(p.value, str)
            and p.value.lstrip('/') in topics and group in (None, group_of(p.name))]


def _pose_frame_param(node: NodeParams, group: str) -> Optional[Param]:
    """Return the node's pose_frame next to a parameter of this group, if it has one."""
    return node.params.get(group + 'pose_frame')


def _wrong_pose_frames(node: NodeParams, config: AuditConfig) -> List[Finding]:
    return [finding for param in node.params.values() if leaf(param.name) == 'pose_frame'
            and isinstance(param.value, str)
            for finding in _wrong_pose_frame(node, param, config)]


def _wrong_pose_frame(node: NodeParams, declared: Param, config: AuditConfig) -> List[Finding]:
    return [Finding(
        POSE, Level.ERROR,
        "{}: {}'s pose_frame is {}, but its {} {} ({}) carries {}'s pose (poses.{}.pose_frame "
        'in the frame_audit config). Nothing raises an error: the node places the car {} m '
        'from where it is'.format(
            declared.where, node.node, declared.value, leaf(topic.name), topic.value,
            topic.where, pose.pose_frame, pose.name, fmt(abs(config.laser_translation[0]), 2)),
        'pose_frame:{}'.format(declared.where), frames=(declared.value, pose.pose_frame),
        topics=(pose.topic,), values=declared.where.values())
        for topic, pose in _pose_topics(node, config, group_of(declared.name))
        if declared.value.lstrip('/') != pose.pose_frame]


def _mounts(declared: Declared) -> List[Tuple[DeclaredEdge, Transform]]:
    """Return base → LiDAR as declared, prefixed too (ego_racecar/base_link → .../laser)."""
    config = declared.config
    values = declared.laser_values()
    if values or not config.laser_frame:
        return values
    leaves = (config.base_frame.rsplit('/', 1)[-1], config.laser_frame.rsplit('/', 1)[-1])
    return [(edge, edge.value) for edge in declared.edges if edge.value is not None
            and edge.static and tuple(f.rsplit('/', 1)[-1] for f in edge.key) == leaves
            and edge.key[0][:-len(leaves[0])] == edge.key[1][:-len(leaves[1])]]


def _tree_x(declared: Declared, own: List[DeclaredEdge]) -> List[Tuple[float, str]]:
    """Return base_link → laser's x and where it comes from (not the node's own edges)."""
    values = [(e, v) for e, v in _mounts(declared) if e not in own] or (
        [(e, v) for e, v in _mounts(declared.context) if e not in own]
        if declared.context is not None else [])
    if values:
        return [(value.translation[0], edge.describe()) for edge, value in values]
    if own:
        return []  # a simulator's own mount, and no description to hold it against
    if not declared.measured:
        return []  # no mount declared and none measured: the offset cannot be judged
    return [(declared.config.laser_translation[0],
             'laser_offset.translation in the frame_audit config')]


def _converts(node: NodeParams, param: Param, declared: Declared) -> bool:
    """Return whether an offset parameter is a number the node converts LiDAR poses with."""
    pose_frame = _pose_frame_param(node, group_of(param.name))
    return is_offset_key(param.name) and not isinstance(param.value, bool) \
        and isinstance(param.value, (int, float)) \
        and (pose_frame is None or pose_frame.value == declared.config.laser_frame)


def _wrong_offsets(node: NodeParams, declared: Declared) -> List[Finding]:
    laser = declared.config.laser_frame.rsplit('/', 1)[-1]
    own = [edge for edge in sent_edges(node, declared.table) or []
           if edge.key[1].rsplit('/', 1)[-1] == laser]  # a simulator's: held against the rest
    findings = []
    for param in node.params.values():
        if not _converts(node, param, declared):
            continue
        for tree_x, source in _tree_x(declared, own):
            if within_tolerance(param.value, tree_x, declared.config.tolerance_m):
                continue
            findings.append(Finding(
                POSE, Level.ERROR,
                "{}: {}'s {} is {} m, but {} has x {} m ({}): every pose it converts is {} m "
                'off'.format(param.where, node.node, leaf(param.name), fmt(param.value, 4),
                             arrow(declared.config.base_frame, declared.config.laser_frame),
                             fmt(tree_x, 4), source, fmt(abs(param.value - tree_x), 4)),
                'offset:{}'.format(param.where),
                frames=(declared.config.base_frame, declared.config.laser_frame),
                values=dict(param.where.values(), laser_offset_x=param.value, tree_x=tree_x)))
    return findings


def check_pose_frame(declared: Declared) -> CheckResult:
    """Check each consumer's pose_frame against its pose topic, and its offset against the tree."""
    findings = []
    for node in declared.nodes:
        if declared.measured:  # the pose topics are the config's: without one, the car's
            findings += _wrong_pose_frames(node, declared.config)
        findings += _wrong_offsets(node, declared)
    judged = sum(1 for node in declared.nodes for p in node.params.values()
                 if _converts(node, p, declared))
    if not declared.measured:
        return CheckResult(POSE, '{}no --config, so no pose topic is asked; {} held against '
                           'the declared LiDAR mount'.format(
                               '' if judged else 'not judged: ',
                               plural(judged, 'LiDAR offset parameter')), findings,
                           stale=not judged)
    consumers = sum(1 for node in declared.nodes if _pose_topics(node, declared.config))
    return CheckResult(POSE, '{}{}, each with the pose_frame its topic carries'.format(
        '' if judged or consumers else 'not judged: ', plural(consumers, 'pose consumer')),
        findings, stale=not (judged or consumers))
