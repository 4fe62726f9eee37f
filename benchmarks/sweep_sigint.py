# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Ctrl-C at every moment of the start: the simulated car and the audit, as sim.launch.py runs them.

Not a test: prints each run's exit codes. Both executables start in one process group, as a
launch's children do under a terminal, and one SIGINT goes to the group (a terminal's Ctrl-C)
at 0, 0.05, 0.1 ... seconds after they were started, while busy loops (one per core, by
default two) load the machine. A run is clean when both exit with code 0, within the timeout,
and print no traceback. What comes before the executable's own code is Python's start-up and
the environment's .pth hooks: a run that fails there names it.

    source .venv/env.sh && python benchmarks/sweep_sigint.py [--until-s 2] [--step-s 0.05]
"""
import argparse
import multiprocessing
import os
from pathlib import Path
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / 'config' / 'frame_audit.yaml'
TIMEOUT_S = 20.0
FAILED_WORDS = ('Traceback', 'KeyboardInterrupt', 'Fatal Python error', 'Segmentation fault')


def busy() -> None:
    """Load one core until killed."""
    while True:
        pass


def commands() -> List[List[str]]:
    """Return the simulator's and the audit's command lines, as the launch files give them."""
    found = [shutil.which(name) for name in ('frame_audit_sim', 'frame_audit_node')]
    if not all(found):
        sys.exit('sweep_sigint: frame_audit_sim and frame_audit_node are not on PATH: '
                 'source .venv/env.sh')
    sim, node = (str(path) for path in found)
    return [[sim, '--ros-args', '--log-level', 'info'],
            [node, '--ros-args', '--params-file', str(CONFIG), '-r', '__node:=frame_audit',
             '--log-level', 'info']]


def one_run(after_s: float) -> Tuple[List[int], float, str]:
    """Start both, send the group one SIGINT after after_s; return codes, exit time, words."""
    logs = [tempfile.TemporaryFile(mode='w+') for _ in range(2)]
    sim_command, node_command = commands()
    sim = subprocess.Popen(sim_command, stdout=logs[0], stderr=subprocess.STDOUT,
                           process_group=0)
    node = subprocess.Popen(node_command, stdout=logs[1], stderr=subprocess.STDOUT,
                            process_group=sim.pid)
    time.sleep(after_s)
    os.killpg(sim.pid, signal.SIGINT)
    sent = time.monotonic()
    codes = []
    for process in (sim, node):
        try:
            codes.append(process.wait(timeout=max(0.1, TIMEOUT_S - (time.monotonic() - sent))))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            codes.append(-999)  # still running: the signal was lost
    took = time.monotonic() - sent
    said = []
    for log in logs:
        log.seek(0)
        output = log.read()
        said.extend(word for word in FAILED_WORDS if word in output)
    return codes, took, ','.join(sorted(set(said)))


def main() -> None:
    """Sweep the moment of the SIGINT and print every run."""
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--until-s', type=float, default=2.0, help='the last moment tried')
    parser.add_argument('--step-s', type=float, default=0.05, help='between two moments')
    parser.add_argument('--busy', type=int, default=multiprocessing.cpu_count(),
                        help='busy loops beside the run (default: one per core)')
    args = parser.parse_args()
    os.environ['ROS_DOMAIN_ID'] = str(200 + os.getpid() % 30)
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.setdefault('ROS_LOG_DIR', '/tmp/frame_audit_bench_logs')
    loops = [multiprocessing.Process(target=busy, daemon=True) for _ in range(args.busy)]
    for loop in loops:
        loop.start()
    steps = int(round(args.until_s / args.step_s)) + 1
    clean = 0
    try:
        print('SIGINT to the group of frame_audit_sim and frame_audit_node, {} busy loops on {} '
              'cores:'.format(args.busy, multiprocessing.cpu_count()))
        print('  after_s  sim  node  exited_s  said')
        for step in range(steps):
            after_s = step * args.step_s
            codes, took, said = one_run(after_s)
            clean += codes == [0, 0] and not said
            print('  {:6.2f}  {:4d}  {:4d}  {:8.2f}  {}'.format(
                after_s, codes[0], codes[1], took, said or '-'), flush=True)
    finally:
        for loop in loops:
            loop.kill()
    print('clean exits (both 0, no traceback): {} of {}'.format(clean, steps))


if __name__ == '__main__':
    main()
