# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Bringups: an entry launch file and everything it includes, as `ros2 launch` would start them.

A workspace holds alternatives (a launch per robot model, per mode, a deprecated folder), so
its files never run all at once. A bringup follows one entry file through its includes, with
the launch arguments given (else their defaults) and the conditions evaluated where they can
be. With no entry named, each launch file that no other file includes is an entry of its own,
and so is the first of files that only include each other (no entry reaches them). An include
that leads back to a file it came from is said, and not followed again.
An include that leads outside the workspace, or that only a running launch can resolve, may
start nodes that send transforms: the bringup keeps it as a possible sender.
"""
from dataclasses import dataclass, field, replace
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from ..model import Branch, Include, LaunchedNode, LaunchRead, Param, Unresolved, Where
from ..readers.install import INSTALL, missing_from_package, source_file
from ..readers.workspace import LaunchSource
from ...engine.findings import Level

MAX_DEPTH = 16  # includes within includes (the stack catches a cycle): a bound on nesting
MAX_FILES = 500  # launch files read for one bringup
GAZEBO = ('gazebo_ros', 'ros_gz_sim', 'ros_ign_gazebo', 'gazebo_ros2_control')
JOINT_STATES = ('joint_state_publisher', 'joint_state_publisher_gui', 'ros2_control_node',
                'joint_state_broadcaster')  # who publishes /joint_states (spawner's argument)


@dataclass
class Bringup:
    """
    The nodes that one entry starts together, and what the lint could not follow.

    The Planner builds it up while it follows the includes; once planned, no stage changes it.
    """

    name: str
    files: List[str] = field(default_factory=list)
    nodes: List[LaunchedNode] = field(default_factory=list)
    switched_off: List[LaunchedNode] = field(default_factory=list)  # by a condition
    description: Optional[Param] = None  # ROS 1's global robot_description
    unknown: List[Tuple[str, Optional[Where]]] = field(default_factory=list)  # not followed
    handed: List[str] = field(default_factory=list)  # files given to includes not followed
    gazebo: bool = False

    @property
    def publishes_joint_states(self) -> bool:
        """Return whether a node of the bringup is known to publish /joint_states."""
        return any(node.executable in JOINT_STATES or any(
            token.value in JOINT_STATES for token in node.arguments) for node in self.nodes)


Warn = Callable[..., None]  # Problems.warn: (where, message, key, level=WARN)


def include_target(include: Include, root: Path) -> Optional[str]:
    """Return the workspace file an include names, or None when it is not one."""
    if not isinstance(include.target, str):
        return None
    return source_file(include.target, root, root / os.path.dirname(include.where.file))


class Planner:
    """Follows entries through their includes over a workspace's parsed launch files."""

    def __init__(self, root: Path, sources: Mapping[str, LaunchSource],
                 packages: Mapping[str, str], warn: Warn, shown: Callable[[str], str] = str,
                 folders: Optional[Mapping[str, str]] = None):
        """Hold the launch files by workspace path, the packages' share and source folders."""
        self.root, self.sources, self.packages, self.warn = root, sources, packages, warn
        self.shown = shown
        self.held = dict(folders or {})  # package -> its source folder, from the workspace
        self.folders = {name: str(root / folder) for name, folder in self.held.items()}

    def roots(self, reads: Mapping[str, LaunchRead]) -> List[str]:
        """
        Return the entries: each launch file no other includes, then one per part none reaches.

        A file that includes only itself is an entry still (its self-include said when it is
        followed). Files that include each other with nothing above them (A → B → A) are
        reached by no entry: the first of them in order stands in as one, so no launch file
        goes unchecked because a cycle hides it. A module of helpers another launch file
        imports is read there, never run alone.
        """
        imported = {module for read in reads.values() for module in read.imported}
        graph = {file: {include_target(include, self.root) for include in read.includes}
                 for file, read in reads.items() if file not in imported}
        included = {target for file, targets in graph.items() for target in targets
                    if target != file}
        entries = [file for file in sorted(self.sources)
                   if file not in included and file not in imported]
        reached = _reached(graph, entries)
        for file in sorted(graph):
            if file not in reached:
                entries.append(file)
                reached |= _reached(graph, [file])
        return entries

    def expand(self, entries: List[str], given: Mapping[str, Any]) -> Bringup:
        """Return the bringup of these entry files started together with these arguments."""
        bringup = Bringup(' + '.join(entries))
        for entry in entries:
            self._follow(bringup, entry, dict(given), [], ())
        return bringup

    def _follow(self, bringup: Bringup, file: str, given: Dict[str, Any],
                stack: List[str], branch: Branch) -> None:
        if len(stack) >= MAX_DEPTH or len(bringup.files) >= MAX_FILES:
            self.warn(Where(file, 1), 'included again by {} (includes nested past {}, or more '
                      'than {} files): not followed further'.format(
                          ' → '.join(stack), MAX_DEPTH, MAX_FILES), 'cycle')
            return
        bringup.files.append(file)
        try:
            read = self.sources[file].read(self.packages, given, self.folders)
        except (SyntaxError, ValueError, RecursionError):
            return  # reported when the workspace was read
        # an include under an unknown condition: its nodes too. One declaration (a file and
        # line, a name) is one node, however often the file is reached: a wrapper, a diamond
        held = {_identity(node) for node in bringup.nodes}
        bringup.nodes += [replace(node, branch=branch + node.branch) for node in read.nodes
                          if _identity(node) not in held]
        bringup.switched_off += read.switched_off
        for what, line in read.unread:  # a helper of its package the lint cannot read
            entry = ('{}, which the lint cannot read'.format(what), Where(file, line))
            if entry not in bringup.unknown:
                bringup.unknown.append(entry)
        bringup.description = read.description or bringup.description
        bringup.gazebo = bringup.gazebo or any(n.package in GAZEBO for n in read.nodes)
        for include in read.includes:
            if include.runs:
                self._include(bringup, include, read.configurations, stack + [file],
                              branch + include.branch)

    def _include(self, bringup: Bringup, include: Include, configurations: Dict[str, Any],
                 stack: List[str], branch: Branch) -> None:
        target = include_target(include, self.root)
        text = self.shown(str(include.target))
        if target in stack:
            self._cycle(include, stack[stack.index(target):] + [target], branch)
            return
        if target is not None and target in self.sources:
            given = dict(configurations)
            given.update(include.arguments)
            self._follow(bringup, target, given, stack, branch)
            return
        bringup.gazebo = bringup.gazebo or any(name in text for name in GAZEBO)
        entry = ('the launch file {}, included'.format(text), include.where)
        if entry not in bringup.unknown:
            bringup.unknown.append(entry)
        bringup.handed.extend(file for _, value in include.arguments if isinstance(value, str)
                              for file in (source_file(value, self.root),) if file is not None)
        self._missing_arguments(include, text)
        if isinstance(include.target, str) and any(
                include.target.startswith(share + os.sep) for share in self.packages.values()):
            self.warn(include.where, 'includes {}, which its package does not hold or install: '
                      '`ros2 launch` stops there'.format(text), INSTALL)
        if isinstance(include.target, Unresolved):
            self.warn(include.where, 'an included launch file is {}, known only when the '
                      'launch runs: the nodes it starts are not checked'.format(text),
                      'unresolved')

    def _missing_arguments(self, include: Include, text: str) -> None:
        """
        Warn of a file handed to an unfollowed include that its package holds and never installs.

        The include gets a path to nothing. A value with spaces is a command line (gz_args),
        not a path.
        """
        for name, value in include.arguments:
            why = missing_from_package(value, self.packages, self.held, self.root,
                                       held_only=True) \
                if isinstance(value, str) and not any(c.isspace() for c in value) \
                and source_file(value, self.root) is None else ''
            if why:
                self.warn(include.where, '{}:={} given to {}: {}'.format(
                    name, self.shown(value), text, why), INSTALL)

    def _cycle(self, include: Include, cycle: List[str], branch: Branch) -> None:
        """
        Say an include that leads back to a file it came from: `ros2 launch` never stops.

        launch has no guard against it: it includes the file again and again until Python's
        recursion limit ends the launch. Under a condition only a running launch knows, it
        happens only where the condition holds: a WARN, not an ERROR.
        """
        what = 'includes itself' if len(cycle) == 2 else 'closes a cycle of includes ({})' \
            .format(' → '.join(self.shown(file) for file in cycle))
        when = ', where its condition holds,' if branch else ''
        self.warn(include.where, '{}: `ros2 launch`{} includes it again and again until the '
                  'launch fails; the nodes are checked as if it were included once'.format(
                      what, when), 'cycle', Level.WARN if branch else Level.ERROR)


def _reached(graph: Mapping[str, Set[Optional[str]]], entries: List[str]) -> Set[str]:
    """Return the launch files the entries include, directly or through others, and them."""
    reached, todo = set(), list(entries)
    while todo:
        file = todo.pop()
        if file not in reached:
            reached.add(file)
            todo += [target for target in graph.get(file, ()) if target is not None]
    return reached


def _identity(node: LaunchedNode) -> Tuple[Where, str]:
    """Return what makes a launched node one declaration: its place and its full name."""
    return node.where, node.label()


def parse_arguments(words: List[str]) -> Dict[str, str]:
    """Return `name:=value` launch arguments as a mapping; ValueError names a malformed one."""
    given = {}
    for word in words:
        name, sep, value = word.partition(':=')
        if not sep or not name:
            raise ValueError('{!r} is not a launch argument (name:=value)'.format(word))
        given[name] = value
    return given


def _one_line(text: str) -> str:
    """Return a name as typed, quoted where it holds a line break or other control character."""
    return text if text.isprintable() else repr(text)


def find_entry(spec: str, sources: Mapping[str, LaunchSource], packages: Mapping[str, str],
               folders: Mapping[str, str], root: Path) -> str:
    """Return the launch file `PKG/FILE` (as `ros2 launch PKG FILE` finds it) or a path names."""
    direct = source_file(root / spec, root)
    if direct is not None and direct in sources:
        return direct
    package, _, name = spec.partition('/')
    if package not in packages:
        raise LookupError('{}: no package {} in the workspace (packages: {})'.format(
            _one_line(spec), _one_line(package), ', '.join(sorted(packages)) or 'none'))
    share, folder = Path(packages[package]), folders[package]
    found: Set[str] = set()
    for path in sorted(share.rglob('*')):
        relative = path.relative_to(share).as_posix()
        if relative == name or path.name == name:
            file = source_file(path, root)
            if file is not None and file in sources:
                found.add(file)
    if len(found) != 1:
        names = sorted(Path(f).name for f in sources if f.startswith(folder + '/'))
        raise LookupError('{}: {} in package {} ({})'.format(
            _one_line(spec), 'several launch files match' if found else 'no launch file ' +
            _one_line(name), package,
            ', '.join(sorted(found)) if found else 'its launch files: {}'.format(
                ', '.join(names) or 'none')))
    return found.pop()
