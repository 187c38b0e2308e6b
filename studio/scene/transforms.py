"""Placement in the world: 4x4 matrices from a Transform, quaternions and look-at rotations.

Rotations are Euler angles in degrees applied about the fixed X, then Y, then Z axes (extrinsic),
so the rotation matrix is Rz @ Ry @ Rx; a full transform is translate @ rotate @ scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from studio.scene.model import SceneError, Transform, _positive_vec3, _vec3

Matrix = NDArray[np.float64]

UP = (0.0, 1.0, 0.0)


def rotation_matrix(degrees: Sequence[float]) -> Matrix:
    """The 3x3 rotation for Euler angles in degrees, X then Y then Z about fixed axes."""
    ax, ay, az = (math.radians(float(angle)) for angle in degrees)
    cx, sx, cy, sy, cz, sz = (
        math.cos(ax),
        math.sin(ax),
        math.cos(ay),
        math.sin(ay),
        math.cos(az),
        math.sin(az),
    )
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]], dtype=np.float64)
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]], dtype=np.float64)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]], dtype=np.float64)
    return rz @ ry @ rx


def object_matrix(transform: Transform) -> Matrix:
    """The 4x4 matrix taking an object's local frame to the world: translate @ rotate @ scale."""
    matrix = np.eye(4, dtype=np.float64)
    matrix[:3, :3] = rotation_matrix(transform.rotation) * np.asarray(transform.scale, np.float64)
    matrix[:3, 3] = transform.translation
    return matrix


def transform_from_dict(data: Any, what: str) -> Transform:
    """A validated Transform from plain data ({translation, rotation, scale}, all optional)."""
    if data is None:
        return Transform()
    if not isinstance(data, dict):
        raise SceneError(f"{what} transform must be an object with translation, rotation, scale")
    return Transform(
        translation=_vec3(data.get("translation", (0, 0, 0)), f"{what} translation"),
        rotation=_vec3(data.get("rotation", (0, 0, 0)), f"{what} rotation"),
        scale=_positive_vec3(data.get("scale", (1, 1, 1)), f"{what} scale"),
    )


def quaternion_xyzw(rotation: Matrix) -> list[float]:
    """The unit quaternion [x, y, z, w] (glTF order) of a 3x3 rotation matrix."""
    m = rotation
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = [s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = [(m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s]
    else:
        s = 2.0 * math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = [(m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s]
    norm = math.sqrt(sum(part * part for part in q))
    sign = -1.0 if q[3] < 0 else 1.0  # one canonical sign: w >= 0
    return [float(sign * part / norm) for part in q]


def look_at_rotation(position: Sequence[float], target: Sequence[float]) -> Matrix:
    """The 3x3 rotation that points a node's -Z axis (glTF cameras and lights) at `target`.

    The node's +Y stays as close to world up as it can; looking straight up or down, the
    node's +Y points along world -Z instead. A target at the position leaves the identity.
    """
    forward = np.asarray(target, np.float64) - np.asarray(position, np.float64)
    length = float(np.linalg.norm(forward))
    if length < 1e-9:
        return np.eye(3, dtype=np.float64)
    back = -forward / length
    up = np.array(UP) if abs(back[1]) < 0.999 else np.array([0.0, 0.0, -1.0])
    right = np.cross(up, back)
    right /= np.linalg.norm(right)
    true_up = np.cross(back, right)
    return np.column_stack([right, true_up, back])
