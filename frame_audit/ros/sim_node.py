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
import time
from typing import Dict, List, Mapping, Optional, Set, Tuple

from rcl_interfaces.msg import IntegerRange, ParameterDescriptor, SetParametersResult
import rclpy
from rclpy.exceptions import ParameterException
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.publisher import Publisher
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from .messages import ros_message
from .node import spin, start
from ..engine.config import AuditConfig, load_config
from ..engine.records import Message, TF_STATIC_TOPIC, TF_TOPIC
from ..errors import ConfigError
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

    def retire(self, names: Set[str]) -> None:
        """Stop the car's nodes named: a faulty node switched off leaves the graph."""
        for name in names & set(self.nodes):
            self.nodes.pop(name).destroy_node()
        self._publishers = {key: publisher for key, publisher in self._publishers.items()
                            if key[0] in self.nodes}

    def destroy(self) -> None:
        """Destroy the car's nodes."""
        self.retire(set(self.nodes))


class SimNode(Node):
    """Drives a SimulatedCar in real time and publishes what it sends; faults by parameter."""

    def __init__(self):
        """Read the parameters, park the car, start the clock."""
        self.car_publishers: Optional[CarPublishers] = None  # destroy_node may come first
        super().__init__(SIM_NODE_NAME)
        seed = self._declare('seed', 0, 'the seed of the drive', whole=True)
        gyro = self._declare('gyro', False, 'gyro odometry: map -> odom_imu -> odom')
        self.fault_after_s = float(self._declare('fault_after_s', 0.0, 's of clean driving '
                                                 'before the faults', number=True))
        self.duration_s = float(self._declare('duration_s', 0.0, 's to drive (0: until '
                                              'stopped)', number=True))
        config_path = self._declare('config', '', "frame_audit's parameters file: the car's "
                                    'frames and topics')
        self.wanted = parse_faults(self._declare(
            'faults', '', 'faults on, comma-separated (set at run time to switch)',
            runtime=True))
        config: AuditConfig = load_config(config_path or None)
        self.started = time.time()
        self.car = SimulatedCar(seed, (), gyro, config, self.started)
        self.car_publishers = CarPublishers(config.scan_topic)
        self._nodes_before: Dict[str, Set[str]] = {}  # fault -> the car's nodes before it
        self.add_on_set_parameters_callback(self._on_set)
        self.done = False
        self.create_timer(TICK_S, self.tick)
        self.get_logger().info('driving (seed {}, gyro {}); faults {} after {} s'.format(
            seed, gyro, sorted(self.wanted) or 'none', self.fault_after_s))

    def _declare(self, name: str, default: object, description: str, whole: bool = False,
                 number: bool = False, runtime: bool = False) -> object:
        """Declare a parameter with its descriptor; a value of the wrong kind is one line."""
        descriptor = ParameterDescriptor(
            description=description, dynamic_typing=True,
            additional_constraints='' if runtime else 'read at start')
        if whole:
            descriptor.integer_range = [IntegerRange(from_value=0, to_value=2 ** 31 - 1)]
        value: object = self.declare_parameter(name, default, descriptor).value
        wrong = (isinstance(value, bool) or not isinstance(value, int)) if whole else \
            (isinstance(value, bool) or not isinstance(value, (int, float))) if number else \
            not isinstance(value, type(default))
        if wrong:
            raise ValueError('{}: expected {}, got {!r}'.format(
                name, 'a whole number' if whole else 'a number' if number else
                'true or false' if isinstance(default, bool) else 'a text', value))
        return value

    def _on_set(self, parameters: List[Parameter]) -> SetParametersResult:
        """Take a new `faults` value at run time; other parameters are read at start."""
        for parameter in parameters:
            if parameter.name != 'faults':
                return SetParametersResult(successful=False, reason='{} is read at start '
                                           'only'.format(parameter.name))
            try:
                self.wanted = parse_faults(str(parameter.value))
            except ValueError as error:
                self.get_logger().warning('refused: faults: {}'.format(error))
                return SetParametersResult(successful=False, reason=str(error))
            self.get_logger().info('faults now {}'.format(sorted(self.wanted) or 'none'))
        return SetParametersResult(successful=True)

    def tick(self) -> None:
        """Switch faults as wanted, then publish every message due by now."""
        now = time.time()
        if now - self.started >= self.fault_after_s:
            self._switch_faults()
        assert self.car_publishers is not None  # made in __init__, before the timer that ticks
        for message in self.car.advance(now):
            self.car_publishers.publish(message)
        self.done = bool(self.duration_s) and now - self.started >= self.duration_s

    def _switch_faults(self) -> None:
        """
        Switch faults on and off; a fault switched off stops the nodes it brought.

        The car's nodes that appeared while a fault was on (a second static publisher, an
        EKF) leave the graph with it, as when the node that should not run is stopped.
        """
        active = set(self.car.faults)
        assert self.car_publishers is not None  # made in __init__, before the timer that ticks
        for name in sorted(self.wanted - active):
            self.car.enable_fault(name)
            self._nodes_before[name] = set(self.car_publishers.nodes)
        for name in sorted(active - self.wanted):
            self.car.disable_fault(name)
            self.car_publishers.retire(self._brought(name) - set().union(
                *(self._brought(other) for other in self.car.faults)))
            self._nodes_before.pop(name, None)

    def _brought(self, fault: str) -> Set[str]:
        """Return the car's nodes that appeared since a fault was switched on."""
        assert self.car_publishers is not None  # made in __init__, before the timer that ticks
        return set(self.car_publishers.nodes) - self._nodes_before.get(
            fault, set(self.car_publishers.nodes))

    def destroy_node(self) -> None:
        """Destroy the car's nodes with this one."""
        if self.car_publishers is not None:
            self.car_publishers.destroy()
        super().destroy_node()


def main(args: Optional[List[str]] = None) -> None:
    """Run the simulated car until shutdown (or duration_s); a bad parameter is one line."""
    node = start(SimNode, SIM_NODE_NAME, (ConfigError, ValueError, ParameterException), args)
    spin(node, lambda: node.done)


if __name__ == '__main__':
    main()
