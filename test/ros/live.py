# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What the live tests share: the node's command line, a private domain, the car, a listener.

The simulated car is sent in real time; the listener keeps the newest /diagnostics statuses.
"""
import os
from pathlib import Path
import shutil
import sys
import time
from typing import Callable, Dict, List, Set

from diagnostic_msgs.msg import DiagnosticArray
from frame_audit.engine.findings import Level
from frame_audit.message_types import stamp_seconds
from frame_audit.ros import messages as rm
from frame_audit.ros.sim_node import CarPublishers
from frame_audit.sim.car import SimulatedCar
from nested import ros_domain
from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
import rclpy
from rclpy.executors import SingleThreadedExecutor

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / 'config' / 'frame_audit.yaml'
# Checks being built by others: live, lookups stays STALE ("waiting: 3 lookups judged, a share
# takes 10") on a healthy car; until that is settled, its STALE is not counted here.
IN_PROGRESS = {'lookups'}


def ros_environment() -> Dict[str, str]:
    """Return this run's own domain, kept on this host, with logs out of $HOME."""
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(ros_domain())
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    env['PYTHONFAULTHANDLER'] = '1'  # a crash or a hang (SIGABRT) shows where, thread by thread
    if env.get('ROS_DISTRO') == 'humble':  # no discovery range before Iron
        env['ROS_LOCALHOST_ONLY'] = '1'
    env.setdefault('ROS_LOG_DIR', '/tmp/frame_audit_test_logs')
    return env


def command(executable: str, module: str, *ros_args: str) -> List[str]:
    """Return a node's command line: the installed executable, as `ros2 run` runs it."""
    exe = shutil.which(executable)
    return ([exe] if exe else [sys.executable, '-m', module]) + ['--ros-args'] + list(ros_args)


def node_command(*ros_args: str) -> List[str]:
    """Return the audit node's command line with the package's parameters file."""
    return command('frame_audit_node', 'frame_audit.ros.node', '--params-file', str(CONFIG),
                   *ros_args)


class Car:
    """The simulated car of docs/car.md, sent in real time from one rclpy node per car node."""

    def __init__(self):
        """Park the car; nothing is sent until drive()."""
        self.sim = SimulatedCar(seed=4, start_time=time.time())
        self.publishers = CarPublishers('/scan')

    def step(self) -> None:
        """Send every message due by now."""
        for message in self.sim.advance(time.time()):
            self.publishers.publish(message)


class Listener:
    """The test's view of /diagnostics: the newest frame_audit statuses by check id."""

    def __init__(self, executor: SingleThreadedExecutor):
        """Subscribe to /diagnostics."""
        self.node = rclpy.create_node('frame_audit_test_listener')
        executor.add_node(self.node)
        self.latest: Dict[str, rm.Status] = {}
        self.stamp = 0.0
        self.node.create_subscription(DiagnosticArray, '/diagnostics', self._take, 10)

    def _take(self, msg: DiagnosticArray) -> None:
        self.latest = {s.check: s for s in rm.frame_audit_statuses(msg)}
        self.stamp = stamp_seconds(msg.header.stamp)

    def not_ok(self) -> Set[str]:
        """Return the checks whose newest status is not OK (IN_PROGRESS: WARN or ERROR)."""
        return {check for check, s in self.latest.items() if s.level != Level.OK
                and not (check in IN_PROGRESS and s.level == Level.STALE)}

    def errors(self) -> Set[str]:
        """Return the checks whose newest status is ERROR."""
        return {check for check, s in self.latest.items() if s.level == Level.ERROR}

    def text(self, check: str) -> str:
        """Return a status's row and its detail pane (each finding's full text)."""
        status = self.latest[check]
        return '\n'.join([status.message] + list(status.values.values()))

    def describe(self) -> str:
        """Return the newest statuses, for a failing assertion."""
        return '\n'.join('{} {} {}'.format(s.level.name, s.check, s.message)
                         for s in self.latest.values())


def drive_until(step: Callable[[], None], executor: SingleThreadedExecutor,
                done: Callable[[], bool], timeout: float) -> bool:
    """Call step() (the car sends what is due) until done() holds or timeout seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        step()
        executor.spin_once(timeout_sec=0.005)
        if done():
            return True
    return False


def set_faults(node, value: str, executor: SingleThreadedExecutor):
    """Set the simulator's faults parameter as `ros2 param set` does; return the result."""
    client = node.create_client(SetParameters, '/frame_audit_sim/set_parameters')
    assert client.wait_for_service(timeout_sec=10.0)
    request = SetParameters.Request(parameters=[Parameter(name='faults', value=ParameterValue(
        type=ParameterType.PARAMETER_STRING, string_value=value))])
    future = client.call_async(request)
    executor.spin_until_future_complete(future, timeout_sec=10.0)
    node.destroy_client(client)
    return future.result().results[0]
