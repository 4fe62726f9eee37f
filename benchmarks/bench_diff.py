# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit diff` of two recordings of 10,000 static frames, against one audit of either.

Issue 33 measured the diff at 30 s and 312 MB where the audit took 7 s: each side was read
twice (init's two passes) with every check run once per recorded second. Writes two rosbag2
folders (a 10,000-link chain on /tf_static, 60 s of odom -> base_link at 50 Hz; the second's
links 1 mm longer), then runs the audit of one and the diff of both, each in a fresh process,
and prints their times, peak memory and the ratio diff / audit (two sides, each read twice:
below 4 means the passes cost less than an audit's). Not a test: run it by hand,
python benchmarks/bench_diff.py [--frames N]
"""
import argparse
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from typing import List, Tuple

T0 = 1_700_000_000


def write(folder: Path, frames: int, link_m: float) -> None:
    """Write the chain of frames on /tf_static and a minute of odometry on /tf."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores

    store = get_typestore(Stores.ROS2_HUMBLE)
    types, tf_type = store.types, 'tf2_msgs/msg/TFMessage'

    def transform(parent: str, child: str, stamp: float, x: float) -> object:
        sec = int(stamp)
        return types['geometry_msgs/msg/TransformStamped'](
            header=types['std_msgs/msg/Header'](stamp=types['builtin_interfaces/msg/Time'](
                sec=sec, nanosec=int((stamp - sec) * 1e9)), frame_id=parent),
            child_frame_id=child, transform=types['geometry_msgs/msg/Transform'](
                translation=types['geometry_msgs/msg/Vector3'](x=x, y=0.0, z=0.0),
                rotation=types['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0)))

    names = ['base_link'] + ['link_{}'.format(i) for i in range(1, frames + 1)]
    with Writer(folder, version=Writer.VERSION_LATEST, storage_plugin=StoragePlugin.MCAP) as out:
        static = out.add_connection('/tf_static', tf_type, typestore=store)
        moving = out.add_connection('/tf', tf_type, typestore=store)
        out.write(static, T0 * 10 ** 9, store.serialize_cdr(types[tf_type](transforms=[
            transform(a, b, T0, link_m) for a, b in zip(names, names[1:])]), tf_type))
        for i in range(3000):
            stamp = T0 + i / 50.0
            out.write(moving, int(stamp * 1e9), store.serialize_cdr(types[tf_type](
                transforms=[transform('odom', 'base_link', stamp, 0.02 * i)]), tf_type))


def timed(args: List[str]) -> Tuple[float, float]:
    """Run frame-audit in a fresh process; return its wall time (s) and peak memory (MB)."""
    start = time.perf_counter()
    done = subprocess.run(['/usr/bin/time', '-f', '%M', sys.executable, '-m', 'frame_audit'] +
                          args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    return took, int(done.stderr.strip().splitlines()[-1]) / 1024


def main(argv: List[str]) -> int:
    """Write the two recordings, then time the audit and the diff."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--frames', type=int, default=10000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix='bench_diff_') as scratch:
        a, b = Path(scratch) / 'a', Path(scratch) / 'b'
        write(a, args.frames, 0.010)
        write(b, args.frames, 0.011)
        audit_s, audit_mb = timed(['audit', str(a)])
        diff_s, diff_mb = timed(['diff', str(a), str(b)])
    print('{} static frames, 60 s recorded:'.format(args.frames))
    print('  audit of one: {:.1f} s, {:.0f} MB'.format(audit_s, audit_mb))
    print('  diff of two:  {:.1f} s, {:.0f} MB'.format(diff_s, diff_mb))
    print('  diff / audit: {:.2f} in time, {:.2f} in memory'.format(
        diff_s / audit_s, diff_mb / audit_mb))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
