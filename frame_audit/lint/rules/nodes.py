# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Parameter blocks and node names that go wrong on the way to a node (lint_parameters, lint_nodes).

Which blocks reach which node is publishers/parameters.py; these rules report a block whose
node name is a slip or the name a renamed node gave up, two nodes one bringup starts under one
name, and an executable its package does not have or does not build.
"""
import difflib
from pathlib import Path
import re
from typing import AbstractSet, Dict, List, Mapping, Sequence, Tuple

from .joint_states import two_joint_state_publishers
from .subject import Subject
from .tree_rules import MAX_NAMED
from ..model import are_exclusive, LaunchedNode, ParamBlock
from ..publishers.controllers import undeclared_controllers
from ..publishers.parameters import default_names, matches
from ..publishers.table import Publisher
from ..readers.install import InstalledExecutables
from ..readers.params import node_name
from ...engine.check_ids import LINT_NODES, LINT_PARAMETERS
from ...engine.checks.common import first_of
from ...engine.findings import CheckResult, Finding, Level

# Blocks of the stacks the table covers, by the names their processes give their nodes: never
# a slip for a neighbour's name (map_saver beside map_server), and some are started by another
# process (a costmap inside controller_server), so no launch file names them.
STANDARD_NODES = frozenset((
    'amcl', 'map_server', 'map_saver', 'bt_navigator', 'controller_server', 'planner_server',
    'smoother_server', 'behavior_server', 'recoveries_server', 'waypoint_follower',
    'velocity_smoother', 'collision_monitor', 'docking_server', 'route_server',
    'local_costmap', 'global_costmap', 'lifecycle_manager_localization',
    'lifecycle_manager_navigation', 'costmap_filter_info_server', 'filter_mask_server',
    'loopback_simulator', 'robot_state_publisher', 'joint_state_publisher', 'slam_toolbox',
    'ekf_filter_node', 'ukf_filter_node', 'navsat_transform', 'controller_manager',
    'joint_state_broadcaster', 'diff_drive_controller', 'diff_cont', 'joint_broad'))
INTERNAL_SUFFIXES = ('_rclcpp_node', '_client_node')  # nodes a process starts for itself
DATA_SUFFIXES = ('.yaml', '.yml', '.xml', '.launch', '.urdf', '.xacro', '.lua', '.rviz')
SLIP = 0.8  # how alike a typo leaves two names (slam_tolbox, map_sever); unlike names are others'


def _is_standard(name: str) -> bool:
    """Return whether a block names a standard node of the covered stacks (never a slip)."""
    return name in STANDARD_NODES or name.endswith(INTERNAL_SUFFIXES)


def _lost(block: ParamBlock, node: LaunchedNode) -> Finding:
    """Return the WARN for a block that reaches no node in a file given to one node."""
    return Finding(
        LINT_PARAMETERS, Level.WARN,
        "{}: the block '{}' names no node any launch file starts, and this file is passed to "
        '{} alone ({}): its parameters reach nothing. If they are meant for {}, name the '
        'block {}'.format(block.where, block.node, node.label(), node.where, node.label(),
                          node.name),
        'lost:{}'.format(block.where), values=block.where.values())


def _renamed(block: ParamBlock, node: LaunchedNode) -> Finding:
    """Return the WARN for a block under the name a node's launch file replaced."""
    return Finding(
        LINT_PARAMETERS, Level.WARN,
        "{}: the block '{}' is the name {}/{} gives its node, but the launch names that node "
        '{} ({}): ROS 2 gives a node the blocks of its own name, so these parameters never '
        'reach it and it runs on its defaults. Name the block {}'.format(
            block.where, node_name(block.node), node.package, node.executable, node.label(),
            node.where, node.name),
        'renamed:{}'.format(block.where), values=block.where.values())


def unapplied_blocks(launched: List[LaunchedNode], blocks: Mapping[str, List[ParamBlock]],
                     elsewhere: AbstractSet[str] = frozenset(),
                     handed: AbstractSet[str] = frozenset()) -> List[Finding]:
    """
    Report parameter blocks whose node name is a slip for a node their file is passed to.

    ROS 2 applies a block to the node of that name only: a typo in the name leaves the node
    on its defaults, frames included, and nothing warns. A block close to the name of a node
    the file is passed to, and matching no node started anywhere (elsewhere), is a WARN at its
    line naming that node; so is any such block in a file passed to one node alone and to no
    launch file the lint does not read (handed). Other unmatched blocks are not reported: one
    file often serves several launch files, and
    processes start nodes of their own (a costmap inside Nav2's controller_server) that no
    launch file names; a standard node's block is never a slip. Nor is any block of a file in
    which each node it is passed to has a block of its own name (slam_toolbox_robot1 and
    slam_toolbox_robot2 in one file, each launch file starting one; vesc_to_odom_node beside
    the block of a throttle_interpolator left out of the launch): the node is not on its
    defaults; a near miss beside the node's own block is still said, unless the two differ in
    their numbers alone. A /** block is no block of its own. A block under the name a node
    gives itself (its code's, its executable's) while the launch renames it with name= reaches
    nothing, said so when that node has no block of its own and the file is not handed to a
    launch file the lint does not read (handed: Nav2's bringup may start a node of that name).
    A near miss is as alike as a typo leaves two names (SLIP); less alike names are others'.
    """
    loaders: Dict[str, List[LaunchedNode]] = {}
    for node in launched:
        for path, _ in node.param_files:
            if isinstance(path, str):
                loaders.setdefault(path, []).append(node)
    findings = []
    for path, nodes in sorted(loaders.items()):
        if any(not isinstance(n.name, str) for n in nodes):
            continue  # a node started without name= is named in its code: a guess would lie
        names = sorted({n.name for n in nodes})
        served = set(names) <= {node_name(block.node) for block in blocks.get(path, [])}
        for block in blocks.get(path, []):
            own = node_name(block.node)
            if any(matches(block, node) for node in nodes) or own in elsewhere:
                continue
            renamed = [] if path in handed else [
                node for node in nodes if own in default_names(node) and not any(
                    node_name(other.node) == node.name for other in blocks.get(path, []))]
            if renamed:  # with a block of its own, the other is some other node's (map_server)
                findings.append(_renamed(block, renamed[0]))
                continue
            if _is_standard(own):
                continue
            guess = difflib.get_close_matches(own, names, n=1, cutoff=SLIP)
            if not guess:
                if len(nodes) == 1 and not served and path not in handed:
                    findings.append(_lost(block, nodes[0]))  # Nav2's bringup may start it
                continue
            if served and (_are_siblings(own, guess[0]) or difflib.get_close_matches(
                    own, sorted(set(elsewhere) - set(names)), n=1, cutoff=SLIP)):
                continue  # slam_toolbox_robot2 beside robot1's own block; another's slip
            findings.append(Finding(
                LINT_PARAMETERS, Level.WARN,
                "{}: the block '{}' matches no node this file is passed to ({}): did you mean "
                "'{}'? As written its parameters never reach {}{}".format(
                    block.where, block.node, ', '.join(names), guess[0], guess[0],
                    ' (its own block holds the rest)' if served
                    else ', which runs on its defaults, frames included'),
                'unapplied:{}'.format(block.where), values=block.where.values()))
    return findings


def _are_siblings(name: str, other: str) -> bool:
    """Return whether two names differ in their numbers alone: robot1 and robot2's nodes."""
    return re.sub(r'\d+', '#', name) == re.sub(r'\d+', '#', other)


def same_names(launched: List[LaunchedNode]) -> List[Finding]:
    """
    Report nodes one bringup starts under one name.

    Both get the parameter blocks of that name and share its services, so `ros2 param` and
    the parameters it sets reach either one; their transforms and topics do not say which.
    Nodes on opposite sides of one condition (a Python if/else too) never run together.
    """
    by_name: Dict[str, List[LaunchedNode]] = {}
    for node in launched:
        if isinstance(node.name, str) and node.name:
            by_name.setdefault(node.label(), []).append(node)
    by_name = {name: [n for n in nodes if any(
        m is not n and not are_exclusive(n.branch, m.branch) for m in nodes)]
        for name, nodes in by_name.items()}
    return [Finding(
        LINT_NODES, Level.WARN,
        '{}: {} nodes are named {} ({}): they share its parameter blocks and services, and '
        'nothing tells their messages apart; {}'.format(
            nodes[1].where, len(nodes), name, ', '.join('{}/{} at {}'.format(
                n.package, n.executable, n.where) for n in nodes), _remedy(nodes)),
        'name:{}:{}'.format(name, nodes[1].where), values=nodes[1].where.values())
        for name, nodes in sorted(by_name.items()) if len(nodes) > 1]


def _remedy(nodes: List[LaunchedNode]) -> str:
    """Say how to keep one node: put a Node into the list once, else give each its own name."""
    again = [n for n in nodes if n.again is not None]
    if not again:
        return 'give each its own name'
    return 'the Node(...) at {} is put into the list of actions again at {}, and launch ' \
        'starts each entry: add it once'.format(again[0].again, again[0].where)


def lint_parameters(subject: Subject) -> CheckResult:
    """Report the parameter blocks of the subject's nodes that are a slip for one of them."""
    read = any(subject.blocks.values())
    return CheckResult(LINT_PARAMETERS, 'every parameter block matches a node its file is '
                       'passed to' if read else 'not judged: the workspace has no parameter '
                       'file with a ros__parameters block', unapplied_blocks(
                           list(subject.launched), subject.blocks, subject.started,
                           subject.handed), stale=not read)


def misspelled_executables(launched: Sequence[LaunchedNode],
                           table: Sequence[Publisher]) -> List[Finding]:
    """
    Report an executable a known package does not have, close to one it has.

    robot_localization's navsat_transfrom_node is no executable: `ros2 launch` stops there,
    and the transform the real one would send is missing. Only a near miss of an executable
    the table lists for that package is said; any other name may be one the table does not list.
    """
    findings = []
    for node in launched:
        if not isinstance(node.package, str) or not isinstance(node.executable, str):
            continue
        known = sorted({e for p in table if node.package in (p.packages or ())
                        for e in p.executables if '::' not in e})
        close = difflib.get_close_matches(node.executable, known, n=1, cutoff=0.8)
        if close and node.executable not in known:
            findings.append(Finding(
                LINT_NODES, Level.WARN,
                "{}: {} has no executable '{}': did you mean '{}'? {}".format(
                    node.where, node.package, node.executable, close[0], _stops(node)),
                'executable:{}'.format(node.where), values=node.where.values()))
    return findings


def _stops(node: LaunchedNode) -> str:
    """Say what a launch does at a node whose executable is not there."""
    return 'roslaunch starts the other nodes without it' if node.ros1 else \
        '`ros2 launch` stops there'


def unbuilt_executables(launched: Sequence[LaunchedNode],
                        executables: Mapping[str, InstalledExecutables],
                        uninstalled: AbstractSet[str] = frozenset()) -> List[Finding]:
    """
    Report an executable a workspace package never builds or installs where `ros2 run` looks.

    `ros2 launch` looks for it in lib/<package> and stops when it is not there; a component
    library, a script left out of install(PROGRAMS) or out of setup.py's console_scripts, is
    not there. Only packages whose whole install the lint reads are judged (executables holds
    those). A ROS 1 launch file's node is found by roslaunch in the package's source folder,
    and a launch file its package does not install is run by no `ros2 launch PKG FILE`: no
    install rule judges them, nor does one a ComposableNode's container loads by its plugin.
    """
    places: Dict[Tuple[str, str], List[LaunchedNode]] = {}
    for node in launched:
        built = executables.get(str(node.package))
        if built is not None and isinstance(node.executable, str) and not node.ros1 \
                and not node.component and node.where.file not in uninstalled \
                and node.executable not in built.names:
            places.setdefault((str(node.package), node.executable), []).append(node)
    findings = []
    for (package, executable), nodes in sorted(places.items()):
        programs = sorted(n for n in executables[package].names
                          if Path(n).suffix not in DATA_SUFFIXES and not n.endswith('launch.py'))
        close = difflib.get_close_matches(executable, programs, n=1, cutoff=SLIP)
        findings.append(Finding(
            LINT_NODES, Level.WARN,
            "{}: {}'s {} installs no executable '{}' (it installs {}){}: "
            '`ros2 launch` stops there, and what this node would send never comes{}'.format(
                nodes[0].where, package, executables[package].said_by, executable,
                first_of(programs, MAX_NAMED) or 'none',
                ' (and at {})'.format(first_of([str(n.where) for n in nodes[1:]], MAX_NAMED))
                if nodes[1:] else '', "; did you mean '{}'?".format(close[0]) if close else ''),
            'unbuilt:{}:{}'.format(package, executable), values=nodes[0].where.values()))
    return findings


def executables_across(each: Sequence[Tuple[str, Subject]]) -> List[Finding]:
    """
    Report each executable a package never installs once, over every bringup that starts it.

    What a package installs is no fact of one bringup: one finding names every place.
    """
    if not each:
        return []
    nodes = {(node.where, node.label()): node for _, subject in each for node in subject.launched}
    return unbuilt_executables(list(nodes.values()), each[0][1].executables,
                               each[0][1].uninstalled)


def undeclared_spawned(launched: Sequence[LaunchedNode],
                       blocks: Mapping[str, List[ParamBlock]]) -> List[Finding]:
    """Report a controller a spawner starts that the controller manager's files never type."""
    findings = []
    for spawner, name, declared, files in undeclared_controllers(launched, blocks):
        close = difflib.get_close_matches(name, declared, n=1, cutoff=SLIP)
        findings.append(Finding(
            LINT_NODES, Level.WARN,
            "{}: the spawner starts '{}', which the controller manager's file {} gives no "
            "type ('{}.type'; it declares {}): the manager cannot load it, so the spawner "
            'fails and what the controller would send (a drive controller: odom → the base) '
            'never comes{}'.format(
                spawner.where, name, ' and '.join(files), name,
                first_of(declared, MAX_NAMED) or 'none',
                "; did you mean '{}'?".format(close[0]) if close else ''),
            'controller:{}:{}'.format(spawner.where, name), values=spawner.where.values()))
    return findings


def lint_nodes(subject: Subject) -> CheckResult:
    """Report the nodes the subject starts under one name, or under an executable's slip."""
    summary = 'every node a bringup starts has a name of its own and an executable its ' \
        'package has' if subject.launched else 'not judged: no launch file the lint follows ' \
        'starts a node'
    return CheckResult(LINT_NODES, summary, same_names(list(subject.launched)) +
                       misspelled_executables(subject.launched, subject.tree.table) +
                       two_joint_state_publishers(subject.launched, subject.blocks) +
                       undeclared_spawned(subject.launched, subject.blocks),
                       stale=not subject.launched)
