# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live side: everything that imports rclpy or a ROS message package.

The node, the simulated car's node, the conversions between records and ROS messages, the
terminal monitor and the demo's live part.
"""
