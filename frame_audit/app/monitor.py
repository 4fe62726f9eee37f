# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""`frame-audit monitor`: the live /diagnostics in the terminal, through rclpy."""
import argparse


def monitor(args: argparse.Namespace) -> int:
    """Watch frame_audit's /diagnostics as the command's options say; return the exit code."""
    from ..ros.monitor import run_monitor  # rclpy loads only for this command

    return run_monitor(args)
