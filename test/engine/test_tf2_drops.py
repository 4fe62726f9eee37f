# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""What tf2 drops or keeps twice, per edge and publisher, as each distribution would."""
import math

from frame_audit.engine.records import TransformRecord
from frame_audit.engine.tf2.drops import count_drops
from frame_audit.engine.tf2.replay import TfMessage
import pytest

T0 = 1700000000.0
Q = (0.0, 0.0, 0.0, 1.0)


def sent(received, parent, child, stamp, x=0.0, who='robot_state_publisher', static=False):
    """Return one TFMessage of one transform, as it arrived."""
    return TfMessage(received, (TransformRecord(parent, child, stamp, (x, 0.0, 0.0), Q),),
                     static, who)


def of(drops, child, who):
    """Return the counts of the edge above child from one publisher."""
    return next(d for d in drops if d.child == child and d.publisher == who)


def racing(value_b: float):
    """Gazebo and a joint_state_publisher both sending base_link -> wheel at the same stamps."""
    messages = []
    for k in range(20):
        t = T0 + k * 0.05
        messages.append(sent(t, 'base_link', 'wheel', t, x=0.1, who='gazebo'))
        messages.append(sent(t + 0.001, 'base_link', 'wheel', t, x=value_b,
                             who='joint_state_publisher'))
    return messages


@pytest.mark.parametrize('value_b,noetic_refused,ros2_twice,ros2_skipped', [
    (0.2, 20, 20, 0), (0.1, 20, 0, 20)])
def test_two_publishers_racing_at_the_same_stamps(value_b, noetic_refused, ros2_twice,
                                                  ros2_skipped):
    """ROS 1 refuses the second (TF_REPEATED_DATA); ROS 2 keeps a new value or skips a copy."""
    drops, _ = count_drops(racing(value_b), 'noetic')
    second = of(drops, 'wheel', 'joint_state_publisher')
    assert second.refused == {'TF_REPEATED_DATA': noetic_refused} and second.taken == 0
    assert not of(drops, 'wheel', 'gazebo').changed_anything
    for distro in ('humble', 'jazzy', 'kilted'):
        drops, _ = count_drops(racing(value_b), distro)
        second = of(drops, 'wheel', 'joint_state_publisher')
        assert (second.kept_twice, second.skipped_duplicates) == (ros2_twice, ros2_skipped)
        assert not second.refused and second.taken == 20


def test_a_bag_loop_is_a_clock_jump_not_old_data():
    """The receive clock goes back 10 s with the stamps: tf2_ros clears; nothing is refused."""
    messages = [sent(T0 + k * 0.1, 'odom', 'base_link', T0 + k * 0.1) for k in range(150)]
    messages += [sent(T0 + k * 0.1 + 0.05, 'odom', 'base_link', T0 + k * 0.1 + 0.05)
                 for k in range(50)]
    drops, jumps = count_drops(messages)
    assert len(jumps) == 1 and jumps[0].back_s == pytest.approx(14.85, abs=0.01)
    assert not of(drops, 'base_link', 'robot_state_publisher').changed_anything


def test_a_simulator_reset_is_told_from_a_straggler():
    """Stamps restart from zero while arrivals run on; one message delivered 12 s late."""
    messages = [sent(T0 + k * 0.1, 'odom', 'base_link', T0 + k * 0.1, who='gazebo')
                for k in range(200)]
    messages.append(sent(T0 + 20.05, 'map', 'odom', T0 + 20.0, who='amcl'))
    messages.append(sent(T0 + 20.06, 'map', 'odom', T0 + 8.0, who='amcl'))  # a straggler
    messages += [sent(T0 + 20.1 + k * 0.1, 'odom', 'base_link', 0.1 * k, who='gazebo')
                 for k in range(1, 30)]  # /clock restarted at zero
    drops, jumps = count_drops(messages)
    reset = of(drops, 'base_link', 'gazebo')
    assert not jumps
    assert reset.refused == {'TF_OLD_DATA': 29} and reset.after_reset == 29
    straggler = of(drops, 'odom', 'amcl')
    assert straggler.refused == {'TF_OLD_DATA': 1} and straggler.after_reset == 0


def test_rejected_values_per_publisher_and_a_healthy_twin():
    """A NaN from a broken EKF is counted under its publisher; the healthy EKF is quiet."""
    messages = [sent(T0 + k * 0.02, 'odom', 'base_link', T0 + k * 0.02, who='ekf')
                for k in range(50)]
    broken = messages + [sent(T0 + 1.0, 'odom', 'base_link', T0 + 1.0, x=math.nan,
                              who='ekf_broken')]
    drops, _ = count_drops(broken, 'jazzy')
    assert of(drops, 'base_link', 'ekf_broken').refused == {'TF_NAN_INPUT': 1}
    healthy, jumps = count_drops(messages, 'jazzy')
    assert not jumps and not any(d.changed_anything for d in healthy) and healthy[0].taken == 50
