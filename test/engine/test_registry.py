# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The check ids are data: the registry, the contract's order, and each function agreeing with it.

A published id must not follow a function's name; a function that returned another id than
the one it is registered under would send its findings under a name nobody watches.
"""
from frame_audit.engine.audit import Audit
from frame_audit.engine.check_ids import CHECK_IDS, TREE
from frame_audit.engine.checks import CHECKS, run_checks
from frame_audit.engine.config import AuditConfig
import pytest
from trees import Car, feed

CONTRACT = ('parent_uniqueness', 'chain_order', 'laser_offset', 'pose_frame', 'odometry',
            'transform_values', 'timing', 'static_transforms', 'connectivity', 'lookups')


def test_the_ids_are_the_contracts_in_its_order_each_once():
    assert CHECK_IDS == CONTRACT
    assert tuple(check.check_id for check in CHECKS) == CONTRACT


FAULTY = Car(pf_point='base_link', odom_parent='map_2', laser_x=0.27, laser_on_tf=True)


@pytest.mark.parametrize('car', [Car(), FAULTY], ids=['healthy', 'faulty'])
def test_each_function_reports_under_the_id_it_is_registered_with(car):
    audit = Audit(AuditConfig())
    feed(audit, car)
    now = audit.store.clock.last_received
    for check in CHECKS:
        result = check.run(audit.store, audit.config, now)
        assert result.check == check.check_id, check.run.__name__
        assert {finding.check for finding in result.findings} <= {check.check_id}
    results = run_checks(audit.store, audit.config, now)
    assert [r.check for r in results] == list(CONTRACT) + [TREE]


def test_the_faulty_drive_gives_findings_under_several_ids():
    """So the test above sees findings, not only summaries."""
    audit = Audit(AuditConfig())
    feed(audit, FAULTY)
    results = run_checks(audit.store, audit.config, audit.store.clock.last_received)
    assert {'parent_uniqueness', 'laser_offset', 'pose_frame'} <= {
        r.check for r in results if r.findings}
