# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Offline audit speed and memory on a simulated drive: how much faster than real time.

Simulates a 10-minute drive of the car (and a 60-minute one with --long), writes it as .mcap,
then audits it in a fresh process per size, printing the recording's length, the audit time,
their ratio, the same with the lookups check off, the bag read rate alone, audit time / read
time and the audit process's peak memory.

--against REV measures the version REV of the repository (git archive) beside this checkout,
alternately, in the same run; then audits every simulated fault (and a clean drive, each as
.mcap and .db3, and any --also recording) with both versions and compares the JSON reports
byte for byte: a speed-up must leave every verdict as it was. Not a test: run it by hand,
python benchmarks/bench_offline.py [--long] [--keep DIR] [--against REV [--also REC ...]]
"""
import argparse
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
VERDICT_SECONDS = 60.0


def write_drive(path: Path, minutes: float) -> float:
    """Simulate and record a clean drive; return the seconds it took."""
    from frame_audit.recordings.write import write_bag
    from frame_audit.sim.car import drive, POSE_TYPES

    start = time.perf_counter()
    write_bag(path, drive(minutes * 60.0, seed=1), pose_types=POSE_TYPES)
    return time.perf_counter() - start


def measure(path: Path) -> Dict[str, float]:
    """Read, then audit, the recording in this process; return times and peak memory."""
    from mcap.reader import make_reader
    from rosbags.highlevel import AnyReader

    from frame_audit.recordings.read import Recording
    from frame_audit.app.audit import audit_recording
    from frame_audit.engine.config import AuditConfig

    with Recording(path) as recording:
        topics = set(recording.audited_topics())
    start = time.perf_counter()
    with AnyReader([path]) as reader:  # the limit: rosbags' own read and decode of them
        connections = [c for c in reader.connections if c.topic in topics]
        count = sum(1 for c, _, raw in reader.messages(connections)
                    if reader.deserialize(raw, c.msgtype) is not None)
    read_s = time.perf_counter() - start
    start = time.perf_counter()
    with open(path, 'rb') as stream:  # and the mcap library's read of the file, undecoded
        raw_count = sum(1 for _ in make_reader(stream).iter_messages(topics=sorted(topics)))
    raw_s = time.perf_counter() - start
    times: Dict[bool, List[float]] = {True: [], False: []}
    for lookups in (False, True, False, True):  # the lookups check off and on, alternately:
        start = time.perf_counter()  # the first audit of a process is slower, whichever
        result = audit_recording(path, AuditConfig() if lookups else AuditConfig(lookups=()))
        times[lookups].append(time.perf_counter() - start)
    audit_s, without_lookups_s = min(times[True]), min(times[False])
    return {'duration_s': result.duration_s, 'messages': result.messages, 'read_s': read_s,
            'read_rate': count / read_s, 'raw_s': raw_s, 'raw_count': raw_count,
            'audit_s': audit_s,
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


def _run(args: List[str], code: Optional[Path]) -> str:
    """Run this script with args in a fresh interpreter, importing frame_audit from code."""
    env = dict(os.environ)
    if code is not None:
        env['PYTHONPATH'] = os.pathsep.join(filter(None, [str(code), env.get('PYTHONPATH')]))
    return subprocess.run([sys.executable, __file__] + args, check=True, env=env,
                          stdout=subprocess.PIPE, universal_newlines=True).stdout


def measure_in_subprocess(path: Path, code: Optional[Path] = None) -> Dict[str, float]:
    """Run measure() in a fresh interpreter, so peak memory is this recording's alone."""
    return json.loads(_run(['--measure', str(path)], code).strip().splitlines()[-1])


def write_verdict_recordings(folder: Path) -> List[Path]:
    """Write a minute of each simulated fault, and of the clean car, as .mcap and as .db3."""
    from frame_audit.recordings.write import write_bag
    from frame_audit.sim.car import drive, FAULTS, POSE_TYPES

    paths = []
    for name in ['clean', 'gyro'] + sorted(FAULTS):
        faults = [] if name in ('clean', 'gyro') else [name]
        for suffix in ('.mcap', '.db3'):
            path = folder / (name + suffix)
            if not path.exists():
                write_bag(path, drive(VERDICT_SECONDS, seed=2, faults=faults,
                                      gyro=name == 'gyro'), pose_types=POSE_TYPES)
            paths.append(path)
    return paths


def reports(paths: List[str]) -> Dict[str, str]:
    """
    Return each recording's JSON report under the package's config (this process's code).

    The reports name the config file by its path: each version's own, said as <checkout>.
    """
    import frame_audit
    from frame_audit.app.audit import audit_file
    from frame_audit.reports.report import to_json

    checkout = str(Path(frame_audit.__file__).resolve().parent.parent)
    return {path: to_json(audit_file(Path(path)).report).replace(checkout, '<checkout>')
            for path in paths}


def compare_verdicts(paths: List[Path], before: Path) -> int:
    """Audit paths with the code at before and with this checkout; print what differs."""
    args = ['--reports'] + [str(path) for path in paths]
    old = json.loads(_run(args, before.resolve()).strip().splitlines()[-1])
    new = json.loads(_run(args, ROOT).strip().splitlines()[-1])
    differ = [path for path in old if old[path] != new[path]]
    print('verdicts: {} of {} JSON reports identical byte for byte'.format(
        len(old) - len(differ), len(old)))
    for path in differ:
        print('  differs: {}'.format(path))
    return 1 if differ else 0


def archive(revision: str, folder: Path) -> Path:
    """Extract the repository at revision into folder; return it."""
    tar = subprocess.run(['git', '-C', str(ROOT), 'archive', revision], check=True,
                         stdout=subprocess.PIPE).stdout
    subprocess.run(['tar', '-x', '-C', str(folder)], input=tar, check=True)
    return folder


def main(argv: List[str]) -> int:
    """Benchmark the offline audit over each drive length."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--long', action='store_true', help='also a 60-minute drive')
    parser.add_argument('--keep', metavar='DIR', help='write the recordings here and keep them')
    parser.add_argument('--against', metavar='REV',
                        help='also measure this git revision, and compare its verdicts')
    parser.add_argument('--also', metavar='REC', nargs='+', default=[],
                        help='with --against: recordings whose verdicts are compared too')
    parser.add_argument('--measure', metavar='BAG', help=argparse.SUPPRESS)
    parser.add_argument('--reports', metavar='BAG', nargs='+', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    if args.reports:
        print(json.dumps(reports(args.reports)))
        return 0
    with tempfile.TemporaryDirectory(prefix='bench_offline_') as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        before = None
        if args.against:
            before = archive(args.against, Path(tempfile.mkdtemp(dir=scratch)))
        for minutes in (10, 60) if args.long else (10,):
            path = folder / 'drive_{}min.mcap'.format(minutes)
            written_s = write_drive(path, minutes) if not path.exists() else 0.0
            print('{} min drive: {:.0f} MB .mcap (simulated and written in {:.1f} s)'.format(
                minutes, path.stat().st_size / 1e6, written_s))
            if before is not None:
                report('{} (before)'.format(args.against), measure_in_subprocess(path, before))
            report('this checkout', measure_in_subprocess(path, ROOT))
        if before is None:
            return 0
        verdicts = folder / 'verdicts'
        verdicts.mkdir(exist_ok=True)
        return compare_verdicts(write_verdict_recordings(verdicts) +
                                [Path(p) for p in args.also], before)


def report(name: str, numbers: Dict[str, float]) -> None:
    """Print one version's measures of one drive."""
    print(' {}: {} messages'.format(name, numbers['messages']))
    print("  rosbags' read and decode of the audited topics alone: {:.1f} s, {:.0f} messages/s;"
          " audit / read {:.2f} (issue 34's aim: at most 1.5)".format(
              numbers['read_s'], numbers['read_rate'], numbers['audit_s'] / numbers['read_s']))
    print("  the mcap library's read of them, undecoded: {:.1f} s ({:.0f}x real time)".format(
        numbers['raw_s'], numbers['duration_s'] / numbers['raw_s']))
    print("  audit: {:.1f} s for {:.0f} s recorded: {:.0f}x real time (issue 34's aim: 500x), "
          '{:.4f} s of audit per recorded second'.format(
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


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
