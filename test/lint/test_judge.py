# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The judge stage on a tiny workspace: the registry's rules within each bringup and together.

Two bringups: one starts two nodes under one name (lint_nodes), the other is clean. A finding
that holds in one bringup only names it; lint.checks_off turns a rule off, and the report says
so by the key; the judge leaves the declared trees it was given as they were.
"""
import copy

from frame_audit.engine.config import AuditConfig
from frame_audit.lint.bringups.plan import plan
from frame_audit.lint.publishers.declare import declare
from frame_audit.lint.rules.judge import judge
from lint_helpers import collected, package

DRIVER = """
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    return LaunchDescription([
        Node(package='bot', executable='driver', name='driver'),
        Node(package='bot', executable='{other}', name='{name}'),
    ])
"""
FILES = {
    'bot/package.xml': package('bot'),
    'bot/launch/twice.launch.py': DRIVER.format(other='driver2', name='driver'),
    'bot/launch/once.launch.py': DRIVER.format(other='driver2', name='driver2'),
}


def judged(tmp_path, config: AuditConfig):
    """Return the judged stage of the workspace, and the declaration it was given."""
    found = collected(tmp_path, FILES)
    planned = plan(found, (), {})
    declaration = declare(found, planned, config)
    before = copy.deepcopy(declaration)
    return judge(found, planned, declaration, config, 'in the workspace'), declaration, before


def test_a_finding_of_one_bringup_names_it_and_the_stage_changes_nothing(tmp_path):
    result, declaration, before = judged(tmp_path, AuditConfig())
    nodes, = [r for r in result.results if r.check == 'lint_nodes']
    assert [f.message.endswith('(when bot/launch/twice.launch.py is launched)')
            for f in nodes.findings] == [True]
    assert declaration == before


def test_checks_off_turns_a_rule_off_by_its_key(tmp_path):
    result, _, _ = judged(tmp_path, AuditConfig(lint_checks_off=('lint_nodes',)))
    nodes, = [r for r in result.results if r.check == 'lint_nodes']
    assert nodes.findings == []
    assert nodes.summary.startswith('off (lint.checks_off')
    assert 'lint_nodes' in [r.check for r in judged(tmp_path / 'on', AuditConfig())[0].results
                            if r.findings]
