# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tf2 model's speed: transforms taken in and lookups answered per second, as a ratio.

A message filter asks one lookup per scan, so `frame-audit lookup --every /scan` costs one
lookup per message on top of replaying the transforms: the ratio says how much a lookup costs
against ingesting one transform. Not a test: run it by hand, python benchmarks/bench_lookup.py
"""
import math
import time

from frame_audit.engine.geometry import quat_from_rpy
from frame_audit.engine.tf2 import Buffer, to_ns

T0 = 1_700_000_000.0
SECONDS = 60.0


def fill(buffer: Buffer, seconds: float) -> int:
    """Feed the car's tree: statics, odom -> base_link 50 Hz, map -> odom 10 Hz; return count."""
    count = 0
    buffer.set_transform('base_link', 'laser', 0, (0.27, 0.0, 0.11), (0, 0, 0, 1), static=True)
    for step in range(int(seconds * 50)):
        t = T0 + step / 50.0
        yaw = 0.3 * (t - T0)
        buffer.set_transform('odom', 'base_link', to_ns(t), (3 * math.cos(yaw),
                                                             3 * math.sin(yaw), 0.0),
                             quat_from_rpy(0, 0, yaw))
        count += 1
        if step % 5 == 0:
            buffer.set_transform('map', 'odom', to_ns(t), (0.1, 0.0, 0.0),
                                 quat_from_rpy(0, 0, 0.01 * step))
            count += 1
    return count


def main() -> None:
    """Print ingest and lookup rates, per distribution, and their ratio."""
    for distro in ('kilted', 'noetic'):
        buffer = Buffer(distro=distro)
        start = time.perf_counter()
        taken = fill(buffer, SECONDS)
        ingest = taken / (time.perf_counter() - start)
        asks = [to_ns(T0 + SECONDS - 9.0 + k * 0.00737) for k in range(1000)]
        start = time.perf_counter()
        for stamp in asks:
            assert buffer.lookup('map', 'laser', stamp).ok
        lookups = len(asks) / (time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(1000):
            buffer.lookup('map', 'laser')
        latest = 1000 / (time.perf_counter() - start)
        print('{:7s} ingest {:9.0f} transforms/s   lookup map<-laser {:8.0f}/s (at a stamp), '
              '{:8.0f}/s (latest)   lookup/ingest {:.2f}'.format(
                  distro, ingest, lookups, latest, lookups / ingest))


if __name__ == '__main__':
    main()
