import json
import math

from studio.physics import interpenetration, support
from studio.physics.fixes import separate_overlaps
from studio.scene.model import Scene

from .helpers import ball, crate, table, thing, world_mesh


def test_overlapping_boxes_fail_with_depth_and_volume_then_separate():
    scene = Scene(objects=(crate("a", (0, 0.25, 0)), crate("b", (0.4, 0.2, 0), size=0.4)))
    report = interpenetration(scene, world_mesh)

    assert not report.passed
    [pair] = report.pairs
    assert (pair.a, pair.b) == ("a", "b")
    assert math.isclose(pair.depth_m, 0.05, abs_tol=1e-6)  # x: -0.25..0.25 against 0.2..0.6
    assert math.isclose(pair.volume_m3, 0.05 * 0.4 * 0.4, rel_tol=1e-6)
    assert math.isclose(report.value, 0.05, abs_tol=1e-6)
    assert report.reasons == ["a and b overlap by 0.050 m (8.0 L in common)"]
    json.dumps(report.to_dict(), allow_nan=False)

    fixed, changes = separate_overlaps(scene, report, world_mesh)
    assert changes[0].startswith("b: pushed 0.050 m along +x out of a")
    assert interpenetration(fixed, world_mesh).passed
    assert support(fixed, world_mesh).passed  # pushed sideways, still on the ground
    assert fixed.object("a") == scene.object("a")  # the larger one stays


def test_small_box_sunk_into_a_table_is_lifted_onto_it():
    scene = Scene(objects=(table(), crate("box", (0.0, 0.75 + 0.1 - 0.04, 0.0), size=0.2)))
    report = interpenetration(scene, world_mesh)
    assert [(p.a, p.b) for p in report.pairs] == [("table", "box")]
    assert math.isclose(report.pairs[0].depth_m, 0.04, abs_tol=1e-6)

    fixed, changes = separate_overlaps(scene, report, world_mesh)
    assert "along +y onto table" in changes[0]
    assert interpenetration(fixed, world_mesh).passed
    assert support(fixed, world_mesh).passed


def test_resting_contact_does_not_count():
    half_diagonal = 0.25 / math.sqrt(2)
    scene = Scene(
        objects=(
            table(),
            ball("ball", (0.3, 0.85, 0.0)),  # on the tabletop
            crate("c1", (2.0, 0.25, 0.0)),
            crate("c2", (2.0, 0.75, 0.0)),  # stacked on c1
            crate("c3", (2.0, 1.25, 0.0), rotation=(0, 45, 0)),  # stacked, turned
            crate("c4", (2.5 - 0.001, 0.25, 0.0)),  # beside c1, 1 mm into it: within tolerance
            # turned 45° with one face flush against a's vertical corner edge: the AABBs overlap
            # by 0.18 m each way, so only the narrow phase can tell they merely touch
            crate("a", (-2.0, 0.25, 0.0)),
            crate(
                "b", (-2.0 + 0.25 + half_diagonal, 0.25, 0.25 + half_diagonal), rotation=(0, 45, 0)
            ),
        )
    )
    report = interpenetration(scene, world_mesh)

    assert report.passed, report.reasons
    assert report.value == 0.0
    assert report.candidates == 1
    assert report.touching == [["a", "b"]]
    assert support(scene, world_mesh).passed


def test_turned_overlap_depth_is_along_the_face_normal():
    half_diagonal = 0.25 / math.sqrt(2)
    push = 0.01
    scene = Scene(
        objects=(
            crate("a", (0, 0.25, 0)),
            crate(
                "b",
                (0.25 + half_diagonal - push, 0.25, 0.25 + half_diagonal - push),
                rotation=(0, 45, 0),
            ),
        )
    )
    report = interpenetration(scene, world_mesh)
    assert not report.passed
    assert math.isclose(report.value, push * math.sqrt(2), rel_tol=1e-3)


def test_object_inside_another_is_reported():
    scene = Scene(
        objects=(crate("big", (0, 0.5, 0), size=1.0), ball("marble", (0, 0.5, 0), radius=0.05))
    )
    report = interpenetration(scene, world_mesh)
    assert not report.passed
    assert report.pairs[0].depth_m > 0.09  # the buried ball's thickness


def test_flat_meshes_cannot_overlap():
    sheet = thing("sheet", "box", at=(0, 0.25, 0), size=[1.0, 0.0, 1.0])
    report = interpenetration(Scene(objects=(crate("a", (0, 0.25, 0)), sheet)), world_mesh)
    assert report.passed


def test_a_cushion_pushed_into_a_sofa_back_overlaps_by_centimetres_not_its_height():
    """Resting on the seat and pushed into the reclined back, the cushion meets the sofa in one
    L-shaped piece whose extents all span the cushion; the depth is how far it went in."""
    from dataclasses import replace

    from studio.planner.builder import build_scene
    from studio.planner.grammar import parse_request
    from studio.scene.geometry import world_mesh

    scene = build_scene(parse_request("a cushion on a sofa")).scene
    cushion = scene.object("cushion")
    x, y, z = cushion.transform.translation
    pushed = scene.with_object(
        replace(cushion, transform=replace(cushion.transform, translation=(x, y, z - 0.08)))
    )
    report = interpenetration(pushed, world_mesh)
    assert not report.passed
    (pair,) = report.pairs
    assert 0.005 < pair.depth_m < 0.04  # before: 0.15 m, the cushion's whole height


def test_two_high_poly_solids_overlapping_are_measured_in_bounded_memory():
    # Two coincident rings of 153,600 triangles: their overlap has tens of thousands of distinct
    # facet normals. Projecting every vertex on every normal at once asked numpy for 11 GiB
    # (a MemoryError, or the host's memory); blocks over the hull's vertices keep it small.
    import tracemalloc

    from studio.scene.geometry import world_mesh as built
    from studio.scene.model import scene_from_dict
    from tests.studio.bombs import revolve

    ring = {"shape": revolve(300, 256), "material": {"name": "steel"}}
    scene = scene_from_dict({"objects": [{"name": "a", **ring}, {"name": "b", **ring}]})
    meshes = {item.name: built(item) for item in scene.objects}
    tracemalloc.start()

    report = interpenetration(scene, lambda item: meshes[item.name])

    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    [pair] = report.pairs
    assert math.isclose(pair.depth_m, 0.8, abs_tol=0.01)  # the tube's diameter
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MB"
