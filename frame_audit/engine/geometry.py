# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Rigid transforms: the car's 2D pose helpers (docs/car.md) and the 3D transforms TF carries.

Single transforms use plain math (faster than numpy for one 3-vector); arrays of poses use
numpy in the checks.
"""
from dataclasses import dataclass
import math
from typing import Tuple

from .records import Quaternion, Vector3

Pose2D = Tuple[float, float, float]  # x, y, theta


def compose(a: Pose2D, b: Pose2D) -> Pose2D:
    """Return a followed by b: b's translation rotated into a's frame, the angles added."""
    ax, ay, at = a
    bx, by, bt = b
    c, s = math.cos(at), math.sin(at)
    return (ax + c * bx - s * by, ay + s * bx + c * by, at + bt)


def inverse(p: Pose2D) -> Pose2D:
    """Return the transform that undoes p: p composed with it is no motion."""
    x, y, t = p
    c, s = math.cos(t), math.sin(t)
    return (-c * x - s * y, s * x - c * y, -t)


def laser_to_base(laser_pose: Pose2D, laser_offset_x: float) -> Pose2D:
    """Return the rear axle's pose for a LiDAR pose (x - d cos t, y - d sin t, t)."""
    return compose(laser_pose, (-laser_offset_x, 0.0, 0.0))


def base_to_laser(base_pose: Pose2D, laser_offset_x: float) -> Pose2D:
    """Return the LiDAR's pose for a rear-axle pose: the inverse of laser_to_base()."""
    return compose(base_pose, (laser_offset_x, 0.0, 0.0))


def wrap_angle(angle: float) -> float:
    """Return the angle in [-pi, pi)."""
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


def quat_multiply(a: Quaternion, b: Quaternion) -> Quaternion:
    """Return the Hamilton product a * b of (x, y, z, w) quaternions."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def rotate(q: Quaternion, v: Vector3) -> Vector3:
    """Return v rotated by the unit quaternion q."""
    qx, qy, qz, qw = q
    vx, vy, vz = v
    # t = 2 q_vec x v; v' = v + w t + q_vec x t
    tx = 2.0 * (qy * vz - qz * vy)
    ty = 2.0 * (qz * vx - qx * vz)
    tz = 2.0 * (qx * vy - qy * vx)
    return (vx + qw * tx + qy * tz - qz * ty,
            vy + qw * ty + qz * tx - qx * tz,
            vz + qw * tz + qx * ty - qy * tx)


def normalized(q: Quaternion) -> Quaternion:
    """Return q scaled to unit length (tf2 normalizes what it accepts)."""
    x, y, z, w = q
    norm = math.sqrt(x * x + y * y + z * z + w * w)
    return (x / norm, y / norm, z / norm, w / norm)


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> Quaternion:
    """Return the quaternion of fixed-axis roll, pitch, yaw (REP 103, as tf2 and URDF)."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy)


def rpy_of(q: Quaternion) -> Tuple[float, float, float]:
    """Return the fixed-axis roll, pitch and yaw of q (the inverse of quat_from_rpy)."""
    x, y, z, w = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
    return roll, pitch, yaw_of(q)


def yaw_of(q: Quaternion) -> float:
    """Return the rotation about z of q (the car's heading)."""
    x, y, z, w = q
    return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))


def rotation_angle(a: Quaternion, b: Quaternion) -> float:
    """Return the angle of the rotation that takes a to b, in [0, pi]."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2.0 * math.acos(min(1.0, dot))


def slerp(a: Quaternion, b: Quaternion, fraction: float) -> Quaternion:
    """Return the rotation fraction of the way from a to b, along the shorter arc."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    dot = ax * bx + ay * by + az * bz + aw * bw
    if dot < 0.0:
        bx, by, bz, bw, dot = -bx, -by, -bz, -bw, -dot
    if dot > 0.9995:  # nearly equal: linear interpolation is exact enough and stable
        return normalized((ax + fraction * (bx - ax), ay + fraction * (by - ay),
                           az + fraction * (bz - az), aw + fraction * (bw - aw)))
    theta = math.acos(dot)
    sa = math.sin((1.0 - fraction) * theta) / math.sin(theta)
    sb = math.sin(fraction * theta) / math.sin(theta)
    return (sa * ax + sb * bx, sa * ay + sb * by, sa * az + sb * bz, sa * aw + sb * bw)


@dataclass(frozen=True)
class Transform:
    """A child frame's pose in its parent: translation, then rotation (x, y, z, w)."""

    translation: Vector3 = (0.0, 0.0, 0.0)
    rotation: Quaternion = (0.0, 0.0, 0.0, 1.0)

    def __mul__(self, other: 'Transform') -> 'Transform':
        """Return self followed by other (parent->a, a->b gives parent->b)."""
        mx, my, mz = rotate(self.rotation, other.translation)
        x, y, z = self.translation
        return Transform((x + mx, y + my, z + mz), quat_multiply(self.rotation, other.rotation))

    def inverse(self) -> 'Transform':
        """Return the transform back from the child to the parent."""
        x, y, z, w = self.rotation
        conjugate = (-x, -y, -z, w)
        tx, ty, tz = rotate(conjugate, self.translation)
        return Transform((-tx, -ty, -tz), conjugate)

    def pose2d(self) -> Pose2D:
        """Return (x, y, yaw): the transform as the car's planar pose."""
        return (self.translation[0], self.translation[1], yaw_of(self.rotation))


def interpolate(a: Transform, b: Transform, fraction: float) -> Transform:
    """Return the transform fraction of the way from a to b (linear, and slerp for rotation)."""
    (ax, ay, az), (bx, by, bz) = a.translation, b.translation
    return Transform((ax + fraction * (bx - ax), ay + fraction * (by - ay),
                      az + fraction * (bz - az)), slerp(a.rotation, b.rotation, fraction))


def distance(a: Vector3, b: Vector3) -> float:
    """Return the Euclidean distance between two points (huge values give inf, never raise)."""
    return math.dist(a, b)
