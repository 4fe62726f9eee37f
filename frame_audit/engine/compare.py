# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Two cars side by side: what each side says of its frames, and where the two differ.

A side is a recording (its tree, as recorded, and what `init` measures of it) or a config (what
it configures). Only what both sides say is compared: a config says nothing of rates, so a
recording's rates are compared with another recording's only.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .checks.common import arrow, describe, first_of, plural
from .config import AuditConfig
from .findings import fmt
from .geometry import distance, rotation_angle, Transform
from .measure import Measured
from .tree_view import TreeReader

ROLES = ('map', 'odom', 'base', 'laser')
FLOAT_NOISE = 1e-9  # metres or radians: what float arithmetic adds to equal values


@dataclass
class Side:
    """What one side says: frame roles, parents, static values, moving edges, pose frames."""

    source: str
    roles: Dict[str, str]
    mount: Optional[Transform]  # base → LiDAR, composed
    poses: Dict[str, str]  # pose topic → the frame it carries
    parents: Optional[Dict[str, Tuple[str, ...]]] = None  # recordings only
    static: Dict[Tuple[str, str], Transform] = field(default_factory=dict)
    moving: Dict[Tuple[str, str], Tuple[Tuple[str, ...], Optional[float]]] = field(
        default_factory=dict)  # edge → (publishers, rate Hz)
    # static edges two static publishers sent with different values: edge → (first, last)
    disagreeing: Dict[Tuple[str, str], Tuple[Transform, Transform]] = field(
        default_factory=dict)


@dataclass(frozen=True)
class Difference:
    """One thing the sides say differently, with both values."""

    what: str
    a: str
    b: str
    detail: str = ''


def side_of_config(config: AuditConfig, source: str) -> Side:
    """Return what a config says of its car."""
    from .geometry import quat_from_rpy

    mount = Transform(config.laser_translation, quat_from_rpy(*config.laser_rpy)) \
        if config.laser_frame else None
    frames = (config.map_frame, config.odom_frame, config.base_frame, config.laser_frame)
    required = config.required_frames or ()
    return Side(source, {role: frame if frame in required else ''  # a robot
                         for role, frame in zip(ROLES, frames)},  # without a map says none
                mount, {pose.topic: pose.pose_frame for pose in config.pose_topics or ()})


def side_of_recording(measured: Optional[Measured], store: TreeReader, source: str) -> Side:
    """
    Return what a recording shows of its car: measured roles and poses, and its tree.

    measured is None for a tree with no odom frame to start from (no REP 105 roles): its
    frames, parents and edges are still compared.
    """
    roles = (measured.map_frame or '', measured.odom_frame, measured.base_frame,
             measured.laser_frame) if measured else ('',) * len(ROLES)
    parents: Dict[str, Tuple[str, ...]] = {}
    side = Side(source, dict(zip(ROLES, roles)), measured.laser_mount if measured else None,
                {pose.topic: pose.pose_frame for pose in measured.poses} if measured else {},
                parents=parents)
    for child in sorted(store.frames):
        edges = store.parents.get(child, {})
        parents[child] = tuple(sorted(edges))
        for parent, edge in sorted(edges.items()):
            if edge.static_changes:
                side.disagreeing[(parent, child)] = edge.static_changes[0][:2]
            latest = edge.latest()
            if edge.is_static and latest is not None:
                side.static[(parent, child)] = latest
            elif not edge.is_static:
                side.moving[(parent, child)] = (tuple(sorted(edge.publishers)), edge.rate_hz())
    return side


def _transform_difference(a: Transform, b: Transform, tolerance_m: float,
                          tolerance_rad: float) -> str:
    """
    Say how two values differ, '' within the tolerances (and the float noise at their edge).

    0.261 and 0.260 are 0.0010000000000000009 m apart: exactly the 1 mm tolerance, not past it.
    """
    moved = distance(a.translation, b.translation)
    turned = rotation_angle(a.rotation, b.rotation)
    if moved <= tolerance_m + FLOAT_NOISE and turned <= tolerance_rad + FLOAT_NOISE:
        return ''
    delta = [fmt(y - x, 4) for x, y in zip(a.translation, b.translation)]
    return 'B − A: ({}) m, {} m apart; rotations {} rad apart (tolerances {} m, {} rad)'.format(
        ', '.join(delta), fmt(moved, 4), fmt(turned, 4), fmt(tolerance_m, 4),
        fmt(tolerance_rad, 4))


def _parents(a: Side, b: Side) -> List[Difference]:
    if a.parents is None or b.parents is None:
        return []
    found = []
    for frame in sorted(set(a.parents) | set(b.parents)):
        left, right = a.parents.get(frame), b.parents.get(frame)
        if left != right:
            found.append(Difference('frame {}'.format(frame), _parent_text(left),
                                    _parent_text(right)))
    return found


def _parent_text(parents: Optional[Tuple[str, ...]]) -> str:
    if parents is None:
        return 'no such frame'
    return 'a root' if not parents else 'child of ' + ' and '.join(parents)


def _static_edges(a: Side, b: Side, tolerance_m: float,
                  tolerance_rad: float) -> List[Difference]:
    found = []
    for edge in sorted(set(a.static) & set(b.static)):
        detail = _transform_difference(a.static[edge], b.static[edge], tolerance_m,
                                       tolerance_rad)
        if detail:
            found.append(Difference('static ' + arrow(*edge), describe(a.static[edge]),
                                    describe(b.static[edge]), detail))
    return found


def _moving_edges(a: Side, b: Side, rate_tolerance: float) -> List[Difference]:
    found = []
    for edge in sorted(set(a.moving) & set(b.moving)):
        (pub_a, rate_a), (pub_b, rate_b) = a.moving[edge], b.moving[edge]
        if pub_a and pub_b and pub_a != pub_b:
            found.append(Difference(arrow(*edge) + ' publisher', ', '.join(pub_a),
                                    ', '.join(pub_b)))
        if rate_a and rate_b and abs(rate_a - rate_b) > rate_tolerance * max(rate_a, rate_b):
            found.append(Difference(arrow(*edge) + ' rate', '{} Hz'.format(fmt(rate_a, 1)),
                                    '{} Hz'.format(fmt(rate_b, 1))))
    return found


def _mount(a: Side, b: Side, tolerance_m: float, tolerance_rad: float) -> List[Difference]:
    """Return how the base → LiDAR mounts differ, composed through the tree or configured."""
    named = b if b.roles['laser'] else a  # the side that has a LiDAR names it
    what = 'the LiDAR mount ({})'.format(arrow(named.roles['base'], named.roles['laser']))
    if a.mount is None or b.mount is None:
        return [] if a.mount is b.mount else [Difference(
            what, describe(a.mount) if a.mount else 'none', describe(b.mount) if b.mount
            else 'none')]
    detail = _transform_difference(a.mount, b.mount, tolerance_m, tolerance_rad)
    return [Difference(what, describe(a.mount), describe(b.mount), detail)] if detail else []


def differences(a: Side, b: Side, tolerance_m: float = 0.001, tolerance_rad: float = 0.001,
                rate_tolerance: float = 0.2) -> List[Difference]:
    """Return what the two sides say differently, beyond the tolerances; [] when they agree."""
    found = [Difference('frames.' + role, a.roles[role] or 'none', b.roles[role] or 'none')
             for role in ROLES if a.roles[role] != b.roles[role]]
    static = _static_edges(a, b, tolerance_m, tolerance_rad)
    if not static:
        found += _mount(a, b, tolerance_m, tolerance_rad)  # else the edges that moved say it
    for topic in sorted(set(a.poses) | set(b.poses)):
        if a.poses.get(topic) != b.poses.get(topic):
            found.append(Difference('{} carries'.format(topic), a.poses.get(topic, 'no topic'),
                                    b.poses.get(topic, 'no topic')))
    return found + _parents(a, b) + static + _moving_edges(a, b, rate_tolerance) + \
        _disagreeing(a, b)


def _disagreeing(a: Side, b: Side) -> List[Difference]:
    """
    Return each static edge whose own static publishers disagree, on either side.

    One side holds two values of one edge: the car differs from itself, whatever the other
    side says, and tf2 keeps whichever value came last.
    """
    if not a.disagreeing and not b.disagreeing:
        return []
    texts = []
    for side in (a, b):
        said = ['{} ({} then {})'.format(arrow(*edge), describe(first), describe(last))
                for edge, (first, last) in sorted(side.disagreeing.items())]
        texts.append('{}: {}'.format(plural(len(said), 'edge'), first_of(said, 3)) if said
                     else 'one value per static edge')
    sources = [side.source for side in (a, b) if side.disagreeing]
    return [Difference('static publishers that disagree', texts[0], texts[1],
                       'two static publishers disagree in {}: tf2 keeps whichever came '
                       'last'.format(' and '.join(sources)))]
