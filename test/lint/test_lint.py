# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
frame-audit lint on a sample F1TENTH workspace: quiet on the clean one, and each mistake found.

test/lint/lint_workspace/clean is the one source of truth. Each Slip copies it and changes one
line, then says which findings the lint must give, at which file and line (found by a text on
it).
"""
from dataclasses import dataclass
import json
import math
from pathlib import Path
import shutil
import time
from typing import Optional, Set, Tuple

from frame_audit.cli import main
from frame_audit.engine.config import AuditConfig, load_config
from frame_audit.installed import default_config_file
from frame_audit.lint import lint_workspace, LintError
from frame_audit.lint.model import Token, Where
from frame_audit.lint.publishers.static_tf import static_edge
from frame_audit.reports.report import FORMATS
from lint_helpers import problems
import pytest

CLEAN = Path(__file__).resolve().parent / 'lint_workspace' / 'clean'
TEAM_CONFIG = CLEAN.parent / 'f1tenth_lint.yaml'  # declares the follower: it sends nothing
BRINGUP = 'src/f1tenth_stack/launch/bringup_launch.py'
SLAM_LAUNCH = 'src/f1tenth_stack/launch/slam_launch.py'
SLAM = 'src/f1tenth_stack/config/f1tenth_online_async.yaml'
VESC = 'src/f1tenth_stack/config/vesc.yaml'
PF = 'src/particle_filter/config/localize.yaml'
PF_LAUNCH = 'src/particle_filter/launch/localize_launch.xml'
FOLLOWER = 'src/follower/config/follower.yaml'
FOLLOWER_LAUNCH = 'src/follower/launch/follower_launch.yaml'
URDF = 'src/f1tenth_description/urdf/racecar.urdf'
CAR = str(default_config_file())  # the F1TENTH car, measured: --config names it

Expected = Tuple[str, str, str, Optional[str]]  # check, level, file, a text on the line


@dataclass(frozen=True)
class Slip:
    """One line of the clean workspace changed, and what the lint must say about it."""

    file: str
    old: str
    new: str
    expected: Tuple[Expected, ...]


SLIPS = {
    'laser_offset_in_launch': Slip(
        BRINGUP, "['0.26', '0.0', '0.11'", "['0.27', '0.0', '0.11'",
        (('laser_offset', 'ERROR', BRINGUP, "'0.27'"),
         ('pose_frame', 'ERROR', FOLLOWER, 'laser_offset_x'))),
    'laser_offset_in_urdf': Slip(
        URDF, '<child link="front_axle"/>', '<child link="laser"/>',
        (('laser_offset', 'ERROR', URDF, '<origin xyz="0.33'),
         ('parent_uniqueness', 'ERROR', URDF, 'name="base_to_front_axle"'),
         ('pose_frame', 'ERROR', FOLLOWER, 'laser_offset_x'))),
    'consumer_laser_offset_x': Slip(
        FOLLOWER, 'laser_offset_x: 0.26', 'laser_offset_x: 0.27',
        (('pose_frame', 'ERROR', FOLLOWER, 'laser_offset_x'),)),
    'pose_frame_rear_axle_for_lidar_pose': Slip(
        FOLLOWER, 'pose_frame: laser', 'pose_frame: base_link',
        (('pose_frame', 'ERROR', FOLLOWER, 'pose_frame'),)),
    'particle_filter_sends_map_to_laser': Slip(  # another bringup: they may be alternatives
        PF, 'publish_tf: false', 'publish_tf: true',  # its code's '/map', '/laser': tf2 strips
        (('parent_uniqueness', 'WARN', PF, 'publish_tf'),)),
    'inverted_chain': Slip(
        FOLLOWER_LAUNCH, '--child-frame-id imu', '--child-frame-id odom',
        (('chain_order', 'ERROR', FOLLOWER_LAUNCH, '--child-frame-id odom'),
         ('parent_uniqueness', 'WARN', FOLLOWER_LAUNCH, '--child-frame-id odom'))),
    'leading_slash': Slip(
        FOLLOWER_LAUNCH, 'value: map', 'value: /map',
        (('transform_values', 'WARN', FOLLOWER_LAUNCH, 'value: /map'),)),
    'misspelled_frame_in_parameter_file': Slip(
        FOLLOWER, 'base_frame: base_link', 'base_frame: base_lnik',
        (('connectivity', 'ERROR', FOLLOWER, 'base_frame'),)),
    'unpublished_frame_for_a_known_node': Slip(
        SLAM, 'base_frame: laser ', 'base_frame: base_footprint ',
        (('connectivity', 'ERROR', SLAM, 'base_frame'),)),
    'unpublished_frame_in_launch_dict': Slip(
        BRINGUP, "{'laser_frame_id': 'laser'}", "{'laser_frame_id': 'lidar'}",
        (('connectivity', 'ERROR', BRINGUP, 'laser_frame_id'),)),
    'odometry_transform_off': Slip(
        VESC, 'publish_tf: true', 'publish_tf: false',
        (('chain_order', 'ERROR', VESC, 'publish_tf'),)),  # one cause, one finding
    'yaw_in_the_quaternion_slots': Slip(
        BRINGUP, "'0.0', '0.0', '0.0', 'base_link', 'laser']",
        "'0.0', '0.0', '1.5708', '0.0', 'base_link', 'laser']",
        (('transform_values', 'ERROR', BRINGUP, "'1.5708'"),)),
    'parameter_block_for_a_misspelled_node': Slip(
        SLAM, 'slam_toolbox:\n  ros__parameters:', 'slam_tolbox:\n  ros__parameters:',
        (('lint_parameters', 'WARN', SLAM, 'slam_tolbox:'),)),
    'unresolved_parameter_file': Slip(
        BRINGUP, "'vesc_config',", "'vesc_params',",
        (('lint_files', 'WARN', BRINGUP, "parameters=[LaunchConfiguration('vesc_config')]"),
         ('chain_order', 'WARN', None, None))),  # the VESC node's odometry edge is unknown
    'unparsable_xml_launch': Slip(
        PF_LAUNCH, '</node>', '</nod>', (('lint_files', 'WARN', PF_LAUNCH, '</nod>'),)),
    'unparsable_python_launch': Slip(
        SLAM_LAUNCH, "name='slam_toolbox',", "name='slam_toolbox',,",
        (('lint_files', 'WARN', SLAM_LAUNCH, "name='slam_toolbox',,"),
         ('chain_order', 'WARN', None, None))),  # map: what the unreadable file starts
    'unparsable_yaml_launch': Slip(
        FOLLOWER_LAUNCH, '- arg:', '- arg: [', (('lint_files', 'WARN', FOLLOWER_LAUNCH, None),)),
}


def with_slip(tmp_path: Path, slip: Slip) -> Path:
    """Copy the clean workspace and change the one line the slip names."""
    root = tmp_path / 'ws'
    shutil.copytree(CLEAN, root)
    path = root / slip.file
    text = path.read_text(encoding='utf-8')
    assert text.count(slip.old) == 1, 'the slip must change exactly one place'
    path.write_text(text.replace(slip.old, slip.new), encoding='utf-8')
    return root


def lines_with(root: Path, file: str, text: str) -> Set[int]:
    """Return the lines of a workspace file that contain text."""
    lines = (root / file).read_text(encoding='utf-8').splitlines()
    found = {number for number, line in enumerate(lines, 1) if text in line}
    assert found, '{!r} is not in {}'.format(text, file)
    return found


def expected_problems(root: Path, slip: Slip) -> Set[tuple]:
    """Return the problems a slip must cause, with the line of each expected text."""
    return {(check, level, file, line) for check, level, file, text in slip.expected
            for line in (lines_with(root, file, text) if text else {None})}


def test_the_clean_workspace_is_quiet():
    report = lint_workspace(CLEAN, AuditConfig())
    assert problems(report) == set()
    assert {c.check: c.level for c in report.checks} == {
        'parent_uniqueness': 'OK', 'chain_order': 'OK', 'laser_offset': 'OK',
        'pose_frame': 'OK', 'transform_values': 'OK', 'connectivity': 'OK', 'lint_files': 'OK',
        'lint_parameters': 'OK', 'lint_nodes': 'OK'}
    tree = {row.frame: row.parents for row in report.frames}
    # the wheel's continuous joint is sent only with a /joint_states source: none starts here
    assert tree == {'map': (), 'odom': ('map',), 'base_link': ('odom',),
                    'laser': ('base_link',), 'imu': ('base_link',), 'front_axle': ('base_link',)}
    assert report.messages == 11  # files read: 5 launch, 5 parameter files, 1 URDF


def test_slam_toolbox_base_frame_laser_is_intended():
    assert 'base_frame: laser' in (CLEAN / SLAM).read_text(encoding='utf-8')
    report = lint_workspace(CLEAN, AuditConfig())
    assert not [f for f in report.findings if SLAM in f.message]


@pytest.mark.parametrize('name', sorted(SLIPS))
def test_each_slip_is_found_at_its_file_and_line(tmp_path, name):
    slip = SLIPS[name]
    root = with_slip(tmp_path, slip)
    report = lint_workspace(root, load_config(TEAM_CONFIG))
    lines = all(text for *_, text in slip.expected)
    expected = {(check, level, file, line if lines else None)
                for check, level, file, line in expected_problems(root, slip)}
    assert problems(report, lines) == expected, [f.message for f in report.findings]
    for finding in report.findings:
        assert finding.first_seen_s is None
        if 'file' in finding.values:
            assert finding.message.startswith('{}:{}: '.format(
                finding.values['file'], finding.values['line']))


def test_messages_give_both_values_and_both_places(tmp_path):
    root = with_slip(tmp_path, SLIPS['consumer_laser_offset_x'])
    message, = [f.message for f in lint_workspace(root, AuditConfig()).findings]
    follower_line, = lines_with(root, FOLLOWER, 'laser_offset_x')
    static_line, = lines_with(root, BRINGUP, "'base_link', 'laser'")
    assert '{}:{}'.format(FOLLOWER, follower_line) in message
    assert '{}:{}'.format(BRINGUP, static_line) in message
    assert '0.2700 m' in message and '0.2600 m' in message


def test_the_pose_frame_message_names_the_topic_and_what_it_carries(tmp_path):
    root = with_slip(tmp_path, SLIPS['pose_frame_rear_axle_for_lidar_pose'])
    message, = [f.message for f in lint_workspace(root, AuditConfig()).findings]
    assert '/pf/viz/inferred_pose' in message and "carries laser's pose" in message
    assert 'pose_frame is base_link' in message


@pytest.mark.parametrize('arguments, translation, yaw', [
    ('0.26 0 0.11 1.5707963 0 0 base_link laser', (0.26, 0.0, 0.11), math.pi / 2),
    ('0.26 0 0.11 0 0 0.7071068 0.7071068 base_link laser', (0.26, 0.0, 0.11), math.pi / 2),
    ('--x 0.26 --z 0.11 --yaw 1.5707963 --frame-id base_link --child-frame-id laser',
     (0.26, 0.0, 0.11), math.pi / 2),
    ('--frame-id base_link --child-frame-id laser --qz 0.7071068 --qw 0.7071068 --ros-args '
     '-p use_sim_time:=true', (0.0, 0.0, 0.0), math.pi / 2),
], ids=['positional_yaw_first', 'positional_quaternion', 'flags_rpy', 'flags_quaternion'])
def test_static_transform_publisher_arguments(arguments, translation, yaw):
    edge = static_edge([Token(word, 7) for word in arguments.split()], Where('a.py', 3))
    assert (edge.parent, edge.child) == ('base_link', 'laser')
    assert edge.value.translation == pytest.approx(translation)
    assert edge.value.pose2d()[2] == pytest.approx(yaw, abs=1e-6)
    assert edge.where == Where('a.py', 7)


@pytest.mark.parametrize('arguments', [
    '0.26 0 0.11 0 0 base_link laser', '--x 0.26 --frame-id', '--x nope --frame-id a',
    '--yaw 1 --qw 1 --frame-id a --child-frame-id b'])
def test_unreadable_static_transform_arguments_say_why(arguments):
    assert isinstance(static_edge([Token(w, 1) for w in arguments.split()], Where('a', 1)), str)


def test_ros1_xml_launch_with_slashes_and_a_quaternion(tmp_path):
    (tmp_path / 'launch').mkdir()
    (tmp_path / 'launch' / 'static.launch').write_text(
        '<launch>\n'
        '  <node pkg="tf2_ros" type="static_transform_publisher" name="laser_tf"\n'
        '        args="0.26 0 0.11 0 0 0 1 /base_link /laser"/>\n'
        '</launch>\n', encoding='utf-8')
    report = lint_workspace(tmp_path, AuditConfig())
    slashes = [f for f in report.findings if f.check == 'transform_values']
    assert [(f.values['file'], f.values['line']) for f in slashes] == [('launch/static.launch', 3)]
    assert not [f for f in report.findings if f.check == 'laser_offset']


def test_cli_exit_codes(tmp_path, capsys):
    assert main(['lint', str(CLEAN), '--config', CAR]) == 0
    assert main(['lint', str(with_slip(tmp_path, SLIPS['pose_frame_rear_axle_for_lidar_pose'])),
                 '--config', CAR]) == 1
    capsys.readouterr()
    assert main(['lint', str(tmp_path / 'missing')]) == 2
    assert 'not a folder' in capsys.readouterr().err


def test_cli_json_report(tmp_path, capsys):
    root = with_slip(tmp_path, SLIPS['leading_slash'])
    assert main(['lint', str(root), '--format', 'json']) == 0  # a WARN: fails only on --fail-on
    document = json.loads(capsys.readouterr().out)
    finding, = document['findings']
    assert finding['check'] == 'transform_values' and finding['first_seen_s'] is None
    assert finding['values']['file'] == FOLLOWER_LAUNCH
    assert document['summary']['WARN'] == 1
    assert main(['lint', str(root), '--fail-on', 'warn', '--format', 'markdown']) == 1
    assert '| `transform_values` | WARN |' in capsys.readouterr().out


def test_every_format_renders_a_lint_report(tmp_path):
    report = lint_workspace(with_slip(tmp_path, SLIPS['inverted_chain']), AuditConfig())
    for render in FORMATS.values():
        assert 'chain_order' in render(report)


def test_a_misspelled_block_names_the_node_it_probably_meant(tmp_path: Path) -> None:
    root = with_slip(tmp_path, SLIPS['parameter_block_for_a_misspelled_node'])
    (finding,) = [f for f in lint_workspace(root, AuditConfig()).findings
                  if f.check == 'lint_parameters']
    assert "the block 'slam_tolbox' matches no node this file is passed to (slam_toolbox)" \
        in finding.message
    assert "did you mean 'slam_toolbox'?" in finding.message


def hostile(tmp_path: Path, name: str, content: str) -> Path:
    """Return a copy of the clean workspace with one hostile file added."""
    root = tmp_path / 'ws'
    shutil.copytree(CLEAN, root)
    (root / name).write_text(content, encoding='utf-8')
    return root


@pytest.mark.parametrize('name, content, reason', [
    ('src/follower/config/bomb.yaml', 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + ''.join(
        '{}: &{} [{}]\n'.format(chr(98 + i), chr(98 + i), ','.join(['*' + chr(97 + i)] * 9))
        for i in range(9)), 'aliases nested without bound'),
    ('src/follower/launch/double_launch.py', 'a0 = "x"\n' + ''.join(
        'a{} = a{} + a{}\n'.format(i + 1, i, i) for i in range(60))
     + 'from launch_ros.actions import Node\nNode(package="p", executable="e", '
       'arguments=[a60])\n', 'without bound'),
    ('src/follower/config/huge.yaml', 'x: 1\n' * (1 << 20), 'larger than 2 MB'),
])
def test_a_hostile_file_is_named_and_skipped_in_bounded_time(
        tmp_path: Path, name: str, content: str, reason: str) -> None:
    started = time.monotonic()
    report = lint_workspace(hostile(tmp_path, name, content), AuditConfig())
    assert time.monotonic() - started < 30
    skipped = [f for f in report.findings if f.check == 'lint_files']
    assert len(skipped) == 1 and reason in skipped[0].message and name in skipped[0].message
    assert {f.check for f in report.findings} == {'lint_files'}  # the rest still checked


def test_an_empty_workspace_is_one_line(tmp_path: Path) -> None:
    (tmp_path / 'empty').mkdir()
    with pytest.raises(LintError, match='no launch, parameter or robot description files found'):
        lint_workspace(tmp_path / 'empty', AuditConfig())
    broken = tmp_path / 'broken'
    broken.mkdir()
    (broken / 'a_launch.py').write_text('this is not python (', encoding='utf-8')
    with pytest.raises(LintError, match='cannot be read'):
        lint_workspace(broken, AuditConfig())


def test_sarif_puts_each_finding_at_its_file_and_line(tmp_path: Path, capsys) -> None:
    root = with_slip(tmp_path, SLIPS['yaw_in_the_quaternion_slots'])
    assert main(['lint', str(root), '--format', 'sarif']) == 1
    document = json.loads(capsys.readouterr().out)
    assert document['version'] == '2.1.0'
    (run,) = document['runs']
    assert {'transform_values', 'lint_files'} <= {r['id'] for r in run['tool']['driver']['rules']}
    (result,) = run['results']
    assert result['ruleId'] == 'transform_values' and result['level'] == 'error'
    location = result['locations'][0]['physicalLocation']
    assert location['artifactLocation']['uri'] == BRINGUP
    line = (root / BRINGUP).read_text().splitlines()[location['region']['startLine'] - 1]
    assert "'1.5708'" in line
    assert run['originalUriBaseIds']['SRCROOT']['uri'] == root.resolve().as_uri() + '/'


def test_sarif_takes_a_finding_of_the_whole_workspace(tmp_path: Path, capsys) -> None:
    root = with_slip(tmp_path, SLIPS['odometry_transform_off'])  # odom nowhere above the base
    (root / SLAM_LAUNCH).unlink()  # and map nowhere at all: a finding with no file of its own
    assert main(['lint', str(root), '--format', 'sarif', '--fail-on', 'warn', '--config',
                 CAR]) == 1
    results = json.loads(capsys.readouterr().out)['runs'][0]['results']
    assert any(r['ruleId'] == 'chain_order' and r['locations'] == [] and 'map' in
               r['message']['text'] for r in results)
