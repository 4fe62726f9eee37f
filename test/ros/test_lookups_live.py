# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The `lookups` check live: the node, in its own process over Fast DDS, asks its tf2 model.

The simulated car drives in real time (one rclpy node per node of its stack). On the healthy
car, whose slam_toolbox future-dates map -> odom, `frame_audit: lookups` is OK with the scans
counted; once slam_toolbox stamps map -> odom 0.30 s behind (the map_odom_late fault), it
turns WARN and names the edge. Polled with generous timeouts: the machine is shared.
"""
import subprocess

from frame_audit.engine.findings import Level
from live import Car, drive_until, node_command
import pytest

pytestmark = [pytest.mark.ros, pytest.mark.slow]


@pytest.fixture
def car(graph):
    """Give the test its own car."""
    new = Car()
    yield new
    new.publishers.destroy()


def _lookups(listener):
    return listener.latest.get('lookups')


def _counted_ok(listener) -> bool:
    """Return whether lookups is OK with scans placed in map and odom."""
    status = _lookups(listener)
    return status is not None and status.level == Level.OK and all(
        int(status.values.get('/scan in {}: asked'.format(frame), '0')) >= 20
        for frame in ('map', 'odom'))


def _warns(listener) -> bool:
    status = _lookups(listener)
    return status is not None and status.level == Level.WARN


def test_lookups_ok_on_the_healthy_car_then_warn_when_map_odom_is_late(graph, car, env):
    listener, executor = graph
    drive_until(car.step, executor, lambda: False, 1.0)
    node = subprocess.Popen(node_command(), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen = []  # every lookups row of the healthy drive: a WARN there is a false alarm

    def note(done):
        status = _lookups(listener)
        if status is not None and (not seen or seen[-1] is not status):
            seen.append(status)
        return done()

    try:
        ok = drive_until(car.step, executor, lambda: note(lambda: _counted_ok(listener)),
                         timeout=40.0)
        assert ok, 'lookups not OK with scans counted:\n' + listener.describe()
        drive_until(car.step, executor, lambda: note(lambda: False), timeout=4.0)
        assert {s.level for s in seen} <= {Level.OK, Level.STALE}, [s.message for s in seen]
        status = _lookups(listener)
        assert status.level == Level.OK, status.message
        assert status.values['/scan in map: refused'] == '0', status.values
        assert 'placed within 0.1 s' in status.message

        car.sim.enable_fault('map_odom_late')
        warned = drive_until(car.step, executor, lambda: _warns(listener), timeout=40.0)
        assert warned, 'late map -> odom not named:\n' + listener.describe()
        status = _lookups(listener)  # the row: the verdict and its numbers
        assert ' % of /scan could not be placed in map within 0.1 s [' in status.message
        assert 'worst_lag_s=' in status.message
        finding = status.values['finding 1']  # the whole message
        assert 'map → odom' in finding and 'behind the /scan stamps' in finding
    finally:
        node.terminate()
        _, stderr = node.communicate(timeout=15)
    assert 'Traceback' not in stderr, stderr
