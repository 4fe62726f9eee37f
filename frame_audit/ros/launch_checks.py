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
from typing import Callable, Optional

from ..engine.config import load_config
from ..errors import ConfigError, LaunchError


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
    except ConfigError as error:
        raise LaunchError('config:={}: {}; nothing was started'.format(config, error)) from None
    if is_true(aggregator) and not installed('diagnostic_aggregator'):
        raise LaunchError('aggregator:=true, but diagnostic_aggregator is not installed '
                          '(apt install ros-$ROS_DISTRO-diagnostic-aggregator); nothing was '
                          'started')


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
