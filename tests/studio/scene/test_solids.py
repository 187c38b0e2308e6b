"""A placed copy of a shape knows its enclosed volume from the shape's, and only while it is that
copy: the physics checks weigh objects by it and tell solids from open surfaces with it."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from studio.scene.geometry import world_mesh
from studio.scene.model import SceneObject, Shape, Transform
from studio.scene.solids import enclosed_volume, place


def _measured(mesh: trimesh.Trimesh) -> float | None:
    fresh = trimesh.Trimesh(mesh.vertices.copy(), mesh.faces.copy(), process=False)
    return float(fresh.volume) if fresh.is_volume else None


@pytest.mark.parametrize(
    "transform",
    [
        Transform(translation=(3.0, 0.5, -2.0)),
        Transform(translation=(0.0, 1.0, 0.0), rotation=(30.0, 45.0, 10.0)),
        Transform(scale=(2.0, 0.5, 3.0), rotation=(0.0, 90.0, 0.0)),
        Transform(scale=(-1.0, 1.0, 1.0)),  # mirrored: trimesh turns the faces around
    ],
)
@pytest.mark.parametrize(
    "shape",
    [
        Shape("box", {"size": [0.5, 0.8, 0.3]}),
        Shape("sphere", {"radius": 0.2}),
        Shape("cylinder", {"radius": 0.1, "height": 0.4}),
    ],
)
def test_a_placed_solid_encloses_what_measuring_it_gives(shape, transform):
    placed = world_mesh(SceneObject(name="thing", shape=shape, transform=transform))
    assert enclosed_volume(placed) == pytest.approx(_measured(placed), rel=1e-9)


def test_an_open_surface_encloses_nothing_wherever_it_is_placed():
    open_box = trimesh.creation.box(extents=[1.0, 1.0, 1.0])
    open_box.update_faces(np.arange(len(open_box.faces)) != 0)  # one triangle torn out
    placed = place(open_box, np.diag([2.0, 2.0, 2.0, 1.0]))
    assert enclosed_volume(open_box) is None
    assert enclosed_volume(placed) is None


def test_a_placed_copy_changed_afterwards_is_measured_again():
    crate = world_mesh(SceneObject(name="crate", shape=Shape("box", {"size": [0.5, 0.5, 0.5]})))
    assert enclosed_volume(crate) == pytest.approx(0.125)
    crate.apply_scale(2.0)
    assert enclosed_volume(crate) == pytest.approx(1.0)
    copy = crate.copy()  # the same triangles: the copy keeps the answer, and it is right
    assert enclosed_volume(copy) == pytest.approx(1.0)
