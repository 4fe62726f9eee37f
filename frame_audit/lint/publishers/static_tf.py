# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
static_transform_publisher's command line, read the way the program reads it.

tf2_ros's: positional `x y z yaw pitch roll parent child` (yaw before roll) or
`x y z qx qy qz qw parent child`, and flags `--x --y --z --roll --pitch --yaw` or
`--qx --qy --qz --qw`, `--frame-id`, `--child-frame-id` (missing numbers are 0). ROS 1's tf
package has its own: the same positional forms with the period in ms last, sent on /tf.
"""
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..model import DeclaredEdge, Token, Unpacked, Unresolved, Where
from ...engine.admission import is_finite, is_unit
from ...engine.geometry import quat_from_rpy, Transform

VIA = 'static_transform_publisher'
NUMBERS = ('x', 'y', 'z', 'roll', 'pitch', 'yaw', 'qx', 'qy', 'qz', 'qw')
FLAGS = dict([('--' + name, name) for name in NUMBERS]
             + [('--frame-id', 'parent'), ('--child-frame-id', 'child')])
POSITIONAL = {8: ('x', 'y', 'z', 'yaw', 'pitch', 'roll', 'parent', 'child'),
              9: ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw', 'parent', 'child')}
POSITIONAL_TF = {9: POSITIONAL[8] + ('period',), 10: POSITIONAL[9] + ('period',)}
TF = 'tf'  # ROS 1's tf package: its static_transform_publisher takes a period
Fields = Dict[str, Token]


def is_static_publisher(package: object, executable: object) -> bool:
    """Return whether a launched node is tf2_ros's (or ROS 1 tf's) static_transform_publisher."""
    return package in ('tf2_ros', TF) and executable == VIA


def _fields(tokens: Sequence[Token], package: object = 'tf2_ros') -> Union[Fields, str]:
    """Return the arguments by field name, or what is wrong with them (or cannot be known)."""
    unpacked = [str(t.value) for t in tokens if isinstance(t.value, Unpacked)]
    if unpacked:
        return 'its arguments unpack {}, so which argument is which is known only when the ' \
            'launch runs'.format(', '.join(unpacked))
    if any(isinstance(t.value, str) and t.value in FLAGS for t in tokens):
        fields: Fields = {}
        for flag, value in zip(tokens[::2], tokens[1::2]):
            if flag.value not in FLAGS:
                return 'unknown argument {!r}'.format(flag.value)
            fields[FLAGS[flag.value]] = value
        if len(tokens) % 2:
            return 'no value after {!r}'.format(tokens[-1].value)
        return fields
    forms = POSITIONAL_TF if package == TF else POSITIONAL
    names = forms.get(len(tokens))
    if names is None:
        return '{} arguments, where the positional forms take {} or {}'.format(
            len(tokens), *sorted(forms))
    return dict(zip(names, tokens))


def _numbers(fields: Fields) -> Union[Dict[str, float], str]:
    numbers = {}
    for name in NUMBERS:
        if name not in fields:
            continue
        value = fields[name].value
        if isinstance(value, Unresolved):
            return '{} is {}, known only when the launch runs'.format(name, value)
        try:
            numbers[name] = float(value)
        except (TypeError, ValueError):
            return '{} is {!r}, not a number: static_transform_publisher stops there and ' \
                'sends nothing'.format(name, value)
    return numbers


def _transform(numbers: Dict[str, float]) -> Union[Transform, str]:
    quaternion = [numbers.get(name) for name in ('qx', 'qy', 'qz', 'qw')]
    angles = [numbers.get(name) for name in ('roll', 'pitch', 'yaw')]
    translation = tuple(numbers.get(name, 0.0) for name in ('x', 'y', 'z'))
    if any(q is not None for q in quaternion):
        if any(a is not None for a in angles):
            return 'both roll/pitch/yaw and a quaternion given'
        x, y, z, w = (0.0 if q is None else q for q in quaternion)
        rotation = (x, y, z, w)
    else:
        rotation = quat_from_rpy(*(0.0 if a is None else a for a in angles))
    return Transform((translation[0], translation[1], translation[2]), rotation)


def _frames(fields: Fields) -> Union[Tuple[str, str], str]:
    names = []
    for name in ('parent', 'child'):
        value = fields.get(name, Token('', 0)).value
        if isinstance(value, Unresolved):
            return 'the {} frame is {}, known only when the launch runs'.format(name, value)
        names.append(str(value))
    return names[0], names[1]


def _own(tokens: List[Token]) -> List[Token]:
    """Return the program's own arguments: those before `--ros-args`."""
    return tokens[:next((i for i, t in enumerate(tokens) if t.value == '--ros-args'),
                        len(tokens))]


def _edge(fields: Fields, frames: Tuple[str, str], value: Optional[Transform],
          where: Where) -> DeclaredEdge:
    lines = {name: token.line for name, token in fields.items()}
    line = lines.get('child', where.line)
    return DeclaredEdge(frames[0], frames[1], Where(where.file, line), VIA, True, value, lines)


def static_edge(tokens: List[Token], where: Where,
                package: object = 'tf2_ros') -> Union[DeclaredEdge, str]:
    """Return the edge a static_transform_publisher's arguments declare, or why they cannot."""
    fields = _fields(_own(tokens), package)
    if isinstance(fields, str):
        return fields
    frames = _frames(fields)
    numbers = _numbers(fields)
    if isinstance(frames, str):
        return frames
    if isinstance(numbers, str):
        return numbers
    value = _transform(numbers)
    if isinstance(value, str):
        return value
    return _edge(fields, frames, value, where)


def unvalued_edge(tokens: List[Token], where: Where,
                  package: object = 'tf2_ros') -> Optional[DeclaredEdge]:
    """
    Return the edge of a publisher whose frames are written but some number is not.

    The transform is sent (the frames are in the tree) with a value only the launch knows:
    value None, so no rule judges a number, and no rule calls the frames undeclared.
    """
    fields = _fields(_own(tokens), package)
    if isinstance(fields, str):
        return None
    frames = _frames(fields)
    if isinstance(frames, str) or not any(
            isinstance(fields[name].value, Unresolved) for name in NUMBERS if name in fields):
        return None
    return _edge(fields, frames, None, where)


def taken_by_tf2(edge: DeclaredEdge) -> bool:
    """Return whether tf2 would take an edge's value (finite, a unit quaternion; None: known)."""
    return edge.value is None or is_finite(edge.value) and is_unit(edge.value.rotation)
