# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which frame is the LiDAR when no --config says so: the workspace's own files decide.

Without a config the F1TENTH car's `laser` is nobody's LiDAR: a YDLidar mounted as `lidar`, a
SICK S300 as `lidar_1_link`, a TurtleBot's `base_scan`. The LiDAR is the declared frame a
driver or consumer names (frame_id, laser_frame...) among the LiDAR-like ones, else the one
LiDAR-like frame the tree declares; with none, or several and no parameter to choose, it is
unknown ('') and the laser checks say so.
"""
from dataclasses import replace
from typing import List, Sequence

from ..model import DeclaredEdge, NodeParams
from ..readers.params import leaf
from ...engine.config import AuditConfig

LIDAR_WORDS = ('laser', 'lidar', 'scan', 'hokuyo', 'velodyne', 'ouster', 'rplidar')
FRAME_KEYS = ('frame_id', 'laser_frame', 'laser_frame_id', 'scan_frame', 'lidar_frame')


def own_lidar(config: AuditConfig, edges: Sequence[DeclaredEdge],
              nodes: Sequence[NodeParams]) -> AuditConfig:
    """Return the config with the workspace's own LiDAR frame, or '' when its files cannot say."""
    candidates = sorted({edge.key[1] for edge in edges if _is_lidar_like(edge.key[1])})
    named = {param.value.lstrip('/') for node in nodes for param in node.params.values()
             if leaf(param.name) in FRAME_KEYS and isinstance(param.value, str)}
    chosen = _chosen(candidates, named, config.laser_frame)
    frames = {frame for edge in edges for frame in edge.key}
    prefix, _, own = chosen.rpartition('/')
    if prefix and '{}/{}'.format(prefix, config.base_frame) in frames:
        chosen = own  # ego_racecar/laser on ego_racecar/base_link: base_link → laser, prefixed
    return replace(config, laser_frame=chosen, required_frames=None, pose_topics=None,
                   lookups=None)


def _is_lidar_like(frame: str) -> bool:
    """Return whether a frame's own name (past any prefix) says it is a LiDAR's."""
    return any(word in frame.rsplit('/', 1)[-1].lower() for word in LIDAR_WORDS)


def _chosen(candidates: List[str], named: set, default: str) -> str:
    """Return the one LiDAR frame: a parameter's, the usual name, the only one; or ''."""
    for found in ([f for f in candidates if f in named],
                  [f for f in candidates if f.rsplit('/', 1)[-1] == default], candidates):
        if len(found) == 1:
            return found[0]
        if found:
            return ''
    return ''
