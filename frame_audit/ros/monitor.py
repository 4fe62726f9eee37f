# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A live terminal view of frame_audit's /diagnostics, for a car without rqt.

One line per check: level, check id, message and its key numbers, redrawn as each
DiagnosticArray arrives (in colour on a terminal; one block per update when piped).
`--once` prints the first update and exits; `--duration S` watches for S seconds. Run as
`frame-audit monitor` (cli.py holds its options).
"""
import argparse
import shutil
import sys
import time
from typing import Dict, List, Optional, TextIO

from diagnostic_msgs.msg import DiagnosticArray
import rclpy
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from .messages import frame_audit_statuses, Status
from ..engine.findings import Level
from ..message_types import stamp_seconds
from ..reports.diagnostics import DIAGNOSTICS_TOPIC

KEY_NUMBERS = 4  # key-values shown per check; rqt shows them all
COLOURS = {Level.OK: '\x1b[32m', Level.WARN: '\x1b[33m', Level.ERROR: '\x1b[1;31m',
           Level.STALE: '\x1b[90m'}
RESET = '\x1b[0m'
CLEAR = '\x1b[H\x1b[2J'


def status_line(status: Status, colour: bool, width: Optional[int] = None) -> str:
    """Return one check as a line: level, check id, message, key numbers."""
    level = '{:<5}'.format(status.level.name)
    if colour:
        level = COLOURS[status.level] + level + RESET
    numbers = ' '.join('{}={}'.format(k, v) for k, v in
                       list(status.numbers().items())[:KEY_NUMBERS])
    line = '{} {:<18} {}{}'.format(level, status.check, status.message,
                                   '  [' + numbers + ']' if numbers else '')
    if width is not None:
        visible = width + (len(level) - 5)  # colour codes take no room on screen
        line = line if len(line) <= visible else line[:visible - 1] + '…'
    return line


def render(statuses: List[Status], stamp: float, colour: bool,
           width: Optional[int] = None) -> str:
    """Return the whole view: a summary line, then one line per check."""
    counts = dict.fromkeys(Level, 0)
    for status in statuses:
        counts[status.level] += 1
    hardware = statuses[0].hardware_id if statuses else '?'
    head = 'frame_audit on {} at {:.1f}: {}'.format(
        hardware, stamp, ', '.join('{} {}'.format(n, level.name) for level, n in counts.items()))
    return '\n'.join([head] + [status_line(s, colour, width) for s in statuses])


class Monitor:
    """The latest frame_audit statuses, drawn to a stream whenever an update arrives."""

    def __init__(self, out: TextIO, colour: bool):
        """Draw to out; on a terminal (colour) redraw in place, otherwise append blocks."""
        self.out = out
        self.colour = colour
        self.latest: Dict[str, Status] = {}
        self.updates = 0

    def listen(self, node: Node) -> None:
        """Subscribe node to /diagnostics, drawing each update."""
        # Best effort takes both reliable and best-effort publishers; a lost update is redrawn.
        node.create_subscription(DiagnosticArray, DIAGNOSTICS_TOPIC, self.take,
                                 QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))

    def take(self, msg: DiagnosticArray) -> None:
        """Keep the array's frame_audit statuses and redraw."""
        statuses = frame_audit_statuses(msg)
        if not statuses:
            return
        self.latest.update((s.check, s) for s in statuses)
        self.updates += 1
        width = shutil.get_terminal_size().columns if self.colour else None
        text = render(list(self.latest.values()), stamp_seconds(msg.header.stamp),
                      self.colour, width)
        self.out.write((CLEAR if self.colour else '') + text + '\n\n')
        self.out.flush()


def _deadline(args: argparse.Namespace) -> float:
    if args.once:
        return time.monotonic() + args.timeout
    if args.duration is not None:
        return time.monotonic() + args.duration
    return float('inf')


def run_monitor(args: argparse.Namespace) -> int:
    """Watch /diagnostics as args say; return 0 when updates arrived, 1 when none did."""
    colour = args.color == 'always' or (args.color == 'auto' and sys.stdout.isatty())
    monitor = Monitor(sys.stdout, colour)
    rclpy.init(args=getattr(args, 'ros_args', None))
    node = rclpy.create_node('frame_audit_monitor')
    monitor.listen(node)
    deadline = _deadline(args)
    try:
        while time.monotonic() < deadline and not (args.once and monitor.updates):
            rclpy.spin_once(node, timeout_sec=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    if not monitor.updates:
        print('frame-audit monitor: no frame_audit diagnostics on {}'.format(DIAGNOSTICS_TOPIC),
              file=sys.stderr)
        return 1
    return 0
