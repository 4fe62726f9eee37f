# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The collect stage's readers: the workspace's files, parsed once, never run.

workspace.py walks the workspace and sorts its files; launch_python.py evaluates Python launch
files, launch_markup.py XML and YAML ones (markup.py gives both their lines); params.py splits
parameter files into node blocks; install.py maps installed paths back to source files;
urdf.py, description.py and xacro_child.py read robot descriptions; lua.py cartographer's.
"""
