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
from typing import Dict, List, Optional, Tuple, Union

from .install import source_file
from ..model import Param, Token, Where

OPTION = re.compile(r'^\s*(?:options\.)?(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(true|false)\b)',
                    re.MULTILINE)
INCLUDE = re.compile(r'^\s*include\s+["\']([^"\']+)["\']', re.MULTILINE)
FLAGS = ('-configuration_directory', '-configuration_basename')
MAX_INCLUDES = 10
FRAME_OPTIONS = ('map_frame', 'published_frame', 'odom_frame', 'provide_odom_frame')


def lua_file(arguments: List[Token]) -> Union[Tuple[str, str], str]:
    """Return the (folder, file name) cartographer_node's arguments name, else which is not."""
    values = [t.value for t in arguments]
    found: Dict[str, object] = {}
    for flag in FLAGS:
        for i, value in enumerate(values):
            if value == flag and i + 1 < len(values):
                found[flag] = values[i + 1]
            elif isinstance(value, str) and value.startswith(flag + '='):
                found[flag] = value.split('=', 1)[1]
    for flag in FLAGS:
        if flag not in found:
            return 'its arguments give no {}'.format(flag)
        if not isinstance(found[flag], str):
            return 'its argument {} is {}, known only when the launch runs'.format(
                flag, found[flag])
    return str(found[FLAGS[0]]), str(found[FLAGS[1]])


def lua_options(folder: Path, name: str, root: Path, depth: int = 0,
                read: Optional[Dict[str, Dict[str, Param]]] = None) -> Dict[str, Param]:
    """
    Return the options a .lua file sets (a string or a boolean), its includes first.

    cartographer_node looks for an include in the configuration folder, then in cartographer's
    own (map_builder.lua, trajectory_builder.lua: no frame options): only the first is read.
    Each file is read once (read): a file included 20 times by each of its includes costs one
    reading, not 20 to the power of the depth.
    """
    path = folder / name
    file = source_file(path, root)
    read = {} if read is None else read
    if file is None or depth > MAX_INCLUDES:
        return {}
    if file in read:
        return read[file]
    read[file] = {}  # a file that includes itself: nothing more from it
    try:
        text = (root / file).read_text(encoding='utf-8', errors='replace')
    except OSError:
        return {}
    options: Dict[str, Param] = {}
    for included in INCLUDE.findall(text):
        options.update(lua_options(folder, included, root, depth + 1, read))
    for match in OPTION.finditer(text):
        option = match.group(1)
        value = match.group(4) == 'true' if match.group(4) else \
            match.group(2) if match.group(2) is not None else match.group(3)
        options[option] = Param(option, value,
                                Where(file, text.count('\n', 0, match.start(1)) + 1))
    read[file] = options
    return options
