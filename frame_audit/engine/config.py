# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The audit's configuration: one YAML file for the node (ros__parameters) and the command line.

Parameters are flat names with dots ("laser_offset.translation"), the way ROS 2 flattens a
nested ros__parameters block, so the node can pass its parameters straight to
config_from_parameters(). A wrong value, or a key that names nothing, is a ConfigError that
names the key.
"""
from dataclasses import dataclass, field
import math
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .tf2.backend import CHOICES as TF2_CHOICES
from ..errors import ConfigError

NODE_NAME = 'frame_audit'
MAX_ALIASES = 100  # YAML aliases ('*name') in a config: a few are handy, millions a bomb
MAX_DEPTH = 64  # nested YAML blocks in a config: it needs five, 50,000 overflow the parser


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


@dataclass(frozen=True)
class LookupEntry:
    """A lookup the car's nodes make: each message of topic placed in target within wait_s."""

    topic: str
    target: str
    wait_s: float = 0.1

    @property
    def text(self) -> str:
        """Return the entry as lookups.entries writes it: 'TOPIC -> FRAME within WAIT_S'."""
        return '{} -> {} within {:g}'.format(self.topic, self.target, self.wait_s)


def _default_lookups(scan: str, laser: str, frames: Tuple[str, ...]) -> Tuple[LookupEntry, ...]:
    """Return the car's lookups: the scan into map and odom (slam_toolbox, the particle filter)."""
    return tuple(LookupEntry(scan, frame) for frame in frames) if laser else ()


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
    a file or the parameters set, so a message can say when a value is only the default;
    assumed is true when no config was named and the car's file stood in for one.
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
    odom_top_speed_mps: float = 0.0  # 0: the fastest motion the recording itself shows
    odom_top_turn_rad_s: float = 0.0
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
    lookups: Optional[Tuple[LookupEntry, ...]] = None
    lookups_warn_share: float = 0.05
    lookups_tf2: str = 'auto'  # who answers: tf2 itself (tf2_py) where it imports, or the model
    lag_tolerance_s: float = 0.5
    lint_exclude: Tuple[str, ...] = ()
    lint_checks_off: Tuple[str, ...] = ()
    lint_publishers: 'Publishers' = ()  # (executable, its (parent, child) edges)
    given: Tuple[str, ...] = field(default=(), compare=False)
    source: str = field(default='the defaults', compare=False)
    assumed: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        """Fill the frame-dependent defaults from the configured frames."""
        if self.required_frames is None:
            chain = (self.map_frame, self.odom_frame, self.base_frame, self.laser_frame)
            object.__setattr__(self, 'required_frames', tuple(f for f in chain if f))
        if self.pose_topics is None:
            object.__setattr__(self, 'pose_topics',
                               _default_poses(self.base_frame, self.laser_frame))
        if self.lookups is None:
            object.__setattr__(self, 'lookups', _default_lookups(
                self.scan_topic, self.laser_frame, (self.map_frame, self.odom_frame)))

    def chose(self, name: str) -> bool:
        """
        Return whether the user chose a key's value: their file sets it, or no file was given.

        The F1TENTH defaults stand in for data only when they were chosen as a whole; a
        robot's own file that leaves a key out has not chosen the car's number for it.
        """
        return name in self.given or not self.given

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
                or not _is_finite(value):
            shown = repr(value)
            raise ConfigError('{}: expected a number, got {}'.format(
                key, shown if len(shown) <= 40 else '{}... ({} characters)'.format(
                    shown[:20], len(shown))))
        if value < low or value > high or (low_open and value == low):
            raise ConfigError('{}: {} is out of range {}{}, {}]'.format(
                key, value, '(' if low_open else '[', low, high))
        return float(value)
    parse.range = (low, high)  # type: ignore[attr-defined]  # the node's descriptors show it
    parse.low_open = low_open  # type: ignore[attr-defined]
    return parse


def _is_finite(value: float) -> bool:
    """Return whether a number is finite as a float (10^400 is a whole number, not a float)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _positive_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError('{}: expected a whole number of at least 1, got {!r}'.format(
            key, value))
    return value


_positive_int.range = (1, 2 ** 31 - 1)  # type: ignore[attr-defined]


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


def _lookups(key: str, value: Any) -> Tuple[LookupEntry, ...]:
    """Parse lookups.entries: 'TOPIC -> FRAME within WAIT_S' (the wait defaults to 0.1 s)."""
    parsed = []
    for i, entry in enumerate(_names(key, value, empty=True)):
        topic, _, rest = (part.strip() for part in entry.partition('->'))
        frame, _, wait = (part.strip() for part in rest.partition(' within '))
        if not topic or not frame or ' ' in frame:
            raise ConfigError("{}[{}]: {!r} is not 'TOPIC -> FRAME within WAIT_S'".format(
                key, i, entry))
        try:
            seconds = float(wait) if wait else 0.1
        except ValueError:
            raise ConfigError('{}[{}]: the wait {!r} is not a number of seconds'.format(
                key, i, wait)) from None
        lookup = LookupEntry(topic, frame, _number(0.0, 60.0)('{}[{}]'.format(key, i), seconds))
        if lookup in parsed:
            raise ConfigError('{}[{}]: {!r} repeats an earlier entry'.format(key, i, entry))
        parsed.append(lookup)
    return tuple(parsed)


def _tf2_choice(key: str, value: Any) -> str:
    """Parse lookups.tf2: auto, model or tf2_py."""
    if value not in TF2_CHOICES:
        raise ConfigError('{}: expected one of {}, got {!r}'.format(
            key, ', '.join(TF2_CHOICES), value))
    return value


def _check_lookup_topics(config: 'AuditConfig') -> None:
    """Refuse a lookup of a topic the audit does not read: it would never see a message."""
    read = [config.scan_topic, config.odom_topic] + [p.topic for p in config.pose_topics or ()]
    for i, lookup in enumerate(config.lookups or ()):
        if lookup.topic not in read:
            raise ConfigError('lookups.entries[{}]: {} is not a topic the audit reads (scan.'
                              'topic, odometry.topic or a pose topic: {})'.format(
                                  i, lookup.topic, ', '.join(read)))


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
    'odometry.top_speed_mps': ('odom_top_speed_mps', _number(0.0, 1000.0)),
    'odometry.top_turn_rad_s': ('odom_top_turn_rad_s', _number(0.0, 1000.0)),
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
    'lookups.entries': ('lookups', _lookups),
    'lookups.warn_share': ('lookups_warn_share', _number(0.0, 1.0)),
    'lookups.tf2': ('lookups_tf2', _tf2_choice),
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
    config = AuditConfig(**values, given=given, source=source)
    _check_lookup_topics(config)
    return config


def parameter_range(key: str) -> Optional[Tuple[float, float]]:
    """Return the (low, high) a numeric parameter accepts, None for the others."""
    field_and_parse = _FIELDS.get(key)
    return getattr(field_and_parse[1], 'range', None) if field_and_parse else None


def parameter_low_open(key: str) -> bool:
    """Return whether a numeric parameter refuses its range's low end (more than 0 s)."""
    field_and_parse = _FIELDS.get(key)
    return bool(getattr(field_and_parse[1], 'low_open', False)) if field_and_parse else False


def _as_parameter(value: Any) -> Any:
    """Return a configuration value as a ROS parameter holds it ('' for an empty list)."""
    if isinstance(value, tuple):
        if not value:
            return ''  # ROS parameters cannot hold an empty list
        if all(isinstance(item, tuple) for item in value):  # lint.publishers
            return ['{}: {}'.format(name, ', '.join('{} -> {}'.format(*edge) for edge in edges))
                    if edges else name for name, edges in value]
        return list(value)
    return value


def parameters_of(config: AuditConfig) -> Dict[str, Any]:
    """
    Return every parameter with the value the configuration runs with.

    The inverse of config_from_parameters: the node declares each one with the value in force.
    """
    params = {key: _as_parameter(getattr(config, name)) for key, (name, _) in _FIELDS.items()}
    poses = config.pose_topics or ()
    params['pose_topics'] = [pose.name for pose in poses] or ''
    for pose in poses:
        prefix = 'poses.{}.'.format(pose.name)
        params[prefix + 'topic'] = pose.topic
        params[prefix + 'pose_frame'] = pose.pose_frame
        if pose.laser_offset_x is not None:
            params[prefix + 'laser_offset_x'] = pose.laser_offset_x
    params['lookups.entries'] = [lookup.text for lookup in config.lookups or ()] or ''
    return params


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


def _check_shape(yaml: Any, text: str, source: str) -> None:
    """
    Refuse a YAML text built to exhaust the loader: too many aliases, or nesting too deep.

    The tokens are scanned once, lazily, so a 50,000-deep file stops at MAX_DEPTH.
    """
    opening = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken,
               yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)
    closing = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    aliases = depth = 0
    for token in yaml.scan(text):
        if isinstance(token, yaml.AliasToken):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise ConfigError('{}: more than {} YAML aliases, more than a configuration '
                                  'needs (a file built to expand without bound?)'.format(
                                      source, MAX_ALIASES))
        elif isinstance(token, opening):
            depth += 1
            if depth > MAX_DEPTH:
                raise ConfigError('{}: nested more than {} levels deep; a configuration needs '
                                  'a few'.format(source, MAX_DEPTH))
        elif isinstance(token, closing):
            depth -= 1


def _loader_without_twins(yaml: Any, source: str) -> Any:
    """
    Return yaml's SafeLoader refusing a key given twice in one mapping, naming it and its lines.

    YAML keeps the last of two (a second history_s further down wins without a word); a
    configuration that says two things says neither.
    """
    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader: Any, node: Any, deep: bool = False) -> Any:
        lines: Dict[Any, int] = {}
        for key_node, _ in node.value:
            key, line = loader.construct_object(key_node, deep=True), key_node.start_mark.line + 1
            try:
                first = lines.get(key)
            except TypeError:  # an unhashable key: SafeLoader says so
                break
            if first is not None:
                raise ConfigError('{}: {!r} is given twice in one mapping (lines {} and {}); '
                                  'YAML would keep only the last: keep one'.format(
                                      source, key, first, line))
            lines[key] = line
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def parameters_from_yaml(text: str, source: str = 'configuration') -> Dict[str, Any]:
    """Return the flat ros__parameters of frame_audit's block (or '/**') in a YAML text."""
    import yaml  # only the offline command and tests need it; the node gets parameters

    try:
        _check_shape(yaml, text, source)
        document = yaml.load(text, Loader=_loader_without_twins(yaml, source))
    except ConfigError:
        raise
    except yaml.YAMLError as error:
        raise ConfigError('{}: not valid YAML ({})'.format(
            source, ' '.join(str(error).split()))) from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise ConfigError('{}: a value cannot be read ({})'.format(
            source, str(error).splitlines()[0][:120])) from None
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
