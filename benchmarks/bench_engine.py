# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Engine speed and memory: transforms ingested per second, one check cycle, memory over time.

Prints numbers and ratios against the aims of issue 3 (50,000 transforms/s, a check cycle
under 5 ms on the car's tree, memory flat over a long stream), and ingest against tf2's own
C++ BufferCore (issue 34: half its rate): Debian's python3-tf2, run by the system Python
beside this one on the same stream, its messages built before the clock starts, as the
engine's records are. Not a test: run it by hand, python benchmarks/bench_engine.py
"""
import json
import math
from pathlib import Path
import subprocess
import tempfile
import time
import tracemalloc
from typing import List, Optional

from frame_audit.engine.audit import Audit
from frame_audit.engine.config import AuditConfig
from frame_audit.engine.geometry import quat_from_rpy
from frame_audit.engine.records import Arrival, PoseRecord, TransformRecord

T0 = 1_700_000_000.0
SYSTEM_PYTHON = '/usr/bin/python3'  # where Debian's python3-tf2 is (scripts/setup.sh)
TF2_INGEST = r"""
import json, sys, time
import rospy, tf2_py
from geometry_msgs.msg import TransformStamped
stream = json.load(open(sys.argv[1]))
buffer = tf2_py.BufferCore(rospy.Duration(10))
calls = []
for received, topic, transforms in stream:
    for parent, child, stamp, t, q in transforms:
        m = TransformStamped()
        m.header.frame_id, m.child_frame_id = parent, child
        m.header.stamp = rospy.Time(int(stamp), int(round((stamp % 1) * 1e9)) % 1000000000)
        m.transform.translation.x, m.transform.translation.y, m.transform.translation.z = t
        r = m.transform.rotation
        r.x, r.y, r.z, r.w = q
        calls.append(((buffer.set_transform_static if topic == '/tf_static'
                       else buffer.set_transform), m))
start = time.process_time()
for call, m in calls:
    call(m, 'bench')
print(len(calls) / (time.process_time() - start))
"""


def car_stream(seconds: float) -> List[tuple]:
    """Return (received, topic, transforms) of the car's tree: 50 Hz odom, 20 Hz map."""
    stream = [(T0, '/tf_static', [TransformRecord('base_link', 'laser', T0, (0.26, 0, 0.11),
                                                  (0, 0, 0, 1))])]
    for step in range(int(seconds * 50)):
        t = T0 + step / 50.0
        yaw = 0.3 * t
        stream.append((t, '/tf', [TransformRecord('odom', 'base_link', t,
                                                  (3 * math.cos(yaw), 3 * math.sin(yaw), 0.0),
                                                  quat_from_rpy(0, 0, yaw))]))
        if step % 5 == 0:
            stream.append((t, '/tf', [TransformRecord('map', 'odom', t + 1.0, (0.1, 0.0, 0.0),
                                                      (0, 0, 0, 1))]))
    return stream


def wide_stream(seconds: float, frames: int = 200) -> List[tuple]:
    """Return a 200-frame tree: a chain of moving frames, all at 50 Hz in one TFMessage."""
    stream = []
    for step in range(int(seconds * 50)):
        t = T0 + step / 50.0
        stream.append((t, '/tf', [TransformRecord('f{}'.format(i), 'f{}'.format(i + 1), t,
                                                  (0.1, 0.01 * math.sin(t + i), 0.0),
                                                  (0, 0, 0, 1)) for i in range(frames - 1)]))
    return stream


def ingest_rate(stream: List[tuple]) -> float:
    """Return transforms taken in per second of one core."""
    audit = Audit(AuditConfig())
    count = sum(len(transforms) for _, _, transforms in stream)
    start = time.process_time()
    for received, topic, transforms in stream:
        audit.add_transforms(transforms, Arrival(topic, received))
    return count / (time.process_time() - start)


def check_cycle_ms(stream: List[tuple], cycles: int = 50) -> float:
    """Return the mean time of one full check cycle after the stream, in milliseconds."""
    audit = Audit(AuditConfig())
    for received, topic, transforms in stream:
        audit.add_transforms(transforms, Arrival(topic, received))
    for i in range(400):  # 10 s of 40 Hz poses waiting to be placed
        t = T0 + 50.0 + i / 40.0
        audit.add_pose(PoseRecord('map', t, (1.0, 0.0, 0.0), (0, 0, 0, 1)),
                       Arrival('/pf/viz/inferred_pose', t))
    now = stream[-1][0]
    start = time.process_time()
    for _ in range(cycles):
        audit.check(now)
    return (time.process_time() - start) / cycles * 1000.0


def memory_growth() -> float:
    """Return traced memory after 600 s of the car's stream over that after 60 s."""
    audit = Audit(AuditConfig())
    tracemalloc.start()
    sizes = {}
    stream = car_stream(600.0)
    for index, (received, topic, transforms) in enumerate(stream):
        audit.add_transforms(transforms, Arrival(topic, received))
        if round(received - T0, 2) in (60.0, 599.98):
            sizes[round(received - T0)] = tracemalloc.get_traced_memory()[0]
        if index % 3000 == 0:
            audit.check(received)
    tracemalloc.stop()
    return sizes[600] / sizes[60]


def tf2_rate(stream: List[tuple]) -> Optional[float]:
    """Return tf2's C++ BufferCore's setTransform rate on the stream (None: not installed)."""
    plain = [(received, topic, [(t.parent, t.child, t.stamp, t.translation, t.rotation)
                                for t in transforms]) for received, topic, transforms in stream]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / 'stream.json'
        path.write_text(json.dumps(plain))
        try:
            done = subprocess.run([SYSTEM_PYTHON, '-c', TF2_INGEST, str(path)], check=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  universal_newlines=True, env={'PATH': '/usr/bin:/bin'})
        except (OSError, subprocess.CalledProcessError):
            return None
    return float(done.stdout.split()[-1])


def main() -> None:
    """Print the benchmark's numbers and ratios."""
    car, wide = car_stream(600.0), wide_stream(20.0)  # long enough for a steady rate
    for name, stream in (('car tree:  ', car), ('200 frames:', wide)):
        rate, tf2 = ingest_rate(stream), tf2_rate(stream)
        print('ingest, {}    {:>9,.0f} transforms/s  ({:.1f}x the 50,000/s aim); {}'.format(
            name, rate, rate / 50000, "tf2's C++ (python3-tf2) not installed" if tf2 is None
            else "tf2's C++ {:,.0f}/s on the same stream: {:.2f}x it (issue 34's aim: 0.5x)"
            .format(tf2, rate / tf2)))
    car_ms, wide_ms = check_cycle_ms(car), check_cycle_ms(wide, cycles=5)
    print('check cycle, car tree: {:>9.2f} ms  ({:.2f} of the 5 ms aim)'.format(
        car_ms, car_ms / 5.0))
    print('check cycle, 200 frames: {:>7.2f} ms'.format(wide_ms))
    print('memory after 600 s / after 60 s of the car: {:.2f} (flat is 1.0)'.format(
        memory_growth()))


if __name__ == '__main__':
    main()
