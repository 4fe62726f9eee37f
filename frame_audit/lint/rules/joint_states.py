# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Two publishers of /joint_states in one bringup: joint_state_publisher beside ros2_control's.

robot_state_publisher places each movable joint from the last JointState it received. The
joint_state_broadcaster publishes the measured positions; joint_state_publisher (and its _gui)
publishes its own on the same topic (the URDF's defaults, 0 for a free joint, or the GUI's
sliders), so the wheels and arms jump between the two. joint_state_publisher's source_list only
subscribes: it then republishes the latest values it received there, so a source_list holding
the broadcaster's topic makes the two agree.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence

import yaml

from ..model import are_exclusive, LaunchedNode, ParamBlock
from ..publishers.controllers import spawner_names, SPAWNERS
from ..publishers.parameters import node_params
from ..readers.params import node_name
from ...engine.check_ids import LINT_NODES
from ...engine.findings import Finding, Level

JSP = ('joint_state_publisher', 'joint_state_publisher_gui')
BROADCASTER = 'joint_state_broadcaster'
BROADCASTER_TYPE = 'joint_state_broadcaster/JointStateBroadcaster'
TOPIC = 'joint_states'


def _published(node: LaunchedNode) -> Optional[str]:
    """Return the topic joint_state_publisher publishes on (its remapping), None if unknown."""
    for source, target in node.remappings:
        if isinstance(source, str) and source.lstrip('~/') == TOPIC:
            return node.resolved(target) if isinstance(target, str) else None
    return node.resolved(TOPIC)


def broadcaster_types(blocks: Mapping[str, List[ParamBlock]]) -> Dict[str, str]:
    """Return controller name → type, from every controller_manager block in the workspace."""
    return {name[:-len('.type')]: param.value for found in blocks.values() for block in found
            if node_name(block.node) == 'controller_manager'
            for name, param in block.params.items() if name.endswith('.type')}


def _broadcasters(launched: Sequence[LaunchedNode], types: Mapping[str, str]) -> List[tuple]:
    """Return (spawner, controller name) for each joint_state_broadcaster a spawner starts."""
    return [(spawner, name) for spawner in launched if spawner.executable in SPAWNERS
            for name in spawner_names(spawner)
            if types.get(name, BROADCASTER if name == BROADCASTER else '') in (
                BROADCASTER, BROADCASTER_TYPE)]


def _sources(node: LaunchedNode,
             blocks: Mapping[str, List[ParamBlock]]) -> List[Optional[str]]:
    """Return joint_state_publisher's source_list as its files and launch give it."""
    (params,) = node_params([node], blocks)
    param = params.params.get('source_list')
    value = param.value if param is not None else []
    if isinstance(value, str):  # an XML launch's value="['/joint_states']", as launch_ros reads it
        value = _listed(value)
    # None: a relative topic under a namespace only the launch knows
    return [node.resolved(v) for v in value if isinstance(v, str)] \
        if isinstance(value, list) else []


def _listed(text: str) -> List[Any]:
    """Return a string array written as launch XML text: a YAML list, or one string."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    return value if isinstance(value, list) else [text]


def two_joint_state_publishers(launched: Sequence[LaunchedNode],
                               blocks: Mapping[str, List[ParamBlock]]) -> List[Finding]:
    """Report joint_state_publisher started with a joint_state_broadcaster on one topic."""
    types = broadcaster_types(blocks)
    findings = []
    for jsp in (n for n in launched if n.executable in JSP):
        topic = _published(jsp)
        for spawner, name in _broadcasters(launched, types):
            if topic is None or topic != spawner.resolved(TOPIC) \
                    or are_exclusive(jsp.branch, spawner.branch) or topic in _sources(jsp, blocks):
                continue
            findings.append(Finding(
                LINT_NODES, Level.WARN,
                '{}: {}{} and the {} {} the spawner at {} starts both publish {}: '
                'robot_state_publisher places each joint from whichever came last, so the '
                "joints jump between the broadcaster's measured positions and {}'s own (the "
                "URDF's defaults or its sliders). Start {} only without ros2_control (a "
                'condition on the flag that starts the controllers), or give it source_list: '
                "['{}'] to republish the broadcaster's values".format(
                    jsp.where, jsp.label(), '' if jsp.label() == jsp.executable else
                    ' ({})'.format(jsp.executable), BROADCASTER, name, spawner.where,
                    topic, jsp.executable, jsp.executable, topic),
                'joint_states:{}:{}'.format(jsp.where, spawner.where),
                values=jsp.where.values()))
    return findings
