# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The simulated car, live: SimulatedCar's messages published over DDS in real time.

Each node of the car's stack (vesc_to_odom_node, slam_toolbox, ...) gets an rclpy node of its
own, so the audit sees the same publishers, topics and QoS as on the car. Faults come from the
`faults` parameter (comma-separated names of frame_audit.sim.car.FAULTS), switched on
fault_after_s seconds after start and switchable at run time:

    ros2 run frame_audit frame_audit_sim --ros-args -p faults:=laser_027 -p fault_after_s:=10
    ros2 param set /frame_audit_sim faults "pf_rear_axle,odom_two_parents"
"""
import re
import sys
import time
from typing import Dict, List, Mapping, Optional, Set, Tuple

from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.exceptions import ParameterException
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.publisher import Publisher
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from ..engine.config import AuditConfig, load_config
from ..errors import ConfigError
from .node import spin
from ..engine.records import Message, TF_STATIC_TOPIC, TF_TOPIC
from .messages import ros_message
from ..sim.car import FAULTS, POSE_TYPES, SimulatedCar

SIM_NODE_NAME = 'frame_audit_sim'
TICK_S = 0.005  # the simulator's physics step: messages go out when they are due
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
TF_STATIC_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL)
SENSOR_QOS = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
DEFAULT_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
UNNAMED_PUBLISHER = 'simulated_car'


def parse_faults(text: str) -> Set[str]:
    """Return the fault names in a comma- or space-separated text; unknown is a ValueError."""
    names = {name for name in re.split(r'[,\s]+', text.strip()) if name}
    unknown = sorted(names - set(FAULTS))
    if unknown:
        raise ValueError('unknown fault {!r} (known: {})'.format(
            unknown[0], ', '.join(sorted(FAULTS))))
    return names


def node_name(publisher: str) -> str:
    """Return a valid ROS node name for a publisher's name."""
    name = re.sub(r'[^A-Za-z0-9_]', '_', publisher) or UNNAMED_PUBLISHER
    return name if not name[0].isdigit() else '_' + name


class CarPublishers:
    """The car's nodes and their publishers, created as messages first need them."""

    def __init__(self, scan_topic: str, pose_types: Mapping[str, str] = POSE_TYPES):
        """Publish the scan best effort, as LiDAR drivers do, and poses as pose_types say."""
        self.scan_topic = scan_topic
        self.pose_types = pose_types
        self.nodes: Dict[str, Node] = {}
        self._publishers: Dict[Tuple[str, str], Publisher] = {}

    def publish(self, message: Message) -> None:
        """Send one message from the node that sends it on the car."""
        msg = ros_message(message, self.pose_types)
        name = node_name(message.publisher or UNNAMED_PUBLISHER)
        publisher = self._publishers.get((name, message.topic))
        if publisher is None:
            publisher = self._node(name).create_publisher(
                type(msg), message.topic, self._qos(message.topic))
            self._publishers[(name, message.topic)] = publisher
        publisher.publish(msg)

    def _qos(self, topic: str) -> QoSProfile:
        return {TF_TOPIC: TF_QOS, TF_STATIC_TOPIC: TF_STATIC_QOS,
                self.scan_topic: SENSOR_QOS}.get(topic, DEFAULT_QOS)

    def _node(self, name: str) -> Node:
        node = self.nodes.get(name)
        if node is None:
            node = self.nodes[name] = rclpy.create_node(name, start_parameter_services=False)
        return node

    def destroy(self) -> None:
        """Destroy the car's nodes."""
        for node in self.nodes.values():
            node.destroy_node()
        self.nodes.clear()
        self._publishers.clear()


class SimNode(Node):
    """Drives a SimulatedCar in real time and publishes what it sends; faults by parameter."""

    def __init__(self):
        """Read the parameters, park the car, start the clock."""
        super().__init__(SIM_NODE_NAME)
        seed = self.declare_parameter('seed', 0).value
        gyro = self.declare_parameter('gyro', False).value
        self.fault_after_s = float(self.declare_parameter('fault_after_s', 0.0).value)
        self.duration_s = float(self.declare_parameter('duration_s', 0.0).value)
        config_path = self.declare_parameter('config', '').value
        self.wanted = parse_faults(self.declare_parameter('faults', '').value)
        config: AuditConfig = load_config(config_path or None)
        self.started = time.time()
        self.car = SimulatedCar(seed, (), gyro, config, self.started)
        self.car_publishers = CarPublishers(config.scan_topic)
        self.add_on_set_parameters_callback(self._on_set)
        self.done = False
        self.create_timer(TICK_S, self.tick)
        self.get_logger().info('driving (seed {}, gyro {}); faults {} after {} s'.format(
            seed, gyro, sorted(self.wanted) or 'none', self.fault_after_s))

    def _on_set(self, parameters: List[Parameter]) -> SetParametersResult:
        """Take a new `faults` value at run time; other parameters are read at start."""
        for parameter in parameters:
            if parameter.name != 'faults':
                return SetParametersResult(successful=False, reason='{} is read at start '
                                           'only'.format(parameter.name))
            try:
                self.wanted = parse_faults(str(parameter.value))
            except ValueError as error:
                return SetParametersResult(successful=False, reason=str(error))
            self.get_logger().info('faults now {}'.format(sorted(self.wanted) or 'none'))
        return SetParametersResult(successful=True)

    def tick(self) -> None:
        """Switch faults as wanted, then publish every message due by now."""
        now = time.time()
        if now - self.started >= self.fault_after_s:
            self._switch_faults()
        for message in self.car.advance(now):
            self.car_publishers.publish(message)
        self.done = bool(self.duration_s) and now - self.started >= self.duration_s

    def _switch_faults(self) -> None:
        active = set(self.car.faults)
        for name in sorted(self.wanted - active):
            self.car.enable_fault(name)
        for name in sorted(active - self.wanted):
            self.car.disable_fault(name)

    def destroy_node(self) -> None:
        """Destroy the car's nodes with this one."""
        self.car_publishers.destroy()
        super().destroy_node()


def main(args: Optional[List[str]] = None) -> None:
    """Run the simulated car until shutdown (or duration_s); a bad parameter is one line."""
    try:
        rclpy.init(args=args)
        node = SimNode()
    except (ConfigError, ValueError, ParameterException) as error:
        rclpy.try_shutdown()
        sys.exit('{}: cannot start: {}'.format(SIM_NODE_NAME, error))
    spin(node, lambda: node.done)


if __name__ == '__main__':
    main()
