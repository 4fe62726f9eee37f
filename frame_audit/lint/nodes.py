# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which parameters each launched node gets, and the blocks and names that go wrong on the way.

A launched node gets the blocks of its parameter files that name it (or '/**'), then its inline
parameters, later ones winning, as ROS 2 applies them. A parameter file no launch passes to a
node applies to nothing: a workspace keeps one per mode or robot, and only the launch says
which one runs.
"""
import difflib
from typing import Dict, List, Mapping, Set, Tuple

from .model import LaunchedNode, NodeParams, Param, ParamBlock
from .params import node_name
from .static_tf import is_static_publisher
from ..engine.findings import Finding, Level

PARAMETERS_CHECK = 'lint_parameters'
NODES_CHECK = 'lint_nodes'


def _matches(block: ParamBlock, node: LaunchedNode) -> bool:
    own = node_name(block.node)
    return own == '**' or own in (node.name, node.executable)


def _names(node: LaunchedNode) -> Tuple[str, ...]:
    return tuple(str(n) for n in (node.name, node.executable, node.package) if isinstance(n, str))


def node_params(launched: List[LaunchedNode],
                blocks: Mapping[str, List[ParamBlock]]) -> List[NodeParams]:
    """
    Return each launched node's parameters (static_transform_publisher has none to check).

    A launched node's parameter files are workspace paths by now (see lint.declare);
    blocks maps each parameter file's workspace path to its blocks.
    """
    nodes = []
    for node in launched:
        if is_static_publisher(node.package, node.executable):
            continue
        params: Dict[str, Param] = {}
        for path, _ in node.param_files:
            for block in blocks.get(path, []) if isinstance(path, str) else []:
                if _matches(block, node):
                    params.update(block.params)
        params.update(node.inline)
        names = _names(node)
        nodes.append(NodeParams(names[0] if names else '?', names, params, node.where))
    return nodes


def unapplied_blocks(launched: List[LaunchedNode], blocks: Mapping[str, List[ParamBlock]],
                     elsewhere: Set[str] = frozenset()) -> List[Finding]:
    """
    Report parameter blocks whose node name is a slip for a node their file is passed to.

    ROS 2 applies a block to the node of that name only: a typo in the name leaves the node
    on its defaults, frames included, and nothing warns. A block close to the name of a node
    the file is passed to, and matching no node started anywhere (elsewhere), is a WARN at its
    line naming that node. Other unmatched blocks are not reported: one file often serves
    several launch files, and processes start nodes of their own (a costmap inside Nav2's
    controller_server) that no launch file names.
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
        for block in blocks.get(path, []):
            own = node_name(block.node)
            if any(_matches(block, node) for node in nodes) or own in elsewhere:
                continue
            guess = difflib.get_close_matches(own, names, n=1, cutoff=0.6)
            if not guess:
                continue
            findings.append(Finding(
                PARAMETERS_CHECK, Level.WARN,
                "{}: the block '{}' matches no node this file is passed to ({}): did you mean "
                "'{}'? As written its parameters never reach {}, which runs on its defaults, "
                'frames included'.format(block.where, block.node, ', '.join(names), guess[0],
                                         guess[0]),
                'unapplied:{}'.format(block.where), values=block.where.values()))
    return findings


def same_names(launched: List[LaunchedNode]) -> List[Finding]:
    """
    Report nodes one bringup starts under one name.

    Both get the parameter blocks of that name and share its services, so `ros2 param` and
    the parameters it sets reach either one; their transforms and topics do not say which.
    """
    by_name: Dict[str, List[LaunchedNode]] = {}
    for node in launched:
        if isinstance(node.name, str) and node.name:
            by_name.setdefault(node.label(), []).append(node)
    return [Finding(
        NODES_CHECK, Level.WARN,
        '{}: {} nodes are named {} ({}): they share its parameter blocks and services, and '
        'nothing tells their messages apart; give each its own name'.format(
            nodes[1].where, len(nodes), name, ', '.join('{}/{} at {}'.format(
                n.package, n.executable, n.where) for n in nodes)),
        'name:{}:{}'.format(name, nodes[1].where), values=nodes[1].where.values())
        for name, nodes in sorted(by_name.items()) if len(nodes) > 1]
