# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Many recordings at once: recorded time per wall time at --jobs 1 and --jobs 2.

Writes a folder of simulated drives (six of 60 s by default, half with a fault), then runs
`frame-audit audit DIR --recursive --jobs N --format json` in a fresh process for each N, and
prints the recorded seconds audited per wall-clock second, and the speed-up of 2 jobs over 1.
Not a test: run it by hand, python benchmarks/bench_season.py [--count N] [--seconds S]
"""
import argparse
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from typing import List


def write_season(folder: Path, count: int, seconds: float) -> None:
    """Write count simulated drives, every other one with the rear-axle pose fault."""
    from frame_audit.recordings.write import write_bag
    from frame_audit.sim.car import drive, POSE_TYPES

    for index in range(count):
        faults = ('pf_rear_axle',) if index % 2 else ()
        write_bag(folder / 'drive_{:02d}.mcap'.format(index),
                  drive(seconds, seed=index, faults=faults), pose_types=POSE_TYPES)


def run(folder: Path, jobs: int) -> tuple:
    """Audit the folder with this many jobs; return wall seconds and recorded seconds."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, '-m', 'frame_audit', 'audit', str(folder),
                           '--recursive', '--jobs', str(jobs), '--format', 'json',
                           '--fail-on', 'never'], stdout=subprocess.PIPE, check=True)
    wall = time.perf_counter() - start
    recordings = json.loads(done.stdout)['recordings']
    return wall, sum(r.get('duration_s', 0.0) for r in recordings), len(recordings)


def main(argv: List[str]) -> int:
    """Benchmark the season audit at one and two jobs."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--count', type=int, default=6, help='recordings (default 6)')
    parser.add_argument('--seconds', type=float, default=60.0, help='each one (default 60)')
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix='bench_season_') as scratch:
        folder = Path(scratch)
        write_season(folder, args.count, args.seconds)
        print('{} recordings of {:.0f} s; {} cores'.format(args.count, args.seconds,
                                                           os.cpu_count()))
        walls = {}
        for jobs in (1, 2):
            wall, recorded, rows = run(folder, jobs)
            walls[jobs] = wall
            print('  --jobs {}: {} rows, {:.0f} s recorded in {:.1f} s: {:.0f} s recorded per '
                  'second'.format(jobs, rows, recorded, wall, recorded / wall))
        print('  --jobs 2 / --jobs 1 wall time: {:.2f}'.format(walls[2] / walls[1]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
