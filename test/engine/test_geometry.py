# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The 2D pose helpers of docs/car.md, the 3D transforms, and lookups through the tree."""
import math

from frame_audit.engine.audit import Audit
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.geometry import base_to_laser, compose, interpolate, inverse, \
    laser_to_base, quat_from_rpy, slerp, Transform, yaw_of
from frame_audit.engine.lookup import lookup
from frame_audit.engine.records import Arrival
from hypothesis import given, strategies as st
import pytest
from trees import T0, tf

coordinates = st.floats(-100.0, 100.0)
angles = st.floats(-math.pi, math.pi)


def test_lidar_pose_to_rear_axle_as_the_cars_page_writes_it():
    x, y, theta = 2.0, 1.0, 0.7
    assert laser_to_base((x, y, theta), 0.26) == pytest.approx(
        (x - 0.26 * math.cos(theta), y - 0.26 * math.sin(theta), theta))


@given(coordinates, coordinates, angles, st.floats(0.0, 1.0))
def test_laser_and_base_conversions_undo_each_other(x, y, theta, offset):
    assert laser_to_base(base_to_laser((x, y, theta), offset), offset) == pytest.approx(
        (x, y, theta), abs=1e-9)


@given(coordinates, coordinates, angles)
def test_compose_with_inverse_is_no_motion(x, y, theta):
    assert compose((x, y, theta), inverse((x, y, theta))) == pytest.approx((0, 0, 0), abs=1e-9)


@given(coordinates, coordinates, angles, coordinates, coordinates, angles)
def test_3d_transforms_agree_with_the_2d_helpers(ax, ay, at, bx, by, bt):
    a = Transform((ax, ay, 0.0), quat_from_rpy(0, 0, at))
    b = Transform((bx, by, 0.0), quat_from_rpy(0, 0, bt))
    x, y, t = compose((ax, ay, at), (bx, by, bt))
    composed = (a * b).pose2d()
    assert composed[:2] == pytest.approx((x, y), abs=1e-6)
    assert math.cos(composed[2] - t) == pytest.approx(1.0, abs=1e-9)
    assert (a * a.inverse()).translation == pytest.approx((0, 0, 0), abs=1e-6)


def test_slerp_halfway_and_interpolation():
    q = slerp(quat_from_rpy(0, 0, 0.0), quat_from_rpy(0, 0, 1.0), 0.5)
    assert yaw_of(q) == pytest.approx(0.5)
    mid = interpolate(Transform((0, 0, 0)), Transform((2, 0, 0)), 0.25)
    assert mid.translation == pytest.approx((0.5, 0, 0))


def car_tree():
    audit = Audit(AuditConfig())
    audit.add_transforms([tf('base_link', 'laser', T0, 0.26, 0.0, 0.11)],
                         Arrival('/tf_static', T0))
    for i in range(11):
        t = T0 + i * 0.1
        audit.add_transforms([tf('odom', 'base_link', t, x=float(i), yaw=0.0),
                              tf('map', 'odom', t, y=1.0, yaw=math.pi / 2)], Arrival('/tf', t))
    return audit.store


def test_lookup_through_the_lowest_common_ancestor_interpolates():
    found = lookup(car_tree(), 'map', 'laser', T0 + 0.25)
    assert found.ok
    # odom -> laser is (2.5 + 0.26, 0, 0.11); map rotates it by 90 degrees and adds y 1
    assert found.transform.translation == pytest.approx((0.0, 1.0 + 2.76, 0.11))


def test_lookup_between_siblings_and_backwards():
    store = car_tree()
    found = lookup(store, 'laser', 'odom', T0)
    assert found.ok and found.transform.translation == pytest.approx((-0.26, 0, -0.11))


def test_lookup_abstains_outside_the_history_and_when_disconnected():
    store = car_tree()
    late = lookup(store, 'map', 'base_link', T0 + 5.0)
    assert not late.ok and late.too_early and 'not at' in late.reason
    early = lookup(store, 'map', 'base_link', T0 - 5.0)
    assert not early.ok and not early.too_early
    store.add_transforms([tf('world', 'gps', T0)], Arrival('/tf_static', T0))
    apart = lookup(store, 'gps', 'laser')
    assert not apart.ok and 'not connected' in apart.reason
    assert 'is not in the tree' in lookup(store, 'nowhere', 'laser').reason
