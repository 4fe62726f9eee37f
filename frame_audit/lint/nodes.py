# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which parameters each node gets, and the transforms that well-known nodes send because of them.

A launched node gets the blocks of its parameter files that name it (or '/**'), then its inline
parameters, later ones winning, as ROS 2 applies them. A block no launch file loads stands for
the node it names. Known publishers (seeds/004): slam_toolbox sends map_frame → odom_frame,
vesc_to_odom_node odom_frame → base_frame when publish_tf is on, and the particle filter
'/map' → '/laser' (frame ids fixed in its code) when publish_tf is on.
"""
import difflib
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Set, Tuple

from .model import DeclaredEdge, LaunchedNode, NodeParams, Param, ParamBlock
from .params import node_name
from .static_tf import is_static_publisher
from ..engine.findings import Finding, Level


@dataclass(frozen=True)
class KnownPublisher:
    """A node whose transform follows from its parameters: (parameter, default) per frame."""

    label: str
    names: Tuple[str, ...]
    parent: Tuple[Optional[str], str]
    child: Tuple[Optional[str], str]
    switch: Optional[Tuple[str, bool]]


KNOWN_PUBLISHERS = (
    KnownPublisher('slam_toolbox', ('slam_toolbox', 'async_slam_toolbox_node',
                                    'sync_slam_toolbox_node', 'localization_slam_toolbox_node'),
                   ('map_frame', 'map'), ('odom_frame', 'odom'), None),
    KnownPublisher('vesc_to_odom_node', ('vesc_to_odom_node',), ('odom_frame', 'odom'),
                   ('base_frame', 'base_link'), ('publish_tf', False)),
    KnownPublisher('particle_filter', ('particle_filter',), (None, '/map'), (None, '/laser'),
                   ('publish_tf', True)),
)


def yaml_text(value: object) -> str:
    """Return a parameter value as its file writes it (true, not Python's True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def known_publisher(node: NodeParams) -> Optional[KnownPublisher]:
    """Return what the lint knows about the node's transform, if it is a known publisher."""
    return next((p for p in KNOWN_PUBLISHERS if set(p.names) & set(node.names)), None)


def _frame(node: NodeParams, spec: Tuple[Optional[str], str]) -> Tuple[str, Optional[Param]]:
    key, default = spec
    param = node.params.get(key) if key else None
    return (str(param.value) if param else default), param


def switch_of(node: NodeParams) -> Optional[Param]:
    """Return the parameter that turns a known publisher's transform on or off, if set."""
    publisher = known_publisher(node)
    return node.params.get(publisher.switch[0]) if publisher and publisher.switch else None


def known_edge(node: NodeParams, switched: bool = True) -> Optional[DeclaredEdge]:
    """Return the transform a known publisher sends (would send, switched=False), or None."""
    publisher = known_publisher(node)
    if publisher is None:
        return None
    switch = switch_of(node)
    if switched and publisher.switch and not (switch.value is True if switch
                                              else publisher.switch[1]):
        return None
    (parent, parent_param), (child, child_param) = (_frame(node, publisher.parent),
                                                    _frame(node, publisher.child))
    said = [p for p in (child_param, parent_param, switch) if p is not None]
    where = said[0].where if said else node.where
    how = ', '.join('{}: {}'.format(p.name, yaml_text(p.value)) for p in said) or 'its defaults'
    return DeclaredEdge(parent, child, where, '{} ({})'.format(publisher.label, how),
                        static=False)


def _matches(block: ParamBlock, node: LaunchedNode) -> bool:
    own = node_name(block.node)
    return own == '**' or own in (node.name, node.executable)


def _names(node: LaunchedNode) -> Tuple[str, ...]:
    return tuple(str(n) for n in (node.name, node.executable, node.package) if isinstance(n, str))


def node_params(launched: List[LaunchedNode],
                blocks: Mapping[str, List[ParamBlock]]) -> List[NodeParams]:
    """
    Return each node's parameters: launched nodes first, then blocks no launch loads.

    A launched node's parameter files are workspace paths by now (see workspace.collect);
    blocks maps each parameter file's workspace path to its blocks.
    """
    used: Set[int] = set()
    nodes = []
    for node in launched:
        if is_static_publisher(node.package, node.executable):
            continue
        params: Dict[str, Param] = {}
        for path, _ in node.param_files:
            for block in blocks.get(path, []) if isinstance(path, str) else []:
                if _matches(block, node):
                    params.update(block.params)
                    used.add(id(block))
        params.update(node.inline)
        names = _names(node)
        nodes.append(NodeParams(names[0] if names else '?', names, params, node.where))
    for file_blocks in blocks.values():
        for block in file_blocks:
            if id(block) not in used:
                nodes.append(NodeParams(block.node, (node_name(block.node),), block.params,
                                        block.where))
    return nodes


PARAMETERS_CHECK = 'lint_parameters'


def unapplied_blocks(launched: List[LaunchedNode],
                     blocks: Mapping[str, List[ParamBlock]]) -> List[Finding]:
    """
    Report parameter blocks that match no node their file is passed to.

    ROS 2 applies a block to the node of that name only: a typo in the name leaves the node
    on its defaults, frames included, and nothing warns. Each such block is a WARN at its
    line, naming the nodes the file is passed to and the one it probably meant.
    """
    loaders: Dict[str, List[LaunchedNode]] = {}
    for node in launched:
        for path, _ in node.param_files:
            if isinstance(path, str):
                loaders.setdefault(path, []).append(node)
    findings = []
    for path, nodes in sorted(loaders.items()):
        names = sorted({str(n.name if isinstance(n.name, str) else n.executable)
                        for n in nodes})
        for block in blocks.get(path, []):
            if any(_matches(block, node) for node in nodes):
                continue
            guess = difflib.get_close_matches(node_name(block.node), names, n=1, cutoff=0.6)
            findings.append(Finding(
                PARAMETERS_CHECK, Level.WARN,
                "{}: the block '{}' matches no node this file is passed to ({}): its "
                'parameters never apply, and the node runs on its defaults, frames '
                'included{}'.format(block.where, block.node, ', '.join(names),
                                    "; did you mean '{}'?".format(guess[0]) if guess else ''),
                'unapplied:{}'.format(block.where), values=block.where.values()))
    return findings
