# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Recordings: rosbag2 (.mcap, .db3, folders) and ROS 1 .bag files, read, written and audited.

Everything here reads and writes through rosbags, imported only where a file is opened, so
importing the package costs nothing on a machine that only runs the node.
"""

from ..errors import BagError

__all__ = ['BagError']
