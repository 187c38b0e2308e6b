"""Concave objects (an open box, a tray, a U-shaped part) collide by their real shape: what rests
inside them rests on their floor, not on a hull that fills them."""

import time

import numpy as np

from studio.physics import stability
from studio.physics.decompose import convex_pieces
from studio.physics.mjcf import build_mjcf, collision_geom
from studio.scene.geometry import world_mesh as engine_mesh
from studio.scene.model import Physics, Scene, SceneObject, Shape, Transform

from .helpers import ball, crate


def _box(size, at=(0.0, 0.0, 0.0)):
    return {"kind": "box", "params": {"size": list(size)}, "transform": {"translation": list(at)}}


def open_box(name="open-box", at=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), dynamic=True, size=0.5):
    """A `size` cube with walls and floor 0.04 thick and no top, its bottom at `at`."""
    wall = 0.04
    inner = size - 2 * wall
    shape = Shape(
        "boolean",
        {
            "op": "difference",
            "a": _box([size, size, size], (0.0, size / 2, 0.0)),
            "b": _box([inner, size, inner], (0.0, wall + size / 2, 0.0)),
        },
    )
    return SceneObject(
        name, shape, Transform(tuple(at), tuple(rotation)), physics=Physics(dynamic=dynamic)
    )


def u_shape(name="u", at=(0.0, 0.0, 0.0)):
    """A 0.6 x 0.2 x 0.3 block with a 0.4 wide, 0.15 deep slot across it: a U seen from the
    front, its floor at y = 0.05 above its bottom at `at`."""
    shape = Shape(
        "boolean",
        {
            "op": "difference",
            "a": _box([0.6, 0.2, 0.3], (0.0, 0.1, 0.0)),
            "b": _box([0.4, 0.2, 0.4], (0.0, 0.15, 0.0)),
        },
    )
    return SceneObject(name, shape, Transform(tuple(at)), physics=Physics(dynamic=True))


def test_an_open_box_collides_as_exact_boxes_not_its_hull():
    box = open_box()
    geom = collision_geom(box, engine_mesh(box))
    assert geom.kind == "convex pieces"
    assert len(geom.parts) == 5  # the floor and four walls
    assert all(len(part) == 8 for part in geom.parts)
    volume = sum(float(np.prod(np.ptp(part, axis=0))) for part in geom.parts)
    assert abs(volume - geom.volume) < 1e-6 * geom.volume  # the pieces are the solid, exactly
    assert '<geom name="g0p4"' in build_mjcf(Scene(objects=(box,)), [geom], [1.0])


def test_a_ball_resting_inside_an_open_box_stays_put():
    box = open_box()
    inside = ball("ball", (0.0, 0.04 + 0.1, 0.0), radius=0.1)  # on the box's floor
    report = stability(Scene(objects=(box, inside)), engine_mesh)
    assert report.passed, report.reasons  # a hull around the box would push the ball out
    assert report.item("open-box").collision == "convex pieces"


def test_a_ball_dropped_into_an_open_box_stays_inside_it():
    box = open_box(at=(1.0, 0.0, -0.5), rotation=(0.0, 30.0, 0.0))
    dropped = ball("ball", (1.0, 0.6, -0.5), radius=0.1)
    report = stability(Scene(objects=(box, dropped)), engine_mesh, perturb_seeds=())
    motion = report.item("ball")
    assert motion.verdict in ("falls", "drops"), motion  # it moved: it was dropped
    # It fell from 0.6 onto the floor at 0.04 (its centre ends at 0.14) and stayed in the box.
    end = np.array([1.0, 0.6, -0.5]) + np.array(motion.displacement)
    assert abs(end[1] - 0.14) < 0.01, end
    assert np.hypot(end[0] - 1.0, end[2] + 0.5) < 0.21 - 0.1, end
    assert report.item("open-box").verdict == "stable"


def test_a_cube_in_a_tray_made_by_a_boolean_difference_rests_on_its_floor():
    tray = u_shape()
    cube = crate("cube", (0.0, 0.05 + 0.1, 0.0), size=0.2)  # on the slot's floor
    report = stability(Scene(objects=(tray, cube)), engine_mesh)
    assert report.passed, report.reasons
    static_tray = SceneObject(tray.name, tray.shape, tray.transform, physics=Physics())
    report = stability(Scene(objects=(static_tray, cube)), engine_mesh)
    assert report.passed, report.reasons


def test_a_ball_in_a_static_open_box_stays_put():
    box = open_box(dynamic=False)
    inside = ball("ball", (0.0, 0.14, 0.0), radius=0.1)
    report = stability(Scene(objects=(box, inside)), engine_mesh)
    assert report.passed, report.reasons


def test_convex_objects_still_collide_as_one_shape():
    box, sphere = crate("crate", (0.0, 0.25, 0.0)), ball("ball", (0.0, 0.6, 0.0))
    assert collision_geom(box, engine_mesh(box)).kind == "convex hull"
    assert collision_geom(sphere, engine_mesh(sphere)).kind == "sphere"
    assert collision_geom(box, engine_mesh(box)).parts == []
    report = stability(Scene(objects=(box, sphere)), engine_mesh)
    assert report.passed, report.reasons
    assert {m.collision for m in report.objects} == {"convex hull", "sphere"}


def test_a_concave_mesh_that_is_not_boxy_is_decomposed_deterministically():
    import trimesh

    torus = trimesh.creation.torus(0.3, 0.08)
    first = convex_pieces(torus, np.eye(3))
    again = convex_pieces(trimesh.creation.torus(0.3, 0.08), np.eye(3))
    assert 2 <= len(first) <= 16
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    # A ring lying on the ground leaves its hole free: nothing fills the centre.
    centre_free = all(float(np.linalg.norm(p[:, [0, 1]], axis=1).min()) > 0.1 for p in first)
    assert centre_free


def test_decomposition_is_cached_per_shape():
    box = open_box(name="cached", size=0.45)
    started = time.perf_counter()
    collision_geom(box, engine_mesh(box))
    cold = time.perf_counter() - started
    moved = SceneObject("moved", box.shape, Transform((3.0, 0.0, 0.0)), physics=box.physics)
    started = time.perf_counter()
    geom = collision_geom(moved, engine_mesh(moved))
    warm = time.perf_counter() - started
    assert len(geom.parts) == 5 and float(min(p[:, 0].min() for p in geom.parts)) > 2.7
    assert warm < max(cold, 0.01)
