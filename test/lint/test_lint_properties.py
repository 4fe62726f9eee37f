# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Property tests for `frame-audit lint` (issue 24): any damage to a workspace is one clear line.

A small healthy workspace is written here from several robots' habits: a TurtleBot-like
bringup (Python launch with Node, IncludeLaunchDescription, IfCondition, parameters), an XML
and a YAML launch file, robot_localization's parameter file, cartographer's .lua, a xacro
description with a macro, setup.py data_files and CMakeLists.txt install(). Hypothesis then
damages it: cuts, bit flips, swapped tokens, deep nesting, odd text, includes that name a
missing file, themselves or a folder. The lint runs in a child process with a time bound, so a
traceback, a crash or a hang fails the test, never the run.
"""
from dataclasses import dataclass
import json
import os
from pathlib import Path
import random
import re
import subprocess
import textwrap
from typing import Dict, Tuple

from hypothesis import example, given, HealthCheck, settings, strategies as st
from lint_helpers import lint_child, package, parents, write
import pytest

PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

BRINGUP = 'src/turtle_bringup/launch/bringup.launch.py'
ROBOT_XML = 'src/turtle_bringup/launch/robot.launch.xml'
SENSORS_YAML = 'src/turtle_bringup/launch/sensors.launch.yaml'
EKF = 'src/turtle_bringup/config/ekf.yaml'
LUA = 'src/turtle_bringup/config/turtle_2d.lua'
LUA_BASE = 'src/turtle_bringup/config/frames.lua'
SETUP = 'src/turtle_bringup/setup.py'
XACRO = 'src/turtle_description/urdf/turtle.urdf.xacro'
MACRO = 'src/turtle_description/urdf/sensor.xacro'
CMAKE = 'src/turtle_description/CMakeLists.txt'

SEED = {
    'src/turtle_bringup/package.xml': package('turtle_bringup'),
    SETUP: """
        from glob import glob
        import os
        from setuptools import setup

        package_name = 'turtle_bringup'
        setup(
            name=package_name,
            data_files=[
                ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
                ('share/' + package_name, ['package.xml']),
                (os.path.join('share', package_name, 'launch'), glob('launch/*')),
                (os.path.join('share', package_name, 'config'), glob('config/*')),
            ],
        )
        """,
    BRINGUP: """
        import os
        from ament_index_python.packages import get_package_share_directory
        from launch import LaunchDescription
        from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
        from launch.conditions import IfCondition, UnlessCondition
        from launch.launch_description_sources import PythonLaunchDescriptionSource
        from launch.substitutions import Command, LaunchConfiguration
        from launch_ros.actions import Node


        def generate_launch_description():
            bringup = get_package_share_directory('turtle_bringup')
            description = get_package_share_directory('turtle_description')
            use_sim_time = LaunchConfiguration('use_sim_time')
            slam = LaunchConfiguration('slam')
            return LaunchDescription([
                DeclareLaunchArgument('use_sim_time', default_value='false'),
                DeclareLaunchArgument('slam', default_value='true'),
                Node(package='robot_state_publisher', executable='robot_state_publisher',
                     name='robot_state_publisher',
                     parameters=[{'use_sim_time': use_sim_time, 'robot_description': Command(
                         ['xacro ', os.path.join(description, 'urdf', 'turtle.urdf.xacro'),
                          ' lidar_x:=-0.032'])}]),
                Node(package='robot_localization', executable='ekf_node',
                     name='ekf_filter_node',
                     parameters=[os.path.join(bringup, 'config', 'ekf.yaml'),
                                 {'use_sim_time': use_sim_time}]),
                Node(package='cartographer_ros', executable='cartographer_node',
                     name='cartographer_node', condition=IfCondition(slam),
                     arguments=['-configuration_directory', os.path.join(bringup, 'config'),
                                '-configuration_basename', 'turtle_2d.lua']),
                Node(package='tf2_ros', executable='static_transform_publisher',
                     name='map_to_odom', condition=UnlessCondition(slam),
                     arguments=['--frame-id', 'map', '--child-frame-id', 'odom']),
                IncludeLaunchDescription(PythonLaunchDescriptionSource(
                    os.path.join(bringup, 'launch', 'robot.launch.xml'))),
            ])
        """,
    ROBOT_XML: """
        <launch>
          <arg name="imu_z" default="0.068"/>
          <node pkg="tf2_ros" exec="static_transform_publisher" name="imu_tf"
                args="--frame-id base_link --child-frame-id imu_link --z $(var imu_z)"/>
          <include file="$(find-pkg-share turtle_bringup)/launch/sensors.launch.yaml"/>
        </launch>
        """,
    SENSORS_YAML: """
        launch:
        - arg:
            name: camera
            default: "true"
        - group:
            if: $(var camera)
            children:
            - node:
                pkg: tf2_ros
                exec: static_transform_publisher
                name: camera_tf
                args: --frame-id base_link --child-frame-id camera_link --x 0.07 --z 0.1
        """,
    EKF: """
        ekf_filter_node:
          ros__parameters:
            frequency: 30.0
            two_d_mode: true
            map_frame: map
            odom_frame: odom
            base_link_frame: base_footprint
            world_frame: odom
            odom0: /odom
            odom0_config: [true, true, false, false, false, true,
                           false, false, false, false, false, false,
                           false, false, false]
        """,
    LUA: """
        include "map_builder.lua"
        include "trajectory_builder.lua"
        include "frames.lua"

        options = {
          map_builder = MAP_BUILDER,
          trajectory_builder = TRAJECTORY_BUILDER,
          tracking_frame = "imu_link",
          published_frame = "odom",
          provide_odom_frame = false,
          use_odometry = true,
        }
        MAP_BUILDER.use_trajectory_builder_2d = true
        return options
        """,
    LUA_BASE: """
        options = {
          map_frame = "map",
          odom_frame = "odom",
        }
        """,
    'src/turtle_description/package.xml': package('turtle_description'),
    MACRO: """
        <?xml version="1.0"?>
        <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:macro name="sensor" params="name parent x z">
            <link name="${name}"/>
            <joint name="${name}_joint" type="fixed">
              <parent link="${parent}"/><child link="${name}"/>
              <origin xyz="${x} 0 ${z}" rpy="0 0 0"/>
            </joint>
          </xacro:macro>
        </robot>
        """,
    CMAKE: """
        cmake_minimum_required(VERSION 3.8)
        project(turtle_description)
        find_package(ament_cmake REQUIRED)
        install(
          DIRECTORY urdf
          DESTINATION share/${PROJECT_NAME}
        )
        ament_package()
        """,
    XACRO: """
        <?xml version="1.0"?>
        <robot name="turtle" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:arg name="lidar_x" default="-0.064"/>
          <xacro:include filename="$(find turtle_description)/urdf/sensor.xacro"/>
          <link name="base_footprint"/>
          <link name="base_link"/>
          <joint name="base_joint" type="fixed">
            <parent link="base_footprint"/><child link="base_link"/>
            <origin xyz="0 0 0.010" rpy="0 0 0"/>
          </joint>
          <xacro:sensor name="base_scan" parent="base_link" x="$(arg lidar_x)" z="0.172"/>
          <link name="wheel_left_link"/>
          <joint name="wheel_left_joint" type="continuous">
            <parent link="base_link"/><child link="wheel_left_link"/>
            <origin xyz="0 0.08 0.023" rpy="-1.57 0 0"/><axis xyz="0 0 1"/>
          </joint>
        </robot>
        """,
}


def seed_bytes() -> Dict[str, bytes]:
    """Return the healthy seed's files as the bytes written."""
    return {name: textwrap.dedent(text).lstrip('\n').encode('utf-8')
            for name, text in SEED.items()}


def ended_as_the_lint_does(done: subprocess.CompletedProcess) -> dict:
    """Assert the run ended well: a report (0, 1) or one clear line (2); return the report."""
    stderr = done.stderr.decode('utf-8', errors='replace')
    assert b'Traceback' not in done.stderr, stderr[-3000:]
    assert done.returncode in (0, 1, 2), (done.returncode, stderr[-3000:])
    assert stderr.count('\n') <= 3, stderr[-3000:]
    if done.returncode == 2:
        assert stderr.strip() and done.stdout == b'', stderr
        return {}
    return json.loads(done.stdout)


HEALTHY_TREE = {'map': [], 'odom': ['map'], 'base_footprint': ['odom'],
                'base_link': ['base_footprint'], 'base_scan': ['base_link'],
                'imu_link': ['base_link'], 'camera_link': ['base_link']}


def messages(report: dict, check: str) -> list:
    """Return the messages of one check's findings."""
    return [f['message'] for f in report.get('findings', []) if f['check'] == check]


# -- the healthy seed ----------------------------------------------------------------------

def test_the_healthy_seed_is_read_without_a_word(tmp_path):
    """The seed every property damages: each file read, each frame declared, nothing said."""
    report = ended_as_the_lint_does(lint_child(write(tmp_path / 'ws', SEED)))
    assert messages(report, 'lint_files') == []
    assert parents(report) == HEALTHY_TREE


def test_a_package_name_no_folder_can_hold_is_named(tmp_path):
    """A <name> with `..` or past 255 bytes: one WARN, the folder's name stands in, no escape."""
    for name in ('../../escaped', 'turtle_bringup' * 20):
        files = dict(SEED, **{'src/turtle_bringup/package.xml': package(name)})
        report = ended_as_the_lint_does(lint_child(write(tmp_path / str(len(name)), files)))
        (said,) = messages(report, 'lint_files')
        assert said.startswith('src/turtle_bringup/package.xml:2: names its package ')
        assert 'the folder name turtle_bringup stands in' in said
        assert parents(report) == HEALTHY_TREE  # every include still found its files


LONG = 'x' * 300  # one path component past the 255 bytes a file system holds


@pytest.mark.parametrize('file, names, longer, said', [
    (BRINGUP, 'ekf.yaml', '{}.yaml', 'py:26: the parameter file <turtle_bringup>/config/x'),
    (BRINGUP, 'turtle_2d.lua', '{}.lua', 'py:28: cartographer_node: its .lua file'),
    (BRINGUP, "'config'),", "'{}'),", 'py:28: cartographer_node: its .lua file'),
    (BRINGUP, 'robot.launch.xml', '{}.xml', 'py:35: includes <turtle_bringup>/launch/x'),
    (BRINGUP, 'turtle.urdf.xacro', '{}.xacro', 'py:19: robot_state_publisher: the robot'),
    (ROBOT_XML, 'sensors.launch.yaml', '{}.yaml', 'xml:5: includes <turtle_bringup>/launch/x'),
    (LUA, 'frames.lua', '{}.lua', 'turtle_2d.lua sets no map_frame, odom_frame'),
    (XACRO, 'sensor.xacro', '{}.xacro', 'turtle.urdf.xacro cannot be expanded by xacro'),
    (SETUP, "'package.xml'", "'{}'", None),  # the file it installs is named nowhere else
    (CMAKE, 'DIRECTORY urdf', 'DIRECTORY {}', '<turtle_description>/urdf/turtle.urdf.xacro is '
                                              'not a file of the workspace'),
    (CMAKE, '${PROJECT_NAME}', '${{PROJECT_NAME}}/{}', '<turtle_description>/urdf/'),
])
def test_a_file_name_past_255_bytes_is_no_file(tmp_path, file, names, longer, said):
    """Wherever a workspace file names a file, a name no file system holds is a missing file."""
    files = dict(SEED, **{file: SEED[file].replace(names, longer.format(LONG))})
    assert LONG in files[file]
    report = ended_as_the_lint_does(lint_child(write(tmp_path / 'ws', files)))
    assert report['frames'], 'a report of the workspace, not one line'
    if said is not None:
        assert any(said in message for message in messages(report, 'lint_files')), \
            messages(report, 'lint_files')


# -- damage to one file's bytes --------------------------------------------------------------

ODD_TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from([
        '\x00', '\ufeff', '\u202e', '\U0001f916', 'é', 'a', '-', '[', '{', '(', '<g>', '$(var ',
        '$(find-pkg-share ', '${', '$(arg ', '<!--', '"""', "'", '\\', '&lt;',
        '<!DOCTYPE r [<!ENTITY a "aaaa">]>', '*anchor', '&anchor', '<<: *a',
        '!!python/object:os.system', 'ros__parameters:', '--frame-id', '\r', '\n\t\n',
        'include "turtle_2d.lua"\n', '1e999', "'a' * 10 ** 9", '2 ** 10 ** 10', '[0] * 10 ** 9',
    ]))
REPEATS = st.sampled_from([1, 3, 1000, 60000, 1 << 20])  # a huge id, a long run of one thing
MAX_TEXT = 5 << 19  # 2.5 MB: past the lint's 2 MB file bound, within a test's memory


def repeated(text: str, repeat: int, most: int = MAX_TEXT) -> str:
    """Return text repeated, at most `most` characters (drawn as a pair: failures print short)."""
    return text * min(repeat, most // max(len(text), 1))


FILES = st.sampled_from(sorted(SEED))


WORD = re.compile(rb'\w+')


def damaged(data: bytes, damage: str, where: float, bits: int, text: str) -> bytes:
    """Return data cut, flipped, swapped, or with text put in or for a word (an id, a key)."""
    at = min(int(where * len(data)), len(data) - 2)
    if damage == 'cut':
        return data[:at]
    if damage in ('insert', 'word'):
        word = next(WORD.finditer(data, at), None) if damage == 'word' else None
        start, end = word.span() if word else (at, at)
        return data[:start] + text.encode('utf-8', errors='surrogatepass') + data[end:]
    changed = bytearray(data)
    if damage == 'flip':
        changed[at] ^= 1 << bits
    else:
        changed[at], changed[at + 1] = changed[at + 1], changed[at]
    return bytes(changed)


@PROPERTY
@given(file=FILES, damage=st.sampled_from(['cut', 'flip', 'swap', 'insert', 'word']),
       where=st.floats(0.0, 1.0), bits=st.integers(0, 7), text=ODD_TEXT, repeat=REPEATS)
@example(file='src/turtle_bringup/package.xml', damage='insert', where=0.6, bits=0, text='../',
         repeat=3)  # <name>../../../turtle_bringup</name>: the share's links were made outside
@example(file=CMAKE, damage='insert', where=0.894, bits=0, text='/' + 'd' * 300,
         repeat=1)  # install(... DESTINATION share/${PROJECT_NAME}/ddd…): a 300-byte folder
@example(file=LUA_BASE, damage='insert', where=0.0, bits=0, text='\r',
         repeat=60000)  # 60,000 line starts (read as '\n'), each one's spaces scanned to the end
def test_a_damaged_file_is_one_warning_never_a_crash(tmp_path_factory, file, damage, where, bits,
                                                     text, repeat):
    files = seed_bytes()
    files[file] = damaged(files[file], damage, where, bits, repeated(text, repeat))
    root = write(tmp_path_factory.mktemp('ws'), files)
    ended_as_the_lint_does(lint_child(root))


# -- swapped tokens ---------------------------------------------------------------------------

TOKEN = re.compile(rb'\w+|[^\w\s]')


def swapped(data: bytes, first: float, second: float) -> bytes:
    """Return data with two of its tokens (words or punctuation) swapped."""
    spans = [m.span() for m in TOKEN.finditer(data)]
    (a, b), (c, d) = sorted(spans[min(int(x * len(spans)), len(spans) - 1)]
                            for x in (first, second))
    if b > c:  # the same token twice: nothing to swap
        return data
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:]


@PROPERTY
@given(file=FILES, swaps=st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)),
                                  min_size=1, max_size=4))
def test_swapped_tokens_never_crash(tmp_path_factory, file, swaps):
    files = seed_bytes()
    for first, second in swaps:
        files[file] = swapped(files[file], first, second)
    root = write(tmp_path_factory.mktemp('ws'), files)
    ended_as_the_lint_does(lint_child(root))


# -- deep nesting -----------------------------------------------------------------------------

NESTING = st.sampled_from([
    ('(', ')'), ('[', ']'), ('{', '}'), ('-', ''), ('not ', ''), ('f(', ')'), ('[[', ']]'),
    ('<group>', '</group>'), ('<g a="1">', '</g>'), ('<xacro:if value="1">', '</xacro:if>'),
    ('{a: ', '}'), ('- ', ''), ('$(var ', ')'), ('${', '}'), ('$(eval ', ')'),
    ('os.path.join(', ')'), ('LaunchConfiguration(', ')'), ('IfCondition(', ')'),
])


def nested(data: bytes, opener: str, closer: str, depth: int, where: float,
           line_start: bool) -> bytes:
    """Return data with opener * depth + closer * depth inserted (at a line start or anywhere)."""
    at = min(int(where * len(data)), len(data))
    if line_start:
        at = data.rfind(b'\n', 0, at) + 1
    deep = (opener * depth + closer * depth).encode('utf-8')
    return data[:at] + deep + data[at:]


@PROPERTY
@given(file=FILES, nesting=NESTING, depth=st.sampled_from([30, 1000, 3000, 100000]),
       where=st.floats(0.0, 1.0), line_start=st.booleans())
@example(file='src/turtle_bringup/package.xml', nesting=('(', ')'), depth=1000, where=0.75,
         line_start=False)  # a package name of 2,014 bytes: the share's folder was a traceback
@example(file=SETUP, nesting=('(', ')'), depth=1000, where=0.625,
         line_start=False)  # data_files naming a 2,000-byte file: pathlib's is_file raised
@example(file=ROBOT_XML, nesting=('os.path.join(', ')'), depth=100000, where=0.5,
         line_start=False)  # a node's args of 1.4 MB, read a character at a time: 86 s
def test_deep_nesting_meets_a_bound(tmp_path_factory, file, nesting, depth, where, line_start):
    files = seed_bytes()
    files[file] = nested(files[file], nesting[0], nesting[1], depth, where, line_start)
    root = write(tmp_path_factory.mktemp('ws'), files)
    ended_as_the_lint_does(lint_child(root))


# -- includes that go wrong -------------------------------------------------------------------

@dataclass(frozen=True)
class Include:
    """One include of the seed: who includes what, and the texts that turn it elsewhere."""

    includer: str
    names: str  # the text in the includer that names the target
    target: str
    itself: str  # that text, turned to name the includer
    folder: str  # that text, turned to name a folder
    back: Tuple[str, str]  # (anchor, anchor with an include of the includer) in the target


INCLUDES = {
    'python→xml': Include(
        BRINGUP, "'launch', 'robot.launch.xml'", ROBOT_XML, "'launch', 'bringup.launch.py'",
        "'launch'", ('</launch>', '<include file="$(find-pkg-share turtle_bringup)/launch/'
                                  'bringup.launch.py"/></launch>')),
    'xml→yaml': Include(
        ROBOT_XML, 'launch/sensors.launch.yaml', SENSORS_YAML, 'launch/robot.launch.xml',
        'launch', ('launch:\n', 'launch:\n- include:\n    file: $(find-pkg-share '
                                'turtle_bringup)/launch/robot.launch.xml\n')),
    'lua→lua': Include(LUA, 'include "frames.lua"', LUA_BASE, 'include "turtle_2d.lua"',
                       'include "."', ('options = {', 'include "turtle_2d.lua"\noptions = {')),
    'xacro→xacro': Include(
        XACRO, 'urdf/sensor.xacro', MACRO, 'urdf/turtle.urdf.xacro', 'urdf',
        ('<xacro:macro', '<xacro:include filename="$(find turtle_description)/urdf/'
                         'turtle.urdf.xacro"/><xacro:macro')),
}
ACTIONS = ('missing', 'itself', 'folder', 'back', 'pipe', 'device', 'link_loop')


def broken(root: Path, include: Include, action: str) -> None:
    """Break one include of the workspace at root in one way."""
    includer, target = root / include.includer, root / include.target
    if action in ('itself', 'folder') and includer.is_file():  # not broken by another already
        text = includer.read_text(encoding='utf-8')
        includer.write_text(text.replace(include.names, getattr(include, action)),
                            encoding='utf-8')
    elif action == 'back' and target.is_file():
        text = target.read_text(encoding='utf-8')
        target.write_text(text.replace(*include.back), encoding='utf-8')
    elif action not in ('itself', 'folder', 'back'):
        if os.path.lexists(target):
            target.unlink()
        if action == 'pipe':
            os.mkfifo(target)
        elif action == 'device':
            os.symlink('/dev/zero', target)
        elif action == 'link_loop':
            os.symlink(target.name, target)


@PROPERTY
@given(breaks=st.dictionaries(st.sampled_from(sorted(INCLUDES)), st.sampled_from(ACTIONS),
                              min_size=1, max_size=4),
       entry=st.booleans())
def test_includes_that_go_wrong_never_crash(tmp_path_factory, breaks, entry):
    root = write(tmp_path_factory.mktemp('ws'), SEED)
    for name, action in sorted(breaks.items()):
        broken(root, INCLUDES[name], action)
    args = ('--launch', 'turtle_bringup/bringup.launch.py') if entry else ()
    ended_as_the_lint_does(lint_child(root, *args))


@pytest.mark.parametrize('name, action', [
    (name, action) for name in sorted(INCLUDES) for action in ACTIONS])
def test_an_include_gone_wrong_is_named(tmp_path, name, action):
    """Each include broken alone: a WARN or an ERROR names the includer or the included file."""
    include = INCLUDES[name]
    root = write(tmp_path / 'ws', SEED)
    broken(root, include, action)
    report = ended_as_the_lint_does(lint_child(root))
    said = [f['message'] for f in report['findings'] if f['level'] in ('WARN', 'ERROR')]
    assert any(Path(file).name in message for message in said
               for file in (include.includer, include.target)), said


# -- launch arguments -------------------------------------------------------------------------

ARGUMENT_TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=('Cs',), blacklist_characters='\x00'),
            max_size=20),
    st.sampled_from(['true', 'false', 'True', '1', '', '$(var slam)', '${slam}', ':=',
                     "' + '", '__import__("os")', '[', 'ü', 'x']))
ARGUMENTS = st.tuples(ARGUMENT_TEXT, st.sampled_from([1, 1, 5000, 30000]))
MAX_ARGUMENT = 30000  # characters: Linux takes 128 KB in one argument


@PROPERTY
@given(spec=st.one_of(st.sampled_from(['turtle_bringup/bringup.launch.py',
                                       'turtle_bringup/robot.launch.xml',
                                       BRINGUP, 'turtle_bringup/nothing.launch.py',
                                       'turtle_bringup', '/', '..', 'turtle_bringup/../..']),
                      ARGUMENT_TEXT),
       arguments=st.lists(st.tuples(st.one_of(st.sampled_from(
           ['slam', 'use_sim_time', 'imu_z', 'camera']), ARGUMENT_TEXT), ARGUMENTS),
           max_size=4))
def test_any_launch_arguments_end_as_the_lint_does(tmp_path_factory, spec, arguments):
    root = write(tmp_path_factory.mktemp('ws'), SEED)
    pairs = ['{}:={}'.format(name, repeated(*value, MAX_ARGUMENT)) for name, value in arguments]
    ended_as_the_lint_does(lint_child(root, '--launch', spec, *pairs))


# -- robot descriptions of any shape, as deep as 2,500 links --------------------------------------

@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from([1, 2, 30, 400, 2500]), seed=st.integers(0, 2 ** 32),
       chain=st.booleans(), twin=st.sampled_from([None, 'root', 'below']))
def test_a_description_of_any_shape_is_linted_whole_joined_or_said(tmp_path_factory, size, seed,
                                                                   chain, twin):
    """
    Every link is in the tree; a prefixed twin of the description's root is said, once.

    Link i + 1 hangs from link int(place * (i + 1)) (or from link i: a chain 2,500 deep);
    another node may place ego/<root> or ego/<the last link's parent>.
    """
    from lint_helpers import launch_py, lint, one_package, rsp, static_tf, urdf

    draw = random.Random(seed)
    places = [draw.random() for _ in range(size)]
    links = ['base_link'] + ['l{}'.format(i) for i in range(1, len(places) + 1)]
    joints = ['{} {} 0.01'.format(links[i if chain else min(i, int(place * (i + 1)))],
                                  links[i + 1]) for i, place in enumerate(places)]
    twin_of = {None: None, 'root': 'base_link', 'below': joints[-1].split()[0]}[twin]
    placed = ('ego/' + twin_of,) if twin_of else ()
    nodes = [rsp('bot', 'bot.urdf')] + [static_tf('map', frame) for frame in placed]
    root = one_package(tmp_path_factory.mktemp('ws'), 'bot', {
        'launch/bot.launch.py': launch_py(*nodes), 'urdf/bot.urdf': urdf(*joints)},
        installs=('launch', 'urdf'))
    report = lint(root)
    assert set(links) | set(placed) <= {row.frame for row in report.frames}
    unjoined = [f for f in report.findings if 'the model never joins the tree' in f.message]
    assert len(unjoined) == (twin_of == 'base_link'), [f.message for f in unjoined]
