# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The declared tree's shape and names: the audit's tree checks, with a file and line for each.

parent_uniqueness, chain_order, transform_values and connectivity, as the audit checks them on
a live tree.
"""
import math
from typing import List, Optional, Sequence, Tuple

from .declared import Declared
from .laser_rules import laser_problems
from .model import DeclaredEdge, Param
from .nodes import KNOWN_PUBLISHERS, known_edge, switch_of, yaml_text
from .params import is_frame_key, leaf
from .static_tf import finite, unit_quaternion
from ..engine.checks.common import arrow, describe
from ..engine.findings import CheckResult, Finding, fmt, Level
from ..engine.geometry import distance, quat_from_rpy, rotation_angle

PARENTS = 'parent_uniqueness'
CHAIN = 'chain_order'
VALUES = 'transform_values'
CONNECTIVITY = 'connectivity'
PUBLISHERS = 'no static transform, URDF joint or known publisher ({}) declares it'.format(
    ', '.join(p.label for p in KNOWN_PUBLISHERS))


def _expected(edge: DeclaredEdge, declared: Declared) -> bool:
    """Return whether an edge is the car's: REP 105's parent, the measured LiDAR offset."""
    config = declared.config
    parent_of = {config.laser_frame: config.base_frame, config.base_frame: config.odom_frame,
                 config.odom_frame: config.map_frame}
    parent, child = edge.key
    if child in parent_of and parent != parent_of[child]:
        return False
    return not (edge.key == (config.base_frame, config.laser_frame) and edge.value is not None
                and laser_problems(edge.value, config))


def _suspect(edges: Sequence[DeclaredEdge], declared: Declared) -> DeclaredEdge:
    """Return the declaration that most likely is the slip: the first unexpected, else the last."""
    return next((e for e in edges if not _expected(e, declared)), edges[-1])


def _second_parents(declared: Declared) -> List[Finding]:
    findings = []
    for child, edges in sorted(declared.parents().items()):
        parents = sorted({e.key[0] for e in edges})
        if len(parents) < 2:
            continue
        described = ' and '.join('{} ({})'.format(e.key[0], e.describe()) for e in edges)
        suspect = _suspect(edges, declared)
        findings.append(Finding(
            PARENTS, Level.ERROR,
            '{}: {} has {} parents: {}. A frame has one parent: tf2 keeps whichever came last, '
            'so nodes see {} jump between them; keep one'.format(
                suspect.at('parent'), child, len(parents), described, child),
            'parents:' + child, frames=(child,) + tuple(parents), values=dict(
                suspect.at('parent').values(), parents=', '.join(parents))))
    return findings


def _same_value(edges: Sequence[DeclaredEdge], declared: Declared) -> bool:
    first = edges[0].value
    return all(e.static and e.value is not None for e in edges) and all(
        distance(e.value.translation, first.translation) <= declared.config.tolerance_m
        and rotation_angle(e.value.rotation, first.rotation) <= declared.config.tolerance_rad
        for e in edges)


def _two_sources(declared: Declared) -> List[Finding]:
    by_edge: dict = {}
    for edge in declared.edges:
        by_edge.setdefault(edge.key, []).append(edge)
    findings = []
    for (parent, child), edges in sorted(by_edge.items()):
        if len(edges) < 2:
            continue
        same = _same_value(edges, declared)
        suspect = _suspect(edges, declared)
        described = '; '.join('{} with {}'.format(e.describe(), describe(e.value))
                              if e.value else e.describe() for e in edges)
        findings.append(Finding(
            PARENTS, Level.WARN if same else Level.ERROR,
            '{}: {} is declared by {} sources: {}. {}'.format(
                suspect.where, arrow(parent, child), len(edges), described,
                'The same value twice: if both start together, one is redundant' if same else
                'Two senders of one edge make the frame jump between them; keep one'),
            'sources:' + arrow(parent, child), frames=(parent, child),
            values=suspect.where.values()))
    return findings


def check_parent_uniqueness(declared: Declared) -> CheckResult:
    """Check that no frame is given two parents, and no edge two senders, across the files."""
    return CheckResult(PARENTS, 'each of {} declared frames has one parent and one source'
                       .format(len(declared.frames)),
                       _second_parents(declared) + _two_sources(declared))


def _chain(declared: Declared) -> List[str]:
    config = declared.config
    return [config.map_frame, config.odom_frame, config.base_frame]


def _reversed(declared: Declared) -> List[Finding]:
    chain = _chain(declared)
    return [Finding(
        CHAIN, Level.ERROR,
        '{}: {} is declared ({}), but REP 105 orders {}: the edge is inverted. Send {} '
        'instead'.format(edge.where, arrow(*edge.key), edge.via, ' → '.join(chain),
                         arrow(edge.key[1], edge.key[0])),
        'reversed:' + arrow(*edge.key), frames=edge.key, values=edge.where.values())
        for edge in declared.edges
        if set(edge.key) <= set(chain) and chain.index(edge.key[0]) > chain.index(edge.key[1])]


def _switched_off(declared: Declared, upper: str, lower: str) -> Optional[Param]:
    """Return the switch that keeps a known publisher from sending upper → lower, if one does."""
    for node in declared.nodes:
        edge = known_edge(node, switched=False)
        if edge is not None and edge.key == (upper, lower) and known_edge(node) is None:
            return switch_of(node)
    return None


def _out_of_order(declared: Declared, reported: List[Finding]) -> List[Finding]:
    chain = [f for f in _chain(declared) if f in declared.config.required_frames]
    findings = []
    for upper, lower in zip(chain, chain[1:]):
        ancestry = declared.ancestry(lower)
        if upper in ancestry or not {upper, lower} <= declared.frames \
                or declared.has_two_parents(ancestry[-1]) \
                or any(set(f.frames) >= {upper, lower} for f in reported):
            continue
        switch = _switched_off(declared, upper, lower)
        off = '{} is {} there, so nothing sends {}'.format(
            switch.name, yaml_text(switch.value), arrow(upper, lower)) \
            if switch else 'Nothing declares {}'.format(arrow(upper, lower))
        findings.append(Finding(
            CHAIN, Level.ERROR,
            "{}{} is not above {}: in the declared tree {}'s ancestry is {}. {} (REP 105 "
            'orders {})'.format('{}: '.format(switch.where) if switch else '', upper, lower,
                                lower, ' ← '.join(ancestry), off, ' → '.join(_chain(declared))),
            'order:{}:{}'.format(upper, lower), frames=(upper, lower),
            values=switch.where.values() if switch else {}))
    return findings


def check_chain_order(declared: Declared) -> CheckResult:
    """Check REP 105 in the declared tree: map above odom above base_link, none inverted."""
    findings = _reversed(declared)
    findings += _out_of_order(declared, findings)
    findings += [Finding(CHAIN, Level.ERROR, '{} is in no declared transform (frames.required '
                         'lists it): {}'.format(frame, PUBLISHERS), 'missing:' + frame,
                         frames=(frame,))
                 for frame in declared.config.required_frames if frame not in declared.frames]
    ancestry = declared.ancestry(declared.config.base_frame)
    return CheckResult(CHAIN, '{} ancestry: {}'.format(declared.config.base_frame,
                                                       ' ← '.join(ancestry)), findings)


def _edge_values(edge: DeclaredEdge) -> List[Finding]:
    problems = []
    if not all(edge.key):
        problems.append((Level.ERROR, 'an empty frame id; tf2 drops these transforms'))
    elif edge.key[0] == edge.key[1]:
        problems.append((Level.ERROR, 'a frame as its own parent; tf2 drops these transforms'))
    if not finite(edge.value):
        problems.append((Level.ERROR, 'NaN or infinite values; tf2 drops these transforms'))
    elif edge.value is not None and not unit_quaternion(edge.value.rotation):
        problems.append((Level.ERROR, _not_unit(edge.value.rotation)))
    slashed = [name for name in (edge.parent, edge.child) if name.startswith('/')]
    if slashed:
        problems.append((Level.WARN, "{} {} with '/': tf2 strips it, so the transform lands on "
                         '{}'.format(' and '.join(repr(s) for s in slashed),
                                     'start' if len(slashed) > 1 else 'starts',
                                     arrow(*edge.key))))
    return [Finding(VALUES, level, '{}: {} ({}): {}'.format(
        edge.where, arrow(repr(edge.parent), repr(edge.child)), edge.via, what),
        '{}:{}'.format(what, edge.where), frames=tuple(f for f in edge.key if f),
        values=edge.where.values()) for level, what in problems]


def _not_unit(q: Tuple[float, float, float, float]) -> str:
    """Say what tf2 does with a non-unit quaternion, and what was probably meant."""
    norm = math.sqrt(sum(c * c for c in q))
    text = ('the quaternion (qx, qy, qz, qw) = ({}) has length {}, not 1: tf2 drops the '
            'transform, so the edge never exists'.format(', '.join(fmt(c, 4) for c in q),
                                                         fmt(norm, 4)))
    angles = [c for c in q[:3] if c]
    if q[3] == 0.0 and len(angles) == 1:  # an angle written in a quaternion slot
        meant = quat_from_rpy(0.0, 0.0, angles[0])
        text += ('. A yaw of {} rad given in the quaternion slots? That rotation is (0, 0, {}, '
                 '{}), or write it as --yaw {} (or x y z yaw pitch roll parent child, 8 '
                 'arguments)'.format(fmt(angles[0], 4), fmt(meant[2], 4), fmt(meant[3], 4),
                                     fmt(angles[0], 4)))
    return text


def _param_slashes(declared: Declared) -> List[Finding]:
    return [Finding(VALUES, Level.WARN, "{}: {}'s {} is {!r}: tf2 strips the leading '/', so "
                    'write {!r}'.format(p.where, node.node, p.name, p.value, p.value.lstrip('/')),
                    'slash:{}'.format(p.where), frames=(p.value.lstrip('/'),),
                    values=p.where.values())
            for node in declared.nodes for p in node.params.values()
            if is_frame_key(p.name) and isinstance(p.value, str) and p.value.startswith('/')]


def check_transform_values(declared: Declared) -> CheckResult:
    """Check for declared transforms that tf2 drops or renames, and slashed frame names."""
    findings = [f for edge in declared.edges for f in _edge_values(edge)]
    return CheckResult(VALUES, 'every declared transform is finite and well named',
                       findings + _param_slashes(declared))


def check_connectivity(declared: Declared) -> CheckResult:
    """Check that every frame a node's parameters name is declared and reaches the base."""
    frames, components = declared.frames, declared.component_of()
    base = components.get(declared.config.base_frame)
    findings = []
    for node in declared.nodes:
        for param in node.params.values():
            if not (is_frame_key(param.name) and isinstance(param.value, str) and param.value):
                continue
            frame = param.value.lstrip('/')
            if frame not in frames:
                what = 'nothing in the workspace publishes it: ' + PUBLISHERS
            elif base is not None and components[frame] != base:
                what = 'that frame is in another tree than {}: nothing connects them'.format(
                    declared.config.base_frame)
            else:
                continue
            findings.append(Finding(
                CONNECTIVITY, Level.ERROR, "{}: {}'s {} is {}, but {}".format(
                    param.where, node.node, leaf(param.name), frame, what),
                'frame:{}'.format(param.where), frames=(frame,), values=param.where.values()))
    return CheckResult(CONNECTIVITY, 'every frame the parameters name is declared and reaches '
                       '{}'.format(declared.config.base_frame), findings)
