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
NOT_A_NUMBER = ': static_transform_publisher stops there and sends nothing'  # ROS 2's stod
UNCHECKED = '; this transform is not checked'


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
            return '{} is {!r}, not a number{}'.format(name, value, NOT_A_NUMBER)
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


def _read_by_atof(tokens: List[Token], fields: Fields, wrong: str) -> str:
    """
    Say what ROS 1's tf2_ros sends for a word that is no number: atof reads it as 0.

    Its program takes 9 words and more as `x y z qx qy qz qw parent child` and never stops:
    tf's form with its period (`x y z yaw pitch roll parent child period`) becomes a
    transform from the child to the period with a quaternion of length 0, which tf2 rejects.
    """
    said = "{}, so ROS 1's static_transform_publisher reads it as 0 (atof)".format(
        wrong[:-len(NOT_A_NUMBER)])
    words = [t.value for t in tokens]
    if len(words) == 9 and all(_number(w) for w in words[:6]) and _number(words[8]) \
            and not _number(words[6]):
        return '{} and sends {!r} → {!r} with a quaternion of length 0, which tf2 rejects: ' \
            "the words are tf's form with its period last (x y z yaw pitch roll parent child " \
            'period), which tf2_ros does not take; drop {!r}'.format(
                said, words[7], words[8], words[8])
    return '{}; tf2 rejects the transform if the quaternion it makes is not of length 1'.format(
        said) if 'qw' in fields or 'qx' in fields else said


def _number(word: object) -> bool:
    """Return whether a word reads as a number."""
    try:
        float(str(word))
    except ValueError:
        return False
    return True


def static_edge(tokens: List[Token], where: Where, package: object = 'tf2_ros',
                ros1: bool = False) -> Union[DeclaredEdge, str]:
    """
    Return the edge a static_transform_publisher's arguments declare, or why they cannot.

    A word that is no number stops ROS 2's program (it sends nothing) and is 0 to ROS 1's
    tf2_ros: either way what is sent is known. Anything else leaves the transform unchecked.
    """
    own = _own(tokens)
    fields = _fields(own, package)
    if isinstance(fields, str):
        return fields + UNCHECKED
    frames = _frames(fields)
    numbers = _numbers(fields)
    if isinstance(frames, str):
        return frames + UNCHECKED
    if isinstance(numbers, str):
        if numbers.endswith(NOT_A_NUMBER):
            return _read_by_atof(own, fields, numbers) if ros1 and package != TF else numbers
        return numbers + UNCHECKED
    value = _transform(numbers)
    if isinstance(value, str):
        return value + UNCHECKED
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
