# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The package's executables (frame_audit_node, frame_audit_sim), quiet from their first line.

Importing rclpy, the messages and the engine takes a quarter of a second or more, and a
Ctrl-C (or the launch's SIGINT) meanwhile is, with Python's own handler, a KeyboardInterrupt
traceback from deep in an import. Until the node's start() takes the signals over
(ros.node.start), SIGINT ends the process at once with code 0: nothing has started yet, so
there is nothing to clean up. It ends it with os._exit rather than an exception: raised
inside rclpy's C extension's initialisation, SystemExit became "ImportError: initialization
failed" and exit code 1 (1 run in 300 under load). Python's own start-up and the installed
script's look-up of this entry point come before this module and are not ours to quiet.
"""
import os
import signal
import sys
from types import FrameType
from typing import Callable, Optional, Union

SIGNALS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C and the launch's stop: end the process


def _ignore(signum: int, frame: Optional[FrameType]) -> None:
    """Do nothing: the process is ending already."""


def ignore_signals() -> None:
    """
    Ignore Ctrl-C and SIGTERM from now on: the process is ending already.

    With a handler that does nothing rather than SIG_IGN: Python reports a signal it took in
    before SIG_IGN was set ("Signal 2 ignored due to race condition") with a traceback.
    """
    for number in SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:  # an inherited ignore stays
            signal.signal(number, _ignore)


def _interrupted(signum: int, frame: Optional[FrameType]) -> None:
    """End the process quietly and at once: a Ctrl-C before anything started."""
    os._exit(0)


if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted)


def _run_then_end(main: Callable[[], None]) -> None:
    """
    Run a node's main, then end the process at once with its exit code.

    Its node and rclpy are shut down by then, in order. Python's own finalisation would give
    SIGINT its default action back (the handlers are dropped): the launch's second SIGINT,
    landing there, killed both nodes with -2 (CI, once in 817 tests).
    """
    try:
        main()
        code: Union[int, str, None] = 0
    except SystemExit as ended:
        code = ended.code
    if isinstance(code, str):  # sys.exit's one-line message
        print(code, file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def node() -> None:
    """Run frame_audit_node."""
    from .node import main
    _run_then_end(main)


def sim() -> None:
    """Run frame_audit_sim."""
    from .sim_node import main
    _run_then_end(main)
