# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Every error a user can cause, under one base, each with its exit code.

The command line catches FrameAuditError once, prints its one line and exits with its
exit_code. The node (a ROS process, whose exit code launch reads as failed or not) stops with
its own one line and exit 1 on a ConfigError; the launch files print a LaunchError's line and
start nothing. Everything else is a bug and keeps its traceback. Errors a module raises and
catches itself (the lint's xacro child's ExpandError) stay its own. Pure: the engine imports
this module.
"""

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2


class FrameAuditError(Exception):
    """An input or argument the tool cannot use, said in one line."""

    exit_code = EXIT_UNUSABLE


class UsageError(FrameAuditError):
    """A command-line argument that cannot be used (a wrong suffix, a missing OUT)."""


class ConfigError(FrameAuditError, ValueError):
    """A configuration value that is missing, of the wrong type or out of range."""


class BagError(FrameAuditError):
    """A recording that cannot be read or written, with a one-line reason."""


class MeasureError(FrameAuditError, ValueError):
    """The recording does not show the robot's frames well enough to describe it."""


class LintError(FrameAuditError):
    """A workspace the lint cannot read at all (a missing folder, no files)."""


class PictureError(FrameAuditError):
    """The tree picture cannot be made (unknown format, Graphviz missing)."""


class LaunchError(FrameAuditError):
    """A launch that must not start: launch prints the one line and exits non-zero."""
