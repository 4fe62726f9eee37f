# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The demo: a simulated car audited live over DDS, healthy then faulty, then the same drive offline.

Live needs rclpy (the wheels scripts/setup.sh installs, or a sourced ROS 2); without it the demo
shows the offline part alone. Everything runs on this machine, on a ROS domain of its own. A use
case: it drives the simulator (sim), the node (ros), the writer (recordings) and the audit.
"""
from pathlib import Path
import sys
import tempfile
from typing import Sequence

from .audit import audit_recording
from .config import command_config
from ..engine.config import AuditConfig
from ..recordings.write import write_bag
from ..reports.report import Report, to_text
from ..sim.car import POSE_TYPES, SimulatedCar

FAULTS = ('pf_rear_axle', 'odom_two_parents')
SEED = 1
LINE = '=' * 78


def banner(text: str) -> None:
    """Print a section's title between two rules."""
    print('\n'.join((LINE, text, LINE)), flush=True)


def record_drive(path: Path, duration_s: float, faults: Sequence[str], fault_after_s: float,
                 config: AuditConfig) -> None:
    """Record the drive the live demo shows: healthy, with faults switched on after a while."""
    car = SimulatedCar(SEED, (), False, config)

    def messages():
        yield from car.advance(car.start_time + fault_after_s)
        for name in faults:
            car.enable_fault(name)
        yield from car.advance(car.start_time + duration_s)

    write_bag(path, messages(), pose_types=POSE_TYPES)


def offline_report(path: Path, config: AuditConfig) -> Report:
    """Audit a recording; return its report."""
    return audit_recording(path, config).report()


def live_available() -> bool:
    """Return whether rclpy and the generated messages import here."""
    try:
        import rclpy  # noqa: F401
        import tf2_msgs.msg  # noqa: F401
    except ImportError:
        return False
    return True


def run_demo(duration_s: float, live: bool, colour: bool) -> None:
    """Run the demo: live if it can, then the healthy and the faulty drive offline."""
    fault_after_s = min(10.0, duration_s / 2)
    if live and live_available():
        from ..ros.live_demo import demo_live
        demo_live(fault_after_s, duration_s - fault_after_s, FAULTS, SEED, colour, banner)
    elif live:
        print('(rclpy is not available here: the live part is skipped; scripts/demo.sh sets '
              'it up)')
    config = command_config(None)
    with tempfile.TemporaryDirectory(prefix='frame_audit_demo_') as folder:
        for title, name, faults in (
                ('a healthy car', 'healthy.mcap', ()),
                ('the same drive with faults from {:.0f} s: {}'.format(
                    fault_after_s, ', '.join(FAULTS)), 'faulty.mcap', FAULTS)):
            path = Path(folder) / name
            record_drive(path, duration_s, faults, fault_after_s, config)
            banner('Offline: frame-audit audit {} ({:.0f} s recording of {})'.format(
                name, duration_s, title))
            sys.stdout.write(to_text(offline_report(path, config), colour))
