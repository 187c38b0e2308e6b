"""Shapes are bounded from their parameters before anything is built, and the shape cache holds
a bounded number of bytes."""

from __future__ import annotations

import time
import tracemalloc

import pytest
import trimesh

from studio.scene import geometry
from studio.scene.budget import BudgetExceeded, Estimate, scene_estimate, shape_estimate
from studio.scene.model import SceneError, Shape, scene_from_dict
from studio.scene.shape_cache import ShapeCache, mesh_bytes
from tests.studio.bombs import cost_in_child, nested_booleans, revolve

PRIMITIVES = [
    Shape("box", {"size": [1, 2, 3]}),
    Shape("plane", {"size": [2, 2]}),
    Shape("sphere", {"radius": 0.5}),
    Shape("cylinder", {"radius": 0.3, "height": 1}),
    Shape("cone", {"radius": 0.3, "height": 1}),
    Shape("capsule", {"radius": 0.2, "height": 1}),
    Shape("torus", {"major_radius": 1, "minor_radius": 0.2}),
    Shape("extrusion", {"profile": [[0, 0], [2, 0], [2, 1], [1, 2], [0, 1]], "height": 0.5}),
    Shape(
        "extrusion",
        {
            "profile": [[0, 0], [4, 0], [4, 4], [0, 4]],
            "holes": [[[1, 1], [2, 1], [2, 2]], [[3, 3], [3.5, 3], [3.5, 3.5], [3, 3.5]]],
            "height": 1,
        },
    ),
    Shape(revolve(40, 32)["kind"], revolve(40, 32)["params"]),
]


@pytest.fixture
def builds_nothing(monkeypatch):
    """Building any shape fails the test: a refusal must come from the estimate alone."""

    def build(*args, **kwargs):
        raise AssertionError("a shape was built")

    monkeypatch.setattr(geometry, "_build", build)
    monkeypatch.setattr(trimesh.creation, "revolve", build)


@pytest.mark.parametrize("shape", PRIMITIVES, ids=lambda shape: shape.kind)
def test_the_estimate_bounds_what_each_kind_builds_closely(shape):
    built = len(geometry.shape_mesh(shape).faces)

    estimate = shape_estimate(shape.kind, shape.params).triangles

    assert built <= estimate <= 1.25 * built + 16


@pytest.mark.parametrize("op", ["union", "difference", "intersection"])
def test_a_boolean_is_estimated_at_its_operands_triangles(op):
    ball = {"kind": "sphere", "params": {"radius": 0.6}}
    params = {"op": op, "a": {"kind": "box", "params": {"size": [1, 1, 1]}}, "b": ball}

    built = len(geometry.shape_mesh(Shape("boolean", params)).faces)

    estimate = shape_estimate("boolean", params)
    assert estimate == Estimate(triangles=5132, boolean_triangles=5132)  # box 12, ball 5,120
    assert built <= estimate.triangles


def test_a_nested_boolean_bomb_is_refused_before_anything_is_built(builds_nothing):
    bomb = Shape("boolean", nested_booleans()["params"])
    tracemalloc.start()
    start = time.perf_counter()

    with pytest.raises(BudgetExceeded) as refused:
        geometry.shape_mesh(bomb)

    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # Nine revolves of 2 x 501 x 256 triangles; refused in milliseconds, with kilobytes.
    assert str(refused.value) == (
        "this boolean would have about 2,308,608 triangles; the limit is 1,000,000"
    )
    assert seconds < 0.2 and peak < 2 * 2**20


def test_the_bomb_as_a_scene_edit_costs_milliseconds_and_no_memory_in_a_fresh_process():
    cost = cost_in_child(
        """
        from studio.scene.model import scene_from_dict
        from studio.user_edits import check_caps
        import studio.scene.export, studio.scene.geometry
        from tests.studio.bombs import nested_booleans
        scene = scene_from_dict({"objects": [{"name": "bomb", "shape": nested_booleans()}]})
        """,
        "check_caps(scene)",
    )

    assert cost.outcome == (
        "CapExceeded: this scene would have about 2,308,608 triangles; the limit is 1,000,000"
    )
    assert cost.seconds < 0.5 and cost.peak_growth_mb < 20  # unbounded: 15 s, 0.8 GB


def test_boolean_work_is_bounded_even_when_the_result_would_be_small():
    # Eight unions of 21,504-triangle revolves: 193,536 triangles in all, but each union
    # combines every revolve before it (about 950,000 triangles of work).
    shape = nested_booleans(depth=8, points=41, sections=256)

    estimate = shape_estimate(shape["kind"], shape["params"])

    assert estimate == Estimate(triangles=193_536, boolean_triangles=946_176)
    with pytest.raises(BudgetExceeded, match=r"booleans would combine about 946,176 triangles"):
        geometry.check_shape_budget(Shape("boolean", shape["params"]))


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        (
            nested_booleans(depth=9, points=4, sections=3),
            r"(boolean a: ){8}booleans may nest at most 8 deep",
        ),
        (revolve(1002, 3), r"revolve profile must be a list of at most 1000 points"),
        (revolve(4, 257), r"revolve sections must be between 3 and 256, not 257"),
        (
            {
                "kind": "extrusion",
                "params": {"profile": [[0, 0], [1, 0], [0, 1]], "holes": [[]] * 101},
            },
            r"extrusion may have at most 100 holes, not 101",
        ),
    ],
    ids=["depth", "points", "sections", "holes"],
)
def test_size_parameters_over_their_limits_are_refused_unbuilt(builds_nothing, shape, message):
    with pytest.raises(SceneError, match=message):
        shape_estimate(shape["kind"], shape["params"])
    with pytest.raises(SceneError, match=message):
        geometry.shape_mesh(Shape(shape["kind"], shape["params"]))


def test_a_scene_counts_its_meshes_by_their_stored_faces():
    scene = scene_from_dict(
        {
            "objects": [
                {"name": "duck", "shape": {"kind": "mesh", "params": {"ref": "mesh:7"}}},
                {"name": "crate", "shape": {"kind": "box", "params": {"size": [1, 1, 1]}}},
            ]
        }
    )

    assert scene_estimate(scene, mesh_faces={"mesh:7": 4212}.__getitem__).triangles == 4224


def test_the_shape_cache_holds_a_bounded_number_of_bytes_least_recently_used_out(monkeypatch):
    cache = ShapeCache(max_items=256, max_bytes=256 * 2**20)
    monkeypatch.setattr(geometry, "SHAPE_CACHE", cache)
    spheres = [Shape("sphere", {"radius": 0.1 * (i + 1)}) for i in range(4)]
    one = mesh_bytes(geometry.shape_mesh(spheres[0], shared=True))
    cache.max_bytes = int(2.5 * one)

    for shape in spheres[1:]:
        geometry.shape_mesh(shape)
    geometry.shape_mesh(spheres[2])  # used again: now the most recent
    geometry.shape_mesh(spheres[1])  # built again, pushing out the least recently used

    keys = [geometry.shape_key(shape) for shape in spheres]
    assert cache.keys() == [keys[2], keys[1]]
    assert geometry.shape_cache_bytes() == sum(mesh_bytes(mesh) for mesh in cache.meshes())
    assert geometry.shape_cache_bytes() <= cache.max_bytes
