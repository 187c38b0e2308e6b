"""Test-only meshes: trimesh.creation primitives placed by an object's transform.

The engine's own mesh builder (studio.scene.geometry) is not used here on purpose: the physics
checks take any `world_mesh` callable, and these exact primitives make expected numbers obvious.
Spheres are UV spheres with their poles on Y, so a ball's lowest point is exactly -radius.
"""

from __future__ import annotations

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]

from studio.scene.model import Physics, SceneObject, Shape, Transform

_ALONG_Y = trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0])


def local_mesh(shape: Shape) -> trimesh.Trimesh:
    p = shape.params
    if shape.kind == "box":
        return trimesh.creation.box(extents=p["size"])
    if shape.kind == "sphere":
        mesh = trimesh.creation.uv_sphere(radius=p["radius"], count=[24, 24])
    elif shape.kind == "cylinder":
        mesh = trimesh.creation.cylinder(radius=p["radius"], height=p["height"], sections=32)
    elif shape.kind == "torus":
        mesh = trimesh.creation.torus(p["major_radius"], p["minor_radius"])
    else:
        raise ValueError(f"no test mesh for {shape.kind}")
    mesh.apply_transform(_ALONG_Y)
    return mesh


def world_mesh(obj: SceneObject) -> trimesh.Trimesh:
    mesh = local_mesh(obj.shape).copy()
    t = obj.transform
    matrix = np.eye(4)
    matrix[:3, :3] = Rotation.from_euler("xyz", t.rotation, degrees=True).as_matrix() @ np.diag(
        t.scale
    )
    matrix[:3, 3] = t.translation
    mesh.apply_transform(matrix)
    return mesh


def thing(
    name,
    kind,
    at=(0.0, 0.0, 0.0),
    rotation=(0.0, 0.0, 0.0),
    scale=(1.0, 1.0, 1.0),
    dynamic=True,
    category="",
    collision="convex",
    friction=0.6,
    rest_on=None,
    **params,
) -> SceneObject:
    """An object; with `rest_on` (a height), lifted so its lowest point is exactly there."""
    obj = SceneObject(
        name,
        Shape(kind, params),
        Transform(tuple(at), tuple(rotation), tuple(scale)),
        physics=Physics(dynamic=dynamic, collision=collision, friction=friction),
        category=category,
    )
    if rest_on is not None:
        low = float(world_mesh(obj).vertices[:, 1].min())
        x, y, z = obj.transform.translation
        obj = SceneObject(
            name,
            obj.shape,
            Transform((x, y + rest_on - low, z), tuple(rotation), tuple(scale)),
            physics=obj.physics,
            category=category,
        )
    return obj


def table(name="table", at=(0.0, 0.0, 0.0), dynamic=False) -> SceneObject:
    """A 1.2 x 0.75 x 0.8 m table (a solid box), top at y = 0.75."""
    x, _, z = at
    return thing(
        name, "box", at=(x, 0.375, z), size=[1.2, 0.75, 0.8], dynamic=dynamic, category="table"
    )


def crate(name, at, size=0.5, **kwargs) -> SceneObject:
    return thing(name, "box", at=at, size=[size, size, size], category="crate", **kwargs)


def ball(name, at, radius=0.1, **kwargs) -> SceneObject:
    return thing(name, "sphere", at=at, radius=radius, category="ball", **kwargs)


def grid_scene(count: int, spacing: float = 1.0):
    """`count` dynamic objects resting on the ground in a grid: crates, balls and cylinders in
    turn, with every fourth crate carrying a second crate (stacked exactly)."""
    from studio.scene.model import Scene

    objects: list[SceneObject] = []
    side = max(1, int(np.ceil(np.sqrt(count))))
    index = 0
    while len(objects) < count:
        x = (index % side - side / 2) * spacing
        z = (index // side - side / 2) * spacing
        kind = index % 3
        if kind == 0:
            objects.append(crate(f"crate-{index}", (x, 0.2, z), size=0.4))
            if index % 4 == 0 and len(objects) < count:
                objects.append(crate(f"crate-{index}-top", (x, 0.55, z), size=0.3))
        elif kind == 1:
            objects.append(ball(f"ball-{index}", (x, 0.15, z), radius=0.15))
        else:
            objects.append(
                thing(
                    f"barrel-{index}",
                    "cylinder",
                    at=(x, 0.45, z),
                    radius=0.3,
                    height=0.9,
                    category="barrel",
                )
            )
        index += 1
    return Scene(objects=tuple(objects))


def cone(dynamic: bool = False) -> SceneObject:
    """A 0.5 m cone of radius 0.25 standing on its base on the ground, its tip at 0.5 m (the
    engine's mesh: `studio.scene.geometry.world_mesh`; `local_mesh` has no cones)."""
    return SceneObject(
        "cone",
        Shape("cone", {"radius": 0.25, "height": 0.5}),
        Transform((0.0, 0.25, 0.0)),
        physics=Physics(dynamic=dynamic),
        category="cone",
    )
