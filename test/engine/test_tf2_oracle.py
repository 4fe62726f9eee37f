# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tf2 model against tf2 itself: Debian's python3-tf2 (geometry2 0.7.6, ROS 1's BufferCore).

The oracle runs in a process of its own under the system Python (/usr/bin/python3), with a
bare environment: its ROS 1 message modules never meet the ROS 2 wheels of this one. Both get
the same transforms; every log line of setTransform, every lookup's value, stamp, exception
and message must agree. Where ROS 2's tf2 differs from ROS 1's, test_tf2_model.py says so
from the source (docs/tf2.md).
"""
import json
import math
from pathlib import Path
import random
import subprocess
import sys
from typing import Any, Dict, List, Sequence, Tuple

from frame_audit.engine.geometry import quat_from_rpy
from frame_audit.engine.tf2 import Buffer, to_ns
import pytest

SYSTEM_PYTHON = '/usr/bin/python3'
T0 = 1700000000.0

ORACLE = r"""
import json, os, sys, tempfile
import rospy, tf2_py
from geometry_msgs.msg import TransformStamped
ops = json.load(open(sys.argv[1]))
buf = tf2_py.BufferCore(rospy.Duration(10))
log = tempfile.TemporaryFile()
saved = os.dup(2)
out = []
def stamp(ns):
    return rospy.Time(ns // 10**9, ns % 10**9)
for op in ops:
    if op[0] == 'set':
        _, parent, child, ns, t, q, who, static = op
        m = TransformStamped()
        m.header.frame_id, m.child_frame_id, m.header.stamp = parent, child, stamp(ns)
        tr, ro = m.transform.translation, m.transform.rotation
        tr.x, tr.y, tr.z = t
        ro.x, ro.y, ro.z, ro.w = q
        log.seek(0)
        log.truncate()
        os.dup2(log.fileno(), 2)
        (buf.set_transform_static if static else buf.set_transform)(m, who)
        os.dup2(saved, 2)
        log.seek(0)
        out.append(log.read().decode())
    else:
        _, target, source, ns = op
        try:
            r = buf.lookup_transform_core(target, source, stamp(ns))
            tr, ro = r.transform.translation, r.transform.rotation
            out.append({'t': [tr.x, tr.y, tr.z], 'q': [ro.x, ro.y, ro.z, ro.w],
                        'stamp': r.header.stamp.secs * 10**9 + r.header.stamp.nsecs})
        except tf2_py.TransformException as e:
            out.append({'exception': type(e).__name__, 'text': str(e)})
json.dump(out, open(sys.argv[2], 'w'))
"""


def _oracle_missing() -> str:
    """Return why the oracle cannot run here, or ''."""
    if not Path(SYSTEM_PYTHON).exists():
        return 'no ' + SYSTEM_PYTHON
    probe = subprocess.run([SYSTEM_PYTHON, '-c', 'import tf2_py, rospy'], env=_bare_env(),
                           capture_output=True, text=True)
    if probe.returncode:
        return 'python3-tf2 is not installed (scripts/setup.sh installs it): ' + \
            (probe.stderr.strip().splitlines() or ['?'])[-1]
    return ''


def _bare_env() -> Dict[str, str]:
    """Return an environment that names none of the ROS 2 wheels' paths."""
    return {'PATH': '/usr/bin:/bin', 'LANG': 'C.UTF-8'}


MISSING = _oracle_missing()
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING)

Op = Tuple[Any, ...]


def put(parent: str, child: str, stamp: float, x: float = 0.0, y: float = 0.0,
        yaw: float = 0.0, who: str = 'tester', static: bool = False, z: float = 0.0,
        rotation: Sequence[float] = ()) -> Op:
    """Return a setTransform step."""
    q = list(rotation) or list(quat_from_rpy(0.0, 0.0, yaw))
    return ('set', parent, child, to_ns(stamp) if stamp else 0, [x, y, z], q, who, static)


def ask(target: str, source: str, time: float = 0.0) -> Op:
    """Return a lookupTransform step (time 0: the latest common time)."""
    return ('lookup', target, source, to_ns(time) if time else 0)


def run_oracle(ops: Sequence[Op], tmp_path: Path) -> List[Any]:
    """Return what python3-tf2's BufferCore says to each step."""
    script, given, said = tmp_path / 'oracle.py', tmp_path / 'ops.json', tmp_path / 'out.json'
    script.write_text(ORACLE)
    given.write_text(json.dumps(list(ops)))
    done = subprocess.run([SYSTEM_PYTHON, str(script), str(given), str(said)],
                          env=_bare_env(), cwd=str(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(said.read_text())


def _as_ros1(ns: int) -> int:
    """Return the stamp the binding hands BufferCore: rospy's to_sec(), then fromSec()."""
    return to_ns(float(ns // 10**9) + float(ns % 10**9) / 1e9) if ns else 0


def run_model(ops: Sequence[Op]) -> List[Any]:
    """Return what the model (distro noetic) says to each step, in the oracle's shape."""
    buffer = Buffer(distro='noetic')
    out: List[Any] = []
    for op in ops:
        if op[0] == 'set':
            _, parent, child, ns, t, q, who, static = op
            done = buffer.set_transform(parent, child, _as_ros1(ns), tuple(t), tuple(q), who,
                                        static)
            out.append(list(done.log))
        else:
            _, target, source, ns = op
            answer = buffer.lookup(target, source, _as_ros1(ns))
            if answer.ok:
                out.append({'t': list(answer.translation), 'q': list(answer.rotation),
                            'stamp': answer.stamp})
            else:
                out.append({'exception': answer.error.exception, 'text': answer.error.text})
    return out


def _logged(text: str) -> List[str]:
    """Return console_bridge's messages without their level and source-line suffixes."""
    lines = []
    for line in text.split('\n'):
        if line.startswith('Warning: ') or line.startswith('Error:   '):
            lines.append(line.split(': ', 1)[1].lstrip())
        elif line.startswith('         at line') or not line:
            continue
        else:
            lines[-1] += '\n' + line
    return lines


def assert_same(ops: Sequence[Op], tmp_path: Path) -> List[Any]:
    """Compare the model with tf2 step by step; return tf2's answers."""
    expected, got = run_oracle(ops, tmp_path), run_model(ops)
    for step, (op, want, have) in enumerate(zip(ops, expected, got)):
        where = 'step {} {}'.format(step, op)
        if op[0] == 'set':
            assert have == _logged(want), where
        elif 'exception' in want:
            assert have == want, where
        else:
            assert 'exception' not in have, '{}: tf2 answered, the model said {}'.format(
                where, have.get('text'))
            assert have['stamp'] == want['stamp'], where
            assert have['t'] == pytest.approx(want['t'], abs=1e-9), where
            sign = 1.0 if sum(a * b for a, b in zip(have['q'], want['q'])) >= 0 else -1.0
            assert [sign * q for q in have['q']] == pytest.approx(want['q'], abs=1e-9), where
    assert len(got) == len(expected) == len(ops)
    return expected


def test_a_map_edge_stamped_late_refuses_the_scan_as_measured(tmp_path):
    """The issue's measured case: map -> odom 0.30 s behind, the scan asked at its stamp."""
    ops = [put('base_link', 'laser', 0, x=0.27, static=True, who='robot_state_publisher')]
    for i in range(40):  # odom -> base_link at 50 Hz, on time
        ops.append(put('odom', 'base_link', T0 + 12.3 + 0.02 * i, x=0.02 * i, who='vesc'))
    for i in range(5):  # map -> odom at 10 Hz, 0.32 s behind the scan at 13.0
        ops.append(put('map', 'odom', T0 + 12.28 + 0.1 * i, x=0.1, yaw=0.01 * i,
                       who='slam_toolbox'))
    ops += [ask('map', 'laser', T0 + 13.0), ask('odom', 'laser', T0 + 13.0),
            ask('map', 'laser', T0 + 12.5), ask('laser', 'map', T0 + 12.55),
            ask('map', 'laser')]
    answers = assert_same(ops, tmp_path)
    assert 'extrapolation 0.319999933s into the future' in answers[-5]['text']
    assert 'exception' not in answers[-4] and 'exception' not in answers[-3]


def test_a_turtlebot_tree_interpolates_between_stamps(tmp_path):
    """TurtleBot3: odom -> base_footprint at 30 Hz turning, statics below; mid-stamp asks."""
    ops = [put('base_footprint', 'base_link', 0, z=0.01, static=True),
           put('base_link', 'base_scan', 0, x=-0.032, z=0.172, static=True),
           put('base_link', 'imu_link', 0, x=-0.032, z=0.068, static=True)]
    for i in range(30):
        t = T0 + i / 30.0
        ops.append(put('odom', 'base_footprint', t, x=0.5 * math.sin(i / 10.0),
                       y=0.2 * i / 30.0, yaw=0.9 * i / 30.0, who='turtlebot3_node'))
    for k in range(1, 28, 3):
        ops.append(ask('odom', 'base_scan', T0 + k / 30.0 + 0.011))
        ops.append(ask('base_scan', 'odom', T0 + k / 30.0 + 0.017))
    ops += [ask('imu_link', 'base_scan'), ask('odom', 'imu_link'), ask('base_scan', 'base_scan'),
            ask('odom', 'base_scan', T0 + 1.5), ask('odom', 'base_scan', T0 - 0.5)]
    assert_same(ops, tmp_path)


def test_repeated_and_old_stamps_are_refused_as_ros1_refuses_them(tmp_path):
    """A joint state publisher racing Gazebo: the same stamp twice; a restarted node's old data."""
    ops = [put('odom', 'base_link', T0 + 20.0, x=1.0, who='gazebo'),
           put('odom', 'base_link', T0 + 20.0, x=2.0, who='joint_state_publisher'),
           put('odom', 'base_link', T0 + 20.5, x=3.0, who='gazebo'),
           put('odom', 'base_link', T0 + 5.0, x=9.0, who='restarted'),  # > 10 s behind
           put('odom', 'base_link', T0 + 10.5, x=9.0, who='restarted'),  # just inside
           ask('odom', 'base_link', T0 + 20.0), ask('odom', 'base_link', T0 + 20.25),
           ask('odom', 'base_link', T0 + 10.5), ask('odom', 'base_link', T0 + 10.0)]
    answers = assert_same(ops, tmp_path)
    assert 'TF_REPEATED_DATA' in answers[1] and 'TF_OLD_DATA' in answers[3]
    assert answers[5]['t'][0] == pytest.approx(1.0)  # ROS 1 keeps the first value


def test_the_window_prunes_behind_the_newest_stamp(tmp_path):
    """A stall of 12 s: after it, everything older than 10 s behind the newest is gone."""
    ops = [put('map', 'odom', T0 + i, x=float(i), who='amcl') for i in range(6)]
    ops += [put('map', 'odom', T0 + 17.0, x=17.0, who='amcl'),
            ask('map', 'odom', T0 + 3.5), ask('map', 'odom', T0 + 7.0),
            ask('map', 'odom', T0 + 10.0), ask('map', 'odom', T0 + 16.5)]
    answers = assert_same(ops, tmp_path)
    assert answers[-4]['exception'] == 'ExtrapolationException'


def test_missing_frames_two_trees_and_a_loop_word_for_word(tmp_path):
    """Nav2 asking for a frame nobody sends, a camera tree apart, cartographer's loop."""
    ops = [put('map', 'odom', T0 + 1.0, who='amcl'),
           put('odom', 'base_link', T0 + 1.0, who='ekf'),
           put('camera_link', 'camera_optical', 0, static=True, who='realsense'),
           ask('map', 'base_footprint'), ask('base_footprint', 'map'),
           ask('map', 'camera_optical', T0 + 1.0), ask('camera_link', 'odom'),
           ask('map', ''), ask('/map', 'odom'), ask('map', 'base_link', T0 + 1.0),
           put('base_link', 'map', T0 + 1.0, who='cartographer'),
           ask('map', 'base_link', T0 + 1.0), ask('odom', 'camera_optical')]
    answers = assert_same(ops, tmp_path)
    kinds = {answer['exception'] for answer in answers if isinstance(answer, dict)
             and 'exception' in answer}
    assert kinds == {'LookupException', 'ConnectivityException', 'InvalidArgumentException'}


def test_a_loop_asked_every_way_answers_as_tf2_walking_it(tmp_path):
    """
    An edge sent the wrong way round closes a loop: tf2 walks it to its depth bound.

    The model stops at the first frame seen again; every answer must still be tf2's: a target
    on the loop found, a frame off the loop, a time one edge of the loop does not cover, the
    latest common time, and the loop's own text naming every frame's parent.
    """
    ops = [put('map', 'odom', T0 + 1.0, x=1.0), put('map', 'odom', T0 + 2.0, x=2.0),
           put('odom', 'base_link', T0 + 1.0), put('odom', 'base_link', T0 + 2.0),
           put('base_link', 'laser', 0, x=0.27, static=True),
           put('base_link', 'odom', T0 + 1.5, who='reversed'),
           put('base_link', 'odom', T0 + 2.5, who='reversed'),
           ask('map', 'laser', T0 + 1.5), ask('laser', 'map', T0 + 1.5),
           ask('odom', 'laser', T0 + 2.0), ask('laser', 'odom', T0 + 2.0),
           ask('base_link', 'odom', T0 + 2.0), ask('odom', 'base_link', T0 + 2.0),
           ask('map', 'laser', T0 + 9.0), ask('map', 'laser', T0 + 0.5),
           ask('map', 'laser'), ask('laser', 'odom'),
           put('world', 'map', T0 + 2.0), ask('world', 'laser', T0 + 2.0),
           ask('laser', 'world', T0 + 2.0)]
    answers = assert_same(ops, tmp_path)
    assert any(isinstance(a, dict) and 'loop' in a.get('text', '') for a in answers), answers


def test_bad_values_are_refused_with_tf2s_log_lines(tmp_path):
    """NaN, a quaternion off unit length, self-parented and unnamed frames, a leading slash."""
    ops = [put('odom', 'base_link', T0, x=float('nan')),
           put('odom', 'base_link', T0, rotation=(0.0, 0.0, 0.0, 1.2)),
           put('odom', 'base_link', T0, rotation=(0.0, 0.0, 0.0, 1.004)),  # inside 1 %
           put('odom', 'odom', T0), put('', 'base_link', T0), put('odom', '', T0),
           put('/odom', '/laser', T0, x=0.3),
           ask('odom', 'base_link', T0), ask('odom', 'laser', T0)]
    assert_same(ops, tmp_path)


def test_a_frame_that_changes_parent_and_a_single_sample(tmp_path):
    """robot_localization handing base_link from odom to map; a one-off transform."""
    ops = [put('odom', 'base_link', T0 + 1.0, x=1.0), put('odom', 'base_link', T0 + 2.0, x=2.0),
           put('map', 'odom', T0 + 1.0), put('map', 'odom', T0 + 3.0),
           put('map', 'base_link', T0 + 3.0, x=5.0),
           put('map', 'marker', T0 + 2.5, x=0.5, who='rviz_tool'),
           ask('map', 'base_link', T0 + 2.5), ask('map', 'base_link', T0 + 1.5),
           ask('marker', 'base_link', T0 + 2.5), ask('marker', 'base_link', T0 + 2.0),
           ask('map', 'marker'), ask('odom', 'marker')]
    assert_same(ops, tmp_path)


def test_a_static_frame_sent_on_tf_later_stays_static_in_ros1(tmp_path):
    """ROS 1 keeps a frame's first kind of cache (ROS 2 reallocates it: test_tf2_model)."""
    ops = [put('base_link', 'laser', 0, x=0.27, static=True),
           put('base_link', 'laser', T0 + 1.0, x=0.30),
           ask('base_link', 'laser', T0 + 5.0), ask('base_link', 'laser')]
    answers = assert_same(ops, tmp_path)
    assert answers[2]['t'][0] == pytest.approx(0.30)


def test_random_trees_agree_lookup_by_lookup(tmp_path):
    """Seeded random trees, stamps and rotations: hundreds of lookups, each compared."""
    rng = random.Random(22)
    ops: List[Op] = []
    frames = ['root'] + ['f{}'.format(i) for i in range(9)]
    parents = {frame: frames[rng.randrange(i + 1)] for i, frame in enumerate(frames[1:])}
    for frame, parent in parents.items():
        if rng.random() < 0.3:
            ops.append(put(parent, frame, 0, x=rng.uniform(-1, 1), static=True,
                           rotation=_random_quat(rng)))
            continue
        start, rate = rng.uniform(0.0, 2.0), rng.choice((5.0, 10.0, 30.0, 50.0))
        for k in range(int(rate * 4)):
            ops.append(put(parent, frame, T0 + start + k / rate + rng.uniform(0, 0.003),
                           x=rng.uniform(-3, 3), y=rng.uniform(-3, 3), z=rng.uniform(-1, 1),
                           rotation=_random_quat(rng)))
    rng.shuffle(ops)  # arrival out of order, as from several publishers
    for _ in range(300):
        target, source = rng.choice(frames), rng.choice(frames)
        ops.append(ask(target, source, rng.choice((0.0, T0 + rng.uniform(-0.5, 7.0)))))
    answers = assert_same(ops, tmp_path)
    ok = sum(1 for answer in answers if isinstance(answer, dict) and 'stamp' in answer)
    assert 30 < ok < 300  # both kinds of answer were compared


def _random_quat(rng: random.Random) -> Tuple[float, float, float, float]:
    """Return a random rotation, its length off unit by up to 0.4 % (tf2 takes it as is)."""
    q = [rng.gauss(0, 1) for _ in range(4)]
    norm = math.sqrt(sum(v * v for v in q)) / rng.uniform(0.998, 1.002)
    return tuple(v / norm for v in q)  # type: ignore[return-value]


def test_the_oracle_process_never_loads_the_ros2_wheels(tmp_path):
    """The oracle's interpreter is the system one, and it finds no rclpy on its path."""
    probe = subprocess.run([SYSTEM_PYTHON, '-c', 'import importlib.util, sys; '
                            'print(sys.executable, importlib.util.find_spec("rclpy"))'],
                           env=_bare_env(), capture_output=True, text=True)
    assert probe.stdout.split() == [SYSTEM_PYTHON, 'None']
    assert sys.executable != SYSTEM_PYTHON


@pytest.mark.parametrize('faults', [(), ('ekf_map_tf', 'nan_transform'), ('odom_stops',),
                                    ('laser_on_tf', 'bad_quaternion')])
def test_the_simulated_car_agrees_scan_by_scan(tmp_path, faults):
    """The project's own car (frame-audit simulate), healthy and faulty: every scan's lookups."""
    from frame_audit.engine.records import HeaderRecord
    from frame_audit.sim.car import drive

    ops: List[Op] = []
    scans = 0
    for message in drive(8.0, seed=5, faults=faults):
        payload = message.payload
        if isinstance(payload, tuple):
            for record in payload:
                ops.append(('set', record.parent, record.child, to_ns(record.stamp),
                            list(record.translation), list(record.rotation), 'car',
                            message.topic == '/tf_static'))
        elif isinstance(payload, HeaderRecord) and scans < 120:
            scans += 1
            for target in ('map', 'odom'):
                ops.append(ask(target, payload.frame_id, payload.stamp))
    ops.append(ask('map', 'laser'))
    answers = assert_same(ops, tmp_path)
    assert scans == 120 and any(isinstance(a, dict) and 't' in a for a in answers)
