# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit lint: a workspace's launch, parameter and robot files checked before the car drives.

The files are read, never run, in four stages (pipeline.py):

1. collect (readers/): every launch, parameter, URDF, xacro and .lua file of the workspace.
2. plan (bringups/): the bringups, an entry launch file and what it includes, as
   `ros2 launch` would start them.
3. declare (publishers/): the tree each bringup declares, from who sends which transform.
4. judge (rules/): the rules of the registry (rules/__init__.py) over each bringup and over
   what may run together; the report uses the audit's check ids and shape, each finding at the
   file and line it concerns.
"""
from .bringups.planner import parse_arguments
from .pipeline import lint_workspace
from ..errors import LintError

__all__ = ['lint_workspace', 'LintError', 'parse_arguments']
