# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Cartographer's .lua options: the frames it publishes, read as parameters with their lines.

cartographer_node takes `-configuration_directory DIR -configuration_basename FILE.lua`; the
file's `options = { map_frame = "map", published_frame = "base_link", ... }` (or `options.x =`
lines, or a file it includes) decide its edges. They have no defaults in cartographer's code.
"""
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .install import source_file
from ..model import Param, Token, Where

OPTION = re.compile(r'^\s*(?:options\.)?(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(true|false)\b)',
                    re.MULTILINE)
INCLUDE = re.compile(r'^\s*include\s+["\']([^"\']+)["\']', re.MULTILINE)
FLAGS = ('-configuration_directory', '-configuration_basename')
MAX_INCLUDES = 10
FRAME_OPTIONS = ('map_frame', 'published_frame', 'odom_frame', 'provide_odom_frame')


def lua_file(arguments: List[Token]) -> Optional[Tuple[str, str]]:
    """Return the (folder, file name) cartographer_node's arguments name, or None."""
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
    return found[FLAGS[0]], found[FLAGS[1]]


def lua_options(folder: Path, name: str, root: Path, depth: int = 0) -> Dict[str, Param]:
    """
    Return the options a .lua file sets (a string or a boolean), its includes first.

    cartographer_node looks for an include in the configuration folder, then in cartographer's
    own (map_builder.lua, trajectory_builder.lua: no frame options): only the first is read.
    """
    path = folder / name
    file = source_file(path, root)
    if file is None or depth > MAX_INCLUDES:
        return {}
    try:
        text = (root / file).read_text(encoding='utf-8', errors='replace')
    except OSError:
        return {}
    options: Dict[str, Param] = {}
    for included in INCLUDE.findall(text):
        options.update(lua_options(folder, included, root, depth + 1))
    for match in OPTION.finditer(text):
        option = match.group(1)
        value = match.group(4) == 'true' if match.group(4) else \
            match.group(2) if match.group(2) is not None else match.group(3)
        options[option] = Param(option, value,
                                Where(file, text.count('\n', 0, match.start(1)) + 1))
    return options
