# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The old path of parse_arguments, kept while cli.py imports it from here.

Transitional: once cli.py imports parse_arguments from frame_audit.lint, delete this module.
"""
from .bringups.planner import parse_arguments

__all__ = ['parse_arguments']
