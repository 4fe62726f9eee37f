# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Offline audit speed and memory on a simulated drive: how much faster than real time.

Simulates a 10-minute drive of the car (and a 60-minute one with --long), writes it as .mcap,
then audits it in a fresh process per size, printing the recording's length, the audit time,
their ratio, the same with the lookups check off, the bag read rate alone and the audit
process's peak memory. Not a test: run it
by hand, python benchmarks/bench_offline.py [--long] [--keep DIR]
"""
import argparse
import json
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from typing import Dict, List


def write_drive(path: Path, minutes: float) -> float:
    """Simulate and record a clean drive; return the seconds it took."""
    from frame_audit.recordings.write import write_bag
    from frame_audit.sim.car import drive, POSE_TYPES

    start = time.perf_counter()
    write_bag(path, drive(minutes * 60.0, seed=1), pose_types=POSE_TYPES)
    return time.perf_counter() - start


def measure(path: Path) -> Dict[str, float]:
    """Read, then audit, the recording in this process; return times and peak memory."""
    from frame_audit.recordings.read import Recording
    from frame_audit.app.audit import audit_recording
    from frame_audit.engine.config import AuditConfig

    start = time.perf_counter()
    with Recording(path) as recording:
        count = sum(1 for _ in recording.messages())
    read_s = time.perf_counter() - start
    times: Dict[bool, List[float]] = {True: [], False: []}
    for lookups in (False, True, False, True):  # the lookups check off and on, alternately:
        start = time.perf_counter()  # the first audit of a process is slower, whichever
        result = audit_recording(path, AuditConfig() if lookups else AuditConfig(lookups=()))
        times[lookups].append(time.perf_counter() - start)
    audit_s, without_lookups_s = min(times[True]), min(times[False])
    return {'duration_s': result.duration_s, 'messages': result.messages, 'read_s': read_s,
            'read_rate': count / read_s, 'audit_s': audit_s,
            'without_lookups_s': without_lookups_s,
            'findings': len(result.log.findings()),
            'peak_mb': peak_mb()}


def peak_mb() -> float:
    """
    Return this process's peak resident memory in MB.

    VmHWM, not getrusage's ru_maxrss: Linux keeps ru_maxrss across exec, so a child started by
    a parent that had just written a long recording would report the parent's peak.
    """
    with open('/proc/self/status') as status:
        return next(int(line.split()[1]) for line in status if line.startswith('VmHWM')) / 1024


def measure_in_subprocess(path: Path) -> Dict[str, float]:
    """Run measure() in a fresh interpreter, so peak memory is this recording's alone."""
    output = subprocess.run([sys.executable, __file__, '--measure', str(path)], check=True,
                            stdout=subprocess.PIPE, universal_newlines=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main(argv: List[str]) -> int:
    """Benchmark the offline audit over each drive length."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--long', action='store_true', help='also a 60-minute drive')
    parser.add_argument('--keep', metavar='DIR', help='write the recordings here and keep them')
    parser.add_argument('--measure', metavar='BAG', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    with tempfile.TemporaryDirectory(prefix='bench_offline_') as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for minutes in (10, 60) if args.long else (10,):
            path = folder / 'drive_{}min.mcap'.format(minutes)
            written_s = write_drive(path, minutes) if not path.exists() else 0.0
            numbers = measure_in_subprocess(path)
            size_mb = path.stat().st_size / 1e6
            print('{} min drive: {:.0f} MB .mcap, {} messages (simulated and written in {:.1f} s)'
                  .format(minutes, size_mb, numbers['messages'], written_s))
            print('  read alone: {:.1f} s, {:.0f} messages/s'.format(
                numbers['read_s'], numbers['read_rate']))
            print('  audit: {:.1f} s for {:.0f} s recorded: {:.0f}x real time, {:.4f} s of '
                  'audit per recorded second'.format(
                      numbers['audit_s'], numbers['duration_s'],
                      numbers['duration_s'] / numbers['audit_s'],
                      numbers['audit_s'] / numbers['duration_s']))
            print('  lookups check: audit {:.1f} s with it, {:.1f} s without: {:.2f}x; {:.4f} s '
                  'of audit per recorded second without it'.format(
                      numbers['audit_s'], numbers['without_lookups_s'],
                      numbers['audit_s'] / numbers['without_lookups_s'],
                      numbers['without_lookups_s'] / numbers['duration_s']))
            print('  peak memory (read + audit process): {:.0f} MB; findings: {}'.format(
                numbers['peak_mb'], numbers['findings']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
