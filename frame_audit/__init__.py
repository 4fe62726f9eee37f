# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""frame_audit: audits a car's coordinate frames, live and from recordings."""

__version__ = '0.1.0'
