# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A season of recordings: many audited at once, and the verdicts written on a recording's timeline.

Real rosbag2 files (MCAP and sqlite3) and a ROS 1 bag are written from simulated drives; a
damaged file stands for the recording a crash left behind. The diagnostics recording is read
back with rosbags and with the MCAP library.
"""
import json
from pathlib import Path
from typing import Dict

from frame_audit.app.audit import audit_recording
from frame_audit.cli import main
from frame_audit.recordings.write import write_bag
from frame_audit.reports.diagnostics import DIAGNOSTICS_TOPIC, STATUS_PREFIX
from frame_audit.sim.car import drive, POSE_TYPES
from mcap.reader import make_reader
import pytest

DURATION = 8.0


@pytest.fixture(scope='module')
def season(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """Write a folder of recordings: two healthy, one faulty, one unreadable, one nested."""
    root = tmp_path_factory.mktemp('season')
    paths = {
        'healthy': root / 'day1' / 'healthy.mcap',
        'faulty': root / 'day1' / 'faulty.db3',
        'nested': root / 'day2' / 'run' / 'healthy_folder',
        'broken': root / 'day2' / 'broken.mcap',
    }
    write_bag(paths['healthy'], drive(DURATION, seed=1), pose_types=POSE_TYPES, beams=16)
    write_bag(paths['faulty'], drive(DURATION, seed=2, faults=('pf_rear_axle',)),
              pose_types=POSE_TYPES, beams=16)
    write_bag(paths['nested'], drive(DURATION, seed=3), pose_types=POSE_TYPES, beams=16)
    paths['broken'].write_bytes(b'\x89MCAP0\r\n' + b'\x00' * 64)
    paths['root'] = root
    return paths


def run_json(capsys, *argv: str) -> tuple:
    code = main(['audit', *argv, '--format', 'json'])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize('jobs', ['1', '2'])
def test_a_folder_of_recordings_gives_a_row_each_and_a_summary(season, capsys, jobs):
    code, document = run_json(capsys, str(season['root']), '--recursive', '--jobs', jobs)
    assert code == 2  # one recording cannot be read: the run says so, after every row
    rows = {Path(r['path']).name: r for r in document['recordings']}
    assert set(rows) == {'healthy.mcap', 'faulty.db3', 'healthy_folder', 'broken.mcap'}
    assert 'error' in rows['broken.mcap'] and 'broken.mcap' in rows['broken.mcap']['error']
    failed = {f['check'] for f in rows['faulty.db3']['findings'] if f['level'] == 'ERROR'}
    assert failed == {'pose_frame'}
    for name in ('healthy.mcap', 'healthy_folder'):
        assert not [f for f in rows[name]['findings'] if f['level'] in ('WARN', 'ERROR')]
    summary = document['summary']
    assert summary['failed_checks'] == {'pose_frame': 1}
    assert summary['recordings']['ERROR'] == 1 and summary['recordings']['UNREADABLE'] == 1
    assert summary['recordings']['ERROR'] + summary['recordings']['UNREADABLE'] + \
        summary['recordings']['OK'] + summary['recordings']['STALE'] == 4


def test_exit_codes_and_the_text_rows(season, capsys):
    day1 = season['root'] / 'day1'
    assert main(['audit', str(season['healthy']), str(season['nested'])]) == 0
    assert main(['audit', str(day1), '--recursive', '--jobs', '1']) == 1
    text = capsys.readouterr().out
    faulty_row = next(line for line in text.splitlines() if 'faulty.db3' in line)
    assert 'ERROR' in faulty_row and 'pose_frame (' in faulty_row
    assert '2 recordings: 1 ERROR' in text and 'pose_frame: failed in 1 of 2' in text
    assert main(['audit', str(day1), str(season['healthy']), '--recursive', '--format',
                 'markdown', '--fail-on', 'never']) == 0
    assert '| recording | duration | worst |' in capsys.readouterr().out
    assert main(['audit', str(day1), str(season['healthy'])]) == 2
    assert 'add --recursive' in capsys.readouterr().err


def test_the_diagnostics_recording_has_a_cycle_each_with_the_reports_statuses(
        season, capsys, tmp_path):
    out = tmp_path / 'verdicts.mcap'
    code, report = run_json(capsys, str(season['faulty']), '--diagnostics', str(out))
    assert code == 1
    folder = tmp_path / 'verdicts'
    assert (folder / 'metadata.yaml').is_file()
    from rosbags.highlevel import AnyReader
    with AnyReader([folder]) as reader:
        assert [c.topic for c in reader.connections] == [DIAGNOSTICS_TOPIC]
        arrays = [(stamp, reader.deserialize(data, c.msgtype))
                  for c, stamp, data in reader.messages()]
    cycles = audit_recording(season['faulty'], keep_cycles=True).cycles
    assert len(arrays) == len(cycles) >= DURATION - 1
    assert [stamp for stamp, _ in arrays] == [round(c.time_s * 1e9) for c in cycles]
    final = {s.name[len(STATUS_PREFIX):]: s.level for s in arrays[-1][1].status}
    levels = {'OK': 0, 'WARN': 1, 'ERROR': 2, 'STALE': 3}
    assert {c['check']: levels[c['level']] for c in report['checks']} == {
        check: level for check, level in final.items() if check != 'tree'}
    assert final['pose_frame'] == 2
    first_red = next(stamp for stamp, array in arrays
                     if any(s.level == 2 for s in array.status))
    assert first_red < arrays[-1][0]  # red from the cycle it broke in, not only at the end
    with open(folder / 'verdicts.mcap', 'rb') as stream:  # the MCAP tools read it
        assert sum(1 for _ in make_reader(stream).iter_messages()) == len(arrays)


def test_the_diagnostics_beside_a_copy_of_the_recording(season, capsys, tmp_path):
    out = tmp_path / 'with.mcap'
    assert main(['audit', str(season['healthy']), '--diagnostics', str(out),
                 '--with-recording']) == 0
    capsys.readouterr()
    from rosbags.highlevel import AnyReader
    with AnyReader([season['healthy']]) as original:
        counts = {c.topic: c.msgcount for c in original.connections}
    with AnyReader([tmp_path / 'with']) as copy:
        copied = {c.topic: c.msgcount for c in copy.connections}
        stamps = [stamp for _, stamp, _ in copy.messages()]
    assert {t: n for t, n in copied.items() if t != DIAGNOSTICS_TOPIC} == counts
    assert copied[DIAGNOSTICS_TOPIC] >= DURATION - 1 and stamps == sorted(stamps)


def test_diagnostics_refuse_what_they_cannot_write(season, capsys, tmp_path):
    ros1 = tmp_path / 'old.bag'
    write_bag(ros1, drive(3.0, seed=4), pose_types=POSE_TYPES, beams=16)
    assert main(['audit', str(ros1), '--diagnostics', str(tmp_path / 'd.mcap'),
                 '--with-recording']) == 2
    assert 'rosbags-convert' in capsys.readouterr().err
    assert not (tmp_path / 'd').exists()
    existing = tmp_path / 'exists'
    existing.mkdir()
    assert main(['audit', str(season['healthy']), '--diagnostics', str(existing)]) == 2
    assert 'exists already' in capsys.readouterr().err
    assert main(['audit', str(season['healthy']), '--with-recording']) == 2
