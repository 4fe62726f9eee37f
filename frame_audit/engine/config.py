# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The audit's configuration: one YAML file for the node (ros__parameters) and the command line.

Parameters are flat names with dots ("laser_offset.translation"), the way ROS 2 flattens a
nested ros__parameters block, so the node can pass its parameters straight to
config_from_parameters(). A wrong value, or a key that names nothing, is a ConfigError that
names the key.
"""
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError

NODE_NAME = 'frame_audit'
MAX_ALIASES = 100  # YAML aliases ('*name') in a config: a few are handy, millions a bomb


@dataclass(frozen=True)
class PoseTopic:
    """
    A pose topic and the point of the car its consumers take it for.

    pose_frame is any frame of the robot (on the car, the base or the laser frame);
    laser_offset_x is the offset consumers use to convert a LiDAR pose to the rear axle, where
    they use one.
    """

    name: str
    topic: str
    pose_frame: str
    laser_offset_x: Optional[float] = None


def _default_poses(base: str, laser: str) -> Tuple[PoseTopic, ...]:
    """Return the car's pose topics, in the configured frames (no LiDAR: no LiDAR pose)."""
    slam = PoseTopic('slam', '/slam_pose', base, None)
    return (PoseTopic('pf', '/pf/viz/inferred_pose', laser, 0.26), slam) if laser else (slam,)


@dataclass(frozen=True)
class AuditConfig:
    """
    Everything the checks compare against: the robot's frames, offsets, topics, tolerances.

    The defaults are the F1TENTH car. Left out, frames.required is the configured map, odom,
    base and laser frames, and the pose topics are the car's in the configured frames, so a
    file that renames a frame never trips over a default naming the old one. laser_frame ''
    means the robot has no LiDAR: the checks that need one do not run. given holds the keys
    a file or the parameters set, so a message can say when a value is only the default.
    """

    hardware_id: str = 'f1tenth_car'
    diagnostic_period: float = 1.0
    map_frame: str = 'map'
    odom_frame: str = 'odom'
    base_frame: str = 'base_link'
    laser_frame: str = 'laser'
    required_frames: Optional[Tuple[str, ...]] = None
    laser_translation: Tuple[float, float, float] = (0.26, 0.0, 0.11)
    laser_rpy: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    tolerance_m: float = 0.0001
    tolerance_rad: float = 0.001
    odom_topic: str = '/odom'
    odom_stamp_tolerance_s: float = 0.05
    odom_position_tolerance_m: float = 0.05
    odom_jump_m: float = 0.25
    odom_jump_rad: float = 0.35
    scan_topic: str = '/scan'
    pose_topics: Optional[Tuple[PoseTopic, ...]] = None
    pose_min_samples: int = 20
    pose_fit_m: float = 0.12
    pose_margin_m: float = 0.08
    history_s: float = 10.0
    stale_after_s: float = 1.0
    future_tolerance_s: float = 1.5
    backwards_jump_s: float = 1.0
    alternation_fraction: float = 0.4
    alternation_min_m: float = 0.02
    max_frames: int = 10000
    lag_tolerance_s: float = 0.5
    lint_exclude: Tuple[str, ...] = ()
    lint_checks_off: Tuple[str, ...] = ()
    lint_publishers: 'Publishers' = ()  # (executable, its (parent, child) edges)
    given: Tuple[str, ...] = field(default=(), compare=False)
    source: str = field(default='the defaults', compare=False)

    def __post_init__(self) -> None:
        """Fill the frame-dependent defaults from the configured frames."""
        if self.required_frames is None:
            chain = (self.map_frame, self.odom_frame, self.base_frame, self.laser_frame)
            object.__setattr__(self, 'required_frames', tuple(f for f in chain if f))
        if self.pose_topics is None:
            object.__setattr__(self, 'pose_topics',
                               _default_poses(self.base_frame, self.laser_frame))

    def key(self, name: str, *more: str) -> str:
        """Name config keys as a message should: 'name in robot.yaml', or as a default."""
        names = ' and '.join((name,) + more)
        if name in self.given:
            return '{} in {}'.format(names, self.source)
        if self.given:
            return '{}, a default that {} does not set'.format(names, self.source)
        return '{}, the F1TENTH default'.format(names)


def _text(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError('{}: expected a non-empty string, got {!r}'.format(key, value))
    return value


def _number(low: float = -math.inf, high: float = math.inf,
            low_open: bool = False) -> Callable[[str, Any], float]:
    def parse(key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ConfigError('{}: expected a number, got {!r}'.format(key, value))
        if value < low or value > high or (low_open and value == low):
            raise ConfigError('{}: {} is out of range {}{}, {}]'.format(
                key, value, '(' if low_open else '[', low, high))
        return float(value)
    return parse


def _positive_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError('{}: expected a whole number of at least 1, got {!r}'.format(
            key, value))
    return value


def _vector3(key: str, value: Any) -> Tuple[float, float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise ConfigError('{}: expected 3 numbers [x, y, z], got {!r}'.format(key, value))
    parse = _number()
    x, y, z = (parse('{}[{}]'.format(key, i), v) for i, v in enumerate(value))
    return (x, y, z)


def _frame_or_none(key: str, value: Any) -> str:
    """Return a frame name, or '' for a frame the robot does not have (no LiDAR)."""
    if value is None or value == '':
        return ''
    return _text(key, value)


def _names(key: str, value: Any, empty: bool = False) -> Tuple[str, ...]:
    if value in ('', None) and empty:  # ROS parameters cannot hold an empty list
        return ()
    if not isinstance(value, (list, tuple)) or (not value and not empty):
        raise ConfigError('{}: expected a {}list of names, got {!r}'.format(
            key, '' if empty else 'non-empty ', value))
    return tuple(_text('{}[{}]'.format(key, i), v) for i, v in enumerate(value) if v != ''
                 or not empty)


Publishers = Tuple[Tuple[str, Tuple[Tuple[str, str], ...]], ...]


def _publishers(key: str, value: Any) -> Publishers:
    """Parse lint.publishers: 'EXECUTABLE' (sends nothing) or 'EXECUTABLE: a -> b, c -> d'."""
    parsed = []
    for i, entry in enumerate(_names(key, value, empty=True)):
        name, _, edges = entry.partition(':')
        pairs = [tuple(f.strip() for f in edge.split('->')) for edge in edges.split(',')
                 if edge.strip()]
        if not name.strip() or any(len(pair) != 2 or not all(pair) for pair in pairs) \
                or (edges.strip() and not pairs):
            raise ConfigError("{}[{}]: {!r} is not 'EXECUTABLE' or 'EXECUTABLE: parent -> "
                              "child, ...'".format(key, i, entry))
        parsed.append((name.strip(), tuple((pair[0], pair[1]) for pair in pairs)))
    return tuple(parsed)


# parameter name -> (AuditConfig field, parser)
_FIELDS: Dict[str, Tuple[str, Callable[[str, Any], Any]]] = {
    'hardware_id': ('hardware_id', _text),
    'diagnostic_period': ('diagnostic_period', _number(0.0, 3600.0, low_open=True)),
    'frames.map': ('map_frame', _text),
    'frames.odom': ('odom_frame', _text),
    'frames.base': ('base_frame', _text),
    'frames.laser': ('laser_frame', _frame_or_none),
    'frames.required': ('required_frames', _names),
    'laser_offset.translation': ('laser_translation', _vector3),
    'laser_offset.rpy': ('laser_rpy', _vector3),
    'laser_offset.tolerance_m': ('tolerance_m', _number(0.0, 10.0)),
    'laser_offset.tolerance_rad': ('tolerance_rad', _number(0.0, math.pi)),
    'odometry.topic': ('odom_topic', _text),
    'odometry.stamp_tolerance_s': ('odom_stamp_tolerance_s', _number(0.0, 10.0)),
    'odometry.position_tolerance_m': ('odom_position_tolerance_m', _number(0.0, 100.0)),
    'odometry.jump_m': ('odom_jump_m', _number(0.0, 100.0, low_open=True)),
    'odometry.jump_rad': ('odom_jump_rad', _number(0.0, math.pi, low_open=True)),
    'scan.topic': ('scan_topic', _text),
    'pose_frame.min_samples': ('pose_min_samples', _positive_int),
    'pose_frame.fit_m': ('pose_fit_m', _number(0.0, 10.0, low_open=True)),
    'pose_frame.margin_m': ('pose_margin_m', _number(0.0, 10.0, low_open=True)),
    'timing.history_s': ('history_s', _number(0.0, 3600.0, low_open=True)),
    'timing.stale_after_s': ('stale_after_s', _number(0.0, 3600.0, low_open=True)),
    'timing.future_tolerance_s': ('future_tolerance_s', _number(0.0, 3600.0)),
    'timing.backwards_jump_s': ('backwards_jump_s', _number(0.0, 3600.0, low_open=True)),
    'parent_uniqueness.alternation_fraction': ('alternation_fraction', _number(0.0, 1.0, True)),
    'parent_uniqueness.alternation_min_m': ('alternation_min_m', _number(0.0, 100.0, True)),
    'limits.max_frames': ('max_frames', _positive_int),
    'timing.lag_tolerance_s': ('lag_tolerance_s', _number(0.0, 3600.0, low_open=True)),
    'lint.exclude': ('lint_exclude', lambda key, value: _names(key, value, empty=True)),
    'lint.checks_off': ('lint_checks_off', lambda key, value: _names(key, value, empty=True)),
    'lint.publishers': ('lint_publishers', lambda key, value: _publishers(key, value)),
}
# Parameters rclpy declares on every node (not the audit's): accepted and ignored, so one
# file, even one dumped from a running node, serves the node and the command line.
ROS_PARAMETERS = ('use_sim_time', 'start_type_description_service')


def is_ros_parameter(name: str) -> bool:
    """Return whether a parameter is rclpy's own rather than the audit's."""
    return name in ROS_PARAMETERS or name.startswith('qos_overrides.')


def _pose_topics(params: Mapping[str, Any]) -> Tuple[PoseTopic, ...]:
    names = _names('pose_topics', params['pose_topics'], empty=True)
    topics = []
    for name in names:
        prefix = 'poses.{}.'.format(name)
        topic_key, frame_key, offset_key = (prefix + 'topic', prefix + 'pose_frame',
                                            prefix + 'laser_offset_x')
        for key in (topic_key, frame_key):
            if key not in params:
                raise ConfigError('{}: missing (pose_topics lists {!r})'.format(key, name))
        offset = params.get(offset_key)
        topics.append(PoseTopic(
            name=name, topic=_text(topic_key, params[topic_key]),
            pose_frame=_text(frame_key, params[frame_key]),
            laser_offset_x=None if offset is None else _number(-10.0, 10.0)(offset_key, offset)))
    return tuple(topics)


def config_from_parameters(params: Mapping[str, Any],
                           source: str = 'the parameters') -> AuditConfig:
    """Build the configuration from flat parameters; defaults fill what is not given."""
    values: Dict[str, Any] = {}
    pose_keys = [key for key in params if key.startswith('poses.')]
    for key, value in params.items():
        if key in _FIELDS:
            if value is None and key != 'frames.laser':
                raise ConfigError('{}: no value given'.format(key))
            name, parse = _FIELDS[key]
            values[name] = parse(key, value)
        elif key not in pose_keys and key != 'pose_topics' and not is_ros_parameter(key):
            raise ConfigError('{}: not a frame_audit parameter (known: {})'.format(
                key, ', '.join(sorted(list(_FIELDS) + ['pose_topics', 'poses.<name>.*']))))
    if 'pose_topics' in params:
        values['pose_topics'] = _pose_topics(params)
        listed = {'poses.{}.'.format(t.name) for t in values['pose_topics']}
        for key in pose_keys:
            if not any(key.startswith(prefix) for prefix in listed):
                raise ConfigError('{}: its pose is not listed in pose_topics'.format(key))
            if key.rsplit('.', 1)[-1] not in ('topic', 'pose_frame', 'laser_offset_x'):
                raise ConfigError('{}: a pose takes topic, pose_frame and laser_offset_x'.format(
                    key))
    elif pose_keys:
        raise ConfigError('{}: given, but pose_topics does not list the poses'.format(
            pose_keys[0]))
    given = tuple(sorted(key for key in params if not is_ros_parameter(key)))
    return AuditConfig(**values, given=given, source=source)


def flatten(tree: Mapping[str, Any], prefix: str = '') -> Dict[str, Any]:
    """Flatten nested dictionaries into dotted names, as ROS 2 does with parameters."""
    flat: Dict[str, Any] = {}
    for key, value in tree.items():
        name = prefix + str(key)
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, name + '.'))
        else:
            flat[name] = value
    return flat


def parameters_from_yaml(text: str, source: str = 'configuration') -> Dict[str, Any]:
    """Return the flat ros__parameters of frame_audit's block (or '/**') in a YAML text."""
    import yaml  # only the offline command and tests need it; the node gets parameters

    try:
        aliases = sum(isinstance(token, yaml.AliasToken) for token in yaml.scan(text))
        if aliases > MAX_ALIASES:
            raise ConfigError('{}: {} YAML aliases, more than the {} a configuration needs (a '
                              'file built to expand without bound?)'.format(
                                  source, aliases, MAX_ALIASES))
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError('{}: not valid YAML ({})'.format(
            source, ' '.join(str(error).split()))) from None
    if not isinstance(document, Mapping):
        raise ConfigError('{}: expected a mapping with a frame_audit: ros__parameters: block'
                          .format(source))
    for node in (NODE_NAME, '/' + NODE_NAME, '/**'):
        block = document.get(node)
        if isinstance(block, Mapping) and 'ros__parameters' in block:
            parameters = block['ros__parameters']
            if not isinstance(parameters, Mapping):
                raise ConfigError('{}.ros__parameters: expected a mapping'.format(node))
            return flatten(parameters)
    raise ConfigError('{}: no {}: ros__parameters: block'.format(source, NODE_NAME))


def load_config(path: Optional[Path] = None) -> AuditConfig:
    """Load a configuration file; without one, the car's defaults."""
    if path is None:
        return AuditConfig()
    if Path(path).exists() and not Path(path).is_file():
        raise ConfigError('{}: not a regular file'.format(path))
    try:
        text = Path(path).read_text(encoding='utf-8')
    except OSError as error:
        raise ConfigError('{}: cannot read ({})'.format(path, error.strerror)) from None
    except UnicodeDecodeError:
        raise ConfigError('{}: not a YAML text file (not UTF-8)'.format(path)) from None
    return config_from_parameters(parameters_from_yaml(text, str(path)), str(path))


def default_config_file() -> Path:
    """Return the package's config/frame_audit.yaml, installed or in the source tree."""
    source_tree = Path(__file__).resolve().parents[2]
    candidates: List[Path] = [source_tree / 'config' / 'frame_audit.yaml']
    try:
        from ament_index_python.packages import get_package_share_directory
        candidates.insert(0, Path(get_package_share_directory(NODE_NAME)) / 'config'
                          / 'frame_audit.yaml')
    except (ImportError, LookupError, ValueError):
        pass
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ConfigError('config/frame_audit.yaml not found (looked in {})'.format(
        ', '.join(str(c) for c in candidates)))
