# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit init`: a config measured from a known-good recording of any REP 105 robot.

Two passes over the recording: the first builds the tree to find the frames by structure,
the second places every pose topic against each frame of the robot's body.
"""
from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .offline import audit_recording
from .read import recording_info
from ..engine.compare import Side, side_of_config, side_of_recording
from ..engine.config import AuditConfig, load_config, PoseTopic
from ..engine.store import FrameStore
from ..engine.measure import config_text, laser_mount, measure_frames, measure_pose, Measured, \
    MeasureError, pose_name
from ..message_types import HEADER_TYPES, LASER_SCAN, ODOMETRY, POSE_STAMPED, \
    POSE_WITH_COVARIANCE


def _pick(topics: Sequence[str], usual: str) -> Optional[str]:
    """Return the usual name if recorded, else the first of the topics, else None."""
    return usual if usual in topics else (topics[0] if topics else None)


def describe_recording(path: Path) -> str:
    """Return the YAML config of the robot recorded at path (BagError, MeasureError)."""
    measured, config, _ = measure_recording(path)
    return config_text(measured, config, Path(path).name)


def measure_recording(path: Path) -> Tuple[Measured, AuditConfig, FrameStore]:
    """Return what a recording shows of its robot, the config it implies, and its tree."""
    types: Dict[str, str] = {topic: msgtype for topic, (msgtype, _)
                             in recording_info(path).topics.items()}
    odometry = sorted(t for t, ty in types.items() if ty == ODOMETRY)
    scans = sorted(t for t, ty in types.items() if ty in HEADER_TYPES)
    scan_topic = _pick([t for t in scans if types[t] == LASER_SCAN] or scans, '/scan')
    odom_topic = _pick(odometry, '/odom')
    probe = AuditConfig(hardware_id=Path(path).stem, odom_topic=odom_topic or '/odom',
                        scan_topic=scan_topic or '/scan', laser_frame='', pose_topics=())
    odom, base, map_frame, laser = measure_frames(
        audit_recording(path, probe).audit.store, odom_topic)
    names: List[str] = []
    poses = []
    pose_types = (POSE_STAMPED, POSE_WITH_COVARIANCE)
    for topic in sorted(t for t, ty in types.items() if ty in pose_types):
        names.append(pose_name(topic, names))
        poses.append(PoseTopic(names[-1], topic, base))
    required = tuple(f for f in (map_frame, odom, base, laser) if f)
    config = replace(probe, map_frame=map_frame or 'map', odom_frame=odom, base_frame=base,
                     laser_frame=laser, required_frames=required, pose_topics=tuple(poses))
    store = audit_recording(path, config).audit.store
    notes = []
    scanned = sorted(f.lstrip('/') for f in store.scan_frames)
    if scanned and not laser:
        notes.append('the scan is in {}, which is not below {} in the recorded tree (was '
                     '/tf_static recorded?): no LiDAR configured'.format(
                         ', '.join(scanned), base))
    measured = Measured(map_frame, odom, base, laser, laser_mount(store, base, laser),
                        odom_topic, scan_topic,
                        [measure_pose(store, config, pose) for pose in poses], notes)
    return measured, config, store


def side_of(path: Path) -> Side:
    """Return one side of a diff: a config file (YAML) or a recording (BagError, ConfigError)."""
    if Path(path).suffix in ('.yaml', '.yml'):
        return side_of_config(load_config(Path(path)), Path(path).name)
    try:
        measured, _, store = measure_recording(path)
    except MeasureError:  # no odom to start from: the tree alone
        measured = None
        store = audit_recording(path, AuditConfig(laser_frame='', pose_topics=())).audit.store
    return side_of_recording(measured, store, Path(path).name)
