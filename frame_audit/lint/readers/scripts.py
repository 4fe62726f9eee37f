# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Shell scripts that start launch files together: `ros2 launch a x.py &` then `ros2 launch b y.py`.

Two launch files of a workspace are alternatives unless something says they run at once. A
README listing both does not (it may list a simulator and the real car); a script does when it
puts the first in the background with `&`: both run until the script ends. A `ros2 launch` in
the foreground blocks, so what follows it (`a && b`, or the next line) starts only after it
ended: never together.
"""
from dataclasses import dataclass
import re
import shlex
from typing import List, Tuple

BACKGROUND = re.compile(r'(?<![&>|])&(?![&>])')  # `a & b`, not `a && b` nor `2>&1`


@dataclass(frozen=True)
class Together:
    """Launch files a script starts at once: each `PKG/FILE` and its arguments, and the line."""

    line: int
    launches: Tuple[Tuple[str, Tuple[str, ...]], ...]


def _launch(command: str) -> Tuple[str, Tuple[str, ...]]:
    """Return `ros2 launch PKG FILE args...` as ('PKG/FILE', args), or ('', ()) if not one."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return '', ()
    for at in range(len(words) - 3):
        if words[at:at + 2] == ['ros2', 'launch'] and ':=' not in words[at + 3]:
            return '{}/{}'.format(words[at + 2], words[at + 3]), tuple(
                w for w in words[at + 4:] if ':=' in w)
    return '', ()


def together(text: str) -> List[Together]:
    """Return each group of launch files a script runs at once (two or more)."""
    groups: List[Together] = []
    running: List[Tuple[int, Tuple[str, Tuple[str, ...]]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = BACKGROUND.split(line)
        for index, part in enumerate(parts):
            spec = _launch(part)
            if not spec[0]:
                continue
            running.append((number, spec))
            background = index < len(parts) - 1
            if not background:  # it blocks: what ran beside it ends with it
                groups += _group(running)
                running = []
    return groups + _group(running)


def _group(running: List[Tuple[int, Tuple[str, Tuple[str, ...]]]]) -> List[Together]:
    if len(running) < 2:
        return []
    return [Together(running[0][0], tuple(spec for _, spec in running))]
