# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The LiDAR and the poses: laser_offset and pose_frame, as the audit checks them, from the files.

base_link → laser as declared (a static transform, a URDF joint) against the offset measured
on the car (the frame_audit config); each consumer's pose_frame against the point its pose
topic carries (the config's pose topics); each consumer's laser_offset_x against the tree.
"""
from typing import List, Optional, Tuple

from ..publishers.declared import Declared
from ..model import DeclaredEdge, NodeParams, Param
from ..readers.params import group_of, is_offset_key, is_topic_key, leaf
from ..publishers.table import sent_edges
from ...engine.check_ids import LASER, POSE
from ...engine.checks.common import arrow, describe, plural
from ...engine.checks.laser import laser_mismatches, offset_key
from ...engine.config import AuditConfig, PoseTopic
from ...engine.findings import CheckResult, Finding, fmt, Level, within_tolerance
from ...engine.geometry import quat_from_rpy, Transform

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


def check_laser_offset(declared: Declared) -> CheckResult:
    """Check every declared base_link → laser against the offset measured on the car."""
    config = declared.config
    values = declared.laser_values()
    findings = [_offset_finding(edge, value, config) for edge, value in values
                if laser_problems(value, config)]
    edge = arrow(config.base_frame, config.laser_frame)
    if values:
        return CheckResult(LASER, '{} is {}, as configured ({})'.format(
            edge, describe(values[0][1]), values[0][0].where), findings)
    if declared.possible:  # what the lint cannot read may declare it: no verdict
        return CheckResult(LASER, 'not judged: no {} the lint can read, and {} may declare '
                           'it'.format(edge, declared.possible[0][0]), stale=True)
    return CheckResult(LASER, 'no {} declared in the workspace'.format(edge))


def _pose_topics(node: NodeParams, config: AuditConfig,
                 group: Optional[str] = None) -> List[Tuple[Param, PoseTopic]]:
    """Return the node's parameters that name a configured pose topic (in group, if given)."""
    topics = {t.topic.lstrip('/'): t for t in config.pose_topics}
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


def _tree_x(declared: Declared) -> List[Tuple[float, str]]:
    """Return base_link → laser's x, with where it comes from: each declaration, or config."""
    values = declared.laser_values() or (declared.context.laser_values()
                                         if declared.context is not None else [])
    if values:
        return [(value.translation[0], edge.describe()) for edge, value in values]
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
    if any(edge.key[1].rsplit('/', 1)[-1] == laser
           for edge in sent_edges(node, declared.table) or []):
        return []  # a node that sends the LiDAR's edge itself (a simulator): its own mount
    findings = []
    for param in node.params.values():
        if not _converts(node, param, declared):
            continue
        for tree_x, source in _tree_x(declared):
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
        findings += _wrong_pose_frames(node, declared.config)
        findings += _wrong_offsets(node, declared)
    consumers = sum(1 for node in declared.nodes if _pose_topics(node, declared.config))
    return CheckResult(POSE, '{}, each with the pose_frame its topic carries'.format(
        plural(consumers, 'pose consumer')), findings)
