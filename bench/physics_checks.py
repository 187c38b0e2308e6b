"""Timings of the physics checks (studio.physics) on scenes of 20 and 100 objects.

The scenes are grids of dynamic objects resting on the ground, 1 m apart: crates (0.4 m), balls
(radius 0.15 m) and barrels (cylinders, radius 0.3 m, 0.9 m tall) in turn, every fourth crate
carrying a second, smaller crate stacked exactly on it. Everything rests, nothing overlaps, so
every check passes (the script says so, and exits 1 otherwise): the figures are the cost of a clean
scene, where the narrow phase of `interpenetration` has nothing to do and `stability` simulates
every body for the full 1.5 s (750 steps of 2 ms).

World meshes come from trimesh primitives built here (`--meshes primitives`, the default: UV
spheres 24 x 24, cylinders with 32 sections), or from the studio's own builder
(`--meshes scene`: studio.scene.geometry.world_mesh). They are built once, outside the timings
(the time is printed), and shared by all checks through `studio.physics.cached`, as `run_checks`
does. Each check runs --repeat times per scene after one warm-up run; the median, min and max are
printed in ms, with the stability check split into building the MuJoCo model and simulating.

    uv run python bench/physics_checks.py
    uv run python bench/physics_checks.py --sizes 20 100 200 --repeat 7 --meshes scene
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import trimesh

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from studio.physics import (  # noqa: E402
    cached,
    interpenetration,
    scale_sanity,
    stability,
    support,
)
from studio.physics.common import rotation_matrix  # noqa: E402
from studio.scene.model import (  # noqa: E402
    Physics,
    Scene,
    SceneObject,
    Shape,
    ShapeKind,
    Transform,
)

GOAL_20_S = 1.0
CHECKS: dict[str, Callable[..., Any]] = {
    "interpenetration": interpenetration,
    "support": support,
    "stability": stability,
    "scale_sanity": scale_sanity,
}


def _object(
    name: str, kind: ShapeKind, at: tuple[float, float, float], category: str, **params: Any
) -> SceneObject:
    return SceneObject(
        name,
        Shape(kind, params),
        Transform(translation=at),
        physics=Physics(dynamic=True),
        category=category,
    )


def grid_scene(count: int, spacing: float = 1.0) -> Scene:
    objects: list[SceneObject] = []
    side = max(1, int(np.ceil(np.sqrt(count))))
    index = 0
    while len(objects) < count:
        x = (index % side - side / 2) * spacing
        z = (index // side - side / 2) * spacing
        if index % 3 == 0:
            objects.append(_object(f"crate-{index}", "box", (x, 0.2, z), "crate", size=[0.4] * 3))
            if index % 4 == 0 and len(objects) < count:
                top = _object(f"crate-{index}-top", "box", (x, 0.55, z), "crate", size=[0.3] * 3)
                objects.append(top)
        elif index % 3 == 1:
            objects.append(_object(f"ball-{index}", "sphere", (x, 0.15, z), "ball", radius=0.15))
        else:
            objects.append(
                _object(
                    f"barrel-{index}", "cylinder", (x, 0.45, z), "barrel", radius=0.3, height=0.9
                )
            )
        index += 1
    return Scene(objects=tuple(objects))


_ALONG_Y = trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0])


def primitive_mesh(obj: SceneObject) -> trimesh.Trimesh:
    """The object's world mesh from trimesh primitives (Y-up; spheres with poles on Y)."""
    p = obj.shape.params
    if obj.shape.kind == "box":
        mesh = trimesh.creation.box(extents=p["size"])
    elif obj.shape.kind == "sphere":
        mesh = trimesh.creation.uv_sphere(radius=p["radius"], count=[24, 24])
        mesh.apply_transform(_ALONG_Y)
    elif obj.shape.kind == "cylinder":
        mesh = trimesh.creation.cylinder(radius=p["radius"], height=p["height"], sections=32)
        mesh.apply_transform(_ALONG_Y)
    else:
        raise ValueError(obj.shape.kind)
    matrix = np.eye(4)
    matrix[:3, :3] = rotation_matrix(obj.transform.rotation) * np.asarray(obj.transform.scale)
    matrix[:3, 3] = obj.transform.translation
    mesh.apply_transform(matrix)
    return mesh


def mesh_source(name: str) -> Callable[[SceneObject], trimesh.Trimesh]:
    if name == "primitives":
        return primitive_mesh
    from studio.scene.geometry import world_mesh  # the studio's builder, when asked for

    return world_mesh


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--meshes", choices=["primitives", "scene"], default="primitives")
    args = parser.parse_args(argv)

    import mujoco  # type: ignore[import-untyped]

    print(
        f"python {platform.python_version()}, mujoco {mujoco.__version__}, trimesh "
        f"{trimesh.__version__}, numpy {np.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs"
    )
    print(
        f"meshes: {args.meshes}; repeats: {args.repeat} (+1 warm-up); stability: 1.5 s at "
        "2 ms steps; tolerances: defaults"
    )
    failures = 0
    for size in args.sizes:
        scene = grid_scene(size)
        kinds = {
            k: sum(o.shape.kind == k for o in scene.objects) for k in ("box", "sphere", "cylinder")
        }
        meshes = cached(mesh_source(args.meshes))
        started = time.perf_counter()
        faces = sum(len(meshes(obj).faces) for obj in scene.objects)
        built = time.perf_counter() - started
        print(
            f"\n{size} objects ({kinds['box']} boxes, {kinds['sphere']} spheres, "
            f"{kinds['cylinder']} cylinders; {faces} triangles; meshes built in "
            f"{built * 1000:.0f} ms)"
        )
        timings: dict[str, list[float]] = {name: [] for name in CHECKS}
        timings["  stability: build model"] = []
        timings["  stability: simulate"] = []
        totals: list[float] = []
        for repetition in range(args.repeat + 1):
            total = 0.0
            for name, check in CHECKS.items():
                began = time.perf_counter()
                report = check(scene, meshes)
                elapsed = time.perf_counter() - began
                total += elapsed
                if repetition == 0:
                    if not report.passed:
                        failures += 1
                        print(f"  UNEXPECTED: {name} failed: {report.reasons[:3]}")
                    continue
                timings[name].append(elapsed)
                if name == "stability":
                    timings["  stability: build model"].append(report.build_s)
                    timings["  stability: simulate"].append(report.simulate_s)
            if repetition:
                totals.append(total)
        timings["all four"] = totals
        print(f"  {'check':<26} {'median':>8} {'min':>8} {'max':>8}   (ms)")
        for name, values in timings.items():
            ms = [v * 1000 for v in values]
            print(f"  {name:<26} {statistics.median(ms):8.1f} {min(ms):8.1f} {max(ms):8.1f}")
        if size == 20:
            median = statistics.median(totals)
            verdict = "met" if median < GOAL_20_S else "MISSED"
            print(f"  goal: all four checks < {GOAL_20_S:g} s at 20 objects: {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
