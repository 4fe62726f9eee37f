# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which tf2 answers: the model, or tf2 itself through tf2_py (frame_audit.ros.real_tf2).

The adapter runs for real in a process of the system Python (/usr/bin/python3) with Debian's
python3-tf2 (ROS 1's BufferCore, geometry2 0.7.6), a bare environment and only the repo on
its path, the way test_tf2_oracle.py runs the oracle. The same recordings' transforms go
through the Replay, the lookups check's watch and the --every summary twice, answered once
by the model and once by tf2_py; every answer, refusal, limiting edge and count is compared
here. The command line cannot run there (the system Python has no rosbags): the CLI's
--tf2 is tested in this interpreter, where tf2_py is absent.
"""
import json
import math
import os
from pathlib import Path
import re
import subprocess
import sys
from typing import Any, Dict, List, Sequence, Tuple

from frame_audit.engine.config import config_from_parameters
from frame_audit.engine.geometry import quat_from_rpy
from frame_audit.errors import ConfigError, UsageError
from frame_audit.ros.real_tf2 import choose, missing, NAME
import pytest
from test_tf2_oracle import _bare_env, MISSING, SYSTEM_PYTHON

ROOT = Path(__file__).resolve().parents[2]
T0 = 1700000000.0
Q = [0.0, 0.0, 0.0, 1.0]
needs_tf2_py = pytest.mark.skipif(bool(MISSING), reason=MISSING)

# Run under /usr/bin/python3: each case through the model and through tf2_py, answers as JSON.
BOTH = r"""
import json, sys
from frame_audit.engine.config import LookupEntry
from frame_audit.engine.records import TransformRecord
from frame_audit.engine.tf2.diagnose import explain
from frame_audit.engine.tf2.fixes import prove
from frame_audit.engine.tf2.replay import Replay, TfMessage
from frame_audit.engine.tf2.placed import Stamped, summarize
from frame_audit.engine.tf2.watch import LookupWatch
from frame_audit.ros.real_tf2 import choose

def answer(a):
    e = a.error
    if e is None:
        return {'t': list(a.translation), 'q': list(a.rotation), 'stamp': a.stamp}
    return {'exception': e.exception, 'kind': e.kind, 'text': e.text, 'frame': e.frame}

def run(case, real):
    messages = [TfMessage(r, tuple(TransformRecord(p, c, s, tuple(t), tuple(q))
                                   for p, c, s, t, q in records), static, who)
                for r, static, who, records in case['messages']]
    replay = Replay(messages, case['distro'], real=real)
    out = {'tf2': replay.tf2, 'asks': [], 'explains': []}
    for target, source, time, moment in case.get('asks', []):
        out['asks'].append(answer(replay.ask(target, source, time, moment)))
    for target, source, time, moment, wait in case.get('explains', []):
        e = prove(replay, explain(replay, target, source, time, moment, wait))
        out['explains'].append([e.cause, e.tf2, e.edge.name if e.edge else '',
                                [[t.fix, t.placed, t.refused] for t in e.tried]])
    if 'every' in case:
        topic, target, wait, scans = case['every']
        s = summarize(replay, [Stamped(*m) for m in scans], topic, target, '', wait)
        out['summary'] = [s.asked, s.refused, s.causes, s.edges]
        watch = LookupWatch([LookupEntry(topic, target, wait)], distro=case['distro'], real=real)
        events = sorted([(m.received, 0, i) for i, m in enumerate(messages)] +
                        [(m[2], 1, i) for i, m in enumerate(scans)])
        for received, kind, i in events:
            if kind:
                watch.add_message(topic, scans[i][1], scans[i][0], received)
            else:
                m = messages[i]
                watch.add_transforms(m.records, received, m.static, m.publisher)
        watch.resolve()
        t = watch.tallies(events[-1][0] + 10.0, ended=True)[0]
        out['watch'] = [t.asked, t.judged, t.refused_count, sorted(t.refused), t.tf2]
    return out

cases = json.load(open(sys.argv[1]))
real = choose('tf2_py', 'the test')
json.dump([{'model': run(case, None), 'real': run(case, real)} for case in cases],
          open(sys.argv[2], 'w'))
"""

Message = Tuple[float, bool, str, List[Any]]


def tf(parent: str, child: str, stamp: float, x: float = 0.0, yaw: float = 0.0,
       z: float = 0.0) -> List[Any]:
    """Return one transform of a message: parent, child, stamp, translation, rotation."""
    return [parent, child, stamp, [x, 0.0, z], list(quat_from_rpy(0.0, 0.0, yaw))]


def run_both(cases: Sequence[Dict[str, Any]], tmp_path: Path) -> List[Dict[str, Any]]:
    """Return each case answered by the model and by tf2_py, in the system Python."""
    script, given, said = tmp_path / 'both.py', tmp_path / 'cases.json', tmp_path / 'out.json'
    script.write_text(BOTH)
    given.write_text(json.dumps(list(cases)))
    done = subprocess.run([SYSTEM_PYTHON, str(script), str(given), str(said)],
                          env=dict(_bare_env(), PYTHONPATH=str(ROOT)), cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(said.read_text())


def _to_us(text: str) -> str:
    """
    Return tf2's text with its times to the microsecond.

    tf2_py (ROS 1) reads stamps as float seconds: its last digits differ from the model's.
    """
    return re.sub(r'\d+\.\d{6,}', lambda found: '{:.6f}'.format(float(found.group())), text)


def assert_agree(model: Dict[str, Any], real: Dict[str, Any]) -> None:
    """Every ask: both answered with the same value, or both refused alike, word for word."""
    assert real['tf2'] == NAME and model['tf2'].endswith(' model)')
    assert len(model['asks']) == len(real['asks'])
    for step, (have, want) in enumerate(zip(model['asks'], real['asks'])):
        if 'exception' in want:
            assert 'exception' in have, 'ask {}: tf2 refused ({}), the model answered'.format(
                step, want['text'])
            assert (have['exception'], have['kind'], have['frame']) == \
                (want['exception'], want['kind'], want['frame']), step
            assert _to_us(have['text']) == _to_us(want['text']), step
        else:
            assert 'exception' not in have, 'ask {}: {}'.format(step, have.get('text'))
            assert have['t'] == pytest.approx(want['t'], abs=1e-6), step
            assert abs(have['stamp'] - want['stamp']) < 1000, step
            sign = 1.0 if sum(a * b for a, b in zip(have['q'], want['q'])) >= 0 else -1.0
            assert [sign * q for q in have['q']] == pytest.approx(want['q'], abs=1e-6), step
    assert [e[0] for e in model['explains']] == [e[0] for e in real['explains']]
    assert [e[2:] for e in model['explains']] == [e[2:] for e in real['explains']]


def f1tenth(map_behind_s: float, seconds: float = 30.0) -> Dict[str, Any]:
    """Return the issue's F1TENTH car: odom 50 Hz on time, map -> odom 10 Hz, /scan 40 Hz."""
    messages: List[Message] = [(T0, True, 'robot_state_publisher',
                                [tf('base_link', 'laser', T0, x=0.27, z=0.11)])]
    messages += [(T0 + k / 50 + 0.002, False, 'vesc_to_odom',
                  [tf('odom', 'base_link', T0 + k / 50, x=0.02 * k)])
                 for k in range(int(seconds * 50))]
    messages += [(T0 + 0.08 + k / 10 + map_behind_s, False, 'slam_toolbox',
                  [tf('map', 'odom', T0 + 0.08 + k / 10, x=0.1)])
                 for k in range(int(seconds * 10))]
    messages.sort(key=lambda m: m[0])
    scans = [[T0 + 0.525 + k / 40, 'laser', T0 + 0.526 + k / 40]
             for k in range(int(round((seconds - 0.6) * 40)))]
    return {'distro': 'noetic', 'messages': messages, 'every': ['/scan', 'map', 0.1, scans],
            'explains': [['map', 'laser', T0 + 13.0, T0 + 13.05, 0.1]],
            'asks': [['map', 'laser', T0 + 13.0, T0 + 13.05],
                     ['odom', 'laser', T0 + 13.0, T0 + 13.05], ['map', 'laser', 0, T0 + 20.0]]}


@needs_tf2_py
def test_the_measured_car_is_refused_alike_by_tf2_itself_and_the_model(tmp_path):
    """The car with map -> odom 0.32 s late: 1,176 scans refused by both; its twin placed."""
    late, ahead = run_both([f1tenth(0.32), f1tenth(-0.1)], tmp_path)
    for case in (late, ahead):
        assert_agree(case['model'], case['real'])
    for side in ('model', 'real'):
        assert late[side]['summary'][:2] == [1176, 1176]
        assert late[side]['summary'][3] == {'map → odom': 1176}
        assert late[side]['watch'][2:4] == [1176, ['map → odom']]
        assert late[side]['explains'][0][:1] == ['late_stamps']
        assert ahead[side]['summary'][:2] == [1176, 0] and ahead[side]['watch'][2] == 0
    assert late['real']['explains'][0][1] == NAME
    assert late['real']['watch'][4] == NAME and late['model']['watch'][4] == 'tf2 (noetic ' \
        'model)'
    assert re.match(r'Lookup would require extrapolation 0\.3[12]\d+s into the future\.  '
                    r'Requested time 1700000013\.000000000 but the latest data is at time '
                    r'1700000012\.6[6-9]\d+, when looking up transform from frame \[laser\] to '
                    r'frame \[map\]$', late['real']['asks'][0]['text'])  # the words


@needs_tf2_py
def test_turtlebot_diff_drive_and_nav2_trees_answer_alike(tmp_path):
    """
    Answer alike for several robots' trees.

    TurtleBot3 interpolation, a ros2_control diff drive under robot_localization's map, Nav2
    asking for a frame nobody sends, a camera tree apart, cartographer's loop.
    """
    turtle: List[Message] = [(T0, True, 'robot_state_publisher',
                              [tf('base_footprint', 'base_link', T0, z=0.01),
                               tf('base_link', 'base_scan', T0, x=-0.032, z=0.172)])]
    turtle += [(T0 + i / 30 + 0.003, False, 'turtlebot3_node',
                [tf('odom', 'base_footprint', T0 + i / 30, x=0.5 * math.sin(i / 10),
                    yaw=0.9 * i / 30)]) for i in range(60)]
    asks = [['odom', 'base_scan', T0 + k / 30 + 0.011, T0 + 2.1] for k in range(1, 55, 6)]
    asks += [['base_scan', 'odom', 0, T0 + 2.1], ['odom', 'base_scan', T0 + 2.5, T0 + 2.1],
             ['odom', 'base_scan', T0 - 0.5, T0 + 2.1], ['map', 'base_scan', 0, T0 + 2.1]]
    drive: List[Message] = [(T0, True, 'robot_state_publisher',
                             [tf('base_link', 'camera_link', T0, x=0.1),
                              tf('camera_frame', 'camera_optical', T0)])]
    drive += [(T0 + i / 50 + 0.001, False, 'diff_drive_controller',
               [tf('odom', 'base_link', T0 + i / 50, x=0.01 * i)]) for i in range(100)]
    drive += [(T0 + i / 5 + 0.05, False, 'ekf_filter_node_map',
               [tf('map', 'odom', T0 + i / 5, yaw=0.01 * i)]) for i in range(10)]
    drive.append((T0 + 1.95, False, 'cartographer_node',
                  [tf('camera_link', 'map', T0 + 1.9)]))
    drive.sort(key=lambda m: m[0])  # in arrival order, as a recording holds them
    asks_drive = [['map', 'base_link', T0 + 1.0, T0 + 1.5], ['map', 'base_link', T0 + 1.7,
                                                             T0 + 1.71],
                  ['map', 'base_footprint', 0, T0 + 1.5], ['map', 'camera_optical', 0, T0 + 1.5],
                  ['', 'odom', 0, T0 + 1.5], ['map', 'camera_link', T0 + 1.0, T0 + 1.5],
                  ['camera_frame', 'odom', 0, T0 + 1.96]]
    explains = [['map', 'base_link', T0 + 1.7, T0 + 1.71, 0.1],
                ['map', 'camera_optical', 0, T0 + 1.5, 0.1]]
    cases = [{'distro': 'noetic', 'messages': turtle, 'asks': asks},
             {'distro': 'noetic', 'messages': drive, 'asks': asks_drive, 'explains': explains}]
    answers = run_both(cases, tmp_path)
    for case in answers:
        assert_agree(case['model'], case['real'])
    kinds = {a.get('kind') for case in answers for a in case['real']['asks']}
    assert kinds == {None, 'past', 'future', 'no_frame', 'two_trees', 'invalid', 'loop'}
    assert [e[0] for e in answers[1]['real']['explains']] == ['low_rate', 'two_trees']


@needs_tf2_py
def test_a_bag_loop_clears_both_and_where_ros1_and_ros2_differ_it_is_said(tmp_path):
    """
    Clear both on a bag loop; say where ROS 1's tf2 and the Kilted model differ.

    A receive clock going back (bag loop) clears tf2 and the model alike. A frame sent on
    /tf first and /tf_static after: ROS 1's BufferCore keeps its time cache and refuses
    (setTransformImpl, 0.7.6), Kilted's reallocates a static one and answers (the model's
    static_switch_reallocates): the explanation says the two differ, no edge is invented.
    """
    looped: List[Message] = [(T0 + 5.0 + i / 10, False, 'amcl',
                              [tf('map', 'odom', T0 + 5.0 + i / 10)]) for i in range(20)]
    looped += [(T0 + i / 10, False, 'amcl', [tf('map', 'odom', T0 + i / 10)]) for i in range(3)]
    switched: List[Message] = [(T0 + i / 10, False, 'joint_state_publisher',
                                [tf('base_link', 'lidar', T0 + i / 10, x=0.2)])
                               for i in range(5)]
    switched.append((T0 + 0.5, True, 'static_transform_publisher',
                     [tf('base_link', 'lidar', T0, x=0.2)]))
    cases = [{'distro': 'noetic', 'messages': looped,
              'asks': [['map', 'odom', T0 + 6.0, T0 + 6.85], ['map', 'odom', T0 + 6.0, T0 + 7.5],
                       ['map', 'odom', T0 + 0.15, T0 + 7.5]]},
             {'distro': 'kilted', 'messages': switched,
              'explains': [['base_link', 'lidar', T0 + 3.0, T0 + 3.1, 0.1]]}]
    loop, switch = run_both(cases, tmp_path)
    assert_agree(loop['model'], loop['real'])
    assert [a.get('kind') for a in loop['real']['asks']] == [None, 'future', None]
    assert switch['model']['explains'][0][0] == 'ok'  # Kilted's tf2 (the model) answers
    assert switch['real']['explains'][0][:2] == ['models_differ', NAME]


def first_scan_early(odom_from: float, map_static: bool) -> Dict[str, Any]:
    """
    Return a car whose first scans come before odom -> base_link's first sample.

    map -> odom is sent once (on /tf, or on /tf_static: the fix a time-matching diagnosis
    printed). The lookup odom <- laser at 0.55 s: tf2's walk up from laser stops at base_link
    (no parent yet), then it reads odom's own parent edge, map -> odom, and names it.
    """
    messages: List[Message] = [(T0, True, 'robot_state_publisher',
                                [tf('base_link', 'laser', T0, x=0.27, z=0.11)]),
                               (T0 + 0.01, map_static, 'map_server', [tf('map', 'odom', T0)])]
    messages += [(T0 + odom_from + k / 50 + 0.002, False, 'vesc_to_odom',
                  [tf('odom', 'base_link', T0 + odom_from + k / 50, x=0.02 * k)])
                 for k in range(100)]
    return {'distro': 'noetic', 'messages': messages,
            'asks': [['odom', 'laser', T0 + 0.55, T0 + 0.6]],
            'explains': [['odom', 'laser', T0 + 0.55, T0 + 0.6, 0.1]]}


@needs_tf2_py
def test_the_limiting_edge_is_on_the_lookups_chain_not_the_edge_tf2_names(tmp_path):
    """
    Issue 30: tf2 names map -> odom, off the chain; the limit is odom -> base_link, not sent yet.

    Proven in tf2 itself: sending map -> odom on /tf_static (what was printed before) still
    refuses; odom -> base_link sent from the start places the lookup.
    """
    refused, static_fix, twin = run_both([first_scan_early(1.0, False),
                                          first_scan_early(1.0, True),
                                          first_scan_early(0.0, False)], tmp_path)
    for case in (refused, static_fix, twin):
        assert_agree(case['model'], case['real'])
    for side in ('model', 'real'):
        ask = refused[side]['asks'][0]
        assert ask['kind'] == 'single' and ask['frame'] == 'odom', ask  # map -> odom's words
        assert refused[side]['explains'][0][0::2] == ['before_first', 'odom → base_link']
        assert 'exception' in static_fix[side]['asks'][0]  # the old fix: still refused
        assert 'exception' not in twin[side]['asks'][0]  # the true limit sent: placed


def habit(name: str) -> Dict[str, Any]:
    """
    Return a car (map -> odom -> base_link -> laser) with one habit, and its lookup map <- laser.

    Each habit is a cause whose fix explain applies and asks again (issue 30).
    """
    map_odom = {'late_stamps': (10.0, 0.3), 'low_rate': (2.0, 0.002),
                'older_than_cache': (10.0, 0.002), 'two_late': (10.0, 0.3)}
    messages: List[Message] = [(T0, True, 'robot_state_publisher',
                                [tf('base_link', 'laser', T0, x=0.27, z=0.11)])]
    odom_late = 0.3 if name == 'two_late' else 0.002
    messages += [(T0 + k / 50 + 0.002, False, 'imu_filter',  # the clock: on time
                  [tf('base_link', 'imu_link', T0 + k / 50)]) for k in range(1000)]
    if name != 'two_trees':
        messages += [(T0 + k / 50 + odom_late, False, 'vesc_to_odom',
                      [tf('odom', 'base_link', T0 + k / 50, x=0.02 * k)]) for k in range(1000)]
    if name in map_odom:
        rate, late = map_odom[name]
        messages += [(T0 + k / rate + late, False, 'slam_toolbox',
                      [tf('map', 'odom', T0 + k / rate)]) for k in range(int(20 * rate))]
    elif name == 'sent_once':
        messages.append((T0 + 0.01, False, 'map_server', [tf('map', 'odom', T0)]))
    elif name == 'two_trees':
        messages += [(T0 + k / 10 + 0.002, False, 'slam_toolbox', [tf('map', 'odom', T0 + k / 10)])
                     for k in range(200)]
    elif name == 'two_parents':
        for k in range(200):
            messages.append((T0 + k / 10 + 0.003, False, 'slam_toolbox',
                             [tf('map', 'odom', T0 + k / 10)]))
            messages.append((T0 + k / 10 + 0.053, False, 'imu_filter',
                             [tf('odom_imu', 'odom', T0 + k / 10 + 0.05)]))
    messages.sort(key=lambda m: m[0])
    asked = {'older_than_cache': (T0 + 2.0, T0 + 16.0), 'two_parents': (T0 + 2.06, T0 + 2.2)
             }.get(name, (T0 + 5.1, T0 + 5.202))
    return {'distro': 'noetic', 'messages': messages, 'asks': [['map', 'laser', *asked]],
            'explains': [['map', 'laser', *asked, 0.1]]}


FIXED = {'late_stamps': ('late_stamps', ['wait', 'stamp']), 'low_rate': ('low_rate', ['wait',
                                                                                      'rate']),
         'older_than_cache': ('older_than_cache', ['cache']), 'sent_once': ('sent_once',
                                                                            ['static']),
         'two_trees': ('two_trees', ['join']), 'two_parents': ('two_parents', ['one_parent'])}


@needs_tf2_py
def test_each_fix_explain_prints_places_the_lookup_in_tf2_itself(tmp_path):
    """
    Issue 30: each cause's fix applied to the data and asked again of tf2_py and the model.

    Both must place the lookup with each fix; with two late edges, re-stamping the one tf2
    names is no fix (the other still refuses), and both say so.
    """
    names = list(FIXED) + ['two_late']
    cases = run_both([habit(name) for name in names], tmp_path)
    for name, case in zip(names, cases):
        assert_agree(case['model'], case['real'])
        for side in ('model', 'real'):
            cause, edge, tried = case[side]['explains'][0][0], case[side]['explains'][0][2], \
                case[side]['explains'][0][3]
            if name == 'two_late':
                assert cause == 'late_stamps' and ['stamp', 0, 1] in tried, (side, tried)
            else:
                assert cause == FIXED[name][0], (name, side, edge)
                assert [fix for fix, _, _ in tried] == FIXED[name][1], (name, side, tried)
                assert all(placed == refused for _, placed, refused in tried), (name, tried)


def test_where_tf2_py_is_absent_auto_is_the_model_and_tf2_py_one_line():
    """This interpreter (the ROS 2 wheels) has no tf2_py: auto falls back, tf2_py is refused."""
    if not missing():
        pytest.skip('tf2_py is importable here')
    assert choose('auto', '--tf2 auto') is None and choose('model', '--tf2 model') is None
    with pytest.raises(UsageError) as refused:
        choose('tf2_py', '--tf2 tf2_py')
    text = str(refused.value)
    assert '\n' not in text and text.startswith('--tf2 tf2_py asks for tf2 itself')
    assert "No module named 'tf2_py'" in text


def test_lookups_tf2_is_a_config_key_with_three_values():
    """lookups.tf2 takes auto, model or tf2_py; anything else names the key."""
    assert config_from_parameters({}).lookups_tf2 == 'auto'
    assert config_from_parameters({'lookups.tf2': 'tf2_py'}).lookups_tf2 == 'tf2_py'
    with pytest.raises(ConfigError, match='lookups.tf2: expected one of auto, model, tf2_py, '
                                          "got 'real'"):
        config_from_parameters({'lookups.tf2': 'real'})


def test_the_command_line_says_which_tf2_answered(tmp_path):
    """Name the tf2 that answered lookup and explain; --tf2 tf2_py where it is absent: a line."""
    from app.test_explain import car, MEASURED

    recording = car(tmp_path / 'late.mcap', seconds=15.0)
    command = [sys.executable, '-m', 'frame_audit']
    env = dict(os.environ, COLUMNS='200')

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(command + [str(a) for a in args], capture_output=True,
                              text=True, timeout=300, env=env)
    looked = run('lookup', recording, 'map', 'laser', '--every', '/scan', '--tf2', 'model')
    assert looked.returncode == 1 and '(tf2 (kilted model) answered, asked' in looked.stdout
    explained = run('explain', recording, MEASURED)
    assert explained.returncode == 0, explained.stderr
    assert 'tf2 (noetic model): ExtrapolationException' in explained.stdout
    if missing():
        refused = run('lookup', recording, 'map', 'laser', '--at', '+5', '--tf2', 'tf2_py')
        assert refused.returncode == 2 and refused.stdout == ''
        assert len(refused.stderr.strip().splitlines()) == 1
        assert 'tf2_py is not importable here' in refused.stderr


def test_the_audit_says_which_tf2_answered_its_lookups_check(tmp_path):
    """The lookups check names its tf2; lookups.tf2: tf2_py where it is absent is one line."""
    from app.test_explain import car

    recording = car(tmp_path / 'late.mcap', seconds=15.0)
    command = [sys.executable, '-m', 'frame_audit', 'audit', str(recording), '--format', 'json']
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    lookups = [f['message'] for f in json.loads(done.stdout)['findings']
               if f['check'] == 'lookups']
    assert lookups and all('tf2 (kilted model) said: "Lookup would require' in m
                           for m in lookups), lookups
    if missing():
        config = tmp_path / 'tf2_py.yaml'
        config.write_text('frame_audit:\n  ros__parameters:\n    lookups:\n      tf2: tf2_py\n')
        refused = subprocess.run(command + ['--config', str(config)], capture_output=True,
                                 text=True, timeout=300)
        assert refused.returncode == 2 and refused.stdout == ''
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert 'lookups.tf2' in refused.stderr and 'tf2_py is not importable' in refused.stderr
