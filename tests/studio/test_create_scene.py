"""End to end with the offline planner: `create_scene` turns varied requests into scenes whose
GLB satisfies the request (counts, sizes within 2 %, colours, materials, relations) and passes
every check (exposure, framing, interpenetration, support, stability, scale); each call starts a
new scene, `--workspace ID` continues one, and a bad id is a clear error."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
import trimesh
from django.core.management import CommandError, call_command

from agents.models import Run, Workspace
from studio.management.commands.create_scene import CLI_USER
from studio.planner.builder import linear_colour
from studio.planner.vocabulary import COLOURS

pytestmark = pytest.mark.django_db
renders = pytest.mark.usefixtures("gl_context")


class Glb:
    """World bounds and material factors of each named node of an exported GLB."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        length = struct.unpack_from("<I", data, 12)[0]
        self.json = json.loads(data[20 : 20 + length])
        scene = trimesh.load(path, file_type="glb", force="scene")
        self.bounds: dict[str, np.ndarray] = {}
        for node in scene.graph.nodes_geometry:
            transform, geometry = scene.graph[node]
            mesh = scene.geometry[geometry].copy()
            mesh.apply_transform(transform)
            self.bounds[node] = mesh.bounds
        self.materials = {}
        for node in self.json["nodes"]:
            if "mesh" in node:
                primitive = self.json["meshes"][node["mesh"]]["primitives"][0]
                material = self.json["materials"][primitive["material"]]
                self.materials[node["name"]] = material["pbrMetallicRoughness"]

    def objects(self, prefix: str) -> list[str]:
        return sorted(n for n in self.bounds if n == prefix or n.startswith(prefix + "-"))

    def size(self, name: str) -> np.ndarray:
        low, high = self.bounds[name]
        return high - low

    def rests_on(self, upper: str, lower: str) -> bool:
        up, low = self.bounds[upper], self.bounds[lower]
        centre = (up[0] + up[1]) / 2
        return (
            abs(up[0][1] - low[1][1]) < 0.005
            and low[0][0] <= centre[0] <= low[1][0]
            and low[0][2] <= centre[2] <= low[1][2]
        )

    def on_ground(self, name: str) -> bool:
        return abs(self.bounds[name][0][1]) < 0.005


def colour_of(word):
    return pytest.approx(list(linear_colour(COLOURS[word])), abs=1e-3)


def run(prompt: str, tmp_path: Path, *more: str) -> tuple[Glb, dict]:
    try:
        call_command("create_scene", prompt, "--out", str(tmp_path), "--rounds", "3", *more)
    except CommandError as error:
        report = json.loads((tmp_path / "report.json").read_text())
        pytest.fail(f"{prompt!r} did not pass: {error}; checks {report['checks']}")
    report = json.loads((tmp_path / "report.json").read_text())
    return Glb(tmp_path / "scene.glb"), report


def expect_sphere_on_table(glb):
    assert glb.size("sphere") == pytest.approx([0.5, 0.5, 0.5], rel=0.02)
    assert glb.rests_on("sphere", "table")
    assert glb.materials["sphere"]["metallicFactor"] == 1.0
    assert glb.materials["sphere"]["baseColorFactor"][:3] == colour_of("red")


def expect_stack(glb):
    crates = glb.objects("crate")
    assert len(crates) == 3
    assert glb.rests_on("crate-2", "crate-1") and glb.rests_on("crate-3", "crate-2")
    assert glb.size("crate-1") == pytest.approx([0.4] * 3, rel=0.02)
    assert glb.materials["barrel"]["baseColorFactor"][:3] == colour_of("blue")


def expect_balls_under_table(glb):
    assert glb.objects("ball") == ["ball-1", "ball-2"]
    table = glb.bounds["table"]
    for ball in ("ball-1", "ball-2"):
        assert glb.on_ground(ball) and glb.bounds[ball][1][1] < table[1][1] - 0.04


def expect_pillars(glb):
    pillars = glb.objects("pillar")
    assert len(pillars) == 4
    for pillar in pillars:
        assert glb.size(pillar)[1] == pytest.approx(3.0, rel=0.02) and glb.on_ground(pillar)
    assert glb.materials[pillars[0]]["roughnessFactor"] == pytest.approx(0.2)  # marble


def expect_vase_on_platform(glb):
    assert glb.size("platform") == pytest.approx([2.0, 0.2, 2.0], rel=0.02)
    assert glb.size("vase")[1] == pytest.approx(0.3, rel=0.02)
    assert glb.rests_on("vase", "platform")
    assert glb.materials["vase"]["metallicFactor"] == 1.0  # gold


def expect_left_of(glb):
    assert glb.bounds["crate"][1][0] < glb.bounds["barrel"][0][0]
    assert glb.materials["crate"]["baseColorFactor"][:3] == colour_of("green")


def expect_cups_on_table(glb):
    cups = glb.objects("cup")
    assert len(cups) == 3 and all(glb.rests_on(cup, "table") for cup in cups)
    assert glb.size("table")[0] == pytest.approx(2.0, rel=0.02)


def expect_book_on_shelf_plate(glb):
    assert glb.rests_on("book", "crate")
    assert glb.size("crate") == pytest.approx([0.6] * 3, rel=0.02)


def expect_hex_ball(glb):
    assert glb.materials["ball"]["baseColorFactor"][:3] == pytest.approx(
        list(linear_colour((0xFF, 0x88, 0x00))), abs=1e-3
    )
    assert glb.size("ball") == pytest.approx([0.3048] * 3, rel=0.02)


def expect_sofa_scene(glb):
    assert set(glb.bounds) >= {"sofa", "lamp", "wall"}
    assert glb.bounds["wall"][1][2] < glb.bounds["sofa"][0][2]  # behind
    assert glb.bounds["lamp"][0][0] > glb.bounds["sofa"][1][0]  # next to (to the right)


def expect_barrels(glb):
    barrels = glb.objects("barrel")
    assert len(barrels) == 2 and all(glb.on_ground(b) for b in barrels)
    assert glb.size(barrels[0])[1] == pytest.approx(0.9, rel=0.02)


def expect_torus(glb):
    assert glb.size("torus")[0] == pytest.approx(0.6, rel=0.02)
    assert glb.rests_on("torus", "platform")


def expect_glass_bottle(glb):
    assert glb.rests_on("bottle", "table")
    assert glb.materials["bottle"]["baseColorFactor"][3] < 1  # glass is see-through


def expect_cube_in_front(glb):
    assert glb.bounds["cube"][0][2] > glb.bounds["chair"][1][2]
    assert glb.size("cube") == pytest.approx([0.25] * 3, rel=0.02)


def expect_cone_behind(glb):
    assert glb.bounds["cone"][1][2] < glb.bounds["ball"][0][2]
    assert glb.size("cone")[1] == pytest.approx(0.5, rel=0.02)


CASES = [
    (
        "a red metal sphere of 50 cm resting on a wooden table, warm light from the left",
        expect_sphere_on_table,
    ),
    ("three 40 cm crates stacked next to a blue barrel, dramatic lighting", expect_stack),
    ("two balls under a table, soft light", expect_balls_under_table),
    ("four marble pillars 3 m tall, evening light", expect_pillars),
    ("a 2x0.2x2 m concrete platform with a gold vase 30 cm tall on it", expect_vase_on_platform),
    ("a green crate to the left of a barrel", expect_left_of),
    ("three ceramic cups on a table 2 m long, studio lighting", expect_cups_on_table),
    ("a book on a 60 cm crate, cool light from the right", expect_book_on_shelf_plate),
    ("a #ff8800 ball of 1 ft", expect_hex_ball),
    ("a wall behind a sofa, a lamp next to the sofa", expect_sofa_scene),
    ("two steel barrels, daylight", expect_barrels),
    ("a torus 60 cm diameter on a concrete platform", expect_torus),
    ("a glass bottle on an oak table, sunset light", expect_glass_bottle),
    ("a plastic cube of 25 cm in front of a chair", expect_cube_in_front),
    ("a 50 cm cone behind a rubber ball, dramatic light from behind", expect_cone_behind),
]


@renders
@pytest.mark.parametrize(("prompt", "expect"), CASES, ids=[c[0][:40] for c in CASES])
def test_prompt_becomes_a_scene_that_passes_every_check(prompt, expect, tmp_path):
    glb, report = run(prompt, tmp_path)
    assert report["status"] == "succeeded"
    assert set(report["checks"]) == {
        "exposure",
        "framing",
        "interpenetration",
        "support",
        "stability",
        "scale_sanity",
    }
    assert all(check["passed"] for check in report["checks"].values())
    assert "ground" in glb.bounds and glb.bounds["ground"][1][1] == pytest.approx(0.0, abs=1e-6)
    assert (tmp_path / "render.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    expect(glb)


def test_a_request_it_cannot_read_fails_with_the_reason(tmp_path):
    with pytest.raises(CommandError, match="did not pass"):
        call_command("create_scene", "a unicorn", "--out", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["status"] == "failed"
    assert report["run"]["status"] == "failed"  # the run itself admits it, not just the command
    assert "no object I know in 'a unicorn'" in report["run"]["message"]
    assert report["run"]["message"].endswith("Nothing was built.")
    assert not (tmp_path / "scene.glb").exists()


@renders
def test_each_call_starts_a_new_scene_in_a_new_workspace(tmp_path):
    cube, first = run("a red cube", tmp_path / "first")
    cone, second = run("a green cone", tmp_path / "second")
    assert first["workspace"] != second["workspace"]
    assert cube.objects("cube") == ["cube"]
    assert cone.objects("cone") == ["cone"] and cone.objects("cube") == []
    workspaces = Workspace.objects.filter(pk__in=[first["workspace"], second["workspace"]])
    assert {(w.name, w.kind, w.owner.username) for w in workspaces} == {
        ("a red cube", "studio", CLI_USER),
        ("a green cone", "studio", CLI_USER),
    }


@renders
def test_workspace_option_continues_that_scene(tmp_path, capsys):
    _, first = run("a red cube", tmp_path / "first")
    workspace = first["workspace"]
    assert f"--workspace {workspace}" in capsys.readouterr().out  # how to continue is shown

    glb, second = run("make it blue", tmp_path / "second", "--workspace", str(workspace))
    assert second["workspace"] == workspace
    assert glb.objects("cube") == ["cube"]  # the same cube, recoloured, not a second one
    assert glb.materials["cube"]["baseColorFactor"][:3] == colour_of("blue")
    assert Run.objects.filter(workspace_id=workspace).count() == 2
    assert Workspace.objects.filter(kind="studio").count() == 1


@pytest.mark.parametrize(
    ("workspace_id", "message"),
    [
        ("999999", "there is no workspace 999999"),
        ("finance", "is a finance workspace, not a studio one"),
        ("abc", "--workspace takes a workspace id \\(a whole number\\), not 'abc'"),
        ("1.5", "--workspace takes a workspace id"),
    ],
)
def test_a_bad_workspace_id_is_a_clear_error(
    workspace_id, message, alice, make_workspace, tmp_path
):
    if workspace_id == "finance":
        workspace_id = str(make_workspace(alice, name="Books", kind="finance").pk)
    with pytest.raises(CommandError, match=message):
        call_command(
            "create_scene", "make it blue", "--out", str(tmp_path), "--workspace", workspace_id
        )
    assert not Run.objects.exists()
    assert not (tmp_path / "report.json").exists()


def test_a_refused_request_leaves_no_new_workspace(tmp_path):
    with pytest.raises(CommandError, match="rounds"):
        call_command("create_scene", "a red cube", "--out", str(tmp_path), "--rounds", "99")
    assert not Workspace.objects.exists()
