"""A round whose objects were measured before unchanged reuses their physics reports, and says so;
any physical change (a move, a material, a physics setting, the ground) measures again."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trimesh

from studio.physics.memo import forget_measurements, measured_physics, physics_key
from studio.planner.builder import build_scene
from studio.planner.grammar import parse_request
from studio.refinement import refine_round
from studio.scene.geometry import world_mesh
from studio.scene.model import Material, Physics, Scene, SceneObject, Shape, Transform


@pytest.fixture(autouse=True)
def clean_memo():
    forget_measurements()
    yield
    forget_measurements()


def table_scene() -> Scene:
    return build_scene(parse_request("a ball on a wooden table, warm light from the left")).scene


def counting(calls: list[str]):
    def mesh(obj: SceneObject) -> trimesh.Trimesh:
        calls.append(obj.name)
        return world_mesh(obj)

    return mesh


def test_same_objects_under_other_lights_and_camera_reuse_the_reports():
    scene = table_scene()
    calls: list[str] = []
    first, reused = measured_physics(scene, counting(calls))
    assert not reused and calls
    relit = replace(
        scene,
        lights=tuple(replace(light, intensity=light.intensity * 2) for light in scene.lights),
        camera=replace(scene.camera, position=(5.0, 3.0, 5.0)),
        background=(0.2, 0.2, 0.2),
    )
    calls.clear()
    second, reused = measured_physics(relit, counting(calls))
    assert reused and calls == []  # nothing was built or simulated again
    assert {name: report.to_dict() for name, report in second.items()} == {
        name: report.to_dict() for name, report in first.items()
    }


@pytest.mark.parametrize(
    "change",
    ["moved", "material", "physics", "ground", "renamed"],
)
def test_any_physical_change_is_measured_again(change):
    scene = table_scene()
    measured_physics(scene, world_mesh)
    ball = scene.object("ball")
    if change == "moved":
        x, y, z = ball.transform.translation
        other = scene.with_object(
            replace(ball, transform=replace(ball.transform, translation=(x + 0.01, y, z)))
        )
    elif change == "material":
        other = scene.with_object(replace(ball, material=Material(name="steel")))
    elif change == "physics":
        other = scene.with_object(replace(ball, physics=replace(ball.physics, friction=0.1)))
    elif change == "ground":
        other = replace(scene, ground=False)
    else:
        other = replace(scene, objects=tuple(replace(o, name=o.name + "-x") for o in scene.objects))
    assert physics_key(other) != physics_key(scene)
    _, reused = measured_physics(other, world_mesh)
    assert not reused


def test_a_steel_ball_weighs_what_steel_weighs_not_the_cached_default():
    """At the default density the material decides the mass: a reused report would carry the
    old one."""
    scene = table_scene()
    ball = scene.object("ball")
    plain = replace(
        ball, material=Material(), physics=replace(ball.physics, density=Physics().density)
    )
    scene = scene.with_object(plain)
    before, _ = measured_physics(scene, world_mesh)
    steel, reused = measured_physics(
        scene.with_object(replace(plain, material=Material(name="steel"))), world_mesh
    )
    assert not reused
    plain_mass = before["stability"].item("ball").mass_kg
    steel_mass = steel["stability"].item("ball").mass_kg
    assert steel_mass > 10 * plain_mass


def test_changing_a_returned_report_does_not_change_the_next_one():
    scene = table_scene()
    reports, _ = measured_physics(scene, world_mesh)
    reports["stability"].reasons.append("scribbled on")
    reports["support"].passed = False
    again, reused = measured_physics(scene, world_mesh)
    assert reused
    assert "scribbled on" not in again["stability"].reasons
    assert again["support"].passed


def test_a_scene_with_an_uploaded_mesh_is_always_measured():
    scene = Scene(
        objects=(
            SceneObject(
                "duck",
                Shape("mesh", {"ref": "artifact:1"}),
                Transform(translation=(0.0, 0.15, 0.0)),
                physics=Physics(dynamic=True),
            ),
        )
    )
    assert physics_key(scene) is None
    box = trimesh.creation.box((0.3, 0.3, 0.3))

    def mesh(obj: SceneObject) -> trimesh.Trimesh:
        return world_mesh(obj, resolve_mesh=lambda ref: box.copy())

    assert not measured_physics(scene, mesh)[1]
    assert not measured_physics(scene, mesh)[1]


@pytest.mark.usefixtures("gl_context")
def test_the_round_after_a_camera_move_says_its_physics_was_reused():
    scene = table_scene()
    first = refine_round(scene, 1, width=320, height=240)
    assert "physics_reused" not in first.summary()
    reframed = replace(scene, camera=replace(scene.camera, yfov_deg=scene.camera.yfov_deg + 5))
    second = refine_round(reframed, 2, width=320, height=240)
    assert second.summary()["physics_reused"] is True
    physics = ("interpenetration", "support", "stability", "scale_sanity")
    assert {name: second.checks[name] for name in physics} == {
        name: first.checks[name] for name in physics
    }
