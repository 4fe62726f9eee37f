# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Recordings on disk: rosbag2 (.mcap, .db3, folders) and ROS 1 .bag files, read and written.

File I/O only: read (records out of a recording), recover (an MCAP cut short), write (records
into one), diagnostics (a /diagnostics recording) and find (recordings under folders). The
audit of a recording is a use case (app/audit.py); this package imports the engine's records
and nothing above them. Everything here reads and writes through rosbags, imported only where
a file is opened, so importing the package costs nothing on a machine that only runs the node.
"""

from ..errors import BagError

__all__ = ['BagError']
