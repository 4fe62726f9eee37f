# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint's rules, declared as data in one place, in the order the report lists them.

A rule's id is named here (engine/check_ids.py), not derived from its function's name:
reports, SARIF and lint.checks_off use it. The tree rules answer the audit's questions of the
declared tree under the audit's ids; lint_files, lint_parameters and lint_nodes ask what no
tree check can see. A rule of scope 'bringup' is judged within each bringup (its summary from
what may run together); one of scope 'together' once, over what may run together. across adds
what only the bringups side by side show.
"""
from dataclasses import dataclass
from typing import Optional, Tuple

from .files import lint_files
from .laser_rules import check_laser_offset, check_pose_frame
from .nodes import executables_across, lint_nodes, lint_parameters
from .subject import Across, on_tree, on_trees, SubjectRule
from .tree_rules import check_chain_order, check_connectivity, check_parent_uniqueness, \
    check_transform_values, parents_across
from ...engine import check_ids as ids

BRINGUP = 'bringup'
TOGETHER = 'together'


@dataclass(frozen=True)
class Rule:
    """One lint check: its id, where it is judged (BRINGUP or TOGETHER), and its function."""

    check: str
    scope: str
    run: SubjectRule
    across: Optional[Across] = None  # findings over the bringups side by side


RULES: Tuple[Rule, ...] = (
    Rule(ids.PARENTS, BRINGUP, on_tree(check_parent_uniqueness), on_trees(parents_across)),
    Rule(ids.CHAIN, TOGETHER, on_tree(check_chain_order)),
    Rule(ids.LASER, BRINGUP, on_tree(check_laser_offset)),
    Rule(ids.POSE, BRINGUP, on_tree(check_pose_frame)),
    Rule(ids.VALUES, BRINGUP, on_tree(check_transform_values)),
    Rule(ids.CONNECTIVITY, TOGETHER, on_tree(check_connectivity)),
    Rule(ids.LINT_FILES, TOGETHER, lint_files),
    Rule(ids.LINT_PARAMETERS, BRINGUP, lint_parameters),
    Rule(ids.LINT_NODES, BRINGUP, lint_nodes, executables_across),
)
RULE_IDS: Tuple[str, ...] = tuple(rule.check for rule in RULES)
