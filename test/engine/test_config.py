# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The configuration file: the car's defaults, and a clear error naming a wrong key."""
from pathlib import Path

from frame_audit.engine.config import AuditConfig, config_from_parameters, ConfigError, \
    load_config, parameters_from_yaml
from frame_audit.installed import default_config_file
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_file_holds_the_cars_defaults():
    assert default_config_file() == ROOT / 'config' / 'frame_audit.yaml'
    assert load_config(default_config_file()) == AuditConfig()


def test_every_parameter_of_the_file_is_read():
    params = parameters_from_yaml((ROOT / 'config' / 'frame_audit.yaml').read_text())
    assert 'laser_offset.translation' in params and 'poses.pf.laser_offset_x' in params
    changed = dict(params, **{'laser_offset.translation': [0.27, 0.0, 0.11],
                              'poses.pf.pose_frame': 'base_link'})
    config = config_from_parameters(changed)
    assert config.laser_translation == (0.27, 0.0, 0.11)
    assert config.pose_topics[0].pose_frame == 'base_link'


@pytest.mark.parametrize('key, value, message', [
    ('laser_offset.translation', [0.26, 0.0], 'laser_offset.translation: expected 3 numbers'),
    ('laser_offset.translation', None, 'laser_offset.translation: no value given'),
    ('laser_offset.tolerance_m', 'small', 'laser_offset.tolerance_m: expected a number'),
    ('diagnostic_period', 0.0, 'diagnostic_period: 0.0 is out of range'),
    ('frames.base', '', 'frames.base: expected a non-empty string'),
    ('frames.lazer', 'laser', 'frames.lazer: not a frame_audit parameter'),
    ('pose_frame.min_samples', 2.5, 'pose_frame.min_samples: expected a whole number'),
    ('timing.history_s', float('nan'), 'timing.history_s: expected a number'),
])
def test_a_wrong_value_names_its_key(key, value, message):
    with pytest.raises(ConfigError) as error:
        config_from_parameters({key: value})
    assert str(error.value).startswith(message)


def test_a_listed_pose_without_its_topic_names_the_key():
    with pytest.raises(ConfigError, match=r'^poses.pf.topic: missing'):
        config_from_parameters({'pose_topics': ['pf'], 'poses.pf.pose_frame': 'laser'})


def test_a_file_without_the_block_or_with_bad_yaml(tmp_path):
    bad = tmp_path / 'bad.yaml'
    bad.write_text('frame_audit: [unclosed')
    with pytest.raises(ConfigError, match='not valid YAML'):
        load_config(bad)
    other = tmp_path / 'other.yaml'
    other.write_text('some_node:\n  ros__parameters:\n    x: 1\n')
    with pytest.raises(ConfigError, match='no frame_audit: ros__parameters: block'):
        load_config(other)
    with pytest.raises(ConfigError, match='cannot read'):
        load_config(tmp_path / 'missing.yaml')


def test_a_pose_may_describe_any_frame_of_the_robot():
    config = config_from_parameters({'pose_topics': ['amcl'], 'poses.amcl.topic': '/amcl_pose',
                                     'poses.amcl.pose_frame': 'base_footprint'})
    assert config.pose_topics[0].pose_frame == 'base_footprint'


def test_left_out_keys_follow_the_configured_frames():
    config = config_from_parameters({'frames.base': 'base_footprint', 'frames.laser': 'base_scan'},
                                    'robot.yaml')
    assert config.required_frames == ('map', 'odom', 'base_footprint', 'base_scan')
    assert {p.pose_frame for p in config.pose_topics} == {'base_footprint', 'base_scan'}
    assert config.key('frames.base') == 'frames.base in robot.yaml'
    assert config.key('laser_offset.translation') == \
        'laser_offset.translation, a default that robot.yaml does not set'


def test_a_robot_without_lidar_or_pose_topics():
    config = config_from_parameters({'frames.laser': '', 'pose_topics': []})
    assert config.laser_frame == '' and config.pose_topics == ()
    assert config.required_frames == ('map', 'odom', 'base_link')
    assert config_from_parameters({'frames.laser': ''}).pose_topics[0].name == 'slam'


@pytest.mark.parametrize('text, key, lines, twin, flat', [
    ('frame_audit:\n  ros__parameters:\n    timing:\n      history_s: 10.0\n'
     '      history_s: 3.0\n', 'history_s', (4, 5),
     'frame_audit:\n  ros__parameters:\n    timing:\n      history_s: 10.0\n',
     {'timing.history_s': 10.0}),
    ('frame_audit:\n  ros__parameters:\n    timing:\n      history_s: 10.0\n'
     '    timing:\n      stale_after_s: 3.0\n', 'timing', (3, 5),
     'frame_audit:\n  ros__parameters:\n    timing:\n      history_s: 10.0\n'
     '      stale_after_s: 3.0\n', {'timing.history_s': 10.0, 'timing.stale_after_s': 3.0}),
    ('frame_audit:\n  ros__parameters: {frames: {map: map, map: world}}\n', 'map', (2, 2),
     'frame_audit:\n  ros__parameters: {frames: {map: world}}\n', {'frames.map': 'world'}),
])
def test_a_key_given_twice_is_named_with_both_lines(text, key, lines, twin, flat):
    """Issue 33: YAML keeps the last of two keys without a word; the config names the key."""
    with pytest.raises(ConfigError) as raised:
        parameters_from_yaml(text, 'car.yaml')
    said = 'car.yaml: {!r} is given twice in one mapping (lines {} and {}); YAML would keep ' \
        'only the last: keep one'.format(key, *lines)
    assert str(raised.value) == said
    assert parameters_from_yaml(twin, 'car.yaml') == flat  # its healthy twin reads as written
