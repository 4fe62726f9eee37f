# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The configuration a command runs with: the --config file, or the package's own."""
from pathlib import Path
from typing import Optional

from ..engine.config import AuditConfig, load_config
from ..installed import default_config_file


def command_config(path: Optional[str]) -> AuditConfig:
    """Return the config at path, or the default one (ConfigError if it cannot be used)."""
    return load_config(Path(path) if path else default_config_file())
