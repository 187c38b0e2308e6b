"""One measured refinement round: render, run every check, and adjust what failed.

A round measures the scene it is given (exposure and framing on a 1024x768 render with
segmentation; interpenetration, support, stability and scale on the meshes) and proposes the
scene for the next round, with a sentence for every change. The run stops when a round passes
every check or its round budget ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trimesh

from studio.physics import run_checks
from studio.physics.fixes import (
    drop_to_support,
    fix_collision_shapes,
    rescale_to_typical,
    separate_overlaps,
    stabilise,
)
from studio.rendering.adjust import fix_exposure, fix_framing
from studio.rendering.checks import exposure, framing
from studio.rendering.renderer import png, render, thumbnail
from studio.scene.geometry import object_matrix, object_mesh, world_bounds, world_mesh
from studio.scene.model import Scene, SceneObject

MeshResolver = Callable[[str], trimesh.Trimesh]
MIN_OBJECT_PIXELS = 400
"""An object needs about 20 x 20 pixels of the 1024 x 768 frame to be legible."""
CHECKS = ("exposure", "framing", "interpenetration", "support", "stability", "scale_sanity")


@dataclass
class RoundResult:
    number: int
    measured: Scene
    next_scene: Scene
    checks: dict[str, dict[str, Any]]
    """name -> {"passed", "value", "reasons"}: the contract of report.json."""
    reports: dict[str, dict[str, Any]]
    changes: list[str] = field(default_factory=list)
    png: bytes = b""
    thumbnail: bytes = b""

    @property
    def passed(self) -> bool:
        return all(check["passed"] for check in self.checks.values())

    def summary(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "passed": self.passed,
            "checks": self.checks,
            "changes": self.changes,
        }


def refine_round(
    scene: Scene,
    number: int,
    *,
    resolve_mesh: MeshResolver | None = None,
    width: int = 1024,
    height: int = 768,
) -> RoundResult:
    """Measure `scene` and propose the next one (the same scene when everything passed)."""

    def mesh_for(obj: SceneObject) -> tuple[trimesh.Trimesh, Any]:
        return object_mesh(obj, resolve_mesh=resolve_mesh), object_matrix(obj.transform)

    def world(obj: SceneObject) -> trimesh.Trimesh:
        return world_mesh(obj, resolve_mesh=resolve_mesh)

    image = render(scene, mesh_for=mesh_for, width=width, height=height)
    light = exposure(image)
    frame = framing(image, scene, min_pixels=MIN_OBJECT_PIXELS)
    physics = run_checks(scene, world)
    reports: dict[str, dict[str, Any]] = {
        "exposure": light.to_dict(),
        "framing": frame.to_dict(),
        **{name: report.to_dict() for name, report in physics.items()},
    }
    checks = {
        "exposure": _check(light.passed, light.mean_luma.value, list(light.problems)),
        "framing": _check(frame.passed, len(frame.failed), list(frame.problems)),
        **{
            name: _check(report.passed, report.value, list(report.reasons))
            for name, report in physics.items()
        },
    }
    result = RoundResult(number, scene, scene, checks, reports)
    result.png, result.thumbnail = png(image), thumbnail(image)
    if result.passed:
        return result
    result.next_scene = _adjusted(scene, result, physics, light, frame, world)
    return result


def _check(passed: bool, value: Any, reasons: list[str]) -> dict[str, Any]:
    return {"passed": bool(passed), "value": value, "reasons": reasons}


def _adjusted(
    scene: Scene,
    result: RoundResult,
    physics: dict[str, Any],
    light: Any,
    frame: Any,
    world: Callable[[SceneObject], trimesh.Trimesh],
) -> Scene:
    """Physics first (it moves things), then the camera to frame where things now are, then
    the lights for the measured exposure."""
    changes = result.changes
    if not physics["scale_sanity"].passed:
        scene, made = rescale_to_typical(scene, physics["scale_sanity"], world)
        changes += made
    if not physics["interpenetration"].passed:
        scene, made = separate_overlaps(scene, physics["interpenetration"], world)
        changes += made
    if not physics["support"].passed:
        scene, made = drop_to_support(scene, physics["support"], world)
        changes += made
    if not physics["stability"].passed:
        scene, made = fix_collision_shapes(scene, world, physics["stability"])
        changes += made
        scene, made = stabilise(scene, physics["stability"], world)
        changes += made
    if not frame.passed or changes:
        bounds = world_bounds(scene)
        if bounds is not None:
            moved = fix_framing(scene, frame, (tuple(bounds[0]), tuple(bounds[1])))
            if moved.camera != scene.camera:
                changes.append(f"camera moved to frame {', '.join(frame.failed) or 'the scene'}")
            scene = moved
    if not light.passed:
        scene = fix_exposure(scene, light)
        measured = light.mean_luma.value
        changes.append(
            "lights scaled for exposure"
            + (f" (mean luminance was {measured:.2f})" if measured is not None else "")
        )
    return scene
