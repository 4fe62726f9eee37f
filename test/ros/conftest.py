# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The live tests' shared fixtures: one private DDS domain and rclpy with a listener."""
import os

from live import Car, Listener, ros_environment
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor


@pytest.fixture(scope='module')
def env():
    """Give this module's processes and rclpy one private domain."""
    saved = dict(os.environ)
    os.environ.update(ros_environment())
    yield dict(os.environ)
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope='module')
def graph(env):
    """Start rclpy in the test, with a /diagnostics listener."""
    rclpy.init()
    executor = SingleThreadedExecutor()
    listener = Listener(executor)
    yield listener, executor
    executor.shutdown()
    rclpy.shutdown()


@pytest.fixture
def car(graph):
    """Give a test its own car: latched messages of another test's car never leak in."""
    new = Car()
    yield new
    new.publishers.destroy()
