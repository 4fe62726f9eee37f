# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The declare stage: who sends which transform, and the tree each bringup declares.

table.py says what known nodes send from their parameters, static_tf.py reads
static_transform_publisher, parameters.py merges each node's parameters, declare.py turns a
bringup into a Declared tree (declared.py), which the rules question.
"""
