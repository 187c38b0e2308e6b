"""One measured refinement round: render, run every check, and adjust what failed.

A round measures the scene it is given (exposure and framing on a 1024x768 render with
segmentation; interpenetration, support, stability and scale on the meshes) and proposes the
scene for the next round, with a sentence for every change. The run stops when a round passes
every check or its round budget ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import trimesh

from studio.physics.common import Report, WorldMesh, cached
from studio.physics.fixes import (
    drop_to_support,
    fix_collision_shapes,
    rescale_to_typical,
    separate_overlaps,
    stabilise,
)
from studio.physics.memo import measured_physics
from studio.rendering.adjust import fix_exposure, fix_framing
from studio.rendering.checks import ExposureReport, FramingReport, exposure, framing
from studio.rendering.renderer import render
from studio.rendering.result import png, thumbnail
from studio.scene.geometry import object_matrix, object_mesh, world_mesh
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
    timings: dict[str, float] = field(default_factory=dict)
    """Wall seconds: "render" (the image, exposure and framing, on the calling thread), "physics"
    (the four physics checks, alongside it) and "measure" (both and the encoded images);
    "physics_reused" is 1.0 when the objects were measured before unchanged and their physics
    reports were reused (`studio.physics.memo`), else 0.0."""

    @property
    def passed(self) -> bool:
        return all(check["passed"] for check in self.checks.values())

    def summary(self) -> dict[str, Any]:
        summary = {
            "round": self.number,
            "passed": self.passed,
            "checks": self.checks,
            "changes": self.changes,
        }
        if self.timings.get("physics_reused"):
            # The objects are the ones an earlier measurement simulated: its reports stand.
            summary["physics_reused"] = True
        return summary


@dataclass(frozen=True)
class Measures:
    """The raw measurements behind a round's checks, which the adjustments read."""

    light: ExposureReport
    frame: FramingReport
    physics: dict[str, Report]


def measure_round(
    scene: Scene,
    number: int,
    *,
    resolve_mesh: MeshResolver | None = None,
    width: int = 1024,
    height: int = 768,
    world: WorldMesh | None = None,
) -> tuple[RoundResult, Measures]:
    """Render `scene` and run every check on it, changing nothing (a round's first half; user
    edits are measured the same way). Raises RenderUnavailable where no GL context exists.
    `world`, a `studio.physics.cached` world-mesh callable, keeps the meshes the checks build
    for whoever passed it (the round's adjustments)."""

    def mesh_for(obj: SceneObject) -> tuple[trimesh.Trimesh, Any]:
        mesh = object_mesh(obj, resolve_mesh=resolve_mesh, shared=True)  # only read
        return mesh, object_matrix(obj.transform)

    if world is None:
        world = _world_meshes(resolve_mesh)

    # The physics checks need no image: they run on a worker thread while this one renders
    # (the GL context belongs to this thread; the rasteriser and MuJoCo work outside Python).
    # The image is encoded on another while this one checks it (zlib works outside Python too).
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="round") as pool:
        measuring = pool.submit(_timed, measured_physics, scene, world)
        image = render(scene, mesh_for=mesh_for, width=width, height=height)
        encoding = pool.submit(lambda: (png(image), thumbnail(image)))
        light = exposure(image)
        frame = framing(image, scene, min_pixels=MIN_OBJECT_PIXELS)
        rendered = time.perf_counter() - started
        (physics, reused), physics_s = measuring.result()
        encoded = encoding.result()
    reports: dict[str, dict[str, Any]] = {
        "exposure": light.to_dict(),
        "framing": frame.to_dict(),
        **{name: report.to_dict() for name, report in physics.items()},
    }
    checks = {
        "exposure": _check(light.passed, light.mean_luma.value, list(light.problems)),
        "framing": _check(frame.passed, len(frame.failed), list(frame.problems)),
        **{
            name: _check(report.passed, report.value, list(report.reasons), report.warnings)
            for name, report in physics.items()
        },
    }
    result = RoundResult(number, scene, scene, checks, reports)
    result.png, result.thumbnail = encoded
    result.timings = {
        "render": rendered,
        "physics": physics_s,
        "physics_reused": float(reused),
        "measure": time.perf_counter() - started,
    }
    return result, Measures(light, frame, physics)


def _timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started


def refine_round(
    scene: Scene,
    number: int,
    *,
    resolve_mesh: MeshResolver | None = None,
    width: int = 1024,
    height: int = 768,
) -> RoundResult:
    """Measure `scene` and propose the next one (the same scene when everything passed)."""
    # One mesh cache for the checks and the adjustments: an object they leave alone is not
    # meshed again to frame the camera (a hundred objects cost about 0.05 s).
    world = _world_meshes(resolve_mesh)
    result, measures = measure_round(
        scene, number, resolve_mesh=resolve_mesh, width=width, height=height, world=world
    )
    if result.passed:
        return result
    result.next_scene = _adjusted(
        scene, result, measures.physics, measures.light, measures.frame, world
    )
    return result


def _world_meshes(resolve_mesh: MeshResolver | None) -> WorldMesh:
    """Objects' world meshes, each built once per object (by identity) for the caller."""
    return cached(lambda obj: world_mesh(obj, resolve_mesh=resolve_mesh))


def _check(
    passed: bool, value: Any, reasons: list[str], warnings: list[str] | None = None
) -> dict[str, Any]:
    check = {"passed": bool(passed), "value": value, "reasons": reasons}
    return check | {"warnings": list(warnings)} if warnings else check


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
        # Through `world`, which resolves uploaded meshes (world_bounds alone would not).
        boxes = [world(obj).bounds for obj in scene.objects]
        bounds = (
            (np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0))
            if boxes
            else None
        )
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
