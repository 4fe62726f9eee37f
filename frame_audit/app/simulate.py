# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""`frame-audit simulate OUT`: a drive of the simulated car, clean or with faults, recorded."""
from pathlib import Path
from typing import Dict, Optional, Sequence

from .config import command_config
from ..errors import UsageError
from ..recordings.write import write_bag
from ..sim.car import drive, FAULTS, POSE_TYPES


def faults() -> Dict[str, str]:
    """Return the faults the simulated car can have, each with what it does."""
    return dict(FAULTS)


def simulate(out: Path, duration: float, seed: int, fault_names: Sequence[str], gyro: bool,
             config_path: Optional[str]) -> None:
    """Record a simulated drive, each pose topic in the message type the car sends."""
    unknown = [name for name in fault_names if name not in FAULTS]
    if unknown:
        raise UsageError('unknown fault {}; frame-audit simulate --list-faults lists them'
                         .format(', '.join(unknown)))
    config = command_config(config_path)
    write_bag(Path(out), drive(duration, seed=seed, faults=fault_names, gyro=gyro,
                               config=config), pose_types=POSE_TYPES)
