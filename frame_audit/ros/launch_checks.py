# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the launch files check before they start anything, so a launch fails loudly and cleanly.

Kept apart from the launch files (and from launch itself) so the checks are tested where
launch is not installed: a missing or wrong config file, or an aggregator asked for and not
installed, stops the launch with one line before any node starts; a node that exits at start
makes the launch exit non-zero, as the car's bringup needs to see.
"""
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Tuple

from ..engine.config import load_config
from ..errors import ConfigError, LaunchError

# rcl_yaml_param_parser's words for true and false, in a plain (unquoted) scalar
RCL_BOOLS = {word for base in ('y', 'yes', 'n', 'no', 'true', 'false', 'on', 'off')
             for word in (base, base.capitalize(), base.upper())}


def is_true(value: str) -> bool:
    """Return a launch argument's truth, as launch's IfCondition reads it."""
    return value.strip().lower() in ('true', '1')


def check_bringup(config: str, aggregator: str,
                  installed: Callable[[str], bool]) -> None:
    """Refuse to start with a config that cannot be read, or a missing aggregator."""
    if not Path(config).is_file():
        raise LaunchError('config:={}: no such file; nothing was started'.format(config))
    try:
        load_config(Path(config))
        problem = rcl_problem(Path(config).read_text(encoding='utf-8'))
    except ConfigError as error:
        raise LaunchError('config:={}: {}; nothing was started'.format(config, error)) from None
    if problem:
        raise LaunchError('config:={}: {}; nothing was started'.format(config, problem))
    if is_true(aggregator) and not installed('diagnostic_aggregator'):
        raise LaunchError('aggregator:=true, but diagnostic_aggregator is not installed '
                          '(apt install ros-$ROS_DISTRO-diagnostic-aggregator); nothing was '
                          'started')


def check_sim(seed: str, fault_after_s: str) -> None:
    """
    Refuse the simulator's numbers before it starts, each named by its launch argument.

    launch_ros converts a typed parameter with int() or float() itself, and its error names
    neither the argument nor the value's meaning ("invalid literal for int() with base 10").
    """
    try:
        int(seed)
    except ValueError:
        raise LaunchError('seed:={}: expected a whole number; nothing was started'.format(
            seed)) from None
    try:
        after = float(fault_after_s)
    except ValueError:
        after = float('nan')
    if not after >= 0.0 or after == float('inf'):
        raise LaunchError('fault_after_s:={}: expected seconds, a number of at least 0; '
                          'nothing was started'.format(fault_after_s))


def rcl_kind(node: Any) -> str:
    """Return the type rcl gives a YAML scalar: bool, integer, double or string."""
    text = node.value
    if node.style in ('"', "'"):
        return 'string'
    if text in RCL_BOOLS:
        return 'bool'
    for kind, parse in (('integer', int), ('double', float)):
        try:
            parse(text)
            return kind
        except ValueError:
            pass
    return 'string'


def _sequences(node: Any, key: str = '') -> Iterator[Tuple[str, Any]]:
    """Yield every sequence in a composed YAML document with its dotted key."""
    import yaml
    if isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            yield from _sequences(value, '{}.{}'.format(key, name.value) if key else name.value)
    elif isinstance(node, yaml.SequenceNode):
        yield key, node


def rcl_problem(text: str) -> Optional[str]:
    """
    Return why rcl cannot read a parameters file that PyYAML reads, None if it can.

    rcl types each scalar on its own (PyYAML reads `1e-3` as text, rcl as a double) and
    wants a list of one type: `translation: [0.26, 0, 0.11]` mixes a double and an integer,
    and the node would die at start with rcl's parse error.
    """
    import yaml
    for key, sequence in _sequences(yaml.compose(text)):
        if not all(isinstance(item, yaml.ScalarNode) for item in sequence.value):
            return '{}: a list of lists or mappings, which ROS parameters cannot hold'.format(
                key.split('ros__parameters.', 1)[-1])
        kinds = [rcl_kind(item) for item in sequence.value]
        if len(set(kinds)) > 1:
            odd = next(i for i, kind in enumerate(kinds) if kind != kinds[0])
            hint = '; write every number with a decimal point' if {kinds[0], kinds[odd]} == {
                'integer', 'double'} else ''
            return '{}: [{}] mixes {} and {} ({!r}): ROS reads one type per list{}'.format(
                key.split('ros__parameters.', 1)[-1],
                ', '.join(item.value for item in sequence.value), kinds[0], kinds[odd],
                sequence.value[odd].value, hint)
    return None


def failed_at_start(name: str, returncode: Optional[int]) -> Optional[str]:
    """Return why the launch must fail when a node exited on its own with an error."""
    if returncode is None or returncode <= 0:  # 0, or stopped by a signal at shutdown
        return None
    return '{} exited with code {} (its error is above); the launch fails with it'.format(
        name, returncode)


def package_installed(name: str) -> bool:
    """Return whether a ROS package is in the ament index."""
    from ament_index_python.packages import get_package_share_directory, PackageNotFoundError
    try:
        get_package_share_directory(name)
    except PackageNotFoundError:
        return False
    return True
