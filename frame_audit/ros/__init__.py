# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The live side: everything that imports rclpy or a ROS message package.

The node and its intake (the topics taken in batches, each message with its sender and time),
the simulated car's node, the conversions between records and ROS messages, the terminal
monitor, the demo's live part and the launch files' checks.
"""
