# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A sender stuck on one stamp (use_sim_time without /clock): tf2's model, time and memory.

Before issue 24 the ROS 2 model kept every value of a stamp: 40,000 messages held 40,001
samples and took 99 s, quadratically. It keeps the first and the last now (all findClosest can
return). Prints the time per message and the samples held at each size, and the ratio of the
time per message at the largest size to the smallest (1 is linear). Not a test: run it by
hand, python benchmarks/bench_stuck_stamp.py
"""
import time

from frame_audit.engine.tf2 import Buffer

Q = (0.0, 0.0, 0.0, 1.0)


def stuck(messages: int) -> tuple:
    """Feed messages values of odom -> base_link all stamped 0 s; return (s, samples held)."""
    buffer = Buffer(distro='kilted')
    start = time.perf_counter()
    for i in range(messages):
        buffer.set_transform('odom', 'base_link', 0, (float(i), 0.0, 0.0), Q, 'sim', False)
    return time.perf_counter() - start, len(buffer.caches['base_link'].samples)


def main() -> None:
    """Print time per message and samples held for growing streams."""
    per_message = []
    for messages in (5_000, 10_000, 20_000, 40_000):
        seconds, samples = stuck(messages)
        per_message.append(seconds / messages)
        print('{:>6} messages: {:.2f} s ({:.1f} µs each), {} samples held'.format(
            messages, seconds, 1e6 * seconds / messages, samples))
    print('time per message, 40,000 against 5,000: {:.2f}x (1 is linear)'.format(
        per_message[-1] / per_message[0]))


if __name__ == '__main__':
    main()
