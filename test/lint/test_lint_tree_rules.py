# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The tree rules where the files say too little, on made-up workspaces each with its twin.

No verdict without data, a frame nothing sends said once for all that name it, trees nothing
connects, and the edge missing above a footprint.
"""
from pathlib import Path

from frame_audit.engine.config import AuditConfig
from frame_audit.lint import lint_workspace
from frame_audit.reports.report import Report
from lint_helpers import cmake, flagged, launch_py, lint, one_launch_package, one_package, \
    package, problems, rsp, share, static_tf, summary, urdf, write


def _levels(report: Report) -> dict:
    return {check.check: check.level for check in report.checks}


# agreement without data

TELEOP = ("Node(package='joy', executable='joy_node', name='joy_node')",
          "Node(package='teleop_twist_joy', executable='teleop_node', name='teleop')")
RIG = ("Node(package='tf2_ros', executable='static_transform_publisher', "
       "arguments=['0', '0', '0', '0', '0', '0', 'odom', 'base_link'])",
       "Node(package='slam_toolbox', executable='async_slam_toolbox_node', "
       "name='slam_toolbox', parameters=[{'base_frame': 'base_link'}])")


def test_a_workspace_that_declares_no_frame_gets_no_ok_for_its_tree(tmp_path):
    """A teleop bringup sends no transform: the tree checks cannot know, and say why."""
    root = one_launch_package(tmp_path / 'teleop', 'pad_teleop', 'teleop.launch.py',
                              launch_py(*TELEOP))
    report = lint(root)
    levels = _levels(report)
    for check in ('parent_uniqueness', 'chain_order', 'transform_values', 'connectivity',
                  'pose_frame', 'lint_parameters'):
        assert levels[check] == 'STALE', (check, summary(report, check))
    for check in ('parent_uniqueness', 'chain_order', 'transform_values'):
        message = summary(report, check)
        assert message.startswith('not judged: the files declare no transform'), message
        assert 'joy_node, teleop' in message and 'teleop_twist_joy/teleop_node' in message
    assert levels['lint_nodes'] == 'OK' and problems(report) == set()
    # twin: a test rig whose static odom → base_link and slam_toolbox's map → odom are data
    root = one_launch_package(tmp_path / 'rig', 'rig_bringup', 'rig.launch.py',
                              launch_py(*RIG))
    report = lint(root)
    levels = _levels(report)
    assert levels['parent_uniqueness'] == levels['chain_order'] == 'OK', report.checks
    assert levels['transform_values'] == 'OK'
    assert summary(report, 'chain_order') == 'base_link ancestry: base_link ← odom ← map'


def test_a_base_the_files_never_declare_gets_no_ancestry_of_itself(tmp_path):
    """
    A quadruped's base is `base`: map → odom declared, base_link nowhere (round L9).

    chain_order said "base_link ancestry: base_link; not declared here: base_link", an OK of
    nothing. It cannot judge the base's place: STALE, said once. The rig above is its twin.
    """
    quad = (RIG[1].replace("'base_link'", "'base'"),
            RIG[0].replace("'odom', 'base_link'", "'odom', 'base'"))
    report = lint(one_launch_package(tmp_path / 'quad', 'quad_bringup', 'slam.launch.py',
                                     launch_py(*quad)))
    assert _levels(report)['chain_order'] == 'STALE', report.checks
    assert summary(report, 'chain_order') == 'base_link is not declared here (no --config, so ' \
        'no frame is required), so its place below map and odom is not judged'


def test_a_workspace_of_parameter_files_alone_is_no_robot_without_frames(tmp_path):
    """A config package (an EKF's YAML, no launch file): without --config nothing is required."""
    root = write(tmp_path / 'cfg', {
        'src/rover_config/package.xml': package('rover_config'),
        'src/rover_config/config/ekf.yaml': 'ekf_filter_node:\n  ros__parameters:\n'
                                            '    world_frame: odom\n'
                                            '    base_link_frame: base_footprint\n'})
    report = lint(root)
    assert problems(report) == set(), report.findings  # was an ERROR: map, odom... required
    assert _levels(report)['chain_order'] == 'STALE'
    assert 'no launch file the lint follows' in summary(report, 'chain_order')
    # twin: with the robot's config (--config), its required frames are data: a finding
    # (a WARN: nothing in the workspace sends them, which is no contradiction of its own)
    measured = lint_workspace(root, AuditConfig(), measured=True)
    assert ('chain_order', 'WARN', None, None) in problems(measured)


ARM_URDF = """
<robot name="arm">
  <link name="world"/>
  <link name="link0"/>
  <link name="link1"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="link0"/></joint>
  <joint name="j1" type="fixed"><parent link="link0"/><child link="link1"/>
    <origin xyz="0 0 0.333"/></joint>
</robot>
"""


def test_a_tree_without_two_of_the_chain_has_no_order_to_judge(tmp_path):
    """A manipulator's world → link0 has no map, odom nor base_link: no REP 105 verdict."""
    root = write(tmp_path / 'arm', {
        'src/arm_description/package.xml': package('arm_description'),
        'src/arm_description/CMakeLists.txt': cmake('arm_description', 'urdf'),
        'src/arm_description/urdf/arm.urdf': ARM_URDF})
    report = lint(root)
    chain = summary(report, 'chain_order')
    assert _levels(report)['chain_order'] == 'STALE', chain
    assert 'the files declare none, so their order cannot be known' in chain
    assert 'not declared here: map, odom, base_link' in chain
    assert _levels(report)['parent_uniqueness'] == 'OK'  # its two edges are data
    assert problems(report) == set()
    # twin: a mobile base's description under a static odom → base_footprint orders two
    root = write(tmp_path / 'base', {
        'src/tb_description/package.xml': package('tb_description'),
        'src/tb_description/CMakeLists.txt': cmake('tb_description', 'urdf', 'launch'),
        'src/tb_description/urdf/base.urdf': ARM_URDF.replace('world', 'base_footprint')
        .replace('link0', 'base_link'),
        'src/tb_description/launch/base.launch.py': launch_py(
            "Node(package='tf2_ros', executable='static_transform_publisher', "
            "arguments=['--frame-id', 'odom', '--child-frame-id', 'base_footprint'])",
            "Node(package='robot_state_publisher', executable='robot_state_publisher', "
            "parameters=[{'robot_description': open(os.path.join(os.path.dirname(__file__), "
            "'..', 'urdf', 'base.urdf')).read()}])")})
    report = lint(root)
    assert _levels(report)['chain_order'] == 'OK', summary(report, 'chain_order')


# a simulated car: its simulator's bridge (another workspace) sends odom and base_link

MAPLESS_NAV2 = """
bt_navigator:
  ros__parameters:
    global_frame: odom
    robot_base_frame: base_link
behavior_server:
  ros__parameters:
    global_frame: {BEHAVIOR}
    robot_base_frame: base_link
goal_bridge:
  ros__parameters:
    odom_frame: odom
"""


def _mapless(tmp_path: Path, behavior: str) -> Path:
    params = share('sim_car_nav', 'config', 'nav2.yaml')
    return one_package(tmp_path / behavior, 'sim_car_nav', {
        'config/nav2.yaml': MAPLESS_NAV2.replace('{BEHAVIOR}', behavior),
        'launch/nav.launch.py': launch_py(*[
            "Node(package='nav2_bt_navigator', executable='bt_navigator', name='bt_navigator', "
            'parameters=[{}])'.format(params),
            "Node(package='nav2_behaviors', executable='behavior_server', "
            "name='behavior_server', parameters=[{}])".format(params),
            "Node(package='sim_bridge', executable='goal_bridge', name='goal_bridge', "
            'parameters=[{}])'.format(params)]),
    })


def test_a_frame_nothing_sends_is_said_once_for_all_that_name_it(tmp_path):
    """Three nodes name odom, two base_link: one cause each, so one finding each."""
    report = lint(_mapless(tmp_path, 'odom'))
    unsent = flagged(report, 'connectivity')
    assert sorted(f.frames for f in unsent) == [['base_link'], ['odom']], report.findings
    (odom,) = [f for f in unsent if f.frames == ['odom']]
    assert "behavior_server's global_frame" in odom.message \
        and "goal_bridge's odom_frame" in odom.message
    # twin: the behavior server plans in map, sent by nothing too: a finding of its own
    unsent = flagged(lint(_mapless(tmp_path, 'map')), 'connectivity')
    assert sorted(f.frames for f in unsent) == [['base_link'], ['map'], ['odom']]


# a localizer whose parameters name two frames of one tree nothing connects to the base

def _localizer(tmp_path: Path, joined: bool) -> Path:
    """Write a visual localizer's frames: slam → down static, slam joined to odom or not."""
    nodes = [static_tf('slam', 'down', '--x', '0'), static_tf('odom', 'base_link', '--x', '0'),
             "Node(package='vslam', executable='localizer', name='localizer', "
             'parameters=[{}])'.format(share('sub', 'config', 'localizer.yaml'))]
    if joined:
        nodes.append(static_tf('odom', 'slam', '--x', '0'))
    return write(tmp_path / str(joined), {
        'src/sub/package.xml': package('sub'),
        'src/sub/CMakeLists.txt': cmake('sub', 'launch', 'config'),
        'src/sub/config/localizer.yaml': 'localizer:\n  ros__parameters:\n'
                                         '    base_frame_id: base_link\n'
                                         '    slam_frame_id: slam\n    down_frame_id: down\n',
        'src/sub/launch/sub.launch.py': launch_py(*nodes),
    })


def test_one_unconnected_tree_is_one_finding(tmp_path):
    """Two frames in one tree apart from base_link (slam, down): one finding names both."""
    root = _localizer(tmp_path, False)
    found = [f for f in lint(root).findings if f.check == 'connectivity']
    assert len(found) == 1, [f.message for f in found]
    assert "localizer's slam_frame_id is slam" in found[0].message \
        and "localizer's down_frame_id down" in found[0].message, found[0].message
    # twin: odom → slam joins the trees, nothing to say
    report = lint(_localizer(tmp_path, True))
    assert [f for f in report.findings if f.check == 'connectivity'] == []


def _quadruped(tmp_path: Path, joint: str) -> Path:
    """Write champ's habit: the URDF's one joint; a launch hangs camera_link from laser."""
    return write(tmp_path / joint.split()[1], {
        'src/dog/package.xml': package('dog'),
        'src/dog/CMakeLists.txt': cmake('dog', 'launch', 'urdf', 'config'),
        'src/dog/urdf/dog.urdf': urdf(joint),
        'src/dog/config/lidar.yaml': 'urg_node:\n  ros__parameters:\n    frame_id: laser\n'
                                     'camera:\n  ros__parameters:\n'
                                     '    camera_frame: camera_link\n',
        'src/dog/launch/bringup.launch.py': launch_py(
            rsp('dog', 'dog.urdf'),
            "Node(package='urg_node', executable='urg_node_driver', name='urg_node', "
            'parameters=[{}])'.format(share('dog', 'config', 'lidar.yaml')),
            "Node(package='cam', executable='camera', name='camera', "
            'parameters=[{}])'.format(share('dog', 'config', 'lidar.yaml'))),
        'src/dog/launch/depth.launch.py': launch_py(static_tf('laser', 'camera_link')),
    })


def test_a_frame_under_two_parents_joins_neither_tree_to_the_other(tmp_path):
    """
    Keep laser → camera_link and base_link → camera_link, alternatives, apart as tf2 does.

    laser reaches base_link in neither, so the driver's frame is in another tree; camera_link
    reaches it in one, so whether it does is not said (the old reading joined them both
    ways and called all well). The twin: the URDF mounts laser, the camera hangs below it.
    """
    (apart,) = [f for f in lint(_quadruped(tmp_path, 'base_link camera_link 0.2')).findings
                if f.check == 'connectivity']
    assert "urg_node's frame_id is laser, but that frame is in another tree" in apart.message
    report = lint(_quadruped(tmp_path, 'base_link laser 0.2'))
    assert not [f for f in report.findings if f.check == 'connectivity'], report.findings


# a TurtleBot-like fleet: base_footprint above base_link, odometry from the simulator

FOOTPRINT_URDF = """<?xml version="1.0"?>
<robot name="tb">
  <link name="base_footprint"/><link name="base_link"/><link name="base_scan"/>
  <joint name="base_joint" type="fixed">
    <parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.010"/>
  </joint>
  <joint name="scan_joint" type="fixed">
    <parent link="base_link"/><child link="base_scan"/><origin xyz="-0.064 0 0.122"/>
  </joint>
</robot>
"""
AMCL = """
amcl:
  ros__parameters:
    base_frame_id: base_footprint
    global_frame_id: map
    odom_frame_id: odom
"""


def _fleet(tmp_path: Path, odometry: str) -> Path:
    nodes = ['IncludeLaunchDescription(PythonLaunchDescriptionSource({}))'.format(
                 share('gazebo_ros', 'launch', 'gzserver.launch.py')),
             "Node(package='robot_state_publisher', executable='robot_state_publisher', "
             "namespace='tb1', arguments=[{}])".format(share('tb_fleet', 'urdf', 'tb.urdf')),
             "Node(package='nav2_amcl', executable='amcl', name='amcl', parameters=[{}])"
             .format(share('tb_fleet', 'params', 'amcl.yaml'))]
    if odometry:
        nodes.append("Node(package='tf2_ros', executable='static_transform_publisher', "
                     "arguments=['--frame-id', 'odom', '--child-frame-id', '{}'])".format(
                         odometry))
    return write(tmp_path / (odometry or 'none'), {
        'src/tb_fleet/package.xml': package('tb_fleet'),
        'src/tb_fleet/CMakeLists.txt': cmake('tb_fleet', 'launch', 'urdf', 'params'),
        'src/tb_fleet/urdf/tb.urdf': FOOTPRINT_URDF,
        'src/tb_fleet/params/amcl.yaml': AMCL,
        'src/tb_fleet/launch/fleet.launch.py': launch_py(*nodes),
    })


def test_odom_missing_above_a_footprint_names_the_edge_to_send(tmp_path):
    """Nothing here sends odom → base_footprint: say that edge, not odom → base_link."""
    report = lint(_fleet(tmp_path, ''))
    (chain,) = [f for f in report.findings if f.check == 'chain_order']
    assert chain.level == 'WARN'  # the simulator may send it: the lint cannot know
    assert 'Nothing declares odom → base_footprint, the top of that ancestry' in chain.message
    assert 'gzserver.launch.py' in chain.message
    # healthy twin: the odometry sends odom → base_footprint, as REP 105 allows
    report = lint(_fleet(tmp_path, 'base_footprint'))
    assert problems(report) == set(), [f.message for f in report.findings]


def test_a_possible_sender_is_named_once_for_all_its_reasons(tmp_path):
    """
    A node the table does not know, its parameter file unreadable: one node, named once.

    A team's pure pursuit node may send odom → base_link for all the lint knows; it was named
    twice (its parameters, its executable), at one place.
    """
    root = one_launch_package(tmp_path / 'team', 'team_bringup', 'robot.launch.py', launch_py(
        static_tf('map', 'odom'), static_tf('base_link', 'laser', '--x', '0.2'),
        "Node(package='pursuit', executable='pursuit_node', name='pursuit_node', "
        "parameters=[LaunchConfiguration('params')])"))
    (chain,) = [f for f in lint(root).findings if f.check == 'chain_order']
    assert chain.message.count('robot.launch.py:') == 1, chain.message
    assert 'pursuit_node' in chain.message
