"""A minimal, private `mesh_for` for the rendering tests: box, sphere and cylinder only.

It stands in for `studio.scene.geometry` so these tests do not depend on its internals. Shapes
are built in the object's local frame with exact dimensions (cylinders along Y); the matrix is
translation * Rz * Ry * Rx * scale, i.e. Euler angles in degrees applied X, then Y, then Z
(extrinsic), as `studio.scene.model.Transform` documents.
"""

from __future__ import annotations

import math

import numpy as np
import trimesh

from studio.scene.model import SceneObject, Transform


def object_matrix(transform: Transform) -> np.ndarray:
    rx, ry, rz = (math.radians(angle) for angle in transform.rotation)
    cx, sx, cy, sy, cz, sz = (
        math.cos(rx),
        math.sin(rx),
        math.cos(ry),
        math.sin(ry),
        math.cos(rz),
        math.sin(rz),
    )
    x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    matrix = np.eye(4)
    matrix[:3, :3] = z @ y @ x @ np.diag(transform.scale)
    matrix[:3, 3] = transform.translation
    return matrix


def shape_mesh(obj: SceneObject) -> trimesh.Trimesh:
    params = obj.shape.params
    if obj.shape.kind == "box":
        return trimesh.creation.box(extents=params["size"])
    if obj.shape.kind == "sphere":
        return trimesh.creation.icosphere(subdivisions=3, radius=params["radius"])
    if obj.shape.kind == "cylinder":
        mesh = trimesh.creation.cylinder(
            radius=params["radius"], height=params["height"], sections=48
        )
        mesh.apply_transform(trimesh.transformations.rotation_matrix(-math.pi / 2, [1, 0, 0]))
        return mesh
    raise ValueError(f"test helper cannot mesh a {obj.shape.kind}")


def mesh_for(obj: SceneObject) -> tuple[trimesh.Trimesh, np.ndarray]:
    return shape_mesh(obj), object_matrix(obj.transform)
