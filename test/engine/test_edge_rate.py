# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Edge.rate_hz, the one rate every report gives an edge: receipts, stamps after a stall, or all.

Each case fills an edge's windows as the store does (receive times and stamps of its last
samples); the rate is exact, never "some number or None".
"""
from frame_audit.engine.edge import BURST_RATIO, Edge
from frame_audit.engine.records import TF_TOPIC
import pytest


def edge_of(received, stamps) -> Edge:
    """Return an edge whose recent samples arrived at received, stamped stamps."""
    edge = Edge('odom', 'base_link', first_received=received[0])
    edge.received_times.extend(received)
    edge.stamp_times.extend(stamps)
    return edge


def test_a_burst_after_a_stall_is_measured_by_its_stamps():
    """A computer stalled 5 s, then delivered 100 messages of 20 Hz within 0.1 s."""
    stamps = [100.0 + i / 20.0 for i in range(100)]
    burst = edge_of([105.0 + i * 0.001 for i in range(100)], stamps)
    assert 99 / 0.099 > BURST_RATIO * 20.0  # by receipts: 1,000 Hz
    assert burst.rate_hz() == pytest.approx(99 / 4.95, rel=1e-9)  # 20 Hz, by the stamps
    # the twin, delivered as sent: by receipts, the same 20 Hz
    steady = edge_of([s + 0.002 for s in stamps], stamps)
    assert steady.rate_hz() == pytest.approx(99 / 4.95, rel=1e-9)


def test_a_fast_sender_clock_is_measured_by_receipts():
    """A clock 11 % fast stretches the stamps (27 Hz by them); 30 messages a second came."""
    received = [100.0 + i / 30.0 for i in range(100)]
    fast = edge_of(received, [100.0 + (r - 100.0) * 1.11 for r in received])
    assert fast.rate_hz() == pytest.approx(30.0, rel=1e-9)
    frozen = edge_of(received, [0.0] * 100)  # a ROS 1 fixed joint stamped 0: by receipts
    assert frozen.rate_hz() == pytest.approx(30.0, rel=1e-9)
    assert edge_of(received[:2], [0.0, 0.0]).rate_hz() is None  # fewer than 3


def test_a_whole_recording_is_measured_over_all_it_sent():
    """Read to its end: every /tf message over the time they came, not the last 100."""
    edge = edge_of([100.0 + i / 15.0 for i in range(100)], [100.0 + i / 15.0 for i in range(100)])
    edge.topic_counts[TF_TOPIC] = 451
    edge.topic_first[TF_TOPIC], edge.topic_last[TF_TOPIC] = 80.0, 100.0 + 99 / 15.0
    assert edge.rate_hz() == pytest.approx(15.0, rel=1e-9)
    edge.whole = True
    assert edge.rate_hz() == pytest.approx(450 / (20.0 + 99 / 15.0), rel=1e-9)
