# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The live tests' shared fixtures: one private DDS domain and rclpy with a listener."""
from test_node import env, graph  # noqa: F401  (fixtures, found by name)
