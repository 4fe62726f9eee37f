# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""python -m frame_audit: the frame-audit command."""
import sys

from .cli import main

sys.exit(main())
