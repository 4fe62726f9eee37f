# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit explain` and `frame-audit lookup` on recordings made for each tf2 error kind.

Every recording is written in the test with the project's writer (rosbags, MCAP and SQLite),
each refusal beside its healthy twin where the same lookups succeed. The pasted texts are tf2's
words: the issue's own measured line (printed by python3-tf2, geometry2 0.7.6) and ROS 2's
wording of cache.cpp; test_tf2_oracle.py holds the model's words to tf2's.
"""
import json
import os
from pathlib import Path
import re
import subprocess
import sys
from typing import List, Optional

from frame_audit.app.explain import explain_error, lookup_in
from frame_audit.engine.records import HeaderRecord, Message, TF_STATIC_TOPIC, TF_TOPIC, \
    TransformRecord
from frame_audit.engine.tf2.parse import filter_reason, parse_tf2_error, PasteError
from frame_audit.engine.tf2.replay import Replay, TfMessage
from frame_audit.errors import UsageError
from frame_audit.message_types import POSE_WITH_COVARIANCE
from frame_audit.recordings.read import read_messages
from frame_audit.recordings.write import write_bag
from frame_audit.reports.explain import explained_text
import pytest
from robots import PoseOut, RACECAR, record, T0, TURTLESIM, variant

COMMAND = [sys.executable, '-m', 'frame_audit']
Q = (0.0, 0.0, 0.0, 1.0)
MEASURED = ('Lookup would require extrapolation 0.319999933s into the future.  Requested time '
            '1700000013.000000000 but the latest data is at time 1700000012.680000067, when '
            'looking up transform from frame [laser] to frame [map]')


def run(*args):
    """Run frame-audit in a fresh process, as a user would."""
    return subprocess.run(COMMAND + [str(a) for a in args], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, COLUMNS='200'))


def car(path: Path, map_behind_s: float = 0.32, seconds: float = 30.0,
        statics: bool = True, map_stop: Optional[float] = None) -> Path:
    """
    Write the F1TENTH car: odom -> base_link 50 Hz on time, map -> odom 10 Hz, /scan 40 Hz.

    map -> odom is stamped map_behind_s before it arrives (slam_toolbox stamping with the scan
    it corrected, late); negative: future-dated, as transform_timeout does. Its stamps fall on
    T0 + 0.08 + k / 10, so the issue's 12.68 is one of them.
    """
    messages: List[Message] = []
    if statics:
        messages.append(Message(T0, TF_STATIC_TOPIC, (TransformRecord(
            'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),)))
    for k in range(int(seconds * 50)):
        t = T0 + k / 50
        messages.append(Message(t + 0.002, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', t, (0.02 * k, 0.0, 0.0), Q),)))
    for k in range(int(seconds * 10)):
        stamp = T0 + 0.08 + k / 10
        if map_stop is not None and map_stop <= stamp - T0 < map_stop + 2.0:
            continue  # slam_toolbox stalls for 2 s
        messages.append(Message(stamp + map_behind_s, TF_TOPIC, (TransformRecord(
            'map', 'odom', stamp, (0.1, 0.0, 0.0), Q),)))
    for k in range(int(round((seconds - 0.6) * 40))):  # 1,176 scans in 30 s, as measured
        t = T0 + 0.525 + k / 40
        messages.append(Message(t + 0.001, '/scan', HeaderRecord('laser', t)))
    messages.sort(key=lambda m: m.received)
    write_bag(path, messages, beams=8)
    return path


@pytest.fixture(scope='module')
def cars(tmp_path_factory):
    """Record the car with map -> odom 0.32 s late (MCAP), its twin future-dated (SQLite)."""
    folder = tmp_path_factory.mktemp('cars')
    return car(folder / 'late.mcap'), car(folder / 'ahead.db3', map_behind_s=-0.1)


def test_the_measured_case_every_scan_is_refused_for_map_and_placed_in_odom(cars):
    """The issue's case: every scan refused for map with a 0.1 s wait, the fix as numbers."""
    late = lookup_in(cars[0], 'map', 'laser', every='/scan', wait_s=0.1).summary
    assert late.asked == 1176 and late.refused == late.asked
    assert late.causes == {'late_stamps': late.asked} and late.edges == {'map → odom': 1176}
    assert 0.22 < late.stamp_later_s < 0.33  # stamp map -> odom this much later...
    assert 0.32 < late.wait_needed_s < 0.45  # ...or wait this long
    assert late.worst.edge.behind_s == pytest.approx(0.32, abs=1e-6)
    placed = lookup_in(cars[0], 'odom', 'laser', every='/scan', wait_s=0.1).summary
    assert placed.refused == 0 and placed.asked == 1176


def test_the_healthy_twin_future_dated_places_every_scan(cars):
    """Future-dated map -> odom (0.1 s): tf2 places all of them, in every distribution."""
    for distro in ('kilted', 'humble', 'noetic'):
        ahead = lookup_in(cars[1], 'map', 'laser', every='/scan', wait_s=0.1,
                          distro=distro).summary
        assert (ahead.refused, ahead.asked) == (0, 1176), distro


def test_the_measured_line_is_explained_and_reproduced(cars):
    """python3-tf2's own line (ROS 1 wording): found, reproduced word for word, explained."""
    explained = explain_error(cars[0], '[ WARN] [1700000013.101]: ' + MEASURED)
    assert explained.pasted.ros1_wording and explained.reproduced
    e = explained.explanation
    assert e.distro == 'noetic' and e.cause == 'late_stamps'
    assert e.edge.name == 'map → odom' and e.edge.lag_s == pytest.approx(0.32, abs=1e-6)
    assert T0 + 13.0 <= e.asked_at < T0 + 13.1  # while 12.68 was the newest
    assert 'stamp map → odom 0.325 s later' in e.fix
    healthy = explain_error(cars[1], MEASURED)
    assert healthy.explanation is None and 'another run' in healthy.note


@pytest.mark.parametrize('prefix', ['', '[WARN] [1700000013.101000000] [slam_toolbox]: ',
                                    '[component_container-1] [WARN] [1700000013.1] [amcl]: '
                                    'Timed out waiting for transform, tf error: '])
def test_the_ros2_wording_with_any_prefix(cars, prefix):
    """ROS 2's words (cache.cpp: no distance, six decimals), under a log prefix or a wrapper."""
    text = prefix + ('Lookup would require extrapolation into the future.  Requested time '
                     '1700000013.000000 but the latest data is at time 1700000012.680000, '
                     'when looking up transform from frame [laser] to frame [map]')
    explained = explain_error(cars[0], text)
    assert explained.reproduced and explained.explanation.distro == 'kilted'
    assert explained.explanation.cause == 'late_stamps'


def test_explain_from_the_command_line_exits_0_and_names_the_edge(cars):
    """The text a user reads: the edge, its numbers and where they came from, the fix."""
    done = run('explain', cars[0], MEASURED)
    assert done.returncode == 0, done.stderr
    assert 'limiting edge: map → odom on /tf' in done.stdout
    assert '0.320 s behind their arrival' in done.stdout
    assert 'sender: not recorded' in done.stdout and 'fix: stamp map → odom' in done.stdout
    data = json.loads(run('explain', cars[0], MEASURED, '--format', 'json').stdout)
    assert data['explanation']['edge']['name'] == 'map → odom'


def test_lookup_from_the_command_line_exits_1_when_refused(cars):
    """Exit 1 from lookup --every when any is refused (the late car), 0 for its twin."""
    late = run('lookup', cars[0], 'map', 'laser', '--every', '/scan', '--tolerance', '0.1')
    assert late.returncode == 1, late.stderr
    assert '1176 of 1176 messages of /scan (100.0 %) could not be placed in map' in late.stdout
    ahead = run('lookup', cars[1], 'map', 'laser', '--every', '/scan')
    assert ahead.returncode == 0 and '0 of 1176' in ahead.stdout
    once = run('lookup', cars[0], 'map', 'laser', '--at', '+5.0')
    assert once.returncode == 1 and 'late_stamps' in once.stdout
    assert run('lookup', cars[1], 'map', 'laser', '--at', '+5.0').returncode == 0


def test_every_fix_the_summary_prints_is_tried_in_tf2(cars, tmp_path):
    """
    Issue 30: each printed fix is applied to the recording and the refused asked again.

    The late car: stamping map → odom later and the wait each place all 1,176. Its twin with
    slam_toolbox also stalling 2 s: stamping later places only some; the text says so.
    """
    late = lookup_in(cars[0], 'map', 'laser', every='/scan', wait_s=0.1)
    assert {t.fix: (t.placed, t.refused) for t in late.tried} == {
        'wait': (1176, 1176), 'stamp': (1176, 1176)}
    stalled = car(tmp_path / 'stalled.mcap', map_stop=10.0)
    both = lookup_in(stalled, 'map', 'laser', every='/scan', wait_s=0.1)
    assert both.summary.causes == {'late_stamps': 1084, 'stall': 92}
    stamp = next(t for t in both.tried if t.fix == 'stamp')
    assert 1084 <= stamp.placed < stamp.refused == 1176
    text = run('lookup', stalled, 'map', 'laser', '--every', '/scan').stdout
    assert "stamp map → odom 0.300 s later (its publisher's transform timeout or tolerance); " \
        'tried: tf2 then places only {} of the 1176 refused: not a fix for all'.format(
            stamp.placed) in text
    assert 'would have placed every one; tried: tf2 then places all 1176 refused' in text


def test_a_printed_wait_places_the_lookups_when_asked_again(tmp_path):
    """
    Issue 30: the wait was the limiting edge's covering sample's, and another edge still missed.

    Scans on time; odom → base_link 0.15 s late is the edge tf2 names (its walk meets it
    first); map → odom 0.25 s late misses too. The wait printed, asked again, places them all.
    """
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
    messages += [Message(T0 + k / 50 + 0.15, TF_TOPIC, (TransformRecord(
        'odom', 'base_link', T0 + k / 50, (0.02 * k, 0.0, 0.0), Q),)) for k in range(500)]
    messages += [Message(T0 + k / 10 + 0.25, TF_TOPIC, (TransformRecord(
        'map', 'odom', T0 + k / 10, (0.1, 0.0, 0.0), Q),)) for k in range(100)]
    scans = [T0 + 1.013 + k / 10 for k in range(60)]
    messages += [Message(t + 0.001, '/scan', HeaderRecord('laser', t)) for t in scans]
    path = tmp_path / 'two_late.mcap'
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    looked = lookup_in(path, 'map', 'laser', every='/scan', wait_s=0.1)
    summary = looked.summary
    assert summary.refused == 60 and summary.edges == {'odom → base_link': 60}, summary.edges
    assert summary.wait_needed_s > 0.25  # past map → odom's samples, not only its own
    assert {t.fix: (t.placed, t.refused) for t in looked.tried}['wait'] == (60, 60)


def test_plot_draws_the_limiting_edges_lag_and_every_refusal(cars, tmp_path):
    """
    Issue 30: --plot draws map → odom's lag, the scan's delay, the wait, and 1,176 refusals.

    Its twin places every scan: nothing to draw, one warning line, the exit code the lookup's.
    A picture in a format not drawn is refused before the recording is read.
    """
    picture = tmp_path / 'late.svg'
    late = run('lookup', cars[0], 'map', 'laser', '--every', '/scan', '--plot', picture)
    assert late.returncode == 1 and late.stderr == '', late.stderr
    svg = picture.read_text()
    assert 'map → odom: arrival − stamp' in svg and '/scan (median of 1176): 0.001 s' in svg
    refused = svg[svg.index('<g id="refused">'):]
    assert refused[:refused.index('</g>')].count('<use ') == 1176
    assert len(re.findall(r'<use ', svg[svg.index('<g id="edge_lag">'):].split('</g>')[0])) \
        == 300  # map → odom's 300 samples
    explained = run('explain', cars[0], MEASURED, '--plot', tmp_path / 'one.png')
    assert explained.returncode == 0 and (tmp_path / 'one.png').read_bytes()[:4] == b'\x89PNG'
    ahead = run('lookup', cars[1], 'map', 'laser', '--every', '/scan', '--plot',
                tmp_path / 'ahead.svg')
    assert ahead.returncode == 0 and not (tmp_path / 'ahead.svg').exists()
    assert ahead.stderr.count('\n') == 1 and 'not drawn: no limiting edge' in ahead.stderr
    wrong = run('lookup', cars[0], 'map', 'laser', '--every', '/scan', '--plot',
                tmp_path / 'late.pdf')
    assert wrong.returncode == 2 and wrong.stderr.count('\n') == 1 and '.svg or .png' in \
        wrong.stderr


def test_a_stall_is_told_from_late_stamps(tmp_path):
    """slam_toolbox silent for 2 s, on time otherwise: a stall, with the wait that bridges it."""
    path = car(tmp_path / 'stall.mcap', map_behind_s=-0.05, seconds=12.0, map_stop=6.0)
    summary = lookup_in(path, 'map', 'laser', every='/scan', wait_s=0.1).summary
    assert summary.causes.get('stall', 0) > 50 and 'late_stamps' not in summary.causes
    assert 6.0 < summary.first_refused < 6.8
    assert 1.5 < summary.wait_needed_s < 2.3


def test_a_rate_too_low_for_the_wait(tmp_path):
    """A TurtleBot's AMCL map -> odom at 2 Hz, on time: the rate, not the stamps, limits."""
    slow = record(tmp_path, variant(RACECAR, 'slow_amcl', map_hz=2.0, seconds=6.0))
    summary = lookup_in(slow, 'map', 'lidar', every='/scan', wait_s=0.1).summary
    assert summary.refused and summary.causes.get('low_rate', 0) >= summary.refused // 2
    healthy = record(tmp_path, variant(RACECAR, 'racecar6', seconds=6.0))
    twin = lookup_in(healthy, 'map', 'lidar', every='/scan', wait_s=0.1).summary
    assert set(twin.causes) <= {'before_first'} and twin.refused <= 1  # the first scan only


def test_a_frame_nobody_sends_and_a_missing_tf_static(tmp_path):
    """Nav2 asking for base_footprint: near names offered; a recorder started after statics."""
    turtle = record(tmp_path, variant(RACECAR, 'no_statics', tf_static=False, seconds=3.0))
    text = '"lidar" passed to lookupTransform argument source_frame does not exist. '
    explained = explain_error(turtle, text)
    assert explained.explanation.cause == 'static_missing'
    healthy = record(tmp_path, variant(RACECAR, 'with_statics', seconds=3.0))
    sent = explain_error(healthy, text)  # lidar is sent from the start: not this recording
    assert sent.explanation is None and 'tf2 knows it at every moment after' in sent.note
    assert lookup_in(healthy, 'map', 'lidar', at='+1.0').one.answer.ok
    nav2 = explain_error(healthy, 'Invalid frame ID "base_footprint" passed to canTransform '
                         'argument target_frame - frame does not exist')
    assert nav2.explanation.cause == 'nobody_sends'


def test_a_frame_first_sent_late_is_not_yet(tmp_path):
    """robot_state_publisher starting 3 s after the base: the LiDAR frame is not there yet."""
    messages = [Message(T0 + k / 20 + 0.002, TF_TOPIC, (TransformRecord(
        'odom', 'base_link', T0 + k / 20, (0.01 * k, 0.0, 0.0), Q),)) for k in range(120)]
    messages.append(Message(T0 + 3.0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0 + 3.0, (0.27, 0.0, 0.11), Q),)))
    path = tmp_path / 'late_rsp.mcap'
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    text = '"laser" passed to lookupTransform argument source_frame does not exist. '
    e = explain_error(path, text).explanation
    assert e.cause == 'not_yet' and 'first sent 0.001 s after the lookup, 3.00 s into' in e.why


def test_two_trees_and_a_loop(tmp_path):
    """A camera tree apart from the robot's; an edge sent the wrong way round."""
    apart = record(tmp_path, variant(RACECAR, 'camera', seconds=3.0, extra_edges=(
        ('camera_link', 'camera_optical', (0.0, 0.0, 0.0), 0.0),)))
    text = ("Could not find a connection between 'map' and 'camera_optical' because they are "
            'not part of the same tree.Tf has two or more unconnected trees.')
    explained = explain_error(apart, text)
    assert explained.explanation.cause == 'two_trees'
    assert 'camera_link' in explained.explanation.why
    assert lookup_in(apart, 'map', 'lidar', at='0').one.answer.ok  # the twin lookup
    looped = record(tmp_path, variant(RACECAR, 'looped', seconds=3.0, extra_edges=(
        ('lidar', 'odom', (0.0, 0.0, 0.0), 0.0),)))
    loop = explain_error(looped, 'The tf tree is invalid because it contains a loop.')
    assert loop.explanation.cause == 'loop' and 'lidar → odom' in loop.explanation.why
    assert explain_error(apart, 'The tf tree is invalid because it contains a loop.'
                         ).explanation is None


def test_asked_before_the_window_and_clocks_apart(tmp_path):
    """Into the past (older than the 10 s cache); a turtlesim asked on another clock."""
    path = car(tmp_path / 'long.mcap', map_behind_s=-0.05, seconds=25.0)
    old = lookup_in(path, 'map', 'laser', at='+2.0', wait_s=20.0)
    assert old.one.cause == 'older_than_cache' and old.one.fix_s > 10.0
    assert lookup_in(path, 'map', 'laser', at='+20.0').one.answer.ok
    turtle = record(tmp_path, TURTLESIM)
    apart = lookup_in(turtle, 'world', 'turtle1', at=str(T0 + 60.0), wait_s=0.1)
    assert apart.one.cause == 'clocks_apart'


def printed(path: Path, target: str, source: str, requested: float, moment: float) -> str:
    """Return the error tf2 prints when asked target <- source at requested, at moment."""
    messages = [TfMessage(m.received, m.payload, m.topic == TF_STATIC_TOPIC, m.publisher)
                for m in read_messages(path) if isinstance(m.payload, tuple)]
    error = Replay(messages).ask(target, source, requested, moment).error
    assert error is not None, (requested, moment)
    return error.text


@pytest.mark.parametrize('asked_s,moment_s', [(2.5, 14.0), (2.0, 16.3), (11.0, 23.9),
                                              (0.6, 11.5)])
def test_into_the_past_is_found_when_the_oldest_sample_is_named(tmp_path, asked_s, moment_s):
    """Issue 30: tf2 names the oldest sample it holds; only the newest was searched."""
    path = car(tmp_path / 'long.mcap', map_behind_s=-0.05, seconds=25.0)
    text = printed(path, 'map', 'laser', T0 + asked_s, T0 + moment_s)
    assert 'extrapolation into the past' in text
    explained = explain_error(path, text)
    assert explained.explanation is not None, explained.note
    assert explained.reproduced and explained.explanation.cause == 'older_than_cache'


def early_scans(path: Path, odom_stamped_from: float, odom_arrives_from: float) -> Path:
    """
    Write scans from 0.5 s, map -> odom sent once on /tf, odom -> base_link from later on.

    Its samples are stamped from odom_stamped_from and arrive from odom_arrives_from (a
    backlog delivered at once when the two differ).
    """
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),)),
        Message(T0 + 0.01, TF_TOPIC, (TransformRecord('map', 'odom', T0, (0.1, 0.0, 0.0), Q),))]
    for k in range(250):
        stamp = T0 + odom_stamped_from + k / 50
        messages.append(Message(max(stamp, T0 + odom_arrives_from) + 0.002, TF_TOPIC, (
            TransformRecord('odom', 'base_link', stamp, (0.02 * k, 0.0, 0.0), Q),)))
    scans = [T0 + 0.5 + k / 40 for k in range(160)]
    messages += [Message(t + 0.001, '/scan', HeaderRecord('laser', t)) for t in scans]
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    return path


def test_a_time_of_an_edge_off_the_chain_is_not_the_limiting_edge(tmp_path):
    """
    Issue 30: odom <- laser refused with map -> odom's time; the limit is odom -> base_link.

    Stamped after the scan, no wait places it (before_first); stamped from the start but
    delivered late, the wait that places it is printed and holds when asked.
    """
    never = early_scans(tmp_path / 'late_odom.mcap', 1.0, 1.0)
    text = printed(never, 'odom', 'laser', T0 + 0.55, T0 + 0.6)
    assert 'only time 1700000000.000000 is in the buffer' in text  # map -> odom's one sample
    e = explain_error(never, text).explanation
    assert e.cause == 'before_first' and e.edge.name == 'odom → base_link', e.why
    assert e.why.startswith("tf2's text names map → odom, an edge this lookup does not need")
    backlog = early_scans(tmp_path / 'backlog.mcap', 0.0, 1.0)
    text = printed(backlog, 'odom', 'laser', T0 + 0.55, T0 + 0.6)
    waited = explain_error(backlog, text).explanation
    assert waited.cause == 'not_yet' and waited.edge.name == 'odom → base_link', waited.why
    arrived = T0 + 0.551  # the scan stamped 0.55 s, as explain takes its arrival
    assert lookup_in(backlog, 'odom', 'laser', at=str(T0 + 0.55),
                     wait_s=waited.wait_needed_s).one.answer.ok
    assert not lookup_in(backlog, 'odom', 'laser', at=str(T0 + 0.55),
                         wait_s=waited.wait_needed_s - 0.01).one.answer.ok
    assert waited.wait_needed_s == pytest.approx(1.002 - (arrived - T0), abs=0.01)


def two_parents(path: Path, imu: bool) -> Path:
    """Write odom under map (10 Hz) and, with imu, also under odom_imu 50 ms later (10 Hz)."""
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
    messages += [Message(T0 + k / 20 + 0.002, TF_TOPIC, (TransformRecord(
        'odom', 'base_link', T0 + k / 20, (0.02 * k, 0.0, 0.0), Q),)) for k in range(100)]
    for k in range(50):
        t = T0 + k / 10
        messages.append(Message(t + 0.003, TF_TOPIC, (TransformRecord(
            'map', 'odom', t, (0.1, 0.0, 0.0), Q),)))
        if imu:
            messages.append(Message(t + 0.053, TF_TOPIC, (TransformRecord(
                'odom_imu', 'odom', t + 0.05, (0.0, 0.0, 0.0), Q),)))
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    return path


def test_two_trees_of_a_frame_with_two_parents_name_the_frame_not_an_edge(tmp_path):
    """
    Issue 30: odom under map and odom_imu; at 2.06 s odom's sample is odom_imu's.

    Told as two parents of odom, with both edges; the twin with one parent places it.
    """
    torn = lookup_in(two_parents(tmp_path / 'torn.mcap', True), 'map', 'laser', at='+2.06').one
    assert torn.answer.error.kind == 'two_trees' and torn.cause == 'two_parents', torn.why
    assert 'odom has 2 parents in this recording: map → odom (10.0 Hz), odom_imu → odom ' \
        '(10.0 Hz)' in torn.why and 'then odom was under odom_imu' in torn.why
    assert 'laser in the tree under odom_imu' in torn.why and 'give odom one parent' in torn.fix
    one = lookup_in(two_parents(tmp_path / 'one.mcap', False), 'map', 'laser', at='+2.06').one
    assert one.answer.ok


@pytest.mark.parametrize('robot,topic', [(RACECAR, '/pf/pose'), (variant(
    RACECAR, 'amcl', poses=(PoseOut('/amcl_pose', 'base_link', 5.0, POSE_WITH_COVARIANCE),)),
    '/amcl_pose')])
def test_lookup_every_takes_the_pose_topics_its_help_names(tmp_path, robot, topic):
    """Issue 30: a pose topic the config does not list was 'not read on this topic'."""
    looked = lookup_in(record(tmp_path, robot), 'odom', 'map', every=topic)
    summary = looked.summary
    assert summary is not None and summary.topic == topic
    rate_hz = {p.topic: p.rate_hz for p in robot.poses}[topic]
    assert summary.asked >= robot.seconds * rate_hz - 2


def test_unreadable_text_and_bad_arguments_get_one_line(cars):
    """A paste that is not a tf2 error says what was expected; no traceback anywhere."""
    with pytest.raises(UsageError, match='expected a tf2 error'):
        explain_error(cars[0], 'Segmentation fault (core dumped)')
    done = run('explain', cars[0], 'hello')
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert 'Traceback' not in done.stderr
    assert run('lookup', cars[0], 'map', 'laser', '--at', 'soon').returncode == 2
    assert run('lookup', cars[0], 'map', 'laser', '--every', '/nope').returncode == 2
    assert run('lookup', cars[0], 'map', 'laser', '--at', '1', '--tolerance', 'nan'
               ).returncode == 2


@pytest.mark.parametrize('at', ['nan', 'inf', '-inf', '1e400', '+nan', '99999999999'])
def test_a_stamp_no_tf2_holds_is_one_line(cars, at):
    """--at nan, inf or past int64 nanoseconds: one line naming the value, no traceback."""
    done = run('lookup', cars[0], 'map', 'laser', '--at=' + at)  # '-inf' is no option
    assert done.returncode == 2 and done.stderr.count('\n') == 1, done.stderr
    assert done.stderr.startswith('frame-audit: error: --at {}: a stamp is a finite number of '
                                  'seconds, at most 9223372036'.format(at)), done.stderr


def test_a_pasted_time_of_400_digits_is_one_line(cars):
    """A paste whose time no tf2 holds (cut or joined lines) says so; the twin is read."""
    line = MEASURED.replace('1700000013.000000000', '9' * 400 + '.000000000')
    done = run('explain', cars[0], line)
    assert done.returncode == 2 and done.stderr.count('\n') == 1, done.stderr
    assert 'the time 999999999999...(400 digits) is later than any tf2 holds' in done.stderr
    with pytest.raises(UsageError, match='later than any tf2 holds'):
        explain_error(cars[0], MEASURED.replace('1700000012.680000067', '1' * 30 + '.5'))
    assert explain_error(cars[0], MEASURED).explanation is not None
    filt = run('explain', cars[0], "Message Filter dropping message: frame 'laser' at time "
               "1700000013.000 for reason 'discarding message because the queue is full'")
    assert filt.returncode == 2 and '--target' in filt.stderr
    filt = run('explain', cars[0], "Message Filter dropping message: frame 'laser' at time "
               "1700000013.000 for reason 'discarding message because the queue is full'",
               '--target', 'map')
    assert filt.returncode == 0 and 'late_stamps' in filt.stdout


def test_what_tf2_drops_on_the_chain_depends_on_the_distribution(tmp_path):
    """Re-send odom -> base_link at each stamp with a new value: ROS 1 refuses, ROS 2 keeps."""
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord('base_link', 'laser', T0,
                                                              (0.27, 0.0, 0.0), Q),))]
    for k in range(100):
        t = T0 + k * 0.02
        messages.append(Message(t + 0.001, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', t, (0.01 * k, 0.0, 0.0), Q),)))
        messages.append(Message(t + 0.002, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', t, (0.01 * k + 0.05, 0.0, 0.0), Q),)))
    path = tmp_path / 'twice.mcap'
    write_bag(path, messages)
    noetic = run('lookup', path, 'odom', 'laser', '--at', '+1.0', '--distro', 'noetic')
    assert 'tf2 on odom → base_link from unknown_publisher: 100 taken; 100 TF_REPEATED_DATA' \
        in noetic.stdout
    kilted = run('lookup', path, 'odom', 'laser', '--at', '+1.0')
    assert '200 taken; 100 kept twice' in kilted.stdout
    assert noetic.returncode == kilted.returncode == 0


# -- issue 22's review: what the real recordings showed --------------------------------------


def tb4(path: Path, seconds: float = 10.0, odom_hz: float = 20.8, odom_delay: float = 0.02,
        base_behind: float = 0.0, backlog: float = 0.0, sim: float = 0.0,
        gap: Optional[tuple] = None, scan_hz: float = 7.5) -> Path:
    """
    Write a TurtleBot4: odom -> base_link from the Create 3 base, its static LiDAR, /scan.

    base_behind: how far the base's clock runs behind the computer's (no time sync); backlog:
    the recorder's /tf starts 0.3 s in and receives the last `backlog` s of odom -> base_link
    at once (as turtlebot4_real's recording does); without one, odom streams from 1 s before
    the scans. sim: every stamp on a simulator's clock, this far from the arrivals (Webots,
    Gazebo); gap: (start, length) in which the base sends nothing (its driver restarting).
    """
    messages: List[Message] = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'rplidar_link', T0 + sim, (-0.04, 0.0, 0.19), Q),))]
    first = T0 + 0.3 - backlog if backlog else T0 - 1.0
    for k in range(int((T0 + seconds - first) * odom_hz)):
        t = first + k / odom_hz  # when the base measured it, on the computer's clock
        if gap and gap[0] <= t - T0 < gap[0] + gap[1]:
            continue
        # the backlog drains at 500 messages/s: its stamps catch up with arrival at 0.5 s
        received = max(t + odom_delay, T0 + 0.3 + k * 0.002) if backlog else t + odom_delay
        messages.append(Message(received, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', t - base_behind + sim, (0.01 * k, 0.0, 0.0), Q),)))
    for k in range(int(seconds * scan_hz)):
        t = T0 + 0.01 + k / scan_hz
        messages.append(Message(t + 0.001, '/scan', HeaderRecord('rplidar_link', t + sim)))
    messages.sort(key=lambda m: m.received)
    write_bag(path, messages, beams=8)
    return path


def test_two_clocks_apart_name_both_delays_and_the_offset(tmp_path):
    """The Create 3's clock 4.9 s behind the computer's: time sync, not a later stamp."""
    apart = lookup_in(tb4(tmp_path / 'apart.mcap', base_behind=4.9), 'odom', 'rplidar_link',
                      every='/scan').summary
    assert apart.causes == {'clocks_apart': apart.refused} and apart.refused == apart.asked
    assert apart.stamp_later_s is None  # no "stamp odom -> base_link 4.8 s later"
    why, fix = apart.worst.why, apart.worst.fix
    assert 'odom → base_link is stamped 4.920 s behind its arrival' in why
    assert '/scan (median of 75) 0.001 s' in why and 'cannot tell' in why
    assert 'chrony' in fix and '4.919 s behind' in fix and 'wait' not in fix
    synced = lookup_in(tb4(tmp_path / 'synced.db3'), 'odom', 'rplidar_link', every='/scan')
    assert (synced.summary.refused, synced.summary.asked) == (0, 75)


def test_a_backlog_at_the_recordings_start_is_no_late_publisher(tmp_path):
    """turtlebot4_real: 5 s of odom -> base_link arrive at once 0.3 s in, then on time."""
    path = tb4(tmp_path / 'backlog.mcap', backlog=5.0)
    summary = lookup_in(path, 'odom', 'rplidar_link', every='/scan').summary
    assert summary.refused and 'late_stamps' not in summary.causes
    assert summary.stamp_later_s is None and summary.causes.get('delivered_late')
    assert set(summary.causes) <= {'delivered_late', 'not_yet'}
    assert summary.wait_needed_s is not None and summary.wait_needed_s < 0.5
    assert 0.0 <= summary.first_refused < 0.1  # scans came before any /tf: never negative
    done = run('lookup', path, 'odom', 'rplidar_link', '--every', '/scan')
    assert 'first refused: 0.01 s into the recording' in done.stdout
    assert 'stamp odom → base_link' not in done.stdout and ' s into the recording (receive' \
        in done.stdout
    third = lookup_in(path, 'odom', 'rplidar_link', at=str(T0 + 0.01 + 2 / 7.5)).one
    assert third.cause == 'delivered_late' and 'its stamps need no change' in third.fix
    assert 'a backlog delivered at once at the start of its recording' in third.why
    healthy = lookup_in(tb4(tmp_path / 'streaming.mcap'), 'odom', 'rplidar_link',
                        every='/scan').summary
    assert (healthy.refused, healthy.first_refused) == (0, None)


def test_sim_time_everywhere_is_told_against_the_scans_clock(tmp_path):
    """Webots: every stamp on sim time; late is judged against /scan's clock, not arrival."""
    healthy = lookup_in(tb4(tmp_path / 'webots.mcap', sim=100.0 - T0), 'odom',
                        'rplidar_link', every='/scan').summary
    assert healthy.refused == 0 and healthy.asked == 75
    late = lookup_in(tb4(tmp_path / 'webots_late.mcap', sim=100.0 - T0, odom_delay=0.3),
                     'odom', 'rplidar_link', every='/scan').summary
    assert late.causes == {'late_stamps': late.refused} and late.refused == late.asked
    assert 'odom → base_link is stamped' in late.worst.why
    assert '0.299 s more than /scan (median of 75)' in late.worst.why
    assert 0.2 < late.stamp_later_s < 0.31


def test_lookups_asked_after_the_recording_ends_are_not_judged(tmp_path):
    """The last messages' wait runs past the recording: what came after it is unknown."""
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_footprint', 'base_scan', T0, (0.0, 0.0, 0.17), Q),))]
    for k in range(100):  # a TurtleBot3: odom -> base_footprint 20 Hz, /scan 5 Hz, both end
        t = T0 + k / 20
        messages.append(Message(t + 0.01, TF_TOPIC, (TransformRecord(
            'odom', 'base_footprint', t, (0.01 * k, 0.0, 0.0), Q),)))
        if k % 4 == 3:
            messages.append(Message(t + 0.012, '/scan', HeaderRecord('base_scan', t + 0.011)))
    path = tmp_path / 'tb3.mcap'
    write_bag(path, messages, beams=8)
    summary = lookup_in(path, 'odom', 'base_scan', every='/scan', wait_s=0.1).summary
    assert (summary.refused, summary.unjudged, summary.asked) == (0, 1, 24)
    assert run('lookup', path, 'odom', 'base_scan', '--every', '/scan').returncode == 0
    longer = lookup_in(path, 'odom', 'base_scan', every='/scan', wait_s=0.0).summary
    assert (longer.refused, longer.unjudged, longer.asked) == (25, 0, 25)  # no wait: refused


def test_a_driver_restart_is_a_stall_and_the_rate_names_its_real_limit(tmp_path):
    """0.3 s without odom -> base_link (a restart) vs a steady base 68 ms behind at 20.8 Hz."""
    gap = lookup_in(tb4(tmp_path / 'restart.mcap', gap=(5.0, 0.3)), 'odom', 'rplidar_link',
                    every='/scan').summary
    assert gap.causes == {'stall': gap.refused} and 1 <= gap.refused <= 3
    assert 'sent nothing stamped between' in gap.worst.why
    slow = lookup_in(tb4(tmp_path / 'slow.mcap', odom_delay=0.068), 'odom', 'rplidar_link',
                     every='/scan').summary
    assert slow.causes == {'low_rate': slow.refused} and slow.refused > 10
    assert 'up to 0.115 s after it (period plus delay)' in slow.worst.why
    assert 'at 30.303 Hz or more' in slow.worst.fix  # 1 / (0.1 - 0.067), not 1 / 0.1
    placed = lookup_in(tb4(tmp_path / 'slow2.mcap', odom_delay=0.068), 'odom', 'rplidar_link',
                       every='/scan', wait_s=0.13).summary
    assert placed.refused == 0


def resent(path: Path, second_value: Optional[float], reset_at: Optional[float] = None,
           ) -> Path:
    """
    Write odom -> base_link at 50 Hz; each stamp sent again (an EKF beside the diff drive).

    second_value: the second sender's x offset (None: sent once); reset_at: a simulator
    reset there, after which the stamps run 60 s back while arrivals go on.
    """
    messages: List[Message] = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
    for k in range(300):
        t = T0 + k / 50
        stamp = t - 60.0 if reset_at is not None and t - T0 >= reset_at else t
        messages.append(Message(t + 0.002, TF_TOPIC, (TransformRecord(
            'odom', 'base_link', stamp, (0.01 * k, 0.0, 0.0), Q),)))
        if second_value is not None:
            messages.append(Message(t + 0.004, TF_TOPIC, (TransformRecord(
                'odom', 'base_link', stamp, (0.01 * k + second_value, 0.0, 0.0), Q),)))
    write_bag(path, messages, beams=8)
    return path


@pytest.mark.parametrize('line', [
    '[ WARN] [1700000002.1]: TF_REPEATED_DATA ignoring data with redundant timestamp for frame '
    'base_link (parent odom) at time 1700000002.000000 according to authority unknown_publisher',
    'Warning: TF_REPEATED_DATA ignoring data with redundant timestamp for frame base_link at '
    'time 1700000002,000000 according to authority unknown_publisher at line 278 in '
    '/tmp/binarydeb/ros-noetic-tf2-0.7.5/src/buffer_core.cpp'])
def test_tf_repeated_data_names_the_edge_its_copies_and_what_each_tf2_does(tmp_path, line):
    """Two senders of odom -> base_link at each stamp; the twin sends each stamp once."""
    twice = resent(tmp_path / 'twice.mcap', 0.05)
    explained = explain_error(twice, line)
    e = explained.explanation
    assert e.cause == 'resent' and e.distro == 'noetic'
    assert 'odom → base_link was sent 2 times stamped 1700000002.000 (2 different values' \
        in e.why and 'keeps the first and drops the other 1' in e.why
    assert 'from one node only' in e.fix
    kilted = explain_error(twice, line, distro='kilted').explanation
    assert 'prints no such warning' in kilted.why
    once = explain_error(resent(tmp_path / 'once.db3', None), line)
    assert once.explanation is None and 'at most once' in once.note


def test_tf_old_data_after_a_simulator_reset_and_its_twin(tmp_path):
    """Stamps 60 s back from 3 s on while arrivals run on: a reset, told with its numbers."""
    line = ('[WARN] [1700000004.0] [rviz]: TF_OLD_DATA ignoring data from the past for frame '
            'base_link at time 1699999944.000000 according to authority unknown_publisher')
    reset = explain_error(resent(tmp_path / 'reset.mcap', None, reset_at=3.0), line)
    e = reset.explanation
    assert e.cause == 'reset' and e.fix_s == pytest.approx(58.98, abs=0.01)  # from 2.98
    assert "past tf2's window of 10.000 s" in e.why and 'use_sim_time' in e.fix
    twin = explain_error(resent(tmp_path / 'steady.mcap', None), line.replace(
        '1699999944', '1700000004'))
    assert twin.explanation is None and "never arriving past tf2's window" in twin.note
    done = run('explain', tmp_path / 'reset.mcap', line)
    assert done.returncode == 0 and 'insertion: odom → base_link stamped' in done.stdout


def test_tf_old_data_with_its_time_printed_in_six_digits(tmp_path):
    """Issue 30: ROS 1 before noetic printed TF_OLD_DATA's time with %g: 1.7e+09, one line."""
    line = ('Warning: TF_OLD_DATA ignoring data from the past for frame base_link at time '
            '1.7e+09 according to authority unknown_publisher\nPossible reasons are listed at '
            'http://wiki.ros.org/tf/Errors%20explained')
    reset = explain_error(resent(tmp_path / 'reset.mcap', None, reset_at=3.0), line)
    assert reset.explanation is not None and reset.explanation.cause == 'reset', reset.note
    assert reset.explanation.requested == pytest.approx(T0 + 3.0 - 60.0, abs=0.001)  # the first
    twin = explain_error(resent(tmp_path / 'steady.mcap', None), line)
    assert twin.explanation is None and "never arriving past tf2's window" in twin.note


@pytest.mark.parametrize('line,kind,frame', [
    # Nav2 and costmap_2d in ROS 1 wrap tf2's canTransform text (noetic buffer_core.cpp)
    ('[ WARN] [1641341053.709191464]: Timed out waiting for transform from base_link to map to '
     'become available before running costmap, tf error: canTransform: target_frame map does '
     'not exist.. canTransform returned after 0.100065 timeout was 0.1.', 'no_frame', 'map'),
    ('For frame [base_link]: Fixed Frame [map] does not exist', 'no_frame', 'map'),
    ("[INFO] [rviz]: [signalFailure] Drop message: frame 'laser' at time 1700000013.000 for "
     'reason(0)', 'filter', 'laser'),
    ('Warning: TF_REPEATED_DATA ignoring data with redundant timestamp for frame left wheel link '
     'at time 709.619000', 'repeated', 'left wheel link'),
    ("terminate called after throwing an instance of 'tf2::ExtrapolationException'\n  what():  "
     'Lookup would require extrapolation into the future.  Requested time 1457438516.876949095 '
     'but the latest data is at time 1457438\n516.873540253, when looking up transform from '
     'frame [laser] to frame [map]', 'future', '')])
def test_wordings_real_users_pasted_are_read(line, kind, frame):
    """Issue 30: each of these was 'cannot read ... as a tf2 error' (texts from public issues)."""
    pasted = parse_tf2_error(line)
    assert pasted.kind == kind and pasted.frame == frame
    if kind == 'filter':
        assert pasted.reason == 'unknown' and filter_reason(pasted.reason)
    if kind == 'future':
        assert pasted.nearest == 1457438516873540253


@pytest.mark.parametrize('at', ['1e+300', '1.7e+9999999', '1.5e+15', '0e+400'])
def test_a_time_printed_with_an_exponent_past_tf2s_reach_is_one_line(at):
    """Review: 1e+300 raised OverflowError; 1.5e+15 passed where 1500000000000000 is refused."""
    line = ('TF_OLD_DATA ignoring data from the past for frame base_link at time {} according '
            'to authority unknown_publisher'.format(at))
    if at == '0e+400':  # zero, however written, is a time tf2 holds
        assert parse_tf2_error(line).requested == 0
        return
    with pytest.raises(PasteError, match='later than any tf2 holds'):
        parse_tf2_error(line)


def test_tf_repeated_data_in_six_digits_names_only_a_stamp_sent_twice(tmp_path):
    """Review: ±0.05e9 s matched every sample, and a healthy edge was called two publishers."""
    line = ('TF_REPEATED_DATA ignoring data with redundant timestamp for frame base_link at time '
            '1.7e+09 according to authority unknown_publisher')
    twice = explain_error(resent(tmp_path / 'twice.mcap', 0.5), line)
    assert twice.explanation is not None and twice.explanation.cause == 'resent'
    assert 'was sent 2 times stamped' in twice.explanation.why
    once = explain_error(resent(tmp_path / 'once.mcap', None), line)
    assert once.explanation is None


def test_a_drop_numbered_0_is_explained_as_an_unknown_reason(cars):
    """The drop line before Humble numbers its reason: 0 is Unknown (noetic, Humble enums)."""
    text = ("[INFO] [slam_toolbox]: [signalFailure] Drop message: frame 'laser' at time "
            '1700000013.000 for reason(0)')
    late = run('explain', cars[0], text, '--target', 'map')
    assert late.returncode == 0 and "pushed off the filter's queue" in late.stdout


@pytest.mark.parametrize('reason, meaning', [
    ('Unknown', "pushed off the filter's queue"),
    ('discarding message because the queue is full', "filled the filter's queue"),
    ('the timestamp on the message is earlier than all the data in the transform cache',
     'no wait brings that back')])
def test_a_message_filters_reason_is_told(cars, reason, meaning):
    """slam_toolbox's and Nav2's drops: the reason read, the lookup explained from it."""
    text = ('[slam_toolbox-1] [INFO] [1700000013.1] [slam_toolbox]: Message Filter dropping '
            "message: frame 'laser' at time 1700000013.000 for reason '{}'".format(reason))
    late = run('explain', cars[0], text, '--target', 'map')
    assert late.returncode == 0 and meaning in late.stdout and 'late_stamps' in late.stdout
    ahead = run('explain', cars[1], text, '--target', 'map')
    assert ahead.returncode == 0 and 'cause: ok' in ahead.stdout


def test_control_characters_never_reach_the_terminal(cars):
    """Issue 33: explain echoed ESC and BEL from the pasted text; lookup, from the frame asked."""
    pasted = run('explain', cars[0], '"\x1b[2J\x07laser" passed to lookupTransform argument '
                 'target_frame does not exist')
    asked = run('lookup', cars[0], 'map\x1b]0;owned\x07', 'laser', '--at', '+5.0')
    for done in (pasted, asked):
        assert done.returncode in (0, 1, 2) and 'Traceback' not in done.stderr, done.stderr
        shown = done.stdout + done.stderr
        assert '\x1b' not in shown and '\x07' not in shown, repr(shown)
    assert '\\x1b' in pasted.stdout + pasted.stderr
    as_json = run('lookup', cars[0], 'map\x1b', 'laser', '--at', '+5.0', '--format', 'json')
    assert '\x1b' not in as_json.stdout and 'map\\u001b' in as_json.stdout, as_json.stdout


def test_tf_is_no_topic_to_place_and_minus_zero_is_a_time(cars):
    """Issue 33: `--every /tf` said "/tf holds no messages"; "time -0.000000" was refused."""
    every_tf = run('lookup', cars[0], 'map', 'laser', '--every', '/tf')
    assert every_tf.returncode == 2 and every_tf.stderr.count('\n') == 1, every_tf.stderr
    assert '/tf holds 1,' in every_tf.stderr and '--every takes scans' in every_tf.stderr
    zero = run('explain', cars[0], 'Lookup would require extrapolation into the past.  Requested '
               'time -0.000000 but the earliest data is at time 1.000000, when looking up '
               'transform from frame [laser] to frame [map]')
    assert zero.returncode in (0, 1) and 'cannot read' not in zero.stderr, zero.stderr
    assert 'extrapolation into the past' in zero.stdout


def test_a_fix_that_does_not_place_the_lookup_is_said_to_be_none(tmp_path):
    """
    Issue 30: map -> odom and odom -> base_link both 0.3 s late; tf2 names odom -> base_link.

    Re-stamping it alone still leaves the lookup refused (by map -> odom): that part is no fix,
    and the text says so; the wait, asked again, places it. Its twin with odom on time: map ->
    odom is named, and both parts hold.
    """
    def two_late(path: Path, odom_late: float) -> Path:
        messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
            'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
        for k in range(500):
            t = T0 + k / 50
            messages.append(Message(t + odom_late, TF_TOPIC, (TransformRecord(
                'odom', 'base_link', t, (0.02 * k, 0.0, 0.0), Q),)))
            messages.append(Message(t + 0.002, TF_TOPIC, (TransformRecord(
                'base_link', 'imu_link', t, (0.0, 0.0, 0.0), Q),)))
        messages += [Message(T0 + k / 10 + 0.3, TF_TOPIC, (TransformRecord(
            'map', 'odom', T0 + k / 10, (0.1, 0.0, 0.0), Q),)) for k in range(100)]
        write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
        return path

    for odom_late, stamp_holds in ((0.3, False), (0.002, True)):
        path = two_late(tmp_path / 'late{}.mcap'.format(odom_late), odom_late)
        done = run('lookup', path, 'map', 'laser', '--at', str(T0 + 5.1), '--tf2', 'model')
        assert done.returncode == 1, done.stderr
        stamp_line = next(line for line in done.stdout.splitlines()
                          if line.startswith('  tried: ') and ' stamped ' in line)
        assert stamp_line.endswith('that part is no fix') != stamp_holds, done.stdout
        assert re.search(r'tried: asked [0-9.]+ s after the message arrived: tf2 \(kilted '
                         r'model\) then places it', done.stdout), done.stdout


def fast_driver(path: Path, scans: bool) -> Path:
    """
    Write odom -> base_link at 20 Hz, 60 ms behind its stamps, and scans 10 ms behind theirs.

    The /tf edge is the most punctual one and the limit itself: a message's arrival assumed
    from it is 50 ms late (a TurtleBot4's paste: 0.158 s printed, 0.223 s needed).
    """
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
    messages += [Message(T0 + k / 20 + 0.06, TF_TOPIC, (TransformRecord(
        'odom', 'base_link', T0 + k / 20, (0.01 * k, 0.0, 0.0), Q),)) for k in range(100)]
    if scans:
        messages += [Message(T0 + 0.02 + k / 10 + 0.01, '/scan', HeaderRecord(
            'laser', T0 + 0.02 + k / 10)) for k in range(45)]
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    return path


def test_the_wait_is_told_from_the_messages_recorded_arrival(tmp_path):
    """
    Issue 30: the scan stamped 2.02 s was refused on its arrival, 10 ms after its stamp.

    Found on /scan, the wait is from that arrival, and asked that long after it tf2 places
    the scan; its twin without /scan says the arrival is assumed, and from what.
    """
    path = fast_driver(tmp_path / 'scans.mcap', True)
    text = printed(path, 'odom', 'laser', T0 + 2.02, T0 + 2.03)
    explained = explain_error(path, text, tf2='model')
    e = explained.explanation
    assert e is not None and explained.arrived.topic == '/scan', explained.note
    assert e.wait_needed_s == pytest.approx(2.11 - 2.03 + 0.005, abs=0.002)
    replay = Replay([TfMessage(m.received, m.payload, m.topic == TF_STATIC_TOPIC)
                     for m in read_messages(path) if isinstance(m.payload, tuple)])
    assert replay.ask('odom', 'laser', T0 + 2.02, T0 + 2.03 + e.wait_needed_s).ok
    assert not replay.ask('odom', 'laser', T0 + 2.02, T0 + 2.03 + e.wait_needed_s - 0.01).ok
    done = run('explain', path, text)
    assert 'the message: stamped 1700000002.020000 in laser, recorded on /scan, arrived 2.03 s ' \
        'into the recording' in done.stdout, done.stdout
    twin = fast_driver(tmp_path / 'no_scans.mcap', False)
    said = run('explain', twin, printed(twin, 'odom', 'laser', T0 + 2.02, T0 + 2.08)).stdout
    assert 'in laser: not in the recording, so its arrival is taken as its stamp plus 0.060 ' \
        's (the most punctual /tf edge, odom → base_link)' in said, said


@pytest.mark.parametrize('line', [
    'No transform from [laser] to [map]',
    'For frame [laser]: No transform to fixed frame [map]. TF error: [...]',
    '[planner_server-5] [INFO] [global_costmap.planner_server]: Timed out waiting for transform '
    'from laser to map to become available, tf error: . canTransform returned after 1.00014 '
    'timeout was 1.',
    '[ WARN] [1685456729.822960470, 1526.700000000]: Transform from laser to map was '
    'unavailable for the time requested. Using latest instead.'])
def test_a_wrappers_own_line_is_looked_up_and_its_healthy_twin_is_not_found(tmp_path, line):
    """
    Issue 30: RViz's, Nav2's and robot_localization's lines name the lookup, not tf2's words.

    On the car whose map -> odom comes 0.32 s late, robot_localization's lookup at its now is
    refused (late stamps, fixed when tried); the latest common time is always placed there,
    and on the healthy twin every one is: not found, never a cause made up.
    """
    late = car(tmp_path / 'late.mcap', seconds=8.0)
    explained = explain_error(late, line, tf2='model')
    if 'Using latest' in line:
        assert explained.explanation.cause == 'late_stamps', explained.note
        assert explained.explanation.tried and 'none proven' not in explained_text(explained)
    else:
        assert explained.explanation is None and 'places laser in map at the latest common ' \
            'time at every moment' in explained.note, explained.note
    healthy = car(tmp_path / 'ahead.mcap', map_behind_s=-0.1, seconds=8.0)
    twin = explain_error(healthy, line, tf2='model')
    assert twin.explanation is None and 'the line was printed outside this recording' in \
        twin.note, twin.note
    assert ('timeout was 1.' in line) == (explained.pasted.wait_s == 1.0)


def test_a_frame_first_sent_late_is_what_rviz_waited_for(tmp_path):
    """RViz: a recording where map -> odom starts at 4 s is not_yet, the wait proven."""
    messages = [Message(T0, TF_STATIC_TOPIC, (TransformRecord(
        'base_link', 'laser', T0, (0.27, 0.0, 0.11), Q),))]
    messages += [Message(T0 + k / 50 + 0.002, TF_TOPIC, (TransformRecord(
        'odom', 'base_link', T0 + k / 50, (0.02 * k, 0.0, 0.0), Q),)) for k in range(400)]
    messages += [Message(T0 + 4.0 + k / 10 + 0.002, TF_TOPIC, (TransformRecord(
        'map', 'odom', T0 + 4.0 + k / 10, (0.1, 0.0, 0.0), Q),)) for k in range(40)]
    path = tmp_path / 'late_map.db3'
    write_bag(path, sorted(messages, key=lambda m: m.received), beams=8)
    done = run('explain', path, 'No transform from [laser] to [map]', '--tf2', 'model')
    assert done.returncode == 0, done.stderr
    assert 'cause: not_yet: map was first sent' in done.stdout, done.stdout
    assert re.search(r'tried: asked [0-9.]+ s after the message arrived: tf2 \(kilted model\) '
                     r'then places it', done.stdout), done.stdout
