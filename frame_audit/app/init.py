# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit init`: a config measured from a known-good recording of any REP 105 robot.

Two passes over one opening of the recording: the first builds the tree to find the frames by
structure, the second places every pose topic against each frame of the robot's body. The
second pass needs the first one's frames in its config (which pose topics to read, against
which base), so the two cannot be one; Recording.messages(config) starts a pass afresh.
"""
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .audit import audit_opened
from ..engine.checks.common import first_of, init_odometry, init_topics, lidars_by_name, plural
from ..engine.config import AuditConfig, PoseTopic
from ..engine.measure import config_text, disagreeing_statics, disputed_edges, laser_mount, \
    measure_frames, measure_pose, Measured, moving_edges, pose_name
from ..engine.records import ODOMETRY
from ..engine.tree_view import TreeReader
from ..message_types import POSE_STAMPED, POSE_WITH_COVARIANCE
from ..recordings.read import Recording


def describe_recording(path: Path) -> str:
    """Return the YAML config of the robot recorded at path (BagError, MeasureError)."""
    measured, config, _ = measure_recording(path)
    return config_text(measured, config, Path(path).name)


def measure_recording(path: Path) -> Tuple[Measured, AuditConfig, TreeReader]:
    """Return what a recording shows of its robot, the config it implies, and its tree."""
    with Recording(Path(path)) as recording:
        return measure_opened(recording, tree_pass(recording))


@dataclass(frozen=True)
class TreePass:
    """The first pass: the recorded tree, audited with no robot assumed, and its topics."""

    probe: AuditConfig
    tree: TreeReader
    types: Dict[str, str]  # every recorded topic's type
    odom_topic: Optional[str]  # None: no odometry recorded
    scan_topic: Optional[str]


def tree_pass(recording: Recording) -> TreePass:
    """
    Audit an open recording once with no robot assumed: its tree, to find the frames in.

    diff keeps this tree for a recording with no odometry to start from (MeasureError).
    """
    topics = recording.info.topics
    counted = any(count for _, count in topics.values())  # an index may not count at all
    # a topic declared with no message (a scan never published) is not the robot's: init
    # writes only what it measured
    types = {topic: msgtype for topic, (msgtype, count) in topics.items()
             if count or not counted}
    odom_topic, scan_topic = init_topics(types)
    probe = AuditConfig(hardware_id=recording.path.stem, odom_topic=odom_topic or '/odom',
                        scan_topic=scan_topic or '/scan', laser_frame='', pose_topics=(),
                        lookups=())  # the tree is wanted, not the checks' lookups
    tree = audit_opened(recording, probe, checks=False).audit.tree
    odometry = [t for t, kind in types.items() if kind == ODOMETRY]
    samples = recording.header_samples(probe) if len(odometry) > 1 else {}
    track = tree.tracks.get(probe.odom_topic)
    tied = init_odometry({t: track.header_frames if t == odom_topic and track else
                          samples.get(t, {}) for t in odometry}, tree.frames)
    if tied != odom_topic:  # another odometry topic is the one TF agrees with: read it
        probe = replace(probe, odom_topic=tied or '/odom')
        tree = audit_opened(recording, probe, checks=False).audit.tree
    return TreePass(probe, tree, types, tied, scan_topic)


def measure_opened(recording: Recording,
                   first: TreePass) -> Tuple[Measured, AuditConfig, TreeReader]:
    """Measure an open recording's robot from its first pass, then a second (MeasureError)."""
    found = measure_frames(first.tree, first.odom_topic)
    odom, base, map_frame, laser = found.odom, found.base, found.map_frame, found.laser
    notes = [found.note] if found.note else []
    named = lidars_by_name(first.tree, base) if not (laser or first.scan_topic) else []
    if len(named) == 1:
        laser = named[0]
        notes.append('no scan topic was recorded: the LiDAR is taken to be {}, by its name; '
                     'check frames.laser'.format(laser))
    elif named:
        notes.append('no scan topic was recorded, and {} are named like a LiDAR: set '
                     'frames.laser to the LiDAR, and laser_offset to its mount'.format(
                         ', '.join(named)))
    names: List[str] = []
    poses = []
    pose_types = (POSE_STAMPED, POSE_WITH_COVARIANCE)
    for topic in sorted(t for t, ty in first.types.items() if ty in pose_types):
        names.append(pose_name(topic, names))
        poses.append(PoseTopic(names[-1], topic, base))
    required = tuple(dict.fromkeys(f for f in (map_frame, odom, base, laser) if f))
    config = replace(first.probe, map_frame=map_frame or 'map', odom_frame=odom, base_frame=base,
                     laser_frame=laser, required_frames=required, pose_topics=tuple(poses))
    tree = audit_opened(recording, config, checks=False).audit.tree
    scanned = sorted(f.lstrip('/') for f in tree.scan_frames)
    if laser == base:
        notes.append('the scan is in {} itself (merged from several LiDARs, or re-projected '
                     'into the base frame): no LiDAR mount lies between them, so no '
                     'laser_offset is written and laser_offset is not checked'.format(base))
    elif scanned and not laser:
        notes.append('the scan is in {}, which is not below {} in the recorded tree (was '
                     '/tf_static recorded?): no LiDAR configured'.format(
                         ', '.join(scanned), base))
    moving = moving_edges(tree, base, laser) if laser else []
    apart = disputed_edges(tree, base, laser) if laser else []
    if apart:
        notes.append('{}, with values apart: the LiDAR mount has no one value, so no '
                     'laser_offset is written; keep one (parent_uniqueness)'.format(
                         '; '.join(apart)))
    if moving:
        notes.append('{} between {} and the LiDAR {} (moves over the recording): a mount is '
                     'fixed, so no laser_offset is written; chain_order says why'.format(
                         ', '.join(moving), base, laser))
    disagree = disagreeing_statics(tree)
    if disagree:
        notes.append('two static publishers disagree on {} (the first value, then the '
                     'last): {}; tf2 keeps whichever came last: check which is this '
                     "robot's".format(plural(len(disagree), 'edge'), first_of(disagree, 3)))
    measured = Measured(map_frame, odom, base, laser, laser_mount(tree, base, laser),
                        first.odom_topic, first.scan_topic,
                        [measure_pose(tree, config, pose) for pose in poses], notes,
                        laser_by_name=len(named) == 1, rooted=bool(found.note))
    return measured, config, tree
