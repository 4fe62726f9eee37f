# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
tf2's view of the recorded transforms: a model of BufferCore per ROS distribution.

Pure (standard library only) like the rest of the engine. docs/tf2.md: what it follows in
geometry2's source, and where Noetic, Humble, Jazzy and Kilted differ.
"""
from .buffer_core import Answer, Buffer, Insertion, Tf2Error
from .distros import DEFAULT_DISTRO, distro, DISTRO_NAMES, show_time, to_ns, to_s

__all__ = ['Answer', 'Buffer', 'DEFAULT_DISTRO', 'distro', 'DISTRO_NAMES', 'Insertion',
           'show_time', 'Tf2Error', 'to_ns', 'to_s']
