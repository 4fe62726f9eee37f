# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Audit.tree: what the report, the picture, init and diff read, and cannot write.

A view, not a copy: it follows the audit as messages come, and a report read from it is the
report read from the store.
"""
from frame_audit.engine.audit import Audit
from frame_audit.engine.checks.tree_summary import frame_rows
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.records import Arrival
import pytest
from trees import T0, tf


def chain_audit(frames: int) -> Audit:
    """Return an audit holding a static chain f0 → f1 → ... of frames + 1 frames."""
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('f{}'.format(i), 'f{}'.format(i + 1), T0, 1.0)
                          for i in range(frames)], Arrival('/tf_static', T0, 'chain'))
    return audit


def test_the_view_cannot_be_written():
    view = chain_audit(3).tree
    with pytest.raises(TypeError):
        view.edges[('f0', 'f1')] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        view.parents['f1']['x'] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        view.scan_frames['laser'] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        view.frames.add('x')  # type: ignore[attr-defined]
    ancestry = view.ancestry('f3')
    ancestry.append('elsewhere')
    assert view.ancestry('f3') == ['f3', 'f2', 'f1', 'f0']


def test_the_view_follows_the_audit():
    audit = chain_audit(2)
    view = audit.tree
    frames = view.frames
    assert 'f9' not in frames
    audit.add_transforms([tf('f2', 'f9', T0, 1.0)], Arrival('/tf_static', T0, 'chain'))
    assert 'f9' in frames and len(frames) == 4
    assert view.parent_of('f9').parent == 'f2'  # type: ignore[union-attr]


def test_the_frame_rows_of_the_view_are_the_stores():
    audit = chain_audit(50)
    assert frame_rows(audit.tree) == frame_rows(audit.store)
    assert len(frame_rows(audit.tree)) == 51
