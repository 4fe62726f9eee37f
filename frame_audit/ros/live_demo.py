# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The demo's live part: the simulated car and frame_audit_node over DDS, healthy then faulty.

Everything runs on this machine, on a ROS domain of its own; the diagnostics are drawn as
`frame-audit monitor` draws them.
"""
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, List, Sequence

from rcl_interfaces.srv import SetParameters
import rclpy
from rclpy.client import Client
from rclpy.parameter import Parameter

from .monitor import Monitor, render
from ..installed import default_config_file

STARTUP_S = 30.0  # at most this long for the two processes to start and the first diagnostics


def _spawn(module: str, ros_args: List[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, '-m', module, '--ros-args'] + ros_args, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class LiveView:
    """frame_audit's diagnostics as the monitor draws them, and a hand on the car's faults."""

    def __init__(self, colour: bool):
        """Subscribe to /diagnostics; draw live on a terminal, else keep the last view."""
        self.colour = colour
        self.monitor = Monitor(sys.stdout if colour else io.StringIO(), colour)
        self.node = rclpy.create_node('frame_audit_demo')
        self.monitor.listen(self.node)
        self.faults: Client[Any, Any] = self.node.create_client(
            SetParameters, '/frame_audit_sim/set_parameters')

    def spin(self, seconds: float, until_first: bool = False) -> None:
        """Take diagnostics for a while (or, until_first, until the first arrives)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until_first and self.monitor.updates):
            rclpy.spin_once(self.node, timeout_sec=0.1)

    def view(self) -> str:
        """Return the latest diagnostics, drawn as the monitor draws them."""
        if not self.monitor.latest:
            return 'no diagnostics arrived: is DDS blocked on this machine?'
        return render(list(self.monitor.latest.values()), time.time(), self.colour)

    def switch_faults(self, faults: Sequence[str]) -> None:
        """Switch the simulated car's faults on, as `ros2 param set` would."""
        self.faults.wait_for_service(timeout_sec=10.0)
        request = SetParameters.Request(parameters=[
            Parameter('faults', value=','.join(faults)).to_parameter_msg()])
        rclpy.spin_until_future_complete(self.node, self.faults.call_async(request),
                                         timeout_sec=10.0)


def demo_live(healthy_s: float, faulty_s: float, faults: Sequence[str], seed: int,
              colour: bool, banner: Callable[[str], None]) -> None:
    """Run the simulated car and frame_audit_node over DDS; show the diagnostics turn red."""
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(20, 100)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    env.setdefault('ROS_LOG_DIR', tempfile.mkdtemp(prefix='frame_audit_demo_logs_'))
    os.environ.update({key: env[key] for key in ('ROS_DOMAIN_ID',
                                                 'ROS_AUTOMATIC_DISCOVERY_RANGE', 'ROS_LOG_DIR')})
    processes = [_spawn('frame_audit.ros.sim_node', ['-p', 'seed:={}'.format(seed)], env),
                 _spawn('frame_audit.ros.node', ['--params-file', str(default_config_file())],
                        env)]
    rclpy.init()
    try:
        view = LiveView(colour)
        banner('Live: the simulated car and frame_audit_node over DDS, as rqt would show them.'
               '\nA healthy car first ({:.0f} s)...'.format(healthy_s))
        view.spin(STARTUP_S, until_first=True)
        view.spin(healthy_s)
        print(view.view(), flush=True)
        banner('...then faults switched on ({:.0f} s): {}'.format(faulty_s, ', '.join(faults)))
        view.switch_faults(faults)
        view.spin(faulty_s)
        print(view.view(), flush=True)
    finally:
        rclpy.try_shutdown()
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)
