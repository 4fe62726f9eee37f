# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Robot descriptions as robot_state_publisher gets them: URDF, or xacro expanded by xacro itself.

A description with xacro markup goes through the real xacro package (in a bounded child
process, xacro_child.py), with $(find pkg) answered from the workspace's share folder
(install.py) and the launch's xacro arguments; a plain URDF
is read as it is, with its lines. The joints become edges (urdf.py), each at the line of its
<joint> in whichever file of the description writes it. A Gazebo drive plugin in the
description sends odometry's edge too, in a bringup that starts Gazebo; a gz sim DiffDrive
system publishes it on a Gazebo topic, which reaches /tf only through a bridge (gz_bridge.py).
"""
from dataclasses import dataclass
from pathlib import Path
import re
from typing import List, Mapping, Optional, Tuple, Union
from xml.parsers import expat

from .install import source_file
from .markup import Element, load_xml
from .urdf import urdf_edges
from .xacro_child import expand, ExpandError
from ..model import DeclaredEdge, Description, Where

XACRO_MARKUP = re.compile(r'xmlns:xacro|<xacro:|\$\{|\$\(')
DRIVE_PLUGINS = ('diff_drive', 'ackermann_drive', 'skid_steer_drive')
GZ_DIFF_DRIVE = 'diff-drive-system'  # gz-sim-diff-drive-system, libignition-gazebo6-...so
JOINT_TEMPLATE = re.compile(r'<joint\b[^>]*\bname\s*=\s*["\']([^"\']*)["\']')
MACRO = re.compile(r'<xacro:macro\b[^>]*\bname\s*=\s*["\']([^"\']+)["\']')


def _texts(files: List[str], root: Path) -> List[Tuple[str, str]]:
    """Return (workspace file, text) of each file the description was made of, read once."""
    found = []
    for path in files:
        file = source_file(path, root)
        try:
            if file is not None:
                found.append((file, Path(path).read_text(encoding='utf-8', errors='replace')))
        except OSError:
            continue
    return found


def _line(text: str, at: int) -> int:
    return text.count('\n', 0, at) + 1


def _joint_place(name: str, texts: List[Tuple[str, str]], fallback: Where) -> Where:
    """Return the line of <joint name="...">, or of the macro call that made it, else fallback."""
    pattern = re.compile(r'<joint\b[^>]*\bname\s*=\s*["\']{}["\']'.format(re.escape(name)))
    for file, text in texts:
        match = pattern.search(text)
        if match:
            return Where(file, _line(text, match.start()))
    return _macro_call(name, texts) or fallback


def _macro_call(name: str, texts: List[Tuple[str, str]]) -> Optional[Where]:
    """
    Return the line of the xacro macro call that made a joint named with ${...}.

    A macro's <joint name="${prefix}wheel_joint"> made left_wheel_joint: the call that passed
    prefix="left_" is where the joint is placed (its origin is the call's too, most often).
    Another macro whose template fits the name too (a castor's "${name}_joint") but whose
    calls pass no such value made none of it: a call of it stands in only when no call passes
    the value (one computed in the call).
    """
    fallback: Optional[Where] = None
    for file, text in texts:
        for joint in JOINT_TEMPLATE.finditer(text):
            template = joint.group(1)
            if '${' not in template:
                continue
            shape = re.fullmatch(''.join('(.*?)' if part.startswith('${') else re.escape(part)
                                         for part in re.split(r'(\$\{[^}]*\})', template)),
                                 name)
            macro = _macro_around(text, joint.start())
            if shape is None or macro is None:
                continue
            calls = [(f, t, m) for f, t in texts
                     for m in re.finditer(r'<xacro:{}\b([^>]*)>'.format(re.escape(macro)), t)]
            chosen = [c for c in calls if all(g in c[2].group(1) for g in shape.groups() if g)]
            for call_file, call_text, call in chosen:
                return Where(call_file, _line(call_text, call.start()))
            for call_file, call_text, call in calls if fallback is None else ():
                fallback = Where(call_file, _line(call_text, call.start()))
                break
    return fallback


def _macro_around(text: str, at: int) -> Optional[str]:
    """Return the name of the xacro macro whose body holds position at, if one does."""
    opened = list(MACRO.finditer(text, 0, at))
    if not opened or '</xacro:macro>' in text[opened[-1].end():at]:
        return None
    return opened[-1].group(1)


def _plugin_edges(robot: Element, file: str, where: Where) -> List[DeclaredEdge]:
    """Return the odometry edge of a Gazebo drive plugin that publishes it."""
    edges = []
    for plugin in robot.iter('plugin'):
        if not any(kind in plugin.attrib.get('filename', '') for kind in DRIVE_PLUGINS):
            continue
        tags = {child.tag: child.text.strip() for child in plugin.children}
        if tags.get('publish_odom_tf', 'false').lower() != 'true':
            continue
        edges.append(DeclaredEdge(
            tags.get('odometry_frame', 'odom'), tags.get('robot_base_frame', 'base_footprint'),
            where, 'Gazebo plugin {} in {} (publish_odom_tf: true)'.format(
                "'{}' ({})".format(plugin.attrib['name'], plugin.attrib.get('filename', ''))
                if plugin.attrib.get('name') else plugin.attrib.get('filename', ''), file),
            static=False))  # two drive plugins of one file are told apart by their names
    return edges


@dataclass(frozen=True)
class GzSystem:
    """
    A gz sim DiffDrive system of a description: the Gazebo topic of its transform, its frames.

    As DiffDrive.cc configures itself: `tf_topic` (default /model/<model>/tf), `frame_id`
    (<model>/odom) and `child_frame_id` (<model>/<canonical link>); a frame it leaves to its
    defaults is None, named after the model, which only the spawn names.
    """

    file: str
    topic: Optional[str]
    parent: Optional[str]
    child: Optional[str]


def gz_systems(body: 'Body') -> List[GzSystem]:
    """Return the gz sim DiffDrive systems of a description."""
    found = []
    for plugin in body.robot.iter('plugin'):
        if GZ_DIFF_DRIVE not in plugin.attrib.get('filename', ''):
            continue
        tags = {child.tag: child.text.strip() for child in plugin.children}
        found.append(GzSystem(body.file, tags.get('tf_topic') or None,
                              tags.get('frame_id') or None, tags.get('child_frame_id') or None))
    return found


def manager_paths(body: 'Body') -> List[str]:
    """
    Return the controller manager's parameter files a simulator plugin in the description names.

    In Gazebo the controller manager is no node of the launch: gazebo_ros2_control (or
    gz/ign_ros2_control) starts it from the description's <plugin><parameters> file.
    """
    return [child.text.strip() for plugin in body.robot.iter('plugin')
            if 'ros2_control' in plugin.attrib.get('filename', '')
            for child in plugin.children if child.tag == 'parameters']


@dataclass(frozen=True)
class Body:
    """A robot description read: its file, its document, and every joint as an edge."""

    file: str
    robot: Element
    edges: Tuple[DeclaredEdge, ...]


def read_description(description: Description, root: Path,
                     share: Mapping[str, str]) -> Union[Body, str]:
    """Return a description's joints, expanded by xacro where it has markup; else why not."""
    file = source_file(description.path, root)
    if file is None:
        return 'the robot description {} is not a file of the workspace'.format(
            description.path)
    path = root / file
    try:
        text = path.read_text(encoding='utf-8')
        files = [str(path)]
        expanded = path.suffix == '.xacro' or bool(XACRO_MARKUP.search(text))
        if expanded:
            text, files = expand(str(path), dict(description.args), share)
        robot = load_xml(text)
    except ExpandError as error:
        return '{} cannot be expanded by xacro ({})'.format(file, error)
    except (expat.ExpatError, RecursionError, OSError, ValueError, UnicodeDecodeError) as error:
        return '{} cannot be read ({}: {})'.format(file, type(error).__name__, error)
    texts = _texts(files, root) if expanded else []
    edges = urdf_edges(robot, file, (lambda name: _joint_place(name, texts, Where(file, 1)))
                       if expanded else None)
    if isinstance(edges, str):
        return '{}: {}'.format(file, edges)
    return Body(file, robot, tuple(edges))


def body_edges(body: Body, where: Where, prefix: str = '', gazebo: bool = False,
               joint_states: bool = False) -> List[DeclaredEdge]:
    """
    Return the edges robot_state_publisher sends for a description read.

    Fixed joints always; moving joints only when something in the bringup publishes
    /joint_states (robot_state_publisher sends a moving joint only once it has its state).
    """
    edges = [edge for edge in body.edges if edge.static or joint_states or gazebo]
    if prefix:
        edges = [DeclaredEdge(prefix + e.parent, prefix + e.child, e.where,
                              '{}, frame_prefix {}'.format(e.via, prefix), e.static, e.value,
                              e.field_lines) for e in edges]
    return edges + (_plugin_edges(body.robot, body.file, where) if gazebo else [])
