# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the lint reads out of a workspace: edges, launched nodes and parameters, each with its place.

Every record keeps the file and line it came from, so each finding can point at it. A value the
lint cannot compute without running the launch is an Unresolved: named, never guessed.
"""
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..engine.check_ids import LINT_FILES
from ..engine.findings import Finding, Level, Value
from ..engine.geometry import Transform


DESCRIPTION = 'robot_description'  # the parameter robot_state_publisher reads its URDF from
Branch = Tuple[Tuple[Any, bool], ...]  # conditions only a running launch knows, and the side


def are_exclusive(a: Branch, b: Branch) -> bool:
    """Return whether two branches never run together: one condition, opposite sides."""
    return any((key, not side) in b for key, side in a)


@dataclass(frozen=True)
class Where:
    """A place in the workspace: a file (relative to the workspace) and a line in it."""

    file: str
    line: int

    def __str__(self) -> str:
        """Return 'file:line', the way editors and compilers point at a line."""
        return '{}:{}'.format(self.file, self.line)

    def values(self) -> Dict[str, Value]:
        """Return the place as a finding's values, for tools that jump to it."""
        return {'file': self.file, 'line': self.line}


@dataclass(frozen=True)
class Unresolved:
    """A value that only a running launch knows (a launch argument, an environment variable)."""

    text: str

    def __str__(self) -> str:
        """Return the expression as the file writes it."""
        return self.text


@dataclass(frozen=True)
class Unpacked(Unresolved):
    """A `*name` in an argument list: how many arguments it stands for only the launch knows."""


@dataclass(frozen=True)
class BuiltAtLaunch(Unresolved):
    """Inline parameters a comprehension builds as the launch runs: names and values unknown."""


@dataclass(frozen=True)
class Token:
    """One command-line argument of a launched node, and the line it is written on."""

    value: Any
    line: int


@dataclass(frozen=True)
class DeclaredEdge:
    """
    A transform the workspace says someone sends: parent → child, by whom, and where it says so.

    parent and child are as written (a leading '/' kept, for transform_values); value is None
    for transforms that move (odometry, SLAM) and for values the lint cannot compute.
    field_lines holds the line of each argument (x, yaw, parent...) where they differ.
    """

    parent: str
    child: str
    where: Where
    via: str
    static: bool
    value: Optional[Transform] = None
    field_lines: Dict[str, int] = field(default_factory=dict, compare=False)
    branch: Branch = field(default=(), compare=False)  # the node's unknown conditions

    @property
    def key(self) -> Tuple[str, str]:
        """Return (parent, child) as tf2 sees them, the leading '/' stripped."""
        return (self.parent.lstrip('/'), self.child.lstrip('/'))

    def at(self, *fields: str) -> Where:
        """Return the place of the first of these arguments written apart, else the edge's."""
        for name in fields:
            if name in self.field_lines:
                return Where(self.where.file, self.field_lines[name])
        return self.where

    def describe(self, said_at: Optional[Where] = None) -> str:
        """Return who sends it and where, or 'here' when a message already starts there."""
        return '{}, {}'.format(self.via, 'here' if self.where == said_at else self.where)


@dataclass(frozen=True)
class Param:
    """One parameter value and the place that sets it."""

    name: str
    value: Any
    where: Where


@dataclass
class ParamBlock:
    """One node's ros__parameters block in a parameter file (node is '/**' for every node)."""

    node: str
    params: Dict[str, Param]
    where: Where


@dataclass(frozen=True)
class Description:
    """A robot description a launch hands robot_state_publisher: a URDF or xacro file, its args."""

    path: str
    args: Tuple[Tuple[str, str], ...] = ()


@dataclass
class LaunchedNode:
    """
    A node that a launch file starts: what it runs, its arguments and its parameters.

    executable is a composable node's plugin. param_files holds each parameter file (a path,
    or Unresolved) and where the launch names it; inline holds the parameters written in the
    launch file itself.
    """

    package: Any
    executable: Any
    name: Any
    where: Where
    namespace: Any = ''
    branch: Branch = ()  # conditions around it that only a running launch knows
    arguments: List[Token] = field(default_factory=list)
    param_files: List[Tuple[Any, Where]] = field(default_factory=list)
    inline: Dict[str, Param] = field(default_factory=dict)
    inline_at: Dict[str, int] = field(default_factory=dict)  # files given before it (else all)
    remappings: List[Tuple[Any, Any]] = field(default_factory=list)  # (from, to) as written
    rosparam_at: List[Where] = field(default_factory=list)  # ROS 1's <rosparam file> loads
    again: Optional[Where] = None  # the Node(...) this is, put into a list of actions again
    ros1: bool = False  # a ROS 1 <node type=...>: roslaunch finds it, not install rules
    component: bool = False  # a ComposableNode: its plugin a container loads, no executable

    def resolved(self, topic: str) -> Optional[str]:
        """Return a topic as the node resolves it in its namespace; None if that is unknown."""
        if topic.startswith('/'):
            return topic
        if not isinstance(self.namespace, str):
            return None
        return '/' + '/'.join(filter(None, (self.namespace.strip('/'), topic)))

    def label(self) -> str:
        """Return the node as `ros2 node list` would name it, or what it runs."""
        own = self.name if isinstance(self.name, str) else self.executable
        namespace = self.namespace.strip('/') if isinstance(self.namespace, str) else ''
        return '/'.join(filter(None, ('', namespace, str(own)))) if namespace else str(own)


@dataclass(frozen=True)
class Include:
    """A launch file another includes, with the launch arguments it passes."""

    target: Any
    arguments: Tuple[Tuple[str, Any], ...]
    where: Where
    runs: bool = True  # False: its condition is known false, so only the file is included
    branch: Branch = ()
    needs: Tuple[Tuple[str, str], ...] = ()  # launch arguments that make a false one hold


@dataclass
class LaunchRead:
    """What one launch file starts in one context: nodes, includes, a global description."""

    nodes: List[LaunchedNode] = field(default_factory=list)
    switched_off: List[LaunchedNode] = field(default_factory=list)  # a condition known false
    includes: List[Include] = field(default_factory=list)
    description: Optional[Param] = None
    configurations: Dict[str, Any] = field(default_factory=dict)
    unread: List[Tuple[str, int]] = field(default_factory=list)  # helper calls, at their line
    imported: List[str] = field(default_factory=list)  # workspace modules it reads helpers of


@dataclass
class NodeParams:
    """One node's frame-related configuration, merged from its files and its launch."""

    node: str
    names: tuple
    params: Dict[str, Param]
    where: Where
    package: Optional[str] = None  # the package it runs from, when the launch names one


def problem(where: Where, message: str, key: str, level: Level = Level.WARN) -> Finding:
    """
    Return a problem with the input itself at a place.

    A WARN: the lint could not check something. An ERROR: the files themselves stop the robot
    at startup (a launch file that includes itself, a .lua file cartographer refuses).
    """
    return Finding(LINT_FILES, level, '{}: {}'.format(where, message),
                   '{}:{}'.format(key, where), values=where.values())


@dataclass
class Problems:
    """
    One stage's own list of what it could not check, handed on in the stage's result.

    A stage fills it while it runs (planning and declaring find problems deep inside the
    launch readers); nothing outside the stage appends to it. shown writes share paths back as
    <package>/path, as messages show them.
    """

    shown: Callable[[str], str] = str
    found: List[Finding] = field(default_factory=list)

    def warn(self, where: Where, message: str, key: str, level: Level = Level.WARN) -> None:
        """Record that something at this place could not be checked (or stops the robot)."""
        self.found.append(problem(where, self.shown(message), key, level))
