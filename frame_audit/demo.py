# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The demo: a simulated car audited live over DDS, healthy then faulty, then the same drive offline.

Live needs rclpy (the wheels scripts/setup.sh installs, or a sourced ROS 2); without it the demo
shows the offline part alone. Everything runs on this machine, on a ROS domain of its own.
"""
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Sequence

from .bag import write_bag
from .config import AuditConfig, default_config_file, load_config
from .offline import audit_recording
from .report import Report, to_text
from .simulate import POSE_TYPES, SimulatedCar

FAULTS = ('pf_rear_axle', 'odom_two_parents')
SEED = 1
LINE = '=' * 78
STARTUP_S = 30.0  # at most this long for the two processes to start and the first diagnostics


def _banner(text: str) -> None:
    print('\n'.join((LINE, text, LINE)), flush=True)


def record_drive(path: Path, duration_s: float, faults: Sequence[str], fault_after_s: float,
                 config: AuditConfig) -> None:
    """Record the drive the live demo shows: healthy, with faults switched on after a while."""
    car = SimulatedCar(SEED, (), False, config)

    def messages():
        yield from car.advance(car.start_time + fault_after_s)
        for name in faults:
            car.enable_fault(name)
        yield from car.advance(car.start_time + duration_s)

    write_bag(path, messages(), pose_types=POSE_TYPES)


def offline_report(path: Path, config: AuditConfig) -> Report:
    """Audit a recording; return its report."""
    return audit_recording(path, config).report()


def _spawn(module: str, ros_args: List[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, '-m', module, '--ros-args'] + ros_args, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class LiveView:
    """frame_audit's diagnostics as the monitor draws them, and a hand on the car's faults."""

    def __init__(self, colour: bool):
        """Subscribe to /diagnostics; draw live on a terminal, else keep the last view."""
        import rclpy
        from rcl_interfaces.srv import SetParameters
        from .monitor import Monitor

        self.colour = colour
        self.monitor = Monitor(sys.stdout if colour else io.StringIO(), colour)
        self.node = rclpy.create_node('frame_audit_demo')
        self.monitor.listen(self.node)
        self.faults = self.node.create_client(SetParameters, '/frame_audit_sim/set_parameters')

    def spin(self, seconds: float, until_first: bool = False) -> None:
        """Take diagnostics for a while (or, until_first, until the first arrives)."""
        import rclpy

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until_first and self.monitor.updates):
            rclpy.spin_once(self.node, timeout_sec=0.1)

    def view(self) -> str:
        """Return the latest diagnostics, drawn as the monitor draws them."""
        from .monitor import render

        if not self.monitor.latest:
            return 'no diagnostics arrived: is DDS blocked on this machine?'
        return render(list(self.monitor.latest.values()), time.time(), self.colour)

    def switch_faults(self, faults: Sequence[str]) -> None:
        """Switch the simulated car's faults on, as `ros2 param set` would."""
        import rclpy
        from rcl_interfaces.srv import SetParameters
        from rclpy.parameter import Parameter

        self.faults.wait_for_service(timeout_sec=10.0)
        request = SetParameters.Request(parameters=[
            Parameter('faults', value=','.join(faults)).to_parameter_msg()])
        rclpy.spin_until_future_complete(self.node, self.faults.call_async(request),
                                         timeout_sec=10.0)


def demo_live(healthy_s: float, faulty_s: float, colour: bool) -> None:
    """Run the simulated car and frame_audit_node over DDS; show the diagnostics turn red."""
    import rclpy

    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(20, 100)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    env.setdefault('ROS_LOG_DIR', tempfile.mkdtemp(prefix='frame_audit_demo_logs_'))
    os.environ.update({key: env[key] for key in ('ROS_DOMAIN_ID',
                                                 'ROS_AUTOMATIC_DISCOVERY_RANGE', 'ROS_LOG_DIR')})
    processes = [_spawn('frame_audit.sim_node', ['-p', 'seed:={}'.format(SEED)], env),
                 _spawn('frame_audit.node', ['--params-file', str(default_config_file())], env)]
    rclpy.init()
    try:
        view = LiveView(colour)
        _banner('Live: the simulated car and frame_audit_node over DDS, as rqt would show them.'
                '\nA healthy car first ({:.0f} s)...'.format(healthy_s))
        view.spin(STARTUP_S, until_first=True)
        view.spin(healthy_s)
        print(view.view(), flush=True)
        _banner('...then faults switched on ({:.0f} s): {}'.format(faulty_s, ', '.join(FAULTS)))
        view.switch_faults(FAULTS)
        view.spin(faulty_s)
        print(view.view(), flush=True)
    finally:
        rclpy.try_shutdown()
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


def live_available() -> bool:
    """Return whether rclpy and the generated messages import here."""
    try:
        import rclpy  # noqa: F401
        import tf2_msgs.msg  # noqa: F401
    except ImportError:
        return False
    return True


def run_demo(duration_s: float, live: bool, colour: bool) -> None:
    """Run the demo: live if it can, then the healthy and the faulty drive offline."""
    fault_after_s = min(10.0, duration_s / 2)
    if live and live_available():
        demo_live(fault_after_s, duration_s - fault_after_s, colour)
    elif live:
        print('(rclpy is not available here: the live part is skipped; scripts/demo.sh sets '
              'it up)')
    config = load_config(default_config_file())
    with tempfile.TemporaryDirectory(prefix='frame_audit_demo_') as folder:
        for title, name, faults in (
                ('a healthy car', 'healthy.mcap', ()),
                ('the same drive with faults from {:.0f} s: {}'.format(
                    fault_after_s, ', '.join(FAULTS)), 'faulty.mcap', FAULTS)):
            path = Path(folder) / name
            record_drive(path, duration_s, faults, fault_after_s, config)
            _banner('Offline: frame-audit audit {} ({:.0f} s recording of {})'.format(
                name, duration_s, title))
            sys.stdout.write(to_text(offline_report(path, config), colour))
