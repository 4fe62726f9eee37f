# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The plan stage: which bringups run (plan.py), each followed through its includes."""
