# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What a lint report says of itself: the summary's counts, and JSON findings at their places.

The summary counts findings as well as checks, in every format.
"""
import json
from pathlib import Path

from frame_audit.cli import main
from lint_helpers import cartographer_diff_drive, cmake, launch_py, lint, package, share, \
    vesc_racecar, write
import pytest


# the summary counts findings as well as checks

def _missing_files(tmp_path: Path) -> Path:
    """Write a car whose launch names two parameter files its package does not hold."""
    return write(tmp_path / 'gaps', {
        'src/race_bringup/package.xml': package('race_bringup'),
        'src/race_bringup/CMakeLists.txt': cmake('race_bringup', 'config', 'launch'),
        'src/race_bringup/config/mux.yaml': 'ackermann_mux:\n  ros__parameters: {}\n',
        'src/race_bringup/launch/car.launch.py': launch_py(
            "Node(package='urg_node', executable='urg_node_driver', name='urg_node', "
            'parameters=[{}])'.format(share('race_bringup', 'config', 'sensors.yaml')),
            "Node(package='vesc_ackermann', executable='vesc_to_odom_node', "
            "name='vesc_to_odom_node', parameters=[{}])".format(
                share('race_bringup', 'config', 'vesc.yaml'))),
    })


@pytest.mark.parametrize('output', ['text', 'markdown', 'json'])
def test_the_summary_counts_findings_as_well_as_checks(tmp_path, capsys, output):
    """One check may hold several findings: the summary says both counts."""
    root = _missing_files(tmp_path)
    main(['lint', str(root), '--format', output])
    text = capsys.readouterr().out
    report = lint(root)
    assert report.summary['WARN'] == 1 and report.finding_summary['WARN'] == 2, \
        [f.message for f in report.findings]  # two files missing, under lint_files
    if output == 'json':
        document = json.loads(text)
        assert document['summary'] == report.summary
        assert document['finding_summary'] == {'OK': 0, 'WARN': 2, 'ERROR': 0, 'STALE': 0}
    else:
        assert '(checks); 2 WARN (findings)' in text
    # twin: a healthy workspace's summary says there are no findings
    main(['lint', str(vesc_racecar(tmp_path, 'team', 'wheel_ekf')), '--format', 'text'])
    assert '(checks); none (findings)' in capsys.readouterr().out


def test_json_findings_carry_their_place_and_the_summary_counts_them(tmp_path, capsys):
    root = cartographer_diff_drive(tmp_path, 'base_link', 'false')
    assert main(['lint', str(root), '--format', 'json']) == 1
    document = json.loads(capsys.readouterr().out)
    assert all(f['values'].get('file') and f['values'].get('line')
               for f in document['findings'])
    files = next(c for c in document['checks'] if c['check'] == 'lint_files')
    assert files['message'].endswith('findings: 1 ERROR')
