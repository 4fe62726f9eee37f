# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Where the distributions' tf2 differ, as data: one Distro per supported distribution.

Each field is one behaviour docs/tf2.md traces to geometry2's source (file and function), so
the model's code asks a question ("does a repeated stamp get rejected?") rather than a name.
Times are integer nanoseconds, as tf2 keeps them (ros::Time's sec/nsec, ROS 2's TimePoint).
"""
from dataclasses import dataclass
import math
from typing import Dict, Tuple

from ...errors import ConfigError

NS = 1_000_000_000
MAX_S = (2 ** 63 - 1) // NS  # the latest time tf2 holds: ROS 2's int64 nanoseconds, in seconds


@dataclass(frozen=True)
class Distro:
    """How one distribution's tf2 keeps, rejects and reports transforms."""

    name: str
    ros1: bool
    # TimeCache::insertData on a stamp already held: 'reject' (ROS 1: TF_REPEATED_DATA, the
    # first value stays), 'skip_exact' (ROS 2 since #636: only an identical sample is
    # skipped; a new value at that stamp is kept beside the old one) or 'insert_all' (Humble
    # 0.25.5: every copy inserted, identical or not, without a word)
    repeated: str
    # ROS 2 prunes before inserting (#680), ROS 1 after: a new latest stamp evicts old
    # samples at once in ROS 1, only at the next insertion in ROS 2
    prune_first: bool
    # ROS 2 (#151) gives a frame a new cache when it switches between /tf and /tf_static
    static_switch_reallocates: bool
    # ROS 1 0.7.6 states the distance in its extrapolation messages ("0.32s into the future")
    states_distance: bool


DISTROS: Dict[str, Distro] = {
    'noetic': Distro('noetic', True, 'reject', False, False, True),
    'humble': Distro('humble', False, 'skip_exact', True, True, False),  # 0.25.7 on
    'jazzy': Distro('jazzy', False, 'skip_exact', True, True, False),  # 0.36.4 on
    'kilted': Distro('kilted', False, 'skip_exact', True, True, False),
    # the releases before #680 reached them (#693, #686), as their cache.cpp reads: pruned
    # after inserting, and Humble's 0.25.5 before #636 also keeping every copy
    'humble-0.25.5': Distro('humble-0.25.5', False, 'insert_all', False, True, False),
    'humble-0.25.6': Distro('humble-0.25.6', False, 'skip_exact', False, True, False),
    'jazzy-0.36.3': Distro('jazzy-0.36.3', False, 'skip_exact', False, True, False),
}
DEFAULT_DISTRO = 'kilted'  # the newest the project supports (README: Humble, Jazzy, Kilted)
DISTRO_NAMES: Tuple[str, ...] = tuple(DISTROS)


def distro(name: str) -> Distro:
    """Return the named distribution's behaviour, or a ConfigError naming the choices."""
    found = DISTROS.get(str(name).lower())
    if found is None:
        raise ConfigError('distro: {!r} is not one of {}'.format(name, ', '.join(DISTROS)))
    return found


def to_ns(seconds: float) -> int:
    """Return seconds as tf2 turns a double into a time: whole seconds, nanoseconds rounded."""
    whole = math.floor(seconds)
    return int(whole) * NS + int(math.floor((seconds - whole) * 1e9 + 0.5))


def to_s(ns: int) -> float:
    """Return nanoseconds as seconds, as tf2's timeToSec adds them up."""
    sec, nsec = divmod(ns, NS)
    return float(sec) + 1e-9 * float(nsec)


def show_time(ns: int, ros1: bool) -> str:
    """Return a time as tf2 prints it: ROS 1 sec.nnnnnnnnn, ROS 2 six decimals."""
    if ros1:
        sec, nsec = divmod(ns, NS)
        return '{}.{:09d}'.format(sec, nsec)
    return '{:.6f}'.format(to_s(ns))
