# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The frame-audit command as a user runs it: reports, exit codes, the tree picture."""
import json
import os
from pathlib import Path
import subprocess
import sys

from frame_audit.engine.checks import CHECK_IDS
import pytest

COMMAND = [sys.executable, '-m', 'frame_audit']


def run(*args, cwd=None):
    """Run frame-audit in a fresh process, as a user would; return the completed process."""
    return subprocess.run(COMMAND + [str(a) for a in args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, env=dict(os.environ, COLUMNS='200'))


@pytest.fixture(scope='module')
def drives(tmp_path_factory):
    """Record a healthy and a faulty simulated drive with the simulate command."""
    folder = tmp_path_factory.mktemp('drives')
    healthy, faulty = folder / 'healthy.mcap', folder / 'faulty.db3'
    (folder / 'empty').mkdir()
    assert run('simulate', healthy, '--duration', 15, '--seed', 3).returncode == 0
    done = run('simulate', faulty, '--duration', 15, '--fault', 'laser_027', '--fault',
               'scan_frame_missing')
    assert done.returncode == 0, done.stderr
    return healthy, faulty


def test_healthy_drive_exits_0_with_every_check_ok(drives):
    done = run('audit', drives[0], '--format', 'json')
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [c['check'] for c in report['checks']] == list(CHECK_IDS)
    assert report['summary'] == {'OK': 10, 'WARN': 0, 'ERROR': 0, 'STALE': 0}
    assert report['findings'] == []
    assert {f['frame'] for f in report['frames']} == {'map', 'odom', 'base_link', 'laser'}
    assert report['duration_s'] == pytest.approx(15.0, abs=0.1)


def test_faulty_drive_exits_1_and_names_the_findings(drives):
    done = run('audit', drives[1], '--format', 'json')
    assert done.returncode == 1
    findings = json.loads(done.stdout)['findings']
    laser = [f for f in findings if f['check'] == 'laser_offset']
    assert laser and laser[0]['level'] == 'ERROR' and 'x is 0.2700 m' in laser[0]['message']
    scan = [f for f in findings if f['check'] == 'connectivity']
    assert scan and scan[0]['frames'] == ['laser_frame']
    assert all(f['first_seen_s'] is not None for f in findings)


def test_fail_on_sets_the_threshold(drives):
    assert run('audit', drives[1], '--fail-on', 'never').returncode == 0
    assert run('audit', drives[0], '--fail-on', 'warn').returncode == 0


def test_text_and_markdown_reports_and_output_file(drives, tmp_path):
    text = run('audit', drives[1]).stdout
    assert 'ERROR laser_offset' in text and 'Frames:' in text and '\033[' not in text
    out = tmp_path / 'report.md'
    assert run('audit', drives[1], '--format', 'markdown', '--output', out).stdout == ''
    markdown = out.read_text()
    assert '| `laser_offset` | ERROR |' in markdown and '### Findings' in markdown


def test_o_is_output_as_ros2_bag_spells_it(drives, tmp_path):
    """`ros2 bag record -o` is the habit a ROS user brings (round F3 typed `init -o`)."""
    config = tmp_path / 'robot.yaml'
    assert run('init', drives[0], '-o', config).returncode == 0
    assert 'frames:' in config.read_text()
    report = tmp_path / 'report.json'
    assert run('audit', drives[0], '--config', config, '-o', report, '--format',
               'json').returncode == 0
    assert '"findings"' in report.read_text()


@pytest.mark.parametrize('suffix, magic', [('.svg', b'<?xml'), ('.png', b'\x89PNG'),
                                           ('.dot', b'digraph')])
def test_tree_picture(drives, tmp_path, suffix, magic):
    picture = tmp_path / ('tree' + suffix)
    assert run('audit', drives[1], '--tree', picture).returncode == 1
    assert picture.read_bytes().startswith(magic)
    if suffix == '.dot':
        source = picture.read_text()
        assert '"base_link" -> laser' in source or 'base_link -> laser' in source
        assert '#d62728' in source  # the wrong laser edge is red


@pytest.mark.parametrize('args, reason', [
    (['audit', 'missing.mcap'], 'no such file'),
    (['audit', '.'], 'holds 2 recordings'),
    (['audit', 'empty'], 'holds no recording'),
    (['audit', 'healthy.mcap', '--config', 'nope.yaml'], 'cannot read'),
    (['audit', 'healthy.mcap', '--tree', 'tree.pdf'], '.svg, .png or .dot'),
    (['simulate', 'x.mcap', '--fault', 'gremlins'], 'unknown fault gremlins'),
])
def test_unusable_input_exits_2_with_one_line(drives, args, reason):
    done = run(*args, cwd=Path(drives[0]).parent)
    assert done.returncode == 2
    assert done.stderr.count('\n') == 1 and reason in done.stderr, done.stderr
    assert 'Traceback' not in done.stderr


def test_wrong_arguments_exit_2_with_one_line():
    """Say argparse's usage errors too on one line: the error and where the usage is."""
    for args in (['audit'], ['audit', 'x.mcap', '--format', 'pdf'],
                 ['lint', '.', '--launch', '-:'], ['nope']):
        done = run(*args)
        assert done.returncode == 2 and done.stderr.count('\n') == 1, done.stderr
        assert 'error:' in done.stderr and '--help)' in done.stderr


def test_list_faults_names_each_fault_in_one_line():
    lines = run('simulate', '--list-faults').stdout.splitlines()
    assert len(lines) >= 15 and all(len(line.split(None, 1)) == 2 for line in lines)


def test_the_demo_shows_the_live_audit_turn_red_then_the_offline_reports():
    done = run('demo', '--duration', 8)
    assert done.returncode == 0, done.stderr
    live, offline = done.stdout.split('Offline:', 1)
    healthy, faulty = live.split('...then faults switched on', 1)
    assert 'OK    parent_uniqueness' in healthy
    assert not [line for line in healthy.splitlines() if line.startswith(('ERROR', 'WARN'))]
    assert 'ERROR parent_uniqueness  odom has 2 parents' in faulty
    # the live node knows who sent it: the tree row names both senders of map's child odom
    assert 'by slam_toolbox, vehicle_state_node' in faulty
    assert 'ERROR pose_frame' in faulty
    assert offline.count('frame_audit: ') == 2 and 'Summary: 10 OK (checks)' in offline


def test_an_output_that_cannot_be_written_exits_2(drives, tmp_path):
    done = run('audit', drives[0], '--output', tmp_path / 'no' / 'such' / 'report.txt')
    assert done.returncode == 2 and 'cannot write the report' in done.stderr
    assert 'Traceback' not in done.stderr


def _digest(path: Path) -> str:
    """Return a file's (or a folder's files') contents as one hash: unchanged or not."""
    import hashlib
    files = sorted(p for p in path.rglob('*') if p.is_file()) if path.is_dir() else [path]
    return hashlib.sha256(b''.join(p.name.encode() + p.read_bytes() for p in files)).hexdigest()


def test_no_command_writes_onto_what_it_reads(drives, tmp_path):
    """Issue 33: `audit copy.mcap --output copy.mcap` turned an 8 MB recording into a report."""
    healthy, faulty = drives
    copy = tmp_path / 'copy.mcap'
    copy.write_bytes(healthy.read_bytes())
    (tmp_path / 'hard.mcap').hardlink_to(copy)
    (tmp_path / 'soft.mcap').symlink_to(copy)
    config = tmp_path / 'car.yaml'
    assert run('init', copy, '--output', config).returncode == 0
    kept = {path: _digest(path) for path in (copy, faulty, config)}
    attempts = [('audit', copy, '--output', copy), ('audit', copy, '--output', 'hard.mcap'),
                ('init', 'soft.mcap', '--output', copy), ('audit', copy, '--tree', copy),
                ('audit', copy, '--config', config, '--output', config),
                ('diff', copy, faulty, '--output', 'soft.mcap'),
                ('explain', copy, 'frame laser does not exist', '--output', copy),
                ('simulate', config, '--config', config, '--duration', 1)]
    for attempt in attempts:
        done = run(*attempt, cwd=tmp_path)
        assert done.returncode == 2, (attempt, done.stderr)
        (line,) = done.stderr.splitlines()
        assert 'which this command reads: nothing was written' in line, line
    same = run('audit', copy, '--output', 'r.txt', '--tree', './r.txt', cwd=tmp_path)
    assert same.returncode == 2 and 'are one file' in same.stderr and \
        not (tmp_path / 'r.txt').exists()
    assert {path: _digest(path) for path in kept} == kept
    apart = run('audit', 'soft.mcap', '--output', 'r.txt', '--tree', 'r.dot', cwd=tmp_path)
    assert apart.returncode == 0 and (tmp_path / 'r.txt').is_file(), apart.stderr


def test_a_report_that_cannot_reach_stdout_is_one_line_and_exit_2(drives):
    """Issue 33: `audit REC > /dev/full` printed a traceback and exited 1 (read as findings)."""
    with open(os.devnull, 'rb') as stdin, open('/dev/full', 'w') as full:
        done = subprocess.run(COMMAND + ['audit', str(drives[0])], stdin=stdin, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == ['frame-audit: error: cannot write the report to '
                                        'standard output (No space left on device)']
