# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which parameters each launched node gets, merged as ROS 2 applies them.

A launched node gets its parameter files' blocks that name it (or '/**') and its inline
parameters in the order the launch gives them, later ones winning (an inline default before a
file is overridden by it). A parameter file no launch passes to a node applies to
nothing: a workspace keeps one per mode or robot, and only the launch says which one runs.
"""
import re
from typing import Dict, List, Mapping, Optional, Tuple

from .static_tf import is_static_publisher
from ..model import LaunchedNode, NodeParams, Param, ParamBlock
from ..readers.params import node_name


# The names known nodes give themselves in their code, when a launch file gives them none.
CODE_NAMES = {'ekf_node': 'ekf_filter_node', 'ukf_node': 'ukf_filter_node',
              'async_slam_toolbox_node': 'slam_toolbox', 'sync_slam_toolbox_node': 'slam_toolbox',
              'localization_slam_toolbox_node': 'slam_toolbox',
              'lifelong_slam_toolbox_node': 'slam_toolbox',
              'map_and_localization_slam_toolbox_node': 'slam_toolbox',
              'navsat_transform_node': 'navsat_transform_node'}


def default_names(node: LaunchedNode) -> Tuple[str, ...]:
    """Return the names a node gives itself when no launch names it: its code's, its executable."""
    executable = node.executable if isinstance(node.executable, str) else None
    return tuple(n for n in (CODE_NAMES.get(str(executable)), executable) if n)


def matches(block: ParamBlock, node: LaunchedNode) -> bool:
    """
    Return whether ROS 2 applies a parameter block to this node (its name, or '/**').

    A launch file's name= replaces the name the node's code gives itself: a block under the
    executable's name then reaches nothing. Without name= (or with one the lint cannot read)
    the node may go by its code's name or its executable's.
    """
    own = node_name(block.node)
    if own == '**':
        return True
    if isinstance(node.name, str):
        return own == node.name and _in_namespace(block.node, own, node)
    return own in default_names(node) and _in_namespace(block.node, own, node)


def _in_namespace(block: str, own: str, node: LaunchedNode) -> bool:
    """
    Return whether a block's namespaces fit the node's own namespace= (rclcpp's wildcards).

    rclcpp (parameter_map_from) matches a block's name, '/' put before it, as a pattern ('/*'
    one name, '/**' any) against the node's full name: `/**/lidar_front/sllidar_node` reaches
    the driver in lidar_front, not its twin in lidar_rear. The namespaces a launch pushes
    around a node the lint does not follow, so any may come before its own.
    """
    namespace = node.namespace.strip('/') if isinstance(node.namespace, str) else ''
    if not namespace:  # none given, or only the launch knows it: as before, any
        return True
    pattern = re.escape('/' + block.strip('/')).replace(r'/\*\*', '(/[^/]+)*').replace(
        r'/\*', '(/[^/]+)')
    return re.fullmatch('(/[^/]+)*' + pattern, '/{}/{}'.format(namespace, own)) is not None


def _names(node: LaunchedNode) -> Tuple[str, ...]:
    return tuple(str(n) for n in (node.name, node.executable, node.package) if isinstance(n, str))


def _inline(node: LaunchedNode, files: int) -> Dict[str, Param]:
    """Return the inline parameters given after this many of the node's files (all: the rest)."""
    return {name: param for name, param in node.inline.items()
            if min(node.inline_at.get(name, files), len(node.param_files)) == files}


def node_params(launched: List[LaunchedNode], blocks: Mapping[str, List[ParamBlock]],
                rosparams: Optional[Mapping[str, Mapping[str, Param]]] = None) -> List[NodeParams]:
    """
    Return each launched node's parameters (static_transform_publisher has none to check).

    A launched node's parameter files are workspace paths by now (the declare stage resolves
    them); blocks maps each parameter file's workspace path to its blocks.
    """
    nodes = []
    for node in launched:
        if is_static_publisher(node.package, node.executable):
            continue
        params: Dict[str, Param] = {}
        for index, (path, where) in enumerate(node.param_files):
            params.update(_inline(node, index))
            for block in blocks.get(path, []) if isinstance(path, str) else []:
                if matches(block, node):
                    params.update(block.params)
            if where in node.rosparam_at and isinstance(path, str):
                params.update((rosparams or {}).get(path, {}))
        params.update(_inline(node, len(node.param_files)))
        names = _names(node)
        nodes.append(NodeParams(names[0] if names else '?', names, params, node.where,
                                node.package if isinstance(node.package, str) else None))
    return nodes
