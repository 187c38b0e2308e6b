import json
from dataclasses import replace

from studio.physics import scale_sanity, support
from studio.physics.fixes import rescale_to_typical
from studio.physics.scale import match_category
from studio.scene.model import Scene

from .helpers import crate, table, thing, world_mesh


def test_three_metre_cup_fails_then_is_scaled_down_onto_the_table():
    cup = thing(
        "cup", "cylinder", at=(0, 0, 0), radius=0.4, height=3.0, category="cup", rest_on=0.75
    )
    scene = Scene(objects=(table(), cup))
    report = scale_sanity(scene, world_mesh)

    assert not report.passed
    item = report.item("cup")
    assert item.status == "too large"
    assert report.reasons == [
        "cup is 3.00 m tall; a cup is usually 0.04-0.2 m tall (15.0x too big)"
    ]
    assert report.value == 15.0
    assert report.item("table").status == "ok"
    json.dumps(report.to_dict(), allow_nan=False)

    fixed, changes = rescale_to_typical(scene, report, world_mesh)
    assert changes[0].startswith("cup: scaled by 0.0")
    assert changes[1].startswith("cup: lowered") and changes[1].endswith("onto table")
    assert scale_sanity(fixed, world_mesh).passed
    assert support(fixed, world_mesh).passed


def test_typical_sizes_pass_and_unknown_categories_are_noted():
    scene = Scene(
        objects=(
            table(),
            crate("crate", (2, 0.25, 0)),
            thing(
                "bottle",
                "cylinder",
                radius=0.04,
                height=0.3,
                rotation=(90, 0, 0),
                category="Bottles",
                rest_on=0,
            ),
            thing("mug", "cylinder", radius=0.045, height=0.1, category="coffee mug", rest_on=0.75),
            thing("widget", "box", size=[1, 1, 1], category="flux capacitor", at=(4, 0.5, 0)),
            thing("thing", "box", size=[1, 1, 1], at=(6, 0.5, 0)),
        )
    )
    report = scale_sanity(scene, world_mesh)
    assert report.passed, report.reasons
    assert report.item("bottle").status == "ok"  # lying on its side
    assert report.item("mug").matched == "cup"
    assert report.item("widget").status == "unknown"
    assert report.notes == [
        "widget: no typical size known for 'flux capacitor'; not checked",
        "thing has no category: its size is not checked",
    ]


def test_category_matching():
    assert match_category("Coffee Table") == "coffee table"
    assert match_category("dining table") == "table"
    assert match_category("crates") == "crate"
    assert match_category("wooden_barrel") == "barrel"
    assert match_category("couch") == "sofa"
    assert match_category("") is None
    assert match_category("spaceship") is None


def test_turned_table_width_is_its_own():
    turned = thing(
        "table",
        "box",
        at=(0, 0.375, 0),
        size=[1.2, 0.75, 0.8],
        rotation=(0, 45, 0),
        category="table",
    )
    item = scale_sanity(Scene(objects=(turned,)), world_mesh).item("table")
    assert abs(item.width_m - 1.2) < 1e-6


def test_tiny_car_is_too_small():
    car = thing("car", "box", size=[0.4, 0.15, 0.2], category="car", at=(0, 0.075, 0))
    report = scale_sanity(Scene(objects=(car,)), world_mesh)
    assert report.item("car").status == "too small"
    assert "too small" in report.reasons[0]


def test_a_stated_three_metre_cup_is_kept_with_a_warning():
    cup = thing(
        "cup", "cylinder", at=(0, 0, 0), radius=0.4, height=3.0, category="cup", rest_on=0.75
    )
    scene = Scene(objects=(table(), replace(cup, size_stated=True)))
    report = scale_sanity(scene, world_mesh)

    # The person asked for it: the check passes, and says what it doubts.
    assert report.passed and report.reasons == []
    assert report.item("cup").status == "stated"
    assert report.warnings == [
        "cup is 3.00 m tall; a cup is usually 0.04-0.2 m tall (15.0x too big); "
        "kept at the size you asked for"
    ]
    assert report.to_dict()["warnings"] == report.warnings

    # Even handed a report that flags it, the fixer never changes a stated size.
    flagged = scale_sanity(Scene(objects=(table(), cup)), world_mesh)
    fixed, changes = rescale_to_typical(scene, flagged, world_mesh)
    assert changes == []
    assert fixed.object("cup").transform.scale == (1.0, 1.0, 1.0)


def test_a_row_of_copies_is_judged_alike_and_a_scaled_or_turned_copy_on_its_own():
    # Copies of one shape turned and scaled alike are measured once; scale or a turn is not
    # carried over from the copy measured first.
    plank = {"size": [2.0, 0.1, 0.3]}
    row = [thing(f"plank-{i}", "box", at=(i, 0.05, 0), category="plank", **plank) for i in range(3)]
    tall = thing("tall", "box", at=(5, 0.05, 0), scale=(1, 30, 1), category="plank", **plank)
    upright = thing("upright", "box", at=(7, 1, 0), rotation=(0, 0, 90), category="plank", **plank)
    report = scale_sanity(Scene(objects=(*row, tall, upright)), world_mesh)
    widths = {
        item.name: (round(item.height_m, 6), round(item.width_m, 6)) for item in report.objects
    }
    assert widths["plank-0"] == widths["plank-1"] == widths["plank-2"] == (0.1, 2.0)
    assert widths["tall"] == (3.0, 2.0)
    assert widths["upright"] == (2.0, 0.3)
