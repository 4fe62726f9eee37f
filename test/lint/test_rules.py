# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The lint's rule registry, and rules on declared trees made up here.

Every check id is declared once, as data, in the report's order; each rule reports under the
id the registry gives it; a rule fires on a slip and stays quiet on its healthy twin.
"""
from dataclasses import replace

from frame_audit.engine.checks import CHECK_IDS
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.geometry import Transform
from frame_audit.lint.model import DeclaredEdge, LaunchedNode, Where
from frame_audit.lint.publishers.declared import Declared
from frame_audit.lint.rules import BRINGUP, RULE_IDS, RULES, TOGETHER
from frame_audit.lint.rules.subject import Subject

LINT_ONLY = ('lint_files', 'lint_parameters', 'lint_nodes')


def subject(edges=(), launched=()) -> Subject:
    """Return a subject of these declared edges and launched nodes, and nothing else."""
    return Subject(Declared(list(edges), [], AuditConfig()), tuple(launched), {}, frozenset(),
                   (), (1, '1 launch'), ('bot.launch.py',))


def rule(check: str):
    """Return the registry's rule of this id."""
    (found,) = [r for r in RULES if r.check == check]
    return found


def edge(parent: str, child: str, line: int) -> DeclaredEdge:
    """Return a static edge declared at this line of bot.launch.py."""
    return DeclaredEdge(parent, child, Where('bot.launch.py', line), 'static_transform_publisher',
                        True, Transform())


def test_the_registry_holds_every_id_once_in_the_report_order():
    assert len(set(RULE_IDS)) == len(RULE_IDS) == 9
    tree_ids = [check for check in RULE_IDS if check not in LINT_ONLY]
    assert tree_ids == [check for check in CHECK_IDS if check in tree_ids]
    assert RULE_IDS[-3:] == LINT_ONLY
    assert {r.scope for r in RULES} == {BRINGUP, TOGETHER}


def test_each_rule_reports_under_its_registry_id():
    assert [r.run(subject()).check for r in RULES] == list(RULE_IDS)


def test_parent_uniqueness_fires_on_a_frame_of_two_parents_and_not_on_one():
    slip = rule('parent_uniqueness').run(subject([edge('base_link', 'laser', 3),
                                                  edge('odom', 'laser', 4)]))
    healthy = rule('parent_uniqueness').run(subject([edge('base_link', 'laser', 3),
                                                     edge('odom', 'base_link', 4)]))
    assert [f.frames for f in slip.findings] == [('laser', 'base_link', 'odom')]
    assert healthy.findings == []


def test_lint_nodes_fires_on_two_nodes_of_one_name_and_not_on_two_names():
    first = LaunchedNode('bot', 'driver', 'driver', Where('bot.launch.py', 3))
    second = replace(first, executable='other', where=Where('bot.launch.py', 4))
    slip = rule('lint_nodes').run(subject(launched=[first, second]))
    healthy = rule('lint_nodes').run(subject(launched=[first, replace(second, name='other')]))
    assert [f.values for f in slip.findings] == [{'file': 'bot.launch.py', 'line': 4}]
    assert healthy.findings == []
