# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The simulated F1TENTH car, clean or with real faults (the demo that audits it is app.demo)."""
