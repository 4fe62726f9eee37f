# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Cartographer's .lua options: the frames it publishes, read as parameters with their lines.

cartographer_node takes `-configuration_directory DIR -configuration_basename FILE.lua`; the
file's `options = { map_frame = "map", published_frame = "base_link", ... }` (or `options.x =`
lines, or a file it includes) decide its edges. They have no defaults in cartographer's code.
"""
from dataclasses import dataclass, field
from pathlib import Path
import re
from typing import Dict, List, Optional, Tuple, Union

from .install import source_file
from ..model import Param, Token, Where

OPTION = re.compile(r'^[ \t]*(?:options\.)?(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(true|false)\b)',
                    re.MULTILINE)
INCLUDE = re.compile(r'^[ \t]*include\s+["\']([^"\']+)["\']', re.MULTILINE)
FLAGS = ('-configuration_directory', '-configuration_basename')
MAX_INCLUDES = 10
FRAME_OPTIONS = ('map_frame', 'published_frame', 'odom_frame', 'provide_odom_frame')


def lua_file(arguments: List[Token]) -> Union[Tuple[str, str], str]:
    """Return the (folder, file name) cartographer_node's arguments name, else which is not."""
    # gflags takes --flag as -flag: one spelling
    values = [t.value[1:] if isinstance(t.value, str) and t.value.startswith('--') else t.value
              for t in arguments]
    found: Dict[str, object] = {}
    for flag in FLAGS:
        for i, value in enumerate(values):
            if value == flag and i + 1 < len(values):
                found[flag] = values[i + 1]
            elif isinstance(value, str) and value.startswith(flag + '='):
                found[flag] = value.split('=', 1)[1]
    unknown = [str(value) for value in values if not isinstance(value, str)]
    for flag in FLAGS:
        if flag not in found and unknown:  # a list changed in place, a variable: not "none"
            return 'its arguments hold {}, known only when the launch runs (whether they ' \
                'give {} cannot be known)'.format(' and '.join(unknown), flag)
        if flag not in found:
            return 'its arguments give no {}'.format(flag)
        if not isinstance(found[flag], str):
            return 'its argument {} is {}, known only when the launch runs'.format(
                flag, found[flag])
    return str(found[FLAGS[0]]), str(found[FLAGS[1]])


@dataclass
class LuaOptions:
    """
    What cartographer makes of a .lua file: the options set, or the include it stops at.

    twice: the file included twice and the two routes of includes (from the top file) that
    reach it, the first taken first; cartographer's
    LuaInclude refuses a file it has included before (LOG(FATAL) "Tried to include ... twice"),
    whether by a cycle or by two files that both include it.
    """

    options: Dict[str, Param] = field(default_factory=dict)
    twice: Optional[Tuple[str, Tuple[Where, ...], Tuple[Where, ...]]] = None


def lua_options(folder: Path, name: str, root: Path) -> LuaOptions:
    """
    Return the options a .lua file sets (a string or a boolean), its includes first.

    cartographer_node looks for an include in the configuration folder, then in cartographer's
    own (map_builder.lua, trajectory_builder.lua: no frame options): only the first is read.
    The includes run as cartographer runs them, each file at most once: a second include of
    one file stops it (and the reading), so a file included 20 times costs one reading.
    """
    found = LuaOptions()
    found.options = _read(folder, name, root, found, {}, ())
    return found


def _read(folder: Path, name: str, root: Path, found: LuaOptions,
          included: Dict[str, Tuple[Where, ...]], route: Tuple[Where, ...]) -> Dict[str, Param]:
    """Return the options of one file and its includes; found.twice once one is refused."""
    file = source_file(folder / name, root)
    if file is None or len(route) > MAX_INCLUDES:
        return {}
    try:
        text = (root / file).read_text(encoding='utf-8', errors='replace')
    except OSError:
        return {}
    options: Dict[str, Param] = {}
    for match in INCLUDE.finditer(text):
        here = route + (Where(file, _line(text, match.start(1))),)
        target = match.group(1)
        key = source_file(folder / target, root) or target  # cartographer's own, by name
        if key in included:
            found.twice = (target, included[key], here)
            return options
        included[key] = here
        options.update(_read(folder, target, root, found, included, here))
        if found.twice:
            return options
    for match in OPTION.finditer(text):
        option = match.group(1)
        value = match.group(4) == 'true' if match.group(4) else \
            match.group(2) if match.group(2) is not None else match.group(3)
        options[option] = Param(option, value, Where(file, _line(text, match.start(1))))
    return options


def _line(text: str, at: int) -> int:
    """Return the line (from 1) of a character of the text."""
    return text.count('\n', 0, at) + 1
