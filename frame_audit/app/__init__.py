# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The use cases, one module each: what a command does, between reading its arguments and printing.

audit (one recording), season (many), init (a config from a good drive), diff (two cars),
simulate, demo, lint (a workspace) and monitor (the live diagnostics). Each opens its inputs
once, runs the engine, and returns something the command line prints with reports/. The layer
may import every other room (engine, recordings, reports, sim, ros, lint); only cli.py imports
it, so nothing below ever depends on how a command is put together.
"""
