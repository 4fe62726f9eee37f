# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The test files run again under other distributions' Python and rclpy (Humble, Jazzy)."""

ENGINE_TESTS = ['test/engine/test_checks.py', 'test/engine/test_engine_input.py',
                'test/engine/test_geometry.py', 'test/engine/test_config.py']
NODE_TESTS = ['test/ros/test_node.py', 'test/ros/test_intake.py', 'test/ros/test_ros_messages.py']
