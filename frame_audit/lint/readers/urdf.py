# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
URDF documents (a file, or what xacro made of one): each joint is an edge, parent to child.

robot_state_publisher sends fixed joints on /tf_static with the joint's origin (xyz, then rpy
about fixed axes), and moving joints on /tf; only a fixed joint's value is known from the file.
"""
from typing import Callable, List, Optional, Tuple, Union

from .markup import Element
from ..model import DeclaredEdge, Where
from ...engine.geometry import quat_from_rpy, Transform

ZERO = '0 0 0'


def _numbers(text: str) -> Tuple[float, float, float]:
    values = [float(v) for v in text.split()]
    if len(values) != 3:
        raise ValueError('expected 3 numbers, got {!r}'.format(text))
    return (values[0], values[1], values[2])


def _edge(joint: Element, file: str, place: Optional[Callable[[str], Where]]) -> DeclaredEdge:
    parent, child, origin = joint.find('parent'), joint.find('child'), joint.find('origin')
    if parent is None or child is None:
        raise ValueError("joint '{}' has no parent or child link".format(
            joint.attrib.get('name', '')))
    fixed = joint.attrib.get('type') == 'fixed'
    value = None
    if fixed:
        attrib = origin.attrib if origin is not None else {}
        xyz, rpy = _numbers(attrib.get('xyz', ZERO)), _numbers(attrib.get('rpy', ZERO))
        value = Transform(xyz, quat_from_rpy(*rpy))
    lines = {'parent': parent.line, 'child': child.line}
    if origin is not None:
        lines.update({name: origin.line for name in ('x', 'y', 'z', 'roll', 'pitch', 'yaw')})
    name = joint.attrib.get('name', '')
    via = "URDF {} joint '{}'".format(joint.attrib.get('type', ''), name)
    if place is not None:  # lines of an expanded document: the joint's place in its source
        return DeclaredEdge(parent.attrib.get('link', ''), child.attrib.get('link', ''),
                            place(name), via, fixed, value)
    return DeclaredEdge(parent.attrib.get('link', ''), child.attrib.get('link', ''),
                        Where(file, joint.line), via, fixed, value, lines)


def urdf_edges(root: Element, file: str, place: Optional[Callable[[str], Where]] = None
               ) -> Union[List[DeclaredEdge], str]:
    """Return a URDF's joints as edges, or why the file is not a URDF the lint can read."""
    if root.tag != 'robot':
        return 'the root element is <{}>, not <robot>'.format(root.tag)
    try:
        return [_edge(joint, file, place) for joint in root.children if joint.tag == 'joint']
    except ValueError as error:
        return str(error)
