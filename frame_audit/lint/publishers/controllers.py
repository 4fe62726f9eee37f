# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
ros2_control's controllers: each one a spawner starts, with its type and its parameters.

A controller is no node a launch file starts: a spawner names it, the controller manager's
parameter file gives its type (`controller_manager: <name>: type:`) and a block of its own name
its parameters. Read so, a diff_drive_controller is a publisher the table knows (its odometry
sends odom → base_link unless enable_odom_tf is false), and its frames are frame parameters.
"""
from typing import Dict, Iterator, List, Mapping, Sequence, Tuple

from ..model import LaunchedNode, NodeParams, Param, ParamBlock
from ..readers.params import node_name

MANAGER = ('ros2_control_node',)  # the controller manager as a launch file starts it
SPAWNERS = ('spawner', 'spawner.py')
# spawner options followed by a value that is not a controller's name
VALUED = ('-c', '--controller-manager', '-p', '--param-file', '-t', '--controller-type', '-n',
          '--namespace', '--controller-manager-timeout', '--switch-timeout',
          '--service-call-timeout')


def spawned_controllers(launched: Sequence[LaunchedNode],
                        blocks: Mapping[str, List[ParamBlock]],
                        simulated: Sequence[str] = ()) -> List[Tuple[LaunchedNode, NodeParams]]:
    """
    Return each controller a spawner starts whose type the manager's files give, with its spawner.

    The manager's files are those passed to ros2_control_node, and simulated: those a Gazebo
    plugin in the robot description loads. Its parameters are the blocks of its name (and
    '/**') in those files; a spawner in a namespace (its frames may be prefixed) or a
    controller of no known type is left out.
    """
    files = [path for node in launched if node.executable in MANAGER
             for path, _ in node.param_files if isinstance(path, str)] + list(simulated)
    types = _types(files, blocks)
    found = []
    for spawner in launched:
        if spawner.executable not in SPAWNERS or spawner.namespace:
            continue
        for name in spawner_names(spawner):
            if name in types:
                params: Dict[str, Param] = {}
                for block in _blocks(files, blocks):
                    if node_name(block.node) in (name, '**'):
                        params.update(block.params)
                found.append((spawner, NodeParams(name, (name, str(types[name].value)), params,
                                                  types[name].where)))
    return found


def undeclared_controllers(launched: Sequence[LaunchedNode],
                           blocks: Mapping[str, List[ParamBlock]]
                           ) -> List[Tuple[LaunchedNode, str, List[str], List[str]]]:
    """
    Return each controller a spawner names that the manager's files give no type.

    The controller manager loads a controller by its `<name>.type` parameter: without one,
    the spawner's load fails and the controller never runs (what it would send never comes).
    Judged only where every manager of the bringup has its files read and gets no other
    parameters, and the spawner names no type or file of its own (-t, -p).
    Returns (spawner, name, the types declared, the manager's files).
    """
    managers = [node for node in launched if node.executable in MANAGER]
    files = [path for node in managers for path, _ in node.param_files]
    if not managers or not files or not all(isinstance(path, str) and path in blocks
                                            for path in files) \
            or any(set(node.inline) - {'robot_description', 'use_sim_time'} for node in managers):
        return []
    declared = sorted(_types([str(path) for path in files], blocks))
    return [(spawner, name, declared, [str(path) for path in files])
            for spawner in launched if spawner.executable in SPAWNERS and not spawner.namespace
            and not any(t.value in ('-t', '--controller-type', '-p', '--param-file')
                        for t in spawner.arguments)
            for name in spawner_names(spawner) if name not in declared]


def _blocks(files: Sequence[str], blocks: Mapping[str, List[ParamBlock]]
            ) -> Iterator[ParamBlock]:
    for path in files:
        yield from blocks.get(path, [])


def _types(files: Sequence[str], blocks: Mapping[str, List[ParamBlock]]) -> Dict[str, Param]:
    """Return controller name → its `type` parameter in the controller manager's block."""
    return {name[:-len('.type')]: param for block in _blocks(files, blocks)
            if node_name(block.node) == 'controller_manager'
            for name, param in block.params.items() if name.endswith('.type')}


def spawner_names(spawner: LaunchedNode) -> List[str]:
    """Return the controllers a spawner's arguments name (not its options' values)."""
    names, skip = [], False
    for token in spawner.arguments:
        value = token.value
        if value == '--ros-args':
            break  # the rest is the spawner's own ROS arguments
        if skip or not isinstance(value, str):
            skip = False
            continue
        if value.startswith('-'):
            skip = value in VALUED
            continue
        names.append(value)
    return names
