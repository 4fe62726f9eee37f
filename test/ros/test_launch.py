# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The launch files and the analyzer file, read statically; launched for real where possible.

launch and launch_ros are not installed everywhere (no wheels exist for them), so every check
that can be made without them is made on the parsed source; only the real launch is skipped
where launch_ros does not import.
"""
import ast
from pathlib import Path
import re
import threading
import time
from typing import Dict, List, Optional

from frame_audit.engine.checks import CHECK_IDS, TREE
from frame_audit.engine.config import NODE_NAME
from frame_audit.reports.diagnostics import STATUS_PREFIX
from nested import ros_domain
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ROOT / 'launch'


class LaunchFile:
    """A launch file's source, parsed: its calls, and its module-level constants."""

    def __init__(self, path: Path):
        """Parse the file."""
        self.tree = ast.parse(path.read_text(encoding='utf-8'), str(path))
        self.names = {target.id: node.value.value for node in self.tree.body
                      if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                      for target in node.targets if isinstance(target, ast.Name)}

    def calls(self, name: str) -> List[ast.Call]:
        """Return every call of name (Node, DeclareLaunchArgument, ...)."""
        return [node for node in ast.walk(self.tree) if isinstance(node, ast.Call)
                and getattr(node.func, 'id', getattr(node.func, 'attr', None)) == name]

    def constant(self, call: ast.Call, name: str) -> Optional[str]:
        """Return a call's keyword argument when it is a literal or a module constant."""
        value = keyword(call, name)
        if isinstance(value, ast.Name):
            return self.names.get(value.id)
        return value.value if isinstance(value, ast.Constant) else None

    def arguments(self) -> Dict[str, ast.Call]:
        """Return the launch arguments the file declares, by name."""
        return {call.args[0].value: call for call in self.calls('DeclareLaunchArgument')}

    def nodes(self) -> Dict[str, ast.Call]:
        """Return the Node actions, by executable."""
        return {self.constant(call, 'executable'): call for call in self.calls('Node')}


def keyword(call: ast.Call, name: str) -> Optional[ast.AST]:
    """Return a call's keyword argument's expression."""
    return next((k.value for k in call.keywords if k.arg == name), None)


def strings(node: Optional[ast.AST]) -> List[str]:
    """Return every string literal inside an expression."""
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)] if node is not None else []


def console_scripts() -> Dict[str, str]:
    """Return setup.py's console scripts: name -> module:function."""
    entries = [s for s in strings(ast.parse((ROOT / 'setup.py').read_text())) if ' = ' in s]
    return dict(tuple(part.strip() for part in entry.split('=', 1)) for entry in entries)


BRINGUP = LaunchFile(LAUNCH / 'bringup.launch.py')
SIM = LaunchFile(LAUNCH / 'sim.launch.py')


def test_bringup_starts_the_node_with_the_parameters_file():
    node = BRINGUP.nodes()['frame_audit_node']
    assert BRINGUP.constant(node, 'package') == 'frame_audit'
    assert BRINGUP.constant(node, 'name') == NODE_NAME  # the parameters file's block
    assert console_scripts()['frame_audit_node'] == 'frame_audit.ros.executables:node'
    parameters = keyword(node, 'parameters')
    assert "LaunchConfiguration('config')" in ast.unparse(parameters)
    assert 'use_sim_time' in strings(parameters)
    assert 'log_level' in ast.unparse(keyword(node, 'arguments'))
    config = BRINGUP.arguments()['config']
    assert ['config', 'frame_audit.yaml'] == strings(keyword(config, 'default_value'))
    assert (ROOT / 'config' / 'frame_audit.yaml').is_file()
    assert NODE_NAME in yaml.safe_load((ROOT / 'config' / 'frame_audit.yaml').read_text())


def test_bringup_arguments_and_their_defaults():
    declared = BRINGUP.arguments()
    assert set(declared) == {'config', 'use_sim_time', 'log_level', 'aggregator'}
    defaults = {name: BRINGUP.constant(call, 'default_value') for name, call in declared.items()}
    assert defaults['use_sim_time'] == 'false'
    assert defaults['log_level'] == 'info'
    assert defaults['aggregator'] == 'false'
    assert all(BRINGUP.constant(call, 'description') for call in declared.values())


def test_bringup_starts_the_aggregator_only_when_asked():
    aggregator = BRINGUP.nodes()['aggregator_node']
    assert BRINGUP.constant(aggregator, 'package') == 'diagnostic_aggregator'
    assert ast.unparse(keyword(aggregator, 'condition')) == \
        "IfCondition(LaunchConfiguration('aggregator'))"
    assert ['config', 'analyzers.yaml'] == strings(keyword(aggregator, 'parameters'))[:2]


def test_analyzers_group_every_frame_audit_status_under_frames():
    document = yaml.safe_load((ROOT / 'config' / 'analyzers.yaml').read_text())
    parameters = document['analyzers']['ros__parameters']  # the aggregator node's name
    (analyzer,) = parameters.values()
    assert analyzer['type'] == 'diagnostic_aggregator/GenericAnalyzer'
    assert analyzer['path'] == 'Frames'
    prefixes = analyzer['find_and_remove_prefix']
    for check in CHECK_IDS + (TREE,):
        assert any((STATUS_PREFIX + check).startswith(p) for p in prefixes)
    assert not any('other_node: thing'.startswith(p) for p in prefixes)


def test_sim_launch_drives_the_simulator_under_the_bringup():
    sim = SIM.nodes()['frame_audit_sim']
    assert SIM.constant(sim, 'package') == 'frame_audit'
    assert console_scripts()['frame_audit_sim'] == 'frame_audit.ros.executables:sim'
    assert {'faults', 'fault_after_s', 'seed', 'gyro', 'config'} <= set(
        strings(keyword(sim, 'parameters')))
    assert {'faults', 'fault_after_s', 'seed', 'gyro', 'config', 'log_level', 'aggregator'} \
        == set(SIM.arguments())
    (include,) = SIM.calls('IncludeLaunchDescription')
    assert 'bringup.launch.py' in strings(include)


def test_launch_files_are_installed():
    assert "glob('launch/*.launch.py')" in (ROOT / 'setup.py').read_text()
    assert "glob('config/*.yaml')" in (ROOT / 'setup.py').read_text()


@pytest.mark.ros
@pytest.mark.slow
def test_bringup_really_launches(monkeypatch):
    """Where launch_ros imports (a ROS install, the package built): diagnostics come out."""
    pytest.importorskip('launch_ros')
    from ament_index_python.packages import get_package_share_directory, \
        PackageNotFoundError
    try:
        share = Path(get_package_share_directory('frame_audit'))
    except PackageNotFoundError:
        pytest.skip('frame_audit is not installed in an ament index (colcon build it)')
    from launch import LaunchDescription, LaunchService
    from launch.actions import IncludeLaunchDescription
    from launch.launch_description_sources import PythonLaunchDescriptionSource
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray

    monkeypatch.setenv('ROS_DOMAIN_ID', str(ros_domain(offset=50)))
    monkeypatch.setenv('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    service = LaunchService()
    service.include_launch_description(LaunchDescription([IncludeLaunchDescription(
        PythonLaunchDescriptionSource(str(share / 'launch' / 'bringup.launch.py')))]))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    names = set()
    rclpy.init()
    try:
        node = rclpy.create_node('test_bringup_listener')
        node.create_subscription(DiagnosticArray, '/diagnostics', lambda msg: names.update(
            s.name for s in msg.status), 10)
        deadline = time.monotonic() + 20.0
        while time.monotonic() < deadline and STATUS_PREFIX + TREE not in names:
            rclpy.spin_once(node, timeout_sec=0.1)
    finally:
        rclpy.shutdown()
        service.shutdown()
        runner.join(timeout=15.0)
    assert {STATUS_PREFIX + c for c in CHECK_IDS} <= names


def test_a_missing_or_wrong_config_stops_the_launch_in_one_line(tmp_path):
    from frame_audit.ros.launch_checks import check_bringup, LaunchError
    with pytest.raises(LaunchError, match=r'^config:=/no/such.yaml: no such file; nothing was '
                       'started$'):
        check_bringup('/no/such.yaml', 'false', lambda name: True)
    wrong = tmp_path / 'car.yaml'
    wrong.write_text('frame_audit:\n  ros__parameters:\n    laser_offset:\n'
                     '      translation: [0.26]\n')
    with pytest.raises(LaunchError, match='laser_offset.translation: expected 3 numbers'):
        check_bringup(str(wrong), 'false', lambda name: True)
    check_bringup(str(ROOT / 'config' / 'frame_audit.yaml'), 'false', lambda name: False)


def test_an_aggregator_that_is_not_installed_stops_the_launch():
    from frame_audit.ros.launch_checks import check_bringup, LaunchError
    config = str(ROOT / 'config' / 'frame_audit.yaml')
    with pytest.raises(LaunchError, match='diagnostic_aggregator is not installed'):
        check_bringup(config, 'true', lambda name: name != 'diagnostic_aggregator')
    check_bringup(config, 'True', lambda name: True)


def test_a_node_that_exits_at_start_fails_the_launch():
    from frame_audit.ros.launch_checks import failed_at_start
    assert 'exited with code 1' in failed_at_start('frame_audit_node', 1)
    assert failed_at_start('frame_audit_node', 0) is None
    assert failed_at_start('frame_audit_node', -15) is None  # stopped at shutdown
    source = (LAUNCH / 'bringup.launch.py').read_text()
    tree = ast.parse(source)
    opaque = [c for c in ast.walk(tree) if isinstance(c, ast.Call)
              and getattr(c.func, 'id', '') == 'OpaqueFunction']
    assert len(opaque) == 1  # the nodes come from the function that checks first
    handler = next(c for c in ast.walk(tree) if isinstance(c, ast.Call)
                   and getattr(c.func, 'id', '') == 'OnProcessExit')
    assert ast.unparse(keyword(handler, 'target_action')) == 'audit'


def test_sim_launch_keeps_each_simulated_node_its_own_name():
    sim = SIM.nodes()['frame_audit_sim']
    assert keyword(sim, 'name') is None


def test_range_errors_have_balanced_brackets():
    from frame_audit.engine.config import config_from_parameters, ConfigError
    with pytest.raises(ConfigError, match=r'is out of range \[0.0, 10.0\]$'):
        config_from_parameters({'laser_offset.tolerance_m': 11.0})
    with pytest.raises(ConfigError, match=r'is out of range \(0.0, 3600.0\]$'):
        config_from_parameters({'diagnostic_period': 0.0})


def test_a_simulator_that_exits_at_start_fails_the_sim_launch():
    """A bad faults:= or seed:= ends the simulator with code 1: the launch fails with it."""
    tree = ast.parse((LAUNCH / 'sim.launch.py').read_text())
    handler = next(c for c in ast.walk(tree) if isinstance(c, ast.Call)
                   and getattr(c.func, 'id', '') == 'OnProcessExit')
    assert ast.unparse(keyword(handler, 'target_action')) == 'simulator'
    assert ast.unparse(keyword(handler, 'on_exit')) == '_fail_with_simulator'
    simulator = next(node for node in tree.body if isinstance(node, ast.FunctionDef)
                     and node.name == '_simulator')  # built once its numbers are checked
    assigned = [n for n in ast.walk(simulator) if isinstance(n, ast.Assign)
                and ast.unparse(n.targets[0]) == 'simulator']
    assert assigned and ast.unparse(assigned[0].value.func) == 'Node'


@pytest.mark.parametrize('seed,after,said', [
    ('abc', '0.0', 'seed:=abc: expected a whole number'),
    ('3', 'soon', 'fault_after_s:=soon: expected seconds, a number of at least 0'),
    ('3', '-1', 'fault_after_s:=-1: expected seconds'),
    ('3', 'nan', 'fault_after_s:=nan: expected seconds')])
def test_sim_launch_arguments_name_themselves(seed, after, said):
    """Issue 35: seed:=abc printed "invalid literal for int() with base 10: 'abc'"."""
    from frame_audit.ros.launch_checks import check_sim, LaunchError
    with pytest.raises(LaunchError, match='^{}.*; nothing was started$'.format(re.escape(said))):
        check_sim(seed, after)
    check_sim('3', '2.5')  # the healthy twin
    tree = ast.parse((LAUNCH / 'sim.launch.py').read_text())
    checked = next(node for node in tree.body if isinstance(node, ast.FunctionDef)
                   and node.name == '_simulator')
    first = checked.body[1] if isinstance(checked.body[0].value, ast.Constant) else \
        checked.body[0]
    assert ast.unparse(first.value.func) == 'check_sim'  # before the node is made


def test_the_launch_check_names_a_mixed_list_before_anything_starts(tmp_path):
    from frame_audit.ros.launch_checks import check_bringup, LaunchError
    car = tmp_path / 'car.yaml'
    car.write_text('frame_audit:\n  ros__parameters:\n    laser_offset:\n'
                   '      translation: [0.26, 0, 0.11]\n')
    with pytest.raises(LaunchError, match=r'^config:=.*car.yaml: laser_offset.translation: '
                       r"\[0.26, 0, 0.11\] mixes double and integer \('0'\): ROS reads one "
                       r'type per list; write every number with a decimal point; nothing was '
                       r'started$'):
        check_bringup(str(car), 'false', lambda name: True)
    car.write_text('frame_audit:\n  ros__parameters:\n    laser_offset:\n'
                   '      translation: [0.26, 0.0, 0.11]\n')  # the healthy twin
    check_bringup(str(car), 'false', lambda name: True)
