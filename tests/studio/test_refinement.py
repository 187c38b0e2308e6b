"""Each check fails on a scene built to break it, and passes after refinement rounds fix it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studio.planner.builder import build_scene
from studio.planner.grammar import parse_request
from studio.refinement import refine_round
from studio.scene.model import Scene, Transform

pytestmark = pytest.mark.usefixtures("gl_context")


def scene_for(text: str) -> Scene:
    return build_scene(parse_request(text)).scene


def moved(scene: Scene, name: str, translation=None, rotation=None) -> Scene:
    item = scene.object(name)
    transform = Transform(
        translation=translation or item.transform.translation,
        rotation=rotation or item.transform.rotation,
        scale=item.transform.scale,
    )
    return scene.with_object(replace(item, transform=transform))


def refine(scene: Scene, rounds: int = 4):
    results = []
    for number in range(1, rounds + 1):
        result = refine_round(scene, number, width=320, height=240)
        results.append(result)
        if result.passed:
            break
        scene = result.next_scene
    return results


def floating_ball():
    scene = scene_for("a ball on a table")
    x, y, z = scene.object("ball").transform.translation
    return moved(scene, "ball", (x, y + 0.3, z))


def sunk_crate():
    scene = scene_for("a crate")
    x, y, z = scene.object("crate").transform.translation
    return moved(scene, "crate", (x, y - 0.1, z))


def overlapping_crates():
    scene = scene_for("two crates")
    x, y, z = scene.object("crate-1").transform.translation
    return moved(scene, "crate-2", (x + 0.2, y, z))


def toppling_pillar():
    scene = scene_for("a cylinder 1 m tall")
    item = scene.object("cylinder")
    x, _, z = item.transform.translation
    return moved(scene, "cylinder", (x, 0.55, z), (0.0, 0.0, 25.0))


def giant_cup():
    # A cup the person never sized (a model's slip): the scale fixer may bring it back.
    scene = scene_for("a cup")
    cup = scene.object("cup")
    assert not cup.size_stated
    return scene.with_object(replace(cup, transform=replace(cup.transform, scale=(15.0,) * 3)))


def dark_scene():
    scene = scene_for("a crate next to a barrel")
    lights = tuple(replace(light, intensity=light.intensity / 60) for light in scene.lights)
    return replace(scene, lights=lights)


def camera_too_close():
    scene = scene_for("a crate next to a barrel")
    return replace(scene, camera=replace(scene.camera, position=(0.3, 0.4, 0.9)))


@pytest.mark.parametrize(
    ("build", "check"),
    [
        (floating_ball, "support"),
        (sunk_crate, "support"),
        (overlapping_crates, "interpenetration"),
        (toppling_pillar, "stability"),
        (giant_cup, "scale_sanity"),
        (dark_scene, "exposure"),
        (camera_too_close, "framing"),
    ],
    ids=["floats", "sinks", "overlaps", "topples", "too-big", "too-dark", "cut-by-frame"],
)
def test_a_broken_scene_fails_its_check_then_refinement_fixes_it(build, check):
    results = refine(build())
    first, last = results[0], results[-1]
    assert not first.checks[check]["passed"], first.checks[check]
    assert first.checks[check]["reasons"] or check in ("exposure", "framing")
    assert last.passed, {name: c for name, c in last.checks.items() if not c["passed"]}
    assert any(result.changes for result in results[:-1])


def test_a_passing_scene_is_left_as_it_is():
    scene = scene_for("a red metal sphere of 50 cm resting on a wooden table")
    result = refine_round(scene, 1, width=320, height=240)
    assert result.passed and result.next_scene == scene and result.changes == []
    assert result.png.startswith(b"\x89PNG") and result.thumbnail.startswith(b"\x89PNG")


def test_a_size_the_person_stated_is_kept_and_only_warned_about():
    scene = scene_for("a 3 m tall cup")
    assert scene.object("cup").size_stated
    result = refine_round(scene, 1, width=320, height=240)
    scale = result.checks["scale_sanity"]
    assert scale["passed"] and scale["reasons"] == []
    assert scale["warnings"][0].startswith("cup is 3.00 m tall; a cup is usually 0.04-0.2 m tall")
    assert scale["warnings"][0].endswith("kept at the size you asked for")
    assert not any("scaled" in change for change in result.changes)
    assert result.next_scene.object("cup").transform.scale == (1.0, 1.0, 1.0)


def test_a_round_that_refits_the_camera_reads_uploaded_meshes_through_the_resolver():
    import trimesh

    from studio.scene.model import Camera, SceneObject, Shape

    duck = SceneObject(
        name="duck",
        shape=Shape("mesh", {"ref": "mesh:7", "scale": 1.0}),
        transform=Transform(translation=(0.0, 0.15, 0.0)),
        category="duck",
    )
    away = Camera(position=(30.0, 2.0, 30.0), target=(60.0, 2.0, 60.0))
    scene = Scene(objects=(duck,), camera=away)
    result = refine_round(scene, 1, resolve_mesh=lambda ref: trimesh.creation.box((0.3, 0.3, 0.3)))
    assert not result.checks["framing"]["passed"]
    assert result.next_scene.camera != away
    assert any("camera moved" in change for change in result.changes)
