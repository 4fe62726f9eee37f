# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Parameter files (`node: ros__parameters:` blocks) and which of their keys concern frames.

A block's nested keys are flattened with dots, as ROS 2 does. Frame-related keys: *_frame and
*_frame_id (frame names), the LiDAR offsets consumers convert with, and *_topic keys (a pose
topic next to a pose_frame says which point the node takes that pose for).
"""
from typing import Any, Dict, List

from .markup import LinedDict
from ..model import Param, ParamBlock, Where

PARAMETERS = 'ros__parameters'
OFFSET_KEYS = ('laser_offset_x', 'scan_distance_to_base_link')


def _flatten(mapping: LinedDict, file: str, prefix: str = '') -> Dict[str, Param]:
    params: Dict[str, Param] = {}
    for key, value in mapping.items():
        name = prefix + str(key)
        if isinstance(value, LinedDict) and value:
            params.update(_flatten(value, file, name + '.'))
        else:
            params[name] = Param(name, value, Where(file, mapping.lines[key]))
    return params


def flat_params(document: LinedDict, file: str) -> Dict[str, Param]:
    """
    Return a ROS 1 parameter file's keys as one node's parameters, nested keys dotted.

    A <rosparam command="load" file=...> inside a <node> loads them into its private namespace:
    the file names no node and holds no ros__parameters.
    """
    return _flatten(document, file)


def param_blocks(document: Any, file: str, prefix: str = '') -> List[ParamBlock]:
    """Return every ros__parameters block of a YAML document, under namespaces too."""
    if not isinstance(document, LinedDict):
        return []
    blocks = []
    for key, value in document.items():
        if not isinstance(value, LinedDict):
            continue
        node = prefix + str(key)
        if isinstance(value.get(PARAMETERS), LinedDict):
            blocks.append(ParamBlock(node, _flatten(value[PARAMETERS], file),
                                     Where(file, document.lines[key])))
        else:
            blocks.extend(param_blocks(value, file, node + '/'))
    return blocks


def leaf(name: str) -> str:
    """Return a parameter's own name, without the groups above it ('a.b.pose_frame')."""
    return name.rsplit('.', 1)[-1]


def group_of(name: str) -> str:
    """Return the groups above a parameter, with the dot ('poses.pf.' for 'poses.pf.topic')."""
    return name[:len(name) - len(leaf(name))]


def is_frame_key(name: str) -> bool:
    """Return whether a parameter names a frame (*_frame, *_frame_id, frame_id)."""
    key = leaf(name)
    return key.endswith('_frame') or key.endswith('_frame_id') or key == 'frame_id'


def is_topic_key(name: str) -> bool:
    """Return whether a parameter names a topic the node uses (pose_topic, odom_topic...)."""
    return leaf(name).endswith('topic')


def is_offset_key(name: str) -> bool:
    """Return whether a parameter is a LiDAR-to-rear-axle offset a node converts poses with."""
    return leaf(name) in OFFSET_KEYS


def node_name(block_name: str) -> str:
    """Return the node's own name from a block name with namespaces ('/ns/node' → 'node')."""
    return block_name.rstrip('/').rsplit('/', 1)[-1]


def yaml_text(value: object) -> str:
    """Return a parameter value as its file writes it (true, not Python's True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
