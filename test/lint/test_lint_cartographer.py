# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
cartographer as the lint reads it: the frames its .lua options send, and where the .lua is.

Made-up workspaces: cartographer beside odometry or alone, and the node's arguments that lead to
its .lua file or leave it to the running launch; each with its twin.
"""
from pathlib import Path

from lint_helpers import CARTO_LUA, cartographer_diff_drive, cmake, launch_py, line_of, lint, \
    package, problems, share, write


# cartographer sending its own odom frame as the published frame (a Kobuki-like base)

KOBUKI_LUA = """
include "map_builder.lua"
include "trajectory_builder.lua"
options = {{
  map_builder = MAP_BUILDER,
  trajectory_builder = TRAJECTORY_BUILDER,
  map_frame = "map",
  tracking_frame = "base_footprint",
  published_frame = "odom",
  odom_frame = "odom",
  provide_odom_frame = {},
  use_odometry = true,
}}
return options
"""


EKF = """
ekf_filter_node:
  ros__parameters:
    world_frame: odom
    odom_frame: odom
    base_link_frame: base_footprint
"""


def _kobuki_cartographer(tmp_path: Path, provide: str) -> Path:
    """Write cartographer publishing odom, the wheel EKF sending odom → base_footprint."""
    return write(tmp_path / provide, {
        'src/kobuki_slam/package.xml': package('kobuki_slam'),
        'src/kobuki_slam/CMakeLists.txt': cmake('kobuki_slam', 'config', 'launch'),
        'src/kobuki_slam/config/kobuki_2d.lua': KOBUKI_LUA.format(provide),
        'src/kobuki_slam/config/ekf.yaml': EKF,
        'src/kobuki_slam/launch/slam.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', "
            "name='cartographer_node', arguments=['-configuration_directory', "
            "{}, '-configuration_basename', 'kobuki_2d.lua'])".format(
                share('kobuki_slam', 'config')),
            "Node(package='robot_localization', executable='ekf_node', "
            "name='ekf_filter_node', parameters=[{}])".format(
                share('kobuki_slam', 'config', 'ekf.yaml'))),
    })


def test_cartographer_sending_its_odom_as_the_published_frame_is_one_finding(tmp_path):
    """published_frame = odom_frame with provide_odom_frame: odom → odom, which tf2 drops."""
    root = _kobuki_cartographer(tmp_path, 'true')
    lua = 'src/kobuki_slam/config/kobuki_2d.lua'
    report = lint(root)
    # one cause, one finding: the self-edge is no second parent of odom
    assert problems(report) == {('transform_values', 'ERROR', lua,
                                 line_of(root, lua, 'published_frame'))}, report.findings
    assert "'odom' → 'odom'" in report.findings[0].message
    # twin: cartographer publishing map → odom above the EKF's odometry, quietly
    report = lint(_kobuki_cartographer(tmp_path, 'false'))
    assert problems(report) == set(), [f.message for f in report.findings]
    assert [(row.frame, row.parents) for row in report.frames] == [
        ('base_footprint', ('odom',)), ('map', ()), ('odom', ('map',))]


def test_cartographer_sending_the_base_beside_an_odom_frame(tmp_path):
    """published_frame = base_link, provide_odom_frame = false, and an EKF working in odom."""
    root = cartographer_diff_drive(tmp_path, 'base_link', 'false')
    lua = 'src/carto/config/diff.lua'
    report = lint(root, measured=False)
    assert problems(report) == {('chain_order', 'ERROR', lua,
                                 line_of(root, lua, 'published_frame'))}, report.findings
    (finding,) = report.findings
    assert "ekf_filter_node's odom_frame at src/carto/config/ekf.yaml:" in finding.message
    assert 'odom is beside base_link, not above it' in finding.message
    # twin: cartographer provides odom, so map → odom → base_link
    assert problems(lint(cartographer_diff_drive(tmp_path, 'base_link', 'true'),
                         measured=False)) == set()


def test_cartographer_alone_with_its_own_unused_odom_option_is_quiet(tmp_path):
    """Publishing base_link with no odometry anywhere (LIMO's habit): map → base_link is fine."""
    root = cartographer_diff_drive(tmp_path, 'base_link', 'false')
    (root / 'src/carto/config/ekf.yaml').unlink()
    launch = root / 'src/carto/launch/carto.launch.py'
    launch.write_text(launch.read_text().replace(
        "Node(package='robot_localization'", "# Node(package='robot_localization'").replace(
        "'ekf.yaml')]),", "'ekf.yaml')]),\n"))
    report = lint(root, measured=False)
    assert problems(report) == set(), [f.message for f in report.findings]


def _carto_alone(tmp_path: Path, share: str, basename: str) -> Path:
    """Write cartographer started alone, its folder and .lua named as these expressions."""
    return write(tmp_path / str(abs(hash((share, basename)))), {
        'src/carto/package.xml': package('carto'),
        'src/carto/config/diff.lua': CARTO_LUA.format('base_link', 'true'),
        'src/carto/launch/carto.launch.py': launch_py(
            "Node(package='cartographer_ros', executable='cartographer_node', arguments=["
            "'-configuration_directory', os.path.join({}, 'config'), "
            "'-configuration_basename', {}])".format(share, basename)),
    })


SHARE = "get_package_share_directory('carto')"


def test_a_cartographer_argument_without_a_value_is_named(tmp_path):
    unknown = [f.message for f in lint(_carto_alone(tmp_path, SHARE, "LaunchConfiguration('lua')"),
                                       measured=False).findings if f.check == 'lint_files']
    assert any("its argument -configuration_basename is LaunchConfiguration('lua'), known "
               'only when the launch runs' in m for m in unknown), unknown
    assert not [f for f in lint(_carto_alone(tmp_path, SHARE, "'diff.lua'"),
                                measured=False).findings if f.check == 'lint_files']


def test_find_package_share_by_keyword_leads_to_the_lua_file(tmp_path):
    """
    Find the .lua through FindPackageShare(package=...).find(...), as LIMO's launch does.

    launch_ros's find(package_name) is its own argument's share: the twin's unknown name is
    the one .find is given.
    """
    def carto(package: str) -> Path:
        share = "FindPackageShare(package='carto').find({})".format(package)
        return _carto_alone(tmp_path, share, "'diff.lua'")

    report = lint(carto("'carto'"), measured=False)
    assert problems(report) == set(), [f.message for f in report.findings]
    assert {row.frame: row.parents for row in report.frames}['odom'] == ('map',)
    unknown = [f.message for f in lint(carto("LaunchConfiguration('pkg')"), measured=False)
               .findings if f.check == 'lint_files']
    assert any('-configuration_directory' in m for m in unknown), unknown


# cartographer's flags as launch files really write them (issue 31, class D)

CARTO_XML = """<launch>
  <arg name="map_name"/>
  <node pkg="cartographer_ros" exec="cartographer_node" name="cartographer_node"
        args="-configuration_directory $(find-pkg-share carto)/config
              -configuration_basename diff.lua {}"/>
</launch>
"""


def test_cartographers_flags_are_read_beside_an_unknown_one_and_with_two_dashes(tmp_path):
    """
    One argument known only at launch loses no other, and two dashes are one.

    -load_state_filename $(var map_name) beside the known flags; gflags' double-dash spelling.
    Each reads diff.lua: cartographer sends map → odom.
    """
    def carto(name: str, files: dict) -> Path:
        return write(tmp_path / name, dict({
            'src/carto/package.xml': package('carto'),
            'src/carto/CMakeLists.txt': cmake('carto', 'config', 'launch'),
            'src/carto/config/diff.lua': CARTO_LUA.format('base_link', 'true')}, **files))
    for name, files in (
            ('unknown_flag', {'src/carto/launch/carto.launch.xml': CARTO_XML.format(
                '-load_state_filename $(var map_name)')}),
            ('known_flags', {'src/carto/launch/carto.launch.xml': CARTO_XML.format('')}),
            ('two_dashes', {'src/carto/launch/carto.launch.py': launch_py(
                "Node(package='cartographer_ros', executable='cartographer_node', arguments=["
                "'--configuration_directory', {}, '--configuration_basename', 'diff.lua'])"
                .format(share('carto', 'config')))})):
        report = lint(carto(name, files), measured=False)
        parents = {row.frame: row.parents for row in report.frames}
        assert parents.get('odom') == ('map',), (name, report.findings)
        assert not [f for f in report.findings if 'gives no' in f.message], name


CARTO_EXTENDED = """
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    config_dir = os.path.join(get_package_share_directory('carto'), 'config')
    cartographer_args = ['-configuration_directory', config_dir,
                         '-configuration_basename', 'diff.lua']
    EXTEND
    return LaunchDescription([
        Node(package='cartographer_ros', executable='cartographer_node',
             name='cartographer_node', arguments=cartographer_args),
    ])
"""


def test_an_argument_list_extended_is_read_and_one_changed_in_a_loop_is_unknown(tmp_path):
    """
    A boat's cartographer arguments extended after they were written (round L9).

    An `extend` that always runs is followed: the list gives -configuration_directory and
    diff.lua is read, as in the twin that is not extended. A change in a loop the lint
    cannot follow: it says so, never "give no".
    """
    def carto(name: str, extend: str) -> Path:
        return write(tmp_path / name, {
            'src/carto/package.xml': package('carto'),
            'src/carto/CMakeLists.txt': cmake('carto', 'config', 'launch'),
            'src/carto/config/diff.lua': CARTO_LUA.format('base_link', 'true'),
            'src/carto/launch/carto.launch.py': CARTO_EXTENDED.replace('EXTEND', extend)})
    extend = "cartographer_args.extend(['-save_state_filename', '/tmp/map.pbstream'])"
    for name, change in (('extended', extend), ('written', 'pass')):
        report = lint(carto(name, change), measured=False)
        assert {row.frame: row.parents for row in report.frames}.get('odom') == ('map',), name
        assert not [f for f in report.findings if 'known only' in f.message], report.findings
    looped = ("for extra in ['-save_state_filename', 'm.pbstream']:\n"
              '        cartographer_args.append(extra)')
    said = [f.message for f in lint(carto('looped', looped), measured=False).findings]
    assert not [m for m in said if 'give no' in m], said
    assert any('its arguments hold cartographer_args, known only when the launch runs '
               '(whether they give -configuration_directory cannot be known)' in m
               for m in said), said
