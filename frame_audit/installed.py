# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Where the package's own files are: ament's share folder where it is installed, else the source.

Kept out of the engine, which is pure: finding an installed package asks ament_index_python,
a ROS package.
"""
from pathlib import Path
from typing import List

from .errors import ConfigError

PACKAGE = 'frame_audit'


def default_config_file() -> Path:
    """Return the package's config/frame_audit.yaml, installed or in the source tree."""
    source_tree = Path(__file__).resolve().parents[1]
    candidates: List[Path] = [source_tree / 'config' / 'frame_audit.yaml']
    try:
        from ament_index_python.packages import get_package_share_directory
        candidates.insert(0, Path(get_package_share_directory(PACKAGE)) / 'config'
                          / 'frame_audit.yaml')
    except (ImportError, LookupError, ValueError):
        pass
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ConfigError('config/frame_audit.yaml not found (looked in {})'.format(
        ', '.join(str(c) for c in candidates)))
