# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The declaring stage: the tree each bringup declares, from the nodes it starts.

Each node's parameter files become workspace paths, cartographer_node gets its .lua options,
robot_state_publisher its description's joints, and the table says what each known node sends
(and each ros2_control controller a spawner starts, controllers.py).
What the lint cannot read makes its node a possible sender, so "nothing publishes it" is never
said where something may. The nodes are new values: the plan stays as it was.
"""
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from .controllers import spawned_controllers
from .declared import Declared
from .gz_bridge import is_gz_bridge, onto_tf, same_topic
from .lidar import own_lidar
from .parameters import node_params
from .sources import PackageSources
from .static_tf import is_static_publisher, static_edge, unvalued_edge
from .table import declared_publishers, Publisher, publisher_of, sent_edges, TABLE
from ..bringups.plan import Plan
from ..bringups.planner import Bringup
from ..model import BuiltAtLaunch, DeclaredEdge, DESCRIPTION, Description, LaunchedNode, \
    NodeParams, Param, Problems, Unresolved, Where
from ..readers.description import Body, body_edges, gz_systems, GzSystem, manager_paths, \
    read_description
from ..readers.install import INSTALL, missing_from_package, source_file
from ..readers.lua import FRAME_OPTIONS, lua_file, lua_options
from ..readers.node_source import sent_by_source
from ..readers.workspace import Collected
from ...engine.config import AuditConfig
from ...engine.findings import Finding, Level

Possible = List[Tuple[str, Optional[Where]]]  # who may send transforms the lint cannot read
TF, TF_STATIC = '/tf', '/tf_static'
DESCRIBED = 'the robot description {} loads, which the lint could not read (lint_files says why)'


@dataclass(frozen=True)
class DeclaredBringup:
    """One bringup, the tree it declares, and the nodes it starts with their files resolved."""

    bringup: Bringup
    declared: Declared
    launched: Tuple[LaunchedNode, ...]


@dataclass(frozen=True)
class Declaration:
    """The declaring stage's result: each bringup's tree, and what it could not read."""

    bringups: Tuple[DeclaredBringup, ...]
    problems: Tuple[Finding, ...] = ()
    measured: bool = True  # the config is this robot's (else the workspace is its own measure)

    @property
    def table(self) -> Tuple[Publisher, ...]:
        """Return the publishers the trees were read with (the table alone with no bringup)."""
        return tuple(self.bringups[0].declared.table) if self.bringups else TABLE


def declare(collected: Collected, plan: Plan, config: AuditConfig,
            measured: bool = True) -> Declaration:
    """Return the tree each planned bringup declares; measured: the config is this robot's."""
    reader = Reader(collected, config, measured)
    declared = tuple(reader.declare(bringup) for bringup in plan.bringups)
    return Declaration(declared, tuple(reader.problems.found), measured)


def _own_prefix(prefix: str) -> str:
    """
    Return the frame_prefix a frame lands under: '' for a bare '/'.

    A launch that writes frame_prefix: namespace + '/' and leaves the namespace empty (the
    Neobotix bringups) sends /base_link; tf2 strips the '/', so the tree is the unprefixed one.
    """
    return '' if prefix == '/' else prefix


def _route(route: Tuple[Where, ...]) -> str:
    """Return a route of includes as its lines: `a.lua:3 → b.lua:1`."""
    return ' → '.join(map(str, route))


def _label(node: LaunchedNode) -> str:
    """Return how a possible sender is named: the node, and what it runs where that differs."""
    runs = '{}/{}'.format(node.package, node.executable)
    return 'the node {} ({})'.format(node.label(), runs) \
        if node.label() != node.executable else 'the node ' + runs


def _is_remapped(node: LaunchedNode, static: bool, possible: Possible) -> bool:
    """
    Return whether a node's /tf (or /tf_static) is remapped away: its edges join no tree.

    A localizer run beside the odometry for comparison sends on /pf/tf; tf2 listeners never
    hear it. `/tf → tf` in a namespace is the robot's own tree (a fleet's habit): kept, and
    so is `/tf → /robot2/tf` in namespace robot2, the same topic spelled whole (TurtleBot 4).
    A remapping to a topic only the launch knows makes the node a possible sender.
    """
    topic = TF_STATIC if static else TF
    bare = isinstance(node.namespace, str) and not node.namespace.strip('/')
    for source, target in node.remappings:
        if source == topic or (source == topic[1:] and bare):
            if not isinstance(target, str):
                possible.append(('{}, whose {} is remapped to {}'.format(
                    _label(node), topic, target), node.where))
                return True
            return '/' + target.lstrip('/') != topic and target != node.resolved(topic[1:])
    return False


class Reader:
    """Turns bringups into declared trees: parameter files, descriptions, known publishers."""

    def __init__(self, collected: Collected, config: AuditConfig, measured: bool = True):
        """Read against this workspace, with the team's own publishers before the table's."""
        self.collected, self.config, self.measured = collected, config, measured
        self.table: Tuple[Publisher, ...] = declared_publishers(config.lint_publishers) + TABLE
        self.described: Dict[Description, Union[Body, str]] = {}  # xacro once per file, args
        self.waiting: Dict[str, DeclaredEdge] = {}  # this bringup's moving joints held back
        self.problems = Problems(collected.shown)
        self.sources = PackageSources(collected.root, collected.folders)

    def declare(self, bringup: Bringup) -> DeclaredBringup:
        """Return the tree a bringup declares, and the nodes it starts (their files resolved)."""
        possible: Possible = list(bringup.unknown)
        self.waiting = {}
        launched = [self._resolved(node, possible) for node in bringup.nodes]
        nodes = node_params(launched, self.collected.blocks, self.collected.rosparams)
        senders = [n for n in launched if not is_static_publisher(n.package, n.executable)]
        edges = [replace(edge, branch=node.branch) for node, params in zip(senders, nodes)
                 if not is_gz_bridge(node)  # its edges are Gazebo's, below
                 for edge in self._sent(node, params, bringup, possible)]
        edges += self._static_edges(launched)
        edges += self._bridged_edges(launched, bringup, possible)
        for spawner, controller in spawned_controllers(launched, self.collected.blocks,
                                                       self._simulated_managers(launched,
                                                                                bringup)):
            edges += [replace(edge, branch=spawner.branch)
                      for edge in sent_edges(controller, self.table) or []]
            nodes.append(controller)
        config = self.config if self.measured else own_lidar(self.config, edges, nodes)
        sent = {frame for edge in edges for frame in edge.key}
        waiting = {frame: edge for frame, edge in self.waiting.items() if frame not in sent}
        return DeclaredBringup(bringup, Declared(edges, nodes, config, possible, self.table,
                                                 measured=self.measured, waiting=waiting),
                               tuple(launched))

    def _resolved(self, node: LaunchedNode, possible: Possible) -> LaunchedNode:
        """Return the node with its parameter files as workspace paths, cartographer's options."""
        if self._silent(node):  # a tool: its parameters decide no frame, nothing to say
            files = [(source_file(value, self.collected.root) if isinstance(value, str)
                      else None, where) for value, where in node.param_files]
            return replace(node, param_files=[(f, w) for f, w in files if f is not None])
        files = [(self._parameter_file(value, where), where) for value, where in node.param_files]
        if any(file is None for file, _ in files):
            possible.append(('the node {}, whose parameters the lint cannot read'.format(
                node.label()), node.where))
        node = replace(node, param_files=files)
        if 'cartographer_node' in (node.executable, node.name):
            node = replace(node, inline=self._cartographer(node))
        return node

    def _silent(self, node: LaunchedNode) -> bool:
        """Return whether the table knows the node sends nothing and names no frame (rviz2)."""
        return any(node.executable in p.executables and p.silent for p in self.table)

    def _parameter_file(self, value: object, where: Where) -> Optional[str]:
        """Return a parameter file as a workspace path; warn about those the lint cannot read."""
        if isinstance(value, BuiltAtLaunch):
            self.problems.warn(where, 'inline parameters built over {} are known only when the '
                               'launch runs: they are not checked'.format(value), 'unresolved')
            return None
        if isinstance(value, Unresolved):
            self.problems.warn(where, 'an entry of its parameters (a file or a dict) is {}, '
                               'known only when the launch runs: what it sets is not '
                               'checked'.format(value), 'unresolved')
            return None
        file = source_file(value, self.collected.root)
        if file in self.collected.templates:
            self.problems.warn(where, 'the parameter file {} is a Jinja template ({}): passed as '
                               'it lies, unrendered, ROS 2 cannot parse it and the node does '
                               'not start'.format(value, '{{ ... }}'), 'template')
            return None
        why = self._missing(value) if file is None else ''
        if why:
            self.problems.warn(where, 'the parameter file {}: {}'.format(value, why),
                               INSTALL)
        elif file is None:
            self.problems.warn(where, 'the parameter file {} is not in the workspace: its '
                               'parameters are not checked{}'.format(value, self._rooted(value)),
                               'missing')
        return file

    def _missing(self, value: object) -> str:
        """Say why a path into a workspace package leads to no file ('' for other paths)."""
        return missing_from_package(value, self.collected.packages, self.collected.folders,
                                    self.collected.root)

    def _rooted(self, value: object) -> str:
        """Say why a '/name.yaml' is no file: os.path.join drops what comes before a '/'."""
        if not isinstance(value, str):  # a number or None written as a file: no hint
            return ''
        name = value[1:] if value.startswith('/') and '/' not in value[1:] else ''
        found = sorted(f for f in self.collected.blocks if Path(f).name == name)
        return ('. os.path.join(..., {!r}) drops every folder before a part that starts with '
                "'/': write {!r} ({} is in the workspace)".format(value, name, found[0])
                if found else '')

    def _cartographer(self, node: LaunchedNode) -> Dict[str, Param]:
        """Return cartographer_node's parameters: its .lua file's options (and includes') first."""
        named = lua_file(node.arguments)
        if isinstance(named, str):
            self.problems.warn(node.where, 'cartographer_node: {}, so its .lua file is not '
                               'read: the frames it publishes are not checked'.format(named),
                               'lua')
            return dict(node.inline)
        if source_file(Path(named[0]) / named[1], self.collected.root) is None:
            lua = '{}/{}'.format(named[0], named[1])
            why = self._missing(lua) or 'is not in the workspace: the frames it publishes are ' \
                'not checked'
            self.problems.warn(node.where, 'cartographer_node: its .lua file {}{} {}'.format(
                lua, ':' if why.startswith('its') else '', why), 'lua')
            return dict(node.inline)
        read = lua_options(Path(named[0]), named[1], self.collected.root)
        if read.twice:
            self._refused(node, *read.twice)
            return dict(node.inline)
        missing = [option for option in FRAME_OPTIONS if option not in read.options]
        if missing:
            self.problems.warn(node.where, 'cartographer_node: {}/{} sets no {} the lint can '
                               'read: the frames it publishes are not checked'.format(
                                   named[0], named[1], ', '.join(missing)), 'lua')
        return {**read.options, **node.inline}

    def _refused(self, node: LaunchedNode, name: str, first: Tuple[Where, ...],
                 second: Tuple[Where, ...]) -> None:
        """Say the include cartographer stops at: its LuaInclude runs each file only once."""
        same = 0  # the routes' shared start, left out: each keeps at least its include line
        while same < min(len(first), len(second)) - 1 and first[same] == second[same]:
            same += 1
        self.problems.warn(second[-1], 'includes {} a second time (first at {}; again at {}): '
                           'cartographer stops at startup with LOG(FATAL) "Tried to '
                           'include {} twice", so {} publishes no frame'.format(
                               name, _route(first[same:]), _route(second[same:]), name,
                               node.label()), 'lua', Level.ERROR)

    def _sent(self, node: LaunchedNode, params: NodeParams, bringup: Bringup,
              possible: Possible) -> List[DeclaredEdge]:
        """Return the edges a node sends; one the lint cannot read is a possible sender."""
        publisher = publisher_of(params, self.table)
        if publisher is not None and not self.sources.behaves_as(node, publisher):
            possible.append(('{}, whose source ({}) the lint cannot tell is {}'.format(
                _label(node), self.collected.folders[node.package], publisher.label),
                node.where))
            return []
        unread = any(file is None for file, _ in node.param_files)
        if publisher is not None and not publisher.description and unread:
            return []  # a file it cannot read may set any switch: never its defaults
        edges = self._own_code(node) if publisher is None else self._robot_edges(
            node, bringup) if publisher.description else sent_edges(params, self.table)
        if edges is None and publisher is not None and publisher.description:
            possible.insert(0, (DESCRIBED.format(node.label()), node.where))  # the likeliest
        elif edges is None:
            possible.append((_label(node), node.where))
        return [edge for edge in edges or [] if not _is_remapped(node, edge.static, possible)]

    def _robot_edges(self, node: LaunchedNode, bringup: Bringup) -> Optional[List[DeclaredEdge]]:
        """Return robot_state_publisher's edges, or None once it is said why they are unknown."""
        description = self._description(node, bringup)
        text = getattr(node.inline.get(DESCRIPTION), 'value', None)
        if isinstance(text, str) and text.strip() and not text.lstrip().startswith('<'):
            self.problems.warn(node.where, 'robot_state_publisher: its robot_description is '
                               'the text {!r}, which is no URDF: robot_state_publisher parses '
                               'the parameter itself as XML (urdf::Model::initString; it reads '
                               'no path or URI), so it stops at start and sends no '
                               'transform'.format(text[:80]), 'description', Level.ERROR)
            return []
        edges = self._body_edges(node, bringup, description) \
            if isinstance(description, Description) else 'its robot_description is {}, known ' \
            'only when the launch runs'.format(
                'an inline text' if isinstance(text, str) else description)
        if not isinstance(edges, str):
            return edges
        said = isinstance(description, Description) and source_file(
            description.path, self.collected.root) in self.collected.unreadable
        if not said:  # else the file's own finding says why
            self.problems.warn(node.where, 'robot_state_publisher: {}; the transforms it '
                               'sends are not checked'.format(edges), 'description')
        return None

    def _simulated_managers(self, launched: List[LaunchedNode], bringup: Bringup) -> List[str]:
        """Return the controller files the bringup's descriptions hand Gazebo's manager."""
        if not bringup.gazebo:
            return []
        files = []
        for node in launched:
            description = self._description(node, bringup) \
                if node.executable == 'robot_state_publisher' else None
            body = self.described.get(description) \
                if isinstance(description, Description) else None
            if not isinstance(body, Body):
                continue
            for path in manager_paths(body):
                file = source_file(path, self.collected.root)
                why = self._missing(path) if file is None else ''
                if why:  # Gazebo's controller manager starts with no controllers
                    self.problems.warn(node.where, 'robot_state_publisher: the Gazebo '
                                       'ros2_control plugin in {} loads its controllers from {}: '
                                       '{}'.format(body.file, path, why), INSTALL)
                files += [file] if file is not None else []
        return files

    def _description(self, node: LaunchedNode,
                     bringup: Bringup) -> Union[Description, Unresolved]:
        """Return robot_state_publisher's description: its parameter, ROS 1's, or its argument."""
        param = node.inline.get(DESCRIPTION) or bringup.description
        if param is not None:
            return param.value if isinstance(param.value, (Description, Unresolved)) else \
                Unresolved(DESCRIPTION)
        paths = [t.value for t in node.arguments if isinstance(t.value, str)
                 and not t.value.startswith('-')]
        if paths:
            return Description(paths[0])
        return Unresolved('set by a parameter source it cannot read' if any(
            file is None for file, _ in node.param_files) else 'not given (no '
            'robot_description parameter, file or argument)')

    def _body_edges(self, node: LaunchedNode, bringup: Bringup,
                    description: Description) -> Union[List[DeclaredEdge], str]:
        """Return the edges of a description's joints, prefixed by frame_prefix; else why not."""
        if description not in self.described:
            self.described[description] = read_description(
                description, self.collected.root, self.collected.packages)
        body = self.described[description]
        prefix = node.inline.get('frame_prefix')
        if prefix is not None and not isinstance(prefix.value, str):
            return 'its frame_prefix is {}, known only when the launch runs'.format(prefix.value)
        if isinstance(body, str):
            return body
        own = _own_prefix(prefix.value if prefix else '')
        held = not (bringup.gazebo or bringup.publishes_joint_states)
        for edge in body_edges(body, node.where, own, joint_states=True) if held else []:
            if not edge.static:  # a moving joint it holds back until /joint_states
                self.waiting.update({frame: edge for frame in edge.key})
        return body_edges(body, node.where, own, bringup.gazebo, bringup.publishes_joint_states)

    def _own_code(self, node: LaunchedNode) -> Optional[List[DeclaredEdge]]:
        """Return what a node of a workspace package sends by its code; None if unknown."""
        package, executable = node.package, node.executable
        if not isinstance(package, str) or package not in self.collected.folders \
                or not isinstance(executable, str):
            return None
        sent = sent_by_source(self.collected.root, self.collected.folders[package], package,
                              executable, self.sources.text(package))
        return None if sent is None else [DeclaredEdge(
            edge.parent, edge.child, edge.where, '{} (its own code: sendTransform)'.format(
                node.label()), edge.static) for edge in sent]

    def _bridged_edges(self, launched: List[LaunchedNode], bringup: Bringup,
                       possible: Possible) -> List[DeclaredEdge]:
        """
        Return what Gazebo's drive systems send on /tf through a bridge; unknowns are possible.

        A bridge whose TF topics no system of the bringup's descriptions publishes on (a
        world's plugin, a model spawned from a file) may send anything: a possible sender.
        """
        bridges = [node for node in launched if is_gz_bridge(node)]
        if not bridges:
            return []
        systems = [system for node in launched if node.executable == 'robot_state_publisher'
                   for system in self._systems(node, bringup)]
        edges = []
        for bridge in bridges:
            carried = onto_tf(bridge, self.collected.root)
            if isinstance(carried, str):
                possible.append(('{}, whose bridge the lint cannot read ({})'.format(
                    _label(bridge), self.collected.shown(carried)), bridge.where))
                continue
            for topic in carried:
                senders = [s for s in systems if same_topic(s.topic, topic)]
                for system in senders:
                    if system.parent is None or system.child is None:
                        possible.append(('{}, which carries the gz DiffDrive system of {} onto '
                                         '/tf, its frames named after the model at spawn'.format(
                                             _label(bridge), system.file), bridge.where))
                        continue
                    via = 'gz DiffDrive system in {} (frame_id: {}, child_frame_id: {}), ' \
                        'bridged from the Gazebo topic {} onto /tf by {}'.format(
                            system.file, system.parent, system.child, topic, bridge.label())
                    edges.append(DeclaredEdge(system.parent, system.child, bridge.where, via,
                                              static=False, branch=bridge.branch))
                if not senders:
                    possible.append(('{}, which carries the Gazebo topic {} onto /tf'.format(
                        _label(bridge), topic), bridge.where))
        return edges

    def _systems(self, node: LaunchedNode, bringup: Bringup) -> List[GzSystem]:
        """Return the gz sim drive systems of a robot_state_publisher's description, if read."""
        description = self._description(node, bringup)
        body = self.described.get(description) if isinstance(description, Description) else None
        return gz_systems(body) if isinstance(body, Body) else []

    def _static_edges(self, launched: List[LaunchedNode]) -> List[DeclaredEdge]:
        """Return each static_transform_publisher's edge; one the lint cannot read is said."""
        edges = []
        for node in launched:
            if not is_static_publisher(node.package, node.executable):
                continue
            sent = static_edge(node.arguments, node.where, node.package, node.ros1)
            edge: Optional[DeclaredEdge]
            if isinstance(sent, str):
                self.problems.warn(node.where, 'static_transform_publisher: ' + sent, 'static')
                edge = unvalued_edge(node.arguments, node.where, node.package)  # frames known
            else:
                edge = sent
            if edge is not None:
                edges.append(replace(edge, branch=node.branch))
        return edges
