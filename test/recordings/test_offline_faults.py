# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Each simulated fault, recorded and audited offline, is reported by the right check."""
from pathlib import Path
from typing import Dict, List, Tuple

from frame_audit.app.audit import audit_recording, OfflineResult
from frame_audit.engine.audit import Seen
from frame_audit.engine.findings import Level
from frame_audit.recordings import BagError
from frame_audit.recordings.write import write_bag
from frame_audit.reports.report import RECORDING
from frame_audit.sim.car import drive, FAULT_START, FAULTS, POSE_TYPES
import pytest

DURATION = 20.0
SEED = 11
ERROR, WARN = Level.ERROR, Level.WARN

# fault -> the findings it must raise: (check id, level, frames the finding names)
EXPECTED: Dict[str, List[Tuple[str, Level, Tuple[str, ...]]]] = {
    'pf_rear_axle': [('pose_frame', ERROR, ('laser', 'base_link'))],
    'slam_pose_laser': [('pose_frame', ERROR, ('base_link', 'laser'))],
    'odom_two_parents': [('parent_uniqueness', ERROR, ('odom', 'map', 'odom_imu'))],
    'pf_map_laser': [('parent_uniqueness', ERROR, ('laser', 'base_link', 'map')),
                     ('transform_values', WARN, ('/map', '/laser'))],
    'ekf_odom_tf': [('parent_uniqueness', ERROR, ('odom', 'base_link'))],
    'ekf_map_tf': [('parent_uniqueness', ERROR, ('map', 'odom'))],
    'laser_027': [('laser_offset', ERROR, ('base_link', 'laser'))],
    'reversed_edge': [('chain_order', ERROR, ('base_link', 'odom')),
                      ('parent_uniqueness', ERROR, ('odom', 'base_link', 'map'))],
    'odom_reset': [('odometry', ERROR, ('odom', 'base_link'))],
    'odom_stops': [('timing', ERROR, ('odom', 'base_link'))],
    'nan_transform': [('transform_values', ERROR, ('odom', 'base_link'))],
    'bad_quaternion': [('transform_values', ERROR, ('odom', 'base_link'))],
    'leading_slash': [('transform_values', WARN, ('/base_link', '/laser'))],
    'static_changed': [('static_transforms', ERROR, ('base_link', 'laser')),
                       ('laser_offset', ERROR, ('base_link', 'laser'))],
    'laser_on_tf': [('laser_offset', WARN, ('base_link', 'laser')),
                    ('static_transforms', WARN, ('base_link', 'laser'))],
    'scan_frame_missing': [('connectivity', ERROR, ('laser_frame',))],
    # ros2 bag play plays a file by log time: the part after the jump interleaves with the part
    # before it, and the report's note on the file says so (test_play_order: a split one)
    'time_loop': [(RECORDING, WARN, ())],
    'no_tf_static': [('laser_offset', WARN, ('laser',))],
    'map_odom_late': [('lookups', WARN, ('map', 'laser'))],
}


@pytest.fixture(scope='module')
def audited(tmp_path_factory: pytest.TempPathFactory):
    """Return a function auditing a simulated drive, each drive recorded and audited once."""
    folder = tmp_path_factory.mktemp('drives')
    cache: Dict[Tuple[str, ...], OfflineResult] = {}

    def audit(*faults: str, gyro: bool = False, suffix: str = '.mcap') -> OfflineResult:
        key = faults + (str(gyro), suffix)
        if key not in cache:
            path = folder / ('_'.join(key) + suffix)
            drive_ = drive(DURATION, seed=SEED, faults=faults, gyro=gyro)
            pose_types = POSE_TYPES if suffix != '.bag' else {}
            write_bag(path, drive_, pose_types=pose_types, beams=1080 if not faults else 16)
            cache[key] = audit_recording(path)
        return cache[key]
    return audit


def problems(result: OfflineResult) -> List[Seen]:
    """Return the findings at WARN or worse."""
    return [s for s in result.log.findings() if s.finding.level in (WARN, ERROR)]


def describe(result: OfflineResult) -> str:
    """Return the findings one a line, for an assertion message."""
    return '\n'.join('{} {} {} {}'.format(
        s.finding.check, s.finding.level.name, s.finding.frames, s.finding.message)
        for s in result.log.findings())


def test_every_fault_is_expected() -> None:
    """Every fault of the simulator has its expected findings here."""
    assert set(EXPECTED) == set(FAULTS)


@pytest.mark.parametrize('gyro,suffix', [(False, '.mcap'), (True, '.db3'), (False, '.bag')])
def test_clean_drive_passes(audited, gyro: bool, suffix: str) -> None:
    """A healthy car raises nothing at WARN or above, whatever the format."""
    result = audited(gyro=gyro, suffix=suffix)
    assert not problems(result), describe(result)
    assert result.duration_s == pytest.approx(DURATION, abs=0.1)
    assert {r.check for r in result.log.last_results} >= {
        'parent_uniqueness', 'chain_order', 'laser_offset', 'pose_frame', 'odometry',
        'transform_values', 'timing', 'static_transforms', 'connectivity'}


@pytest.mark.parametrize('fault', sorted(FAULTS))
def test_fault_is_reported(audited, fault: str) -> None:
    """The fault's check reports it at its level, naming the frames concerned."""
    result = audited(fault)
    seen = result.report().findings  # the notes on the file too
    for check, level, frames in EXPECTED[fault]:
        assert any(f.check == check and f.level == level.name
                   and set(frames) <= set(f.frames) for f in seen), \
            '{} not reported as {} {} {}:\n{}'.format(
                fault, check, level.name, frames, describe(result))


@pytest.mark.parametrize('fault', sorted(
    f for f in FAULTS if FAULT_START[f] > 0.0 and EXPECTED[f][0][0] != RECORDING))
def test_fault_first_seen_when_it_started(audited, fault: str) -> None:
    """A fault that starts mid-drive is first seen then, not before."""
    result = audited(fault)
    check, level, _ = EXPECTED[fault][0]
    first = min(s.first_seen_s for s in result.log.findings()
                if s.finding.check == check and s.finding.level == level)
    start = FAULT_START[fault] * DURATION
    assert start <= first <= start + 5.0


def test_gyro_second_parent(audited) -> None:
    """With gyro odometry, slam also sending map -> odom gives odom a second parent."""
    result = audited('odom_two_parents', gyro=True)
    assert any(s.finding.check == 'parent_uniqueness' and s.finding.level == ERROR
               and {'odom', 'map', 'odom_imu'} <= set(s.finding.frames)
               for s in result.log.findings()), describe(result)


def test_progress_adds_up(tmp_path: Path) -> None:
    """The progress callback is told every recorded second once."""
    path = tmp_path / 'short.mcap'
    write_bag(path, drive(6.5, seed=1), beams=16)
    steps: List[float] = []
    result = audit_recording(path, progress=steps.append)
    assert sum(steps) == pytest.approx(result.duration_s) and len(steps) == 7
    assert result.messages > 1000 and result.source == str(path)


def test_unreadable_recording(tmp_path: Path) -> None:
    """An unreadable recording is a BagError, not a traceback."""
    with pytest.raises(BagError):
        audit_recording(tmp_path / 'missing.mcap')
