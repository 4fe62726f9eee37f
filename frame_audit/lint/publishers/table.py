# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Who sends which transform because of its parameters: one table of the nodes the lint knows.

Each entry names the executables (and composable plugins) it covers (and, for a sender whose
executable name is common, the packages that hold it), the parameters that name frames, the
switch that turns its transform on or off, and the edges it sends, from its parameters and
their defaults as the node's code sets them. Nodes known to send nothing are in
the table too: a launched node that is not is a possible sender the lint cannot read.
robot_state_publisher's edges come from its robot description (see description.py).
"""
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..model import DeclaredEdge, NodeParams, Param, Unresolved, Where
from ..readers.params import yaml_text
from ...engine.geometry import Transform

Edge = Tuple  # (parent, child), or (parent, child, Transform) where the code fixes the value


class Reading:
    """A node's parameters as the table reads them, remembering which ones decided an edge."""

    def __init__(self, node: NodeParams):
        """Read this node's merged parameters."""
        self.node = node
        self.used: Dict[str, Param] = {}

    def get(self, name: str, default: object) -> object:
        """Return the parameter's value, or the node's own default when it is not set."""
        param = self.node.params.get(name)
        if param is None:
            return default
        self.used[name] = param
        return param.value

    def frame(self, name: str, default: str) -> str:
        """Return a frame parameter as tf2 will name it."""
        return str(self.get(name, default))


def _nothing(reading: Reading) -> List['Edge']:
    """Send no transform: a driver, a tool."""
    return []


@dataclass(frozen=True)
class Publisher:
    """
    A node the lint knows: the frames its parameters name and the edges it sends.

    switch is (parameter, default) for nodes whose transform can be turned off; sends returns
    the edges with the switch on (None: they depend on data only the running node has).
    """

    label: str
    executables: Tuple[str, ...]
    frames: Optional[Tuple[str, ...]] = ()  # None: unknown, any *_frame used as a frame counts
    switch: Optional[Tuple[str, object]] = None
    sends: Callable[[Reading], Optional[List[Edge]]] = _nothing
    description: bool = False  # robot_state_publisher: the edges are its robot description's
    marks: Optional[Tuple[str, ...]] = None  # what its source writes, all; None: a frame or switch
    packages: Optional[Tuple[str, ...]] = None  # where its executables live; None: any package

    @property
    def silent(self) -> bool:
        """Return whether it sends nothing and reads no frame (rviz2): its parameters are moot."""
        return self.sends is _nothing and self.frames == () and self.switch is None \
            and not self.description

    def runs(self, node: NodeParams) -> bool:
        """Return whether the node may be this one: an ekf_node of another package is not."""
        return node.package is None or self.packages is None or node.package in self.packages

    def signature(self) -> Tuple[str, ...]:
        """Return the strings the real node's source holds (a package of that name may not)."""
        if self.marks is not None:
            return self.marks
        return tuple(self.frames or ()) + ((self.switch[0],) if self.switch else ())


def _on(value: object) -> bool:
    return value is True or str(value).lower() in ('true', '1')


def _robot_localization(r: Reading) -> List[Edge]:
    odom = r.frame('odom_frame', 'odom')
    world, map_frame = r.frame('world_frame', odom), r.frame('map_frame', 'map')
    base = r.frame('base_link_frame_output', r.frame('base_link_frame', 'base_link'))
    if world == map_frame:
        return [(map_frame, odom)]
    return [(odom, base)] if world == odom else []


def _cartographer(r: Reading) -> Optional[List[Edge]]:
    if 'published_frame' not in r.node.params:
        return None  # no default in cartographer's code: its .lua was not read
    map_frame, published = r.frame('map_frame', 'map'), r.frame('published_frame', 'base_link')
    if _on(r.get('provide_odom_frame', False)):
        odom = r.frame('odom_frame', 'odom')
        return [(map_frame, odom), (odom, published)]
    return [(map_frame, published)]


def _gym_bridge(r: Reading) -> List[Edge]:
    agents = [str(r.get('ego_namespace', 'ego_racecar'))]
    if str(r.get('num_agent', 1)) == '2':
        agents.append(str(r.get('opp_namespace', 'opp_racecar')))
    edges = []
    for agent in agents:
        offset = float(str(r.get('scan_distance_to_base_link', 0.0)))
        edges += [('map', agent + '/base_link'), (agent + '/base_link', agent + '/laser',
                                                  Transform((offset, 0.0, 0.0),
                                                            (0.0, 0.0, 0.0, 1.0)))]
        edges += [('{0}/front_{1}_hinge'.format(agent, side),
                   '{0}/front_{1}_wheel'.format(agent, side)) for side in ('left', 'right')]
    return edges


def _particle_filter(r: Reading) -> Optional[List[Edge]]:
    """
    Return f1tenth/particle_filter's map → laser (docs/car.md).

    Its code writes '/map' and '/laser'; tf2 strips the slash, and no file of the user's can
    change them, so the edge is the one that lands: one cause, the laser's second parent.
    """
    forked = [name for name in r.node.params if name.startswith('tf_') or name.endswith(
        ('_frame', '_frame_id', 'tf_mode'))]
    return None if forked else [('map', 'laser')]  # a fork names its frames: unknown


def _map_odom_each_period(r: Reading) -> List[Edge]:
    """Send map → odom every transform_publish_period (0: never): slam_toolbox's, gmapping's."""
    if str(r.get('transform_publish_period', 0.05)) in ('0', '0.0'):
        return []
    return [(r.frame('map_frame', 'map'), r.frame('odom_frame', 'odom'))]


def _rtabmap(r: Reading) -> Optional[List[Edge]]:
    """
    Return rtabmap's map → odom, as rtabmap_slam's CoreWrapper.cpp sends it (read there).

    Its TF thread runs only with tf_delay and Optimizer/Iterations not 0; odom_frame_id
    (else odom_frame_id_init) unset means the odometry topic's header frame: a run's.
    """
    if any(str(r.get(name, default)) in ('0', '0.0') for name, default in (
            ('tf_delay', 0.05), ('Optimizer/Iterations', '20'))):
        return []
    odom = r.get('odom_frame_id', '') or r.get('odom_frame_id_init', '')
    return [(r.frame('map_frame_id', 'map'), str(odom))] if odom else None


def _wheel_odometry(r: Reading) -> List[Edge]:
    """Send odometry as odom_frame_id → base_frame_id: ros2_control drive controllers, rf2o."""
    return [(r.frame('odom_frame_id', 'odom'), r.frame('base_frame_id', 'base_link'))]


TABLE: Tuple[Publisher, ...] = (
    Publisher('robot_state_publisher', ('robot_state_publisher',
                                        'robot_state_publisher::RobotStatePublisher'),
              description=True),
    Publisher('slam_toolbox', ('async_slam_toolbox_node', 'sync_slam_toolbox_node',
                               'localization_slam_toolbox_node', 'lifelong_slam_toolbox_node',
                               'map_and_localization_slam_toolbox_node',  # 2.6.10 (Humble)
                               'slam_toolbox::AsynchronousSlamToolbox',
                               'slam_toolbox::SynchronousSlamToolbox',
                               'slam_toolbox::LocalizationSlamToolbox',
                               'slam_toolbox::LifelongSlamToolbox'),
              ('map_frame', 'odom_frame', 'base_frame'), sends=_map_odom_each_period,
              packages=('slam_toolbox',)),
    Publisher('rtabmap', ('rtabmap', 'rtabmap_slam::CoreWrapper'),
              ('map_frame_id', 'odom_frame_id', 'frame_id'), ('publish_tf', True), _rtabmap,
              packages=('rtabmap_slam',)),  # rtabmap_ros (ROS 1, Foxy) has other executables too
    Publisher('gmapping', ('slam_gmapping',), ('map_frame', 'odom_frame', 'base_frame'),
              sends=_map_odom_each_period, packages=('gmapping', 'slam_gmapping')),
    Publisher('AMCL', ('amcl', 'nav2_amcl::AmclNode'),
              ('global_frame_id', 'odom_frame_id', 'base_frame_id'), ('tf_broadcast', True),
              lambda r: [(r.frame('global_frame_id', 'map'), r.frame('odom_frame_id', 'odom'))],
              packages=('nav2_amcl', 'amcl')),
    Publisher('robot_localization', ('ekf_node', 'ukf_node', 'robot_localization::EkfFilter',
                                     'robot_localization::UkfFilter', 'ekf_localization_node',
                                     'ukf_localization_node'),  # ROS 1's, same defaults
              ('odom_frame', 'base_link_frame', 'base_link_frame_output', 'world_frame'),
              ('publish_tf', True), _robot_localization,  # map_frame: only as world_frame
              packages=('robot_localization',)),
    Publisher('navsat_transform_node', ('navsat_transform_node',), (),
              ('broadcast_cartesian_transform', False), lambda r: None,
              packages=('robot_localization',)),
    Publisher('cartographer', ('cartographer_node',),
              ('map_frame', 'odom_frame', 'published_frame', 'tracking_frame'),
              ('publish_to_tf', True), _cartographer, packages=('cartographer_ros',)),
    Publisher('particle_filter', ('particle_filter',), (), ('publish_tf', True),
              _particle_filter, marks=('max_particles', '/laser')),
    Publisher('vesc_to_odom_node', ('vesc_to_odom_node',), ('odom_frame', 'base_frame'),
              ('publish_tf', False),
              lambda r: [(r.frame('odom_frame', 'odom'), r.frame('base_frame', 'base_link'))],
              packages=('vesc_ackermann',)),
    Publisher('gym_bridge', ('gym_bridge',), (), None, _gym_bridge),
    # ros2_control's drive controllers (see controllers.py): one odometry, one default each
    Publisher('diff_drive_controller', ('diff_drive_controller/DiffDriveController',),
              ('odom_frame_id', 'base_frame_id'), ('enable_odom_tf', True), _wheel_odometry),
    Publisher('mecanum_drive_controller', ('mecanum_drive_controller/MecanumDriveController',),
              ('odom_frame_id', 'base_frame_id'), ('enable_odom_tf', True), _wheel_odometry),
    # rf2o's odometry from laser scans: odom_frame_id → base_frame_id, as both its branches'
    # CLaserOdometry2DNode.cpp declare them ('/odom' and '/base_link' in ROS 1: tf2 strips '/')
    Publisher('rf2o_laser_odometry', ('rf2o_laser_odometry_node',),
              ('odom_frame_id', 'base_frame_id'), ('publish_tf', True), _wheel_odometry,
              packages=('rf2o_laser_odometry',)),
    Publisher('imu_filter_madgwick', ('imu_filter_madgwick_node', 'ImuFilterMadgwickRos'),
              ('fixed_frame',), ('publish_tf', True), lambda r: None),  # child: the IMU's id
    # Nodes that send no transform; the frames they name are read by them, not sent.
    Publisher('a LiDAR driver', ('urg_node_driver', 'urg_node', 'sllidar_node', 'rplidar_node',
                                 'rplidar_composition', 'ydlidar_ros2_driver_node',
                                 'hokuyo_node', 'lidar_node', 'ldlidar', 'ldlidar_node',
                                 'ldlidar_stl_ros2_node', 'xv_11_driver', 'hlds_laser_publisher'),
              ('laser_frame_id', 'frame_id', 'lidar_frame')),
    Publisher('the VESC driver', ('vesc_driver_node', 'ackermann_to_vesc_node',
                                  'throttle_interpolator', 'ackermann_mux')),
    Publisher('pointcloud_to_laserscan', (
        'pointcloud_to_laserscan_node', 'pointcloud_to_laserscan::PointCloudToLaserScanNode'),
        ('target_frame',)),
    Publisher('Nav2', ('map_server', 'nav2_map_server::MapServer', 'lifecycle_manager',
                       'nav2_lifecycle_manager::LifecycleManager', 'controller_server',
                       'planner_server', 'bt_navigator', 'behavior_server', 'recoveries_server',
                       'waypoint_follower', 'velocity_smoother', 'smoother_server',
                       'collision_monitor', 'map_saver_server', 'costmap_filter_info_server'),
              ('global_frame', 'robot_base_frame')),
    Publisher('a tool', ('rviz2', 'joy_node', 'game_controller_node', 'joy_teleop',
                         'teleop_twist_joy_node', 'teleop_twist_keyboard', 'rosbridge_websocket',
                         'foxglove_bridge', 'joint_state_publisher',
                         'joint_state_publisher_gui', 'spawn_entity.py', 'create',
                         'component_container', 'component_container_mt',
                         'component_container_isolated', 'rqt_gui', 'rqt_robot_monitor',
                         'aggregator_node', 'frame_audit_node', 'record', 'play')),
)


def outside_edge(frame: str) -> Optional[Tuple[str, str]]:
    """
    Return the edge by which the F1TENTH gym bridge, on its defaults, sends this frame.

    A team drives the simulator from another workspace and names ego_racecar/base_link in its
    own files: the frame is the bridge's, known to the lint, not a frame nobody sends.
    """
    node = NodeParams('gym_bridge', ('gym_bridge',), {'num_agent': Param(
        'num_agent', 2, Where('', 0))}, Where('', 0))
    return next((edge[:2] for edge in _gym_bridge(Reading(node)) if edge[1] == frame), None)


def declared_publishers(entries: Sequence[Tuple[str, Sequence[Edge]]]) -> Tuple[Publisher, ...]:
    """Return a team's own publishers: the config's lint.publishers, (executable, edges) each."""
    return tuple(Publisher(name, (name,), None, sends=_fixed(edges)) for name, edges in entries)


def _fixed(edges: Sequence[Edge]) -> Callable[[Reading], Optional[List[Edge]]]:
    """Return what a publisher of fixed edges sends: these, whatever its parameters."""
    return lambda reading: list(edges)


def publisher_of(node: NodeParams, table: Sequence[Publisher]) -> Optional[Publisher]:
    """Return the table's entry for a node (by executable, plugin or name), or None."""
    return next((p for p in table if set(p.executables) & set(node.names) and p.runs(node)),
                None)


def switch_of(node: NodeParams, table: Sequence[Publisher]) -> Optional[Param]:
    """Return the parameter that turns a known publisher's transform on or off, if set."""
    publisher = publisher_of(node, table)
    return node.params.get(publisher.switch[0]) if publisher and publisher.switch else None


def _how(used: Sequence[Param]) -> str:
    return ', '.join('{}: {}'.format(p.name, yaml_text(p.value)) for p in used) \
        or 'its defaults'


def sent_edges(node: NodeParams, table: Sequence[Publisher],
               switched: bool = True) -> Optional[List[DeclaredEdge]]:
    """
    Return the edges a known node sends (would send, switched=False).

    None when the node is not in the table, sends edges only its data decides, or a switch or
    frame that decides them is known only when the launch runs (world_frame: frames['map'] read
    from a YAML file in an OpaqueFunction): its edges are unknown, never its defaults.
    """
    publisher = publisher_of(node, table)
    if publisher is None or publisher.description:
        return None if publisher is None else []
    reading = Reading(node)
    switch = reading.get(*publisher.switch) if switched and publisher.switch else True
    if isinstance(switch, Unresolved):
        return None
    if not _on(switch):
        return []
    edges = publisher.sends(reading)
    if edges is None or any(isinstance(p.value, Unresolved) for p in reading.used.values()):
        return None
    used = sorted(reading.used.values(), key=lambda p: (p.where.file, p.where.line))
    via = '{} ({})'.format(publisher.label if publisher.label == node.node else '{} {}'.format(
        publisher.label, node.node), _how(used))
    return [DeclaredEdge(edge[0], edge[1], _place(edge, used, node.where), via, static=False,
                         value=edge[2] if len(edge) > 2 else None) for edge in edges]


def _place(edge: Edge, used: Sequence[Param], where: Where) -> Where:
    """Return the line that names the edge's child (else its parent, else any that decided)."""
    for frame in (edge[1], edge[0]):
        for param in used:
            if str(param.value) == frame:
                return param.where
    return used[0].where if used else where


def frame_params(node: NodeParams, table: Sequence[Publisher]) -> List[Param]:
    """Return the parameters the table says name frames, for the node's entry."""
    publisher = publisher_of(node, table)
    return [node.params[name] for name in (publisher.frames or () if publisher else ())
            if name in node.params]


def reads_frames(node: NodeParams, table: Sequence[Publisher]) -> bool:
    """Return whether the table says which of the node's parameters name frames."""
    publisher = publisher_of(node, table)
    return publisher is not None and publisher.frames is not None
