# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Cartographer's .lua options: the frames it publishes, read as parameters with their lines.

cartographer_node takes `-configuration_directory DIR -configuration_basename FILE.lua`; the
file's `options = { map_frame = "map", published_frame = "base_link", ... }` decide its edges.
"""
import re
from typing import Dict, List, Optional

from .model import Param, Token, Where

OPTION = re.compile(r'^\s*(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(true|false)\b)', re.MULTILINE)
FLAGS = ('-configuration_directory', '-configuration_basename')


def lua_file(arguments: List[Token]) -> Optional[str]:
    """Return the path cartographer_node's arguments name, or None if they do not say."""
    values = [str(t.value) for t in arguments]
    found = {}
    for flag in FLAGS:
        for i, value in enumerate(values):
            if value == flag and i + 1 < len(values):
                found[flag] = values[i + 1]
            elif value.startswith(flag + '='):
                found[flag] = value.split('=', 1)[1]
    if len(found) < 2:
        return None
    return found[FLAGS[0]].rstrip('/') + '/' + found[FLAGS[1]]


def lua_options(text: str, file: str) -> Dict[str, Param]:
    """Return the options a cartographer .lua file sets to a string or a boolean."""
    options = {}
    for match in OPTION.finditer(text):
        name = match.group(1)
        value = match.group(4) == 'true' if match.group(4) else \
            match.group(2) if match.group(2) is not None else match.group(3)
        options[name] = Param(name, value, Where(file, text.count('\n', 0, match.start(1)) + 1))
    return options
