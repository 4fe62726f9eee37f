# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Gazebo's transforms as ROS hears them: what ros_gz_bridge's parameter_bridge carries onto /tf.

A Gazebo (gz sim) drive system publishes its odometry's transform on a Gazebo topic, never on
ROS's /tf: only a bridge of that topic as tf2_msgs/msg/TFMessage, from Gazebo to ROS, puts it
in the tree. The bridge is read as ros_gz_bridge reads itself (its parameter_bridge.cpp and
bridge_config.cpp): `topic@ros_type[gz_type` arguments (`[` Gazebo to ROS, `@` both ways, `]`
ROS to Gazebo) and a `config_file` YAML list (`topic_name`, or `ros_topic_name` and
`gz_topic_name`, each the other's default; `direction`, BIDIRECTIONAL by default), its ROS
names resolved in the node's namespace and remapped.
"""
from pathlib import Path
from typing import Any, List, Optional, Tuple, Union

import yaml

from ..model import LaunchedNode, Unresolved
from ..readers.install import build_file, source_file
from ..readers.markup import load_yaml

BRIDGES = ('ros_gz_bridge', 'ros_ign_bridge')
TF_TYPE = 'tf2_msgs/msg/TFMessage'
FROM_GAZEBO = ('BIDIRECTIONAL', 'GZ_TO_ROS')


def is_gz_bridge(node: LaunchedNode) -> bool:
    """Return whether a launched node is ros_gz_bridge's parameter_bridge."""
    return node.executable == 'parameter_bridge' and node.package in BRIDGES


def gz_topic(topic: str) -> str:
    """Return a Gazebo topic as Gazebo Transport names it: `tf` is `/tf`."""
    return '/' + topic.lstrip('/')


def _ros_topic(topic: str, node: LaunchedNode,
               remappings: List[Tuple[Any, Any]]) -> Optional[str]:
    """Return a bridge entry's ROS topic, in the node's namespace, remapped (None: unknown)."""
    resolved = node.resolved(topic)
    for source, target in remappings:
        if isinstance(source, str) and source in (topic, resolved):
            return ('/' + target.lstrip('/')) if isinstance(target, str) else None
    return resolved


def _arguments(node: LaunchedNode) -> Tuple[List[Any], List[Any], List[Tuple[Any, Any]]]:
    """Split a bridge's arguments: bridge specs, config_file values, `-r a:=b` remappings."""
    specs: List[Any] = []
    configs: List[Any] = []
    remaps: List[Tuple[Any, Any]] = []
    words = [token.value for token in node.arguments]
    ros_args = False
    for at, word in enumerate(words):
        if word == '--ros-args':
            ros_args = True
        elif word == '--':
            ros_args = False
        elif ros_args and at and words[at - 1] in ('-p', '--param', '-r', '--remap'):
            pair = word.split(':=', 1) if isinstance(word, str) and ':=' in word else None
            if words[at - 1] in ('-r', '--remap'):
                remaps.append((pair[0], pair[1]) if pair else (word, Unresolved(str(word))))
            elif pair and pair[0] == 'config_file':
                configs.append(pair[1])
            elif not isinstance(word, str):
                configs.append(word)  # a parameter only the launch knows may be the file
        elif not ros_args and word not in ('-p', '--param', '-r', '--remap'):
            specs.append(word)
    return specs, configs, remaps


def _spec_topic(spec: str) -> Optional[str]:
    """Return the topic of a `topic@ros_type[gz_type` (or `@`) carrying TF from Gazebo."""
    topic, _, rest = spec.partition('@')
    for mark in ('@', '[', ']'):  # both ways, Gazebo to ROS, ROS to Gazebo
        ros_type, found, _ = rest.partition(mark)
        if found and ros_type == TF_TYPE:
            return topic if mark != ']' else None
    return None


def _entries(document: Any) -> Union[List[Tuple[str, str]], str]:
    """Return a bridge config's (gz topic, ros topic) pairs carrying TF from Gazebo to ROS."""
    if not isinstance(document, list):
        return 'its top level is no YAML sequence (ros_gz_bridge bridges nothing from it)'
    found = []
    for entry in document:
        if not isinstance(entry, dict) or entry.get('ros_type_name') != TF_TYPE:
            continue
        if str(entry.get('direction', 'BIDIRECTIONAL')) not in FROM_GAZEBO:
            continue
        both = entry.get('topic_name')
        gz, ros = entry.get('gz_topic_name') or both, entry.get('ros_topic_name') or both
        if gz or ros:
            found.append((str(gz or ros), str(ros or gz)))
    return found


def onto_tf(node: LaunchedNode, root: Path) -> Union[Tuple[str, ...], str]:
    """Return the Gazebo topics a bridge carries onto ROS's /tf; else why the lint cannot tell."""
    specs, configs, remaps = _arguments(node)
    pairs: List[Tuple[str, str]] = []
    for spec in specs:
        if not isinstance(spec, str):
            return 'its argument {} is known only when the launch runs'.format(spec)
        carried = _spec_topic(spec)
        if carried is not None:
            pairs.append((carried, carried))
    inline = node.inline.get('config_file')  # as a parameter written in the launch
    for config in configs + ([inline.value] if inline is not None else []):
        why = _config_pairs(config, root, pairs)
        if why:
            return why
    topics = []
    for gz, ros in pairs:
        resolved = _ros_topic(ros, node, list(node.remappings) + remaps)
        if resolved is None:
            return 'the ROS topic of its bridge of {} is known only when the launch ' \
                'runs'.format(gz)
        if resolved == '/tf':
            topics.append(gz_topic(gz))
    return tuple(sorted(set(topics)))


def _config_pairs(config: Any, root: Path, pairs: List[Tuple[str, str]]) -> str:
    """Add a config file's TF bridges to pairs; return why it cannot be read ('' if read)."""
    if not isinstance(config, str):
        return 'its config_file is {}, known only when the launch runs'.format(config)
    file = source_file(config, root)
    text = build_file(root / file) if file is not None else None
    if file is None or text is None:
        return 'its config_file {} is not a file of the workspace'.format(config)
    try:
        found = _entries(load_yaml(text))
    except (yaml.YAMLError, ValueError, RecursionError) as error:
        return 'its config_file {} cannot be read ({})'.format(file, type(error).__name__)
    if isinstance(found, str):
        return 'its config_file {}: {}'.format(file, found)
    pairs.extend(found)
    return ''


def same_topic(published: Optional[str], carried: str) -> bool:
    """
    Return whether a system's Gazebo topic is the one a bridge carries.

    A system with no tf_topic publishes on /model/<model>/tf: any bridge of such a topic may be
    its own.
    """
    if published is None:
        parts = gz_topic(carried).split('/')
        return len(parts) == 4 and parts[1] == 'model' and parts[3] == 'tf'
    return gz_topic(published) == gz_topic(carried)
