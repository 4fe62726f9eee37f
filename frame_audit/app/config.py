# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The configuration a command runs with: the --config file, or the package's own."""
from dataclasses import replace
from pathlib import Path
from typing import Optional

from ..engine.config import AuditConfig, load_config
from ..installed import default_config_file


def command_config(path: Optional[str]) -> AuditConfig:
    """
    Return the config at path, or the car's (ConfigError if it cannot be used).

    Without a path the car's file is assumed, not chosen: on a recording of another robot its
    frames are not the user's claim, so their absence points to init and fails nothing.
    """
    if path:
        return load_config(Path(path))
    return replace(load_config(default_config_file()), assumed=True)
