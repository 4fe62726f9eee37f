# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The check ids: a contract (docs/contracts.md) that reports, diagnostics and dashboards use.

Declared here as data, not derived from function names, so renaming a function never
changes a published id. The lint reports under the same ids and adds its own three.
"""
from typing import Tuple

PARENTS = 'parent_uniqueness'
CHAIN = 'chain_order'
LASER = 'laser_offset'
POSE = 'pose_frame'
ODOMETRY = 'odometry'
VALUES = 'transform_values'
TIMING = 'timing'
STATIC = 'static_transforms'
CONNECTIVITY = 'connectivity'
LOOKUPS = 'lookups'  # the car's own lookups, placed by tf2 within their wait
TREE = 'tree'  # the informational status: every frame with its parent, topic and rate

# In the order the diagnostics, the reports and the lint list them.
CHECK_IDS: Tuple[str, ...] = (PARENTS, CHAIN, LASER, POSE, ODOMETRY, VALUES, TIMING, STATIC,
                              CONNECTIVITY, LOOKUPS)

LINT_FILES = 'lint_files'
LINT_PARAMETERS = 'lint_parameters'
LINT_NODES = 'lint_nodes'
