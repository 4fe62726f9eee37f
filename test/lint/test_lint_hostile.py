# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Hostile workspaces for `frame-audit lint` (issue 24): one clear line each, never a crash.

Each is generated here: a setup.py that is a link to /dev/zero, a CMakeLists.txt that is a
named pipe, expressions nested past the Python parser, a YAML launch file nested 50,000 deep
(libyaml's C composer overflowed its stack on it), a cartographer .lua whose includes fan out
(cartographer refuses the second include of a file: said once, read no further).
The lint runs in a child process, so a crash or a hang fails the test instead of the run.
"""
import json
import os
from pathlib import Path
import subprocess
from typing import Dict, List

from lint_helpers import launch_py, lint_child, one_package, package, rsp, urdf, write

HANG_GUARD_S = 120  # a hang fails the test; not a speed claim


def lint_files_messages(done: subprocess.CompletedProcess) -> List[str]:
    """Return the lint_files findings of a finished run; it must have ended as the lint does."""
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-2000:])
    assert b'Traceback' not in done.stderr, done.stderr[-2000:]
    return [f['message'] for f in json.loads(done.stdout)['findings']
            if f['check'] == 'lint_files']


def robot(tmp_path: Path, files: Dict[str, str]) -> Path:
    """Write a small robot package with one launch file beside the hostile files."""
    base = {
        'src/bot/package.xml': package('bot'),
        'src/bot/launch/bot.launch.xml': """
            <launch>
              <node pkg="tf2_ros" exec="static_transform_publisher"
                    args="--frame-id base_link --child-frame-id laser --x 0.26 --z 0.11"/>
            </launch>
            """,
    }
    return write(tmp_path / 'ws', dict(base, **files))


def test_build_files_that_are_a_device_or_a_pipe(tmp_path):
    root = robot(tmp_path, {})
    os.symlink('/dev/zero', root / 'src/bot/setup.py')
    os.mkfifo(root / 'src/bot/CMakeLists.txt')
    (said,) = lint_files_messages(
        lint_child(root, guard_s=HANG_GUARD_S))  # one problem, at its two places
    assert said.startswith('src/bot/setup.py:0: not a regular file') and '\n' not in said
    assert said.endswith('(and at src/bot/CMakeLists.txt:0)')


def test_a_healthy_package_build_file_is_read_without_a_word(tmp_path):
    root = robot(tmp_path, {'src/bot/setup.py': """
        from setuptools import setup
        setup(name='bot', data_files=[('share/bot/launch', ['launch/bot.launch.xml'])])
        """})
    assert lint_files_messages(lint_child(root, guard_s=HANG_GUARD_S)) == []


def test_expressions_nested_past_the_parser(tmp_path):
    deep = '-' * 50000 + '1'
    root = robot(tmp_path, {
        'src/bot/setup.py': 'from setuptools import setup\nx = {}\nsetup(name="bot")\n'.format(
            deep),
        'src/bot/launch/deep.launch.py': 'x = {}\n'.format(deep),
        'src/bot/launch/wide.launch.py': 'x = {}\n'.format('1 + ' * 20000 + '1'),
    })
    messages = lint_files_messages(lint_child(root, guard_s=HANG_GUARD_S))
    deep_said = [m for m in messages if m.startswith('src/bot/launch/deep.launch.py:')]
    assert len(deep_said) == 1 and 'cannot be read' in deep_said[0]


def test_a_yaml_launch_file_nested_50000_deep(tmp_path):
    nested = 'launch:\n- group:\n    children: ' + '[' * 50000 + ']' * 50000 + '\n'
    root = robot(tmp_path, {'src/bot/launch/deep.launch.yaml': nested})
    (said,) = [m for m in lint_files_messages(lint_child(root, guard_s=HANG_GUARD_S))
               if m.startswith('src/bot/launch/deep.launch.yaml:')]
    assert 'nested more than 2000 levels deep' in said
    # twin: a YAML launch file of ordinary depth is read, and its node's edge declared
    root = robot(tmp_path / 'twin', {'src/bot/launch/map.launch.yaml': """
        launch:
        - node:
            pkg: tf2_ros
            exec: static_transform_publisher
            args: --frame-id map --child-frame-id odom
        """})
    done = lint_child(root, guard_s=HANG_GUARD_S)
    assert lint_files_messages(done) == []
    assert 'odom' in {row['frame'] for row in json.loads(done.stdout)['frames']}


def test_a_lua_file_whose_includes_fan_out(tmp_path):
    """
    Each of 9 files includes the next 20 times: 20^9 readings unless each is read once.

    cartographer refuses the second include of level9.lua (LOG(FATAL) "Tried to include ...
    twice"): that is said, with both lines, and cartographer sends no frame.
    """
    files = {'src/bot/config/level{}.lua'.format(i): 'include "level{}.lua"\n'.format(i + 1) * 20
             for i in range(9)}
    files['src/bot/config/level9.lua'] = 'options = {\n  map_frame = "map",\n}\n'
    files['src/bot/config/carto.lua'] = """
        include "level0.lua"
        options.published_frame = "base_link"
        options.odom_frame = "odom"
        options.provide_odom_frame = true
        return options
        """
    files['src/bot/launch/carto.launch.xml'] = """
        <launch>
          <node pkg="cartographer_ros" exec="cartographer_node" name="cartographer_node"
                args="-configuration_directory $(find-pkg-share bot)/config
                      -configuration_basename carto.lua"/>
        </launch>
        """
    done = lint_child(robot(tmp_path, files), guard_s=HANG_GUARD_S)
    (said,) = lint_files_messages(done)
    assert said.startswith('src/bot/config/level8.lua:2: includes level9.lua a second time '
                           '(first at src/bot/config/level8.lua:1; again at '
                           'src/bot/config/level8.lua:2): cartographer stops at startup'), said
    rows = {row['frame']: row['parents'] for row in json.loads(done.stdout)['frames']}
    assert 'odom' not in rows and rows['laser'] == ['base_link']


def chain_robot(root: Path, links: int) -> Path:
    """Write a package whose robot description is one chain of links, read by its launch file."""
    names = ['base_link'] + ['link_{}'.format(i) for i in range(1, links)]
    return one_package(root, 'chain_bot', {
        'launch/chain.launch.py': launch_py(rsp('chain_bot', 'chain.urdf')),
        'urdf/chain.urdf': urdf(*('{} {} 0.01'.format(a, b) for a, b in zip(names, names[1:]))),
    }, installs=('launch', 'urdf'))


def test_a_description_of_10000_links_in_one_chain(tmp_path):
    """Issue 33: 5,000 links took 16 s and 10,000 over 60 s; the lint is linear in links now."""
    for links in (10, 10000):  # the twin: a short chain, read alike
        done = lint_child(chain_robot(tmp_path / str(links), links), guard_s=HANG_GUARD_S)
        assert lint_files_messages(done) == []
        frames = {row['frame'] for row in json.loads(done.stdout)['frames']}
        assert {'base_link', 'link_{}'.format(links - 1)} <= frames, sorted(frames)[:5]


BIG_SENDER = 'import tf\ntf.TransformBroadcaster().sendTransform((0, 0, 0), (0, 0, 0, 1), 0, ' \
    "'laser', 'odom')\n"


def test_node_sources_that_are_a_device_a_pipe_or_a_pattern(tmp_path):
    """A script linked to /dev/zero, a source that is a pipe, a folder linked into itself."""
    root = robot(tmp_path, {
        'src/drv/package.xml': package('drv'),
        'src/drv/CMakeLists.txt': 'project(drv)\nadd_executable(piped src/piped.cpp)\n',
        'src/drv/scripts/util.py': 'import tf2_ros  # sendTransform somewhere\n',
        'src/drv/scripts/big.py': BIG_SENDER + '#' * (1 << 20) + '\n',
        'src/bot/launch/nodes.launch.py': launch_py(
            "Node(package='drv', executable='zero.py')", "Node(package='drv', executable='piped')",
            "Node(package='drv', executable='big.py')",
            "Node(package='drv', executable='*')", "Node(package='drv', executable='')")})
    os.symlink('/dev/zero', root / 'src/drv/scripts/zero.py')
    os.makedirs(root / 'src/drv/src')
    os.mkfifo(root / 'src/drv/src/piped.cpp')
    os.symlink('..', root / 'src/drv/scripts/again')  # scripts/again/scripts/again/...
    done = lint_child(root, '--launch', 'bot/nodes.launch.py', guard_s=HANG_GUARD_S)
    lint_files_messages(done)  # ended as the lint does, no traceback
    said = json.loads(done.stdout)['checks']
    (parents,) = [c['message'] for c in said if c['check'] == 'parent_uniqueness']
    assert 'drv/zero.py' in parents and 'drv/piped' in parents, parents  # unread: possible
    frames = json.loads(done.stdout)['frames']  # big.py's odom → laser, past the size: unread
    assert 'laser' not in [row['frame'] for row in frames], frames
