import json
import math

from studio.physics import support
from studio.physics.fixes import drop_to_support
from studio.physics.footing import Body, footing
from studio.scene.model import Scene

from .helpers import ball, crate, table, thing, world_mesh


def test_ball_floating_above_a_table_fails_then_is_dropped_onto_it():
    scene = Scene(objects=(table(), ball("ball", (0.1, 0.75 + 0.1 + 0.2, 0.0))))
    report = support(scene, world_mesh)

    assert not report.passed
    assert report.reasons == ["ball floats 0.20 m above table"]
    item = report.item("ball")
    assert (item.status, item.nearest) == ("floats", "table")
    assert item.gap_m is not None and math.isclose(item.gap_m, 0.2, abs_tol=1e-6)
    json.dumps(report.to_dict(), allow_nan=False)

    fixed, changes = drop_to_support(scene, report, world_mesh)
    assert changes == ["ball: lowered 0.20 m onto table"]
    after = support(fixed, world_mesh)
    assert after.passed, after.reasons
    assert after.item("ball").supports == ["table"]
    assert math.isclose(fixed.object("ball").transform.translation[1], 0.85, abs_tol=1e-6)


def test_crate_sunk_into_the_ground_fails_then_is_raised():
    scene = Scene(objects=(crate("crate", (0, 0.25 - 0.05, 0)),))
    report = support(scene, world_mesh)

    assert not report.passed
    assert report.reasons == ["crate sinks 0.050 m into the ground"]
    assert math.isclose(report.value, 0.05, abs_tol=1e-6)

    fixed, changes = drop_to_support(scene, report, world_mesh)
    assert changes == ["crate: raised 0.050 m to rest on the ground"]
    assert support(fixed, world_mesh).passed


def test_what_rests_on_a_moved_object_moves_with_it():
    scene = Scene(
        objects=(crate("bottom", (0, 0.25 - 0.05, 0)), crate("top", (0, 0.75 - 0.05, 0), size=0.5))
    )
    report = support(scene, world_mesh)
    assert [o.status for o in report.objects] == ["sinks", "supported"]

    fixed, changes = drop_to_support(scene, report, world_mesh)
    assert changes[1] == "top: moved up with bottom (resting on it)"
    assert support(fixed, world_mesh).passed


def test_resting_objects_pass():
    scene = Scene(
        objects=(
            table(),
            ball("ball", (0.3, 0.85, 0.0)),
            crate("book", (-0.55, 0.8, 0.0), size=0.1),  # overhangs the table's edge by half
            crate("c1", (2.0, 0.25, 0.0)),
            crate("c2", (2.1, 0.75, 0.1), rotation=(0, 30, 0)),
            thing(
                "pillar",
                "box",
                rotation=(0, 0, 30),
                size=[0.2, 2.0, 0.2],
                rest_on=0.0,
                at=(-3, 0, 0),
            ),
            thing(
                "barrel",
                "cylinder",
                radius=0.3,
                height=0.9,
                rotation=(90, 0, 0),
                rest_on=0.0,
                at=(3, 0, 2),
            ),
        )
    )
    report = support(scene, world_mesh)
    assert report.passed, report.reasons
    assert report.value < 1e-6
    assert report.item("c2").supports == ["c1"]
    assert report.item("ball").supports == ["table"]
    assert report.item("book").supports == ["table"]


def test_nothing_beneath_without_ground():
    scene = Scene(objects=(crate("crate", (0, 3.0, 0)),), ground=False)
    report = support(scene, world_mesh)
    assert not report.passed
    assert report.objects[0].status == "unsupported"
    fixed, changes = drop_to_support(scene, report, world_mesh)
    assert fixed == scene
    assert "nothing beneath it" in changes[0]


def test_off_the_ground_square_floats():
    scene = Scene(objects=(crate("crate", (30.0, 0.25, 0)),), ground_size=20.0)
    assert support(scene, world_mesh).objects[0].status == "unsupported"


def test_what_lies_inside_a_container_is_held_by_it_not_under_it():
    from studio.planner.builder import build_scene
    from studio.planner.grammar import parse_request
    from studio.scene.geometry import world_mesh as product_world_mesh

    for request in ("three apples in a 40 cm bowl", "a ball inside an open box"):
        scene = build_scene(parse_request(request)).scene
        report = support(scene, product_world_mesh)
        assert report.passed, (request, report.reasons)
        container = next(o for o in scene.objects if o.name.split("-")[0] in {"bowl", "open"})
        held = [o for o in scene.objects if o is not container]
        assert report.item(container.name).supports == ["ground"], request
        for item in held:
            assert container.name in report.item(item.name).supports, (request, item.name)


def test_a_crowded_scene_reads_as_each_object_does_alone():
    # `support` casts every object's lines in one search (grouped per object and per object
    # beneath); no line may meet another object's triangles. Each object, measured alone
    # against the others, must read the same.
    objects = [table()]
    objects += [crate(f"crate-{i}", (0.5 * i - 1.5, 0.25, 1.0)) for i in range(6)]
    objects += [crate(f"high-{i}", (0.5 * i - 1.5, 0.75 + 0.01 * i, 1.0)) for i in range(3)]
    objects += [ball(f"ball-{i}", (0.5 * i, 0.6 + 0.02 * i, 1.0)) for i in range(3)]
    objects += [ball("on-table", (0.1, 0.85, 0.0)), crate("sunk", (2.5, 0.2, -1.0))]
    scene = Scene(objects=tuple(objects))
    report = support(scene, world_mesh)
    bodies = [Body.of(obj.name, world_mesh(obj)) for obj in scene.objects]
    for body in bodies:
        alone = footing(body, bodies, scene, report.tolerance_m)
        item = report.item(body.name)
        assert (item.gap_m, item.nearest, item.supports) == (
            alone.gap,
            alone.nearest,
            alone.supports,
        ), body.name
    statuses = {item.name: item.status for item in report.objects}
    assert statuses["sunk"] == "sinks" and statuses["high-1"] == "floats"
    assert statuses["ball-0"] == "supported" and statuses["ball-1"] == "floats"
    assert statuses["on-table"] == "supported"
