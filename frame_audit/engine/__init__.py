# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The audit engine: the transform store, lookups, the checks and their findings.

Pure: numpy and the standard library only (PyYAML where a config file is read). It never
imports rclpy, a message package or rosbags (test_engine_purity.py holds it to that): the
live node (frame_audit.ros) and the recordings (frame_audit.recordings) are thin adapters
that hand it engine.records and read back engine.findings.
"""
