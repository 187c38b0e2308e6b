"""Uploaded meshes as nouns: the grammar reads them, the builder places them, edits add them."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import trimesh

from studio.planner.builder import build_scene
from studio.planner.edit_plan import UPLOADS_LABEL
from studio.planner.edit_policy import upload_words
from studio.planner.edits import plan_edits
from studio.planner.grammar import parse_request
from studio.planner.uploads import (
    Uploads,
    noun_of,
    resolving,
    upload_summary,
    uploads_from,
)
from studio.scene.geometry import object_bounds

# A duck 1.6 m across as uploaded (too big: scaled), a bunny 15 cm (kept), a chair in cm.
DUCK = ((-0.7, 0.1, -0.6), (0.9, 1.6, 0.5))
BUNNY = ((-0.09, 0.03, -0.06), (0.06, 0.18, 0.06))
CHAIR = ((0.0, 0.0, 0.0), (50.0, 90.0, 50.0))


def row(pk: int, name: str, bounds, to_metres: float = 1.0) -> SimpleNamespace:
    low, high = bounds
    metadata = {"bounds": [list(low), list(high)], "scale_to_metres": to_metres}
    return SimpleNamespace(name=name, ref=f"mesh:{pk}", metadata=metadata)


@pytest.fixture
def uploads() -> Uploads:
    return uploads_from(
        [
            row(1, "Duck.glb", DUCK),
            row(2, "bunny.ply", BUNNY),
            row(3, "chair.obj", CHAIR, 0.01),
        ]
    )


def resolver(uploads: Uploads):
    """Each upload as a box filling its bounds (what a real file would resolve to)."""

    def resolve(ref: str) -> trimesh.Trimesh:
        upload = next(u for u in uploads.by_key.values() if u.ref == ref)
        low, high = np.array(upload.low), np.array(upload.high)
        box = trimesh.creation.box(extents=high - low)
        box.apply_translation((low + high) / 2)
        return box

    return resolve


def parsed_nouns(text: str, uploads: Uploads) -> list[tuple[str, str]]:
    return [(spec.noun, spec.upload) for spec in parse_request(text, uploads.words).objects]


def test_nouns_come_from_file_stems():
    assert noun_of("Duck.glb") == "duck"
    assert noun_of("chair_model.obj") == "chair model"
    assert noun_of("C:\\scans\\Teapot.STL") == "teapot"


@pytest.mark.parametrize(
    "text",
    [
        "put my duck on the table",
        "a table with my duck on it",
        "the duck model on a table",
        "the uploaded duck on a table",
        "put Duck.glb on the table",
        "put DUCK.GLB on a table",
    ],
)
def test_an_upload_is_named_in_many_ways(text, uploads):
    parsed = parse_request(text, uploads.words)
    assert ("duck", "duck") in [(s.noun, s.upload) for s in parsed.objects]
    assert ("table", "") in [(s.noun, s.upload) for s in parsed.objects]
    relation = parsed.relations[0]
    assert parsed.objects[relation.subject].noun == "duck"
    assert (relation.kind, parsed.objects[relation.target].noun) == ("on", "table")
    assert not parsed.unparsed and not parsed.unknown


def test_plurals_count_copies(uploads):
    parsed = parse_request("three ducks in a row", uploads.words)
    assert (parsed.objects[0].upload, parsed.objects[0].count) == ("duck", 3)


def test_a_catalogue_noun_wins_unless_the_person_says_my(uploads):
    assert parsed_nouns("a chair next to a table", uploads)[0] == ("chair", "")
    assert parsed_nouns("my chair next to a table", uploads)[0] == ("chair", "chair")
    assert parsed_nouns("the uploaded chair next to a table", uploads)[0] == ("chair", "chair")
    assert parsed_nouns("chair.obj next to a table", uploads)[0] == ("chair", "chair")


def test_my_thing_without_an_upload_is_said_plainly(uploads):
    parsed = parse_request("my teapot on a table", uploads.words)
    assert [spec.noun for spec in parsed.objects] == ["table"]
    assert any("no uploaded mesh named 'teapot'" in note for note in parsed.notes)
    assert "duck" in parsed.notes[0]  # the uploads that are there are named
    parsed = parse_request("my table with a ball on it", uploads.words)
    assert parsed.objects[0].noun == "table" and not parsed.objects[0].upload
    assert any("so I used the catalogue table" in note for note in parsed.notes)


def test_without_uploads_nothing_changes():
    parsed = parse_request("put my duck on the table")
    assert [spec.noun for spec in parsed.objects] == ["table"]
    assert "duck" in parsed.unparsed + parsed.unknown


def mesh_bounds(built, name: str, uploads: Uploads) -> np.ndarray:
    return object_bounds(built.scene.object(name), resolve_mesh=resolver(uploads))


def test_the_mesh_rests_on_the_table_scaled_to_a_plausible_size(uploads):
    built = build_scene(parse_request("put my duck on the table", uploads.words), uploads)
    duck = built.scene.object("duck")
    assert duck.shape.kind == "mesh" and duck.shape.params["ref"] == "mesh:1"
    assert duck.category == "duck"
    low, high = mesh_bounds(built, "duck", uploads)
    t_low, t_high = object_bounds(built.scene.object("table"))
    assert low[1] == pytest.approx(t_high[1], abs=1e-6)  # resting on the top
    assert t_low[0] < low[0] and high[0] < t_high[0] and t_low[2] < low[2] < high[2] < t_high[2]
    assert max(high - low) == pytest.approx(0.3, abs=1e-6)  # 1.6 m duck -> 30 cm
    assert any("scaled it to 30 cm" in note for note in built.notes)


def test_a_plausible_size_is_kept_and_a_stated_one_rules(uploads):
    built = build_scene(parse_request("my bunny on a table", uploads.words), uploads)
    low, high = mesh_bounds(built, "bunny", uploads)
    assert high[1] - low[1] == pytest.approx(0.15, abs=1e-6)
    assert built.scene.object("bunny").shape.params["scale"] == 1.0
    built = build_scene(parse_request("a 30 cm tall duck on a table", uploads.words), uploads)
    low, high = mesh_bounds(built, "duck", uploads)
    assert high[1] - low[1] == pytest.approx(0.3, abs=1e-6)
    assert built.scene.object("duck").size_stated


def test_file_units_are_kept_and_everyday_ranges_rule(uploads):
    built = build_scene(parse_request("my chair next to a table", uploads.words), uploads)
    low, high = mesh_bounds(built, "chair", uploads)
    assert high[1] - low[1] == pytest.approx(0.9, abs=1e-6)  # 90 cm file units: a chair
    assert built.scene.object("chair").shape.params["scale"] == pytest.approx(0.01)


def test_relations_work_as_for_catalogue_objects(uploads):
    built = build_scene(parse_request("my bunny next to a chair", uploads.words), uploads)
    low, _ = mesh_bounds(built, "bunny", uploads)
    _, c_high = object_bounds(built.scene.object("chair"))
    assert low[1] == pytest.approx(0.0, abs=1e-6) and low[0] > c_high[0]
    built = build_scene(parse_request("two ducks on a table", uploads.words), uploads)
    assert {"duck-1", "duck-2"} <= {item.name for item in built.scene.objects}
    one, two = (mesh_bounds(built, name, uploads) for name in ("duck-1", "duck-2"))
    assert one[1][0] <= two[0][0]  # side by side, not inside each other


def test_placing_beside_a_mesh_uses_the_workspace_resolver(uploads):
    from studio.planner.builder import place

    built = build_scene(parse_request("my bunny and a chair", uploads.words), uploads)
    with pytest.raises(Exception, match="resolver"):
        place(built.scene, "chair", "left_of", "bunny")
    with resolving(resolver(uploads)):
        scene = place(built.scene, "chair", "left_of", "bunny")
    c_high = object_bounds(scene.object("chair"))[1]
    b_low = object_bounds(scene.object("bunny"), resolve_mesh=resolver(uploads))[0]
    assert c_high[0] < b_low[0]


STATE = {
    "objects": [
        {"name": "table", "category": "table", "size": [1.2, 0.75, 0.8], "position": [0, 0, 0]},
        {"name": "chair", "category": "chair", "size": [0.45, 0.9, 0.5], "position": [1, 0, 0]},
    ]
}


def test_an_edit_adds_my_bunny_next_to_the_chair(uploads):
    plan = plan_edits("add my bunny next to the chair", STATE, [], uploads.words)
    assert [(c.tool, c.arguments) for c in plan.calls] == [
        (
            "add_described",
            {"description": "my bunny", "relation": "next_to", "target": "chair"},
        )
    ]
    plan = plan_edits("put the uploaded duck on the table", STATE, [], uploads.words)
    assert plan.calls[0].arguments == {
        "description": "my duck",
        "relation": "on",
        "target": "table",
    }


def test_an_edit_says_when_my_thing_is_not_uploaded(uploads):
    plan = plan_edits("add my teapot on the table", STATE, [], uploads.words)
    assert not plan.calls
    assert "there is no uploaded mesh named 'teapot' in this workspace" in plan.notes


def test_without_uploads_an_edit_does_not_know_the_bunny():
    plan = plan_edits("add my bunny next to the chair", STATE, [])
    assert not any(c.tool == "add_described" for c in plan.calls)


def test_the_uploads_message_gives_the_edit_planner_its_words(uploads):
    summary = upload_summary(uploads)
    assert summary[0] == {
        "noun": "duck",
        "file": "Duck.glb",
        "ref": "mesh:1",
        "size_m": [1.6, 1.5, 1.1],
    }
    import json

    context = SimpleNamespace(
        messages=[
            {"role": "user", "name": UPLOADS_LABEL, "content": "Meshes:\n" + json.dumps(summary)}
        ]
    )
    words = upload_words(context)  # type: ignore[arg-type]
    assert words["bunnies"] == "bunny" and words["duck"] == "duck"
    assert upload_words(SimpleNamespace(messages=[])) == {}  # type: ignore[arg-type]
