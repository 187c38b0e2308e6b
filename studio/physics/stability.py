"""Does the scene stay put? A rigid-body simulation of it with MuJoCo.

`stability` builds the scene's MuJoCo model (`mjcf`: collision shapes, masses, friction), runs
it at rest (`rest_run`) and, when nothing moved, nudged once per seed (`nudge`), and reports
every dynamic object's motion and verdict here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import mujoco  # type: ignore[import-untyped]
import numpy as np

from studio.physics.common import Report, WorldMesh, cached
from studio.physics.mjcf import TIMESTEP, build_mjcf, collision_geom, object_mass
from studio.physics.nudge import PERTURB_SECONDS, PERTURB_SEEDS, PUSH_SPEED, TILT_SPEED, perturb
from studio.physics.rest_run import judge_at_rest, simulate
from studio.scene.model import Scene


@dataclass
class Motion:
    name: str
    verdict: str
    """stable | falls | topples | rolls | rotates | slides | drops | rises | unstable"""
    displacement_m: float
    displacement: list[float]
    rotation_deg: float
    drop_m: float
    """How far the object's lowest point went down (negative: up)."""
    mass_kg: float
    collision: str
    """The shape simulated: box, sphere, convex hull or thin box."""
    reason: str
    nudged: int | None = None
    """The perturbation seed that made it fall or topple; None when it moved at rest already
    (or did not move at all)."""


@dataclass(kw_only=True)
class StabilityReport(Report):
    check: str = "stability"
    unit: str = "m"
    seconds: float = 1.5
    timestep: float = TIMESTEP
    steps: int = 0
    """Steps simulated at rest: fewer than seconds / timestep when the scene came to rest early."""
    tolerance_m: float = 0.01
    tolerance_deg: float = 5.0
    perturb_seeds: list[int] = field(default_factory=list)
    """The seeds of the nudged runs (none when the scene already moved at rest)."""
    push_speed: float = PUSH_SPEED
    tilt_speed: float = TILT_SPEED
    perturb_seconds: float = PERTURB_SECONDS
    objects: list[Motion] = field(default_factory=list)
    """Every dynamic object, the ones that moved first."""
    static: list[str] = field(default_factory=list)
    build_s: float = 0.0
    simulate_s: float = 0.0
    perturb_s: float = 0.0

    def item(self, name: str) -> Motion:
        """The result for the object called `name` (KeyError when it was not checked)."""
        for entry in self.objects:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def flagged(self) -> list[Motion]:
        return [m for m in self.objects if m.verdict != "stable"]


def stability(
    scene: Scene,
    world_mesh: WorldMesh,
    seconds: float = 1.5,
    tolerance_m: float = 0.01,
    tolerance_deg: float = 5.0,
    perturb_seeds: tuple[int, ...] = PERTURB_SEEDS,
) -> StabilityReport:
    """Simulate `seconds` and flag every dynamic object that moves or turns beyond tolerance;
    when nothing does, nudge the scene once per seed and flag what falls or topples."""
    started = time.perf_counter()
    world_mesh = cached(world_mesh)
    objects = scene.objects
    dynamic = [i for i, obj in enumerate(objects) if obj.physics.dynamic]
    static = [obj.name for obj in objects if not obj.physics.dynamic]
    notes: list[str] = []
    if any(obj.physics.collision == "mesh" for obj in objects):
        notes.append(
            "mesh collisions are simulated as convex hulls (MuJoCo collides convex shapes)"
        )
    if not dynamic:
        return StabilityReport(
            passed=True,
            value=0.0,
            summary="no dynamic objects: nothing can move",
            notes=notes,
            seconds=seconds,
            tolerance_m=tolerance_m,
            tolerance_deg=tolerance_deg,
            static=static,
            elapsed_s=time.perf_counter() - started,
        )
    geoms = [collision_geom(obj, world_mesh(obj)) for obj in objects]
    masses = [object_mass(obj, geom.volume) for obj, geom in zip(objects, geoms, strict=True)]
    for obj, geom in zip(objects, geoms, strict=True):
        if geom.kind == "thin box":
            notes.append(f"{obj.name} encloses no volume; it is simulated as a thin box")
    model = mujoco.MjModel.from_xml_string(build_mjcf(scene, geoms, masses))
    data = mujoco.MjData(model)
    built = time.perf_counter()
    steps = simulate(model, data, max(1, round(seconds / TIMESTEP)))
    simulated = time.perf_counter()

    bodies: dict[int, tuple[int, int]] = {}
    for index in dynamic:
        body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, f"b{index}")
        joint = model.body_jntadr[body]
        bodies[index] = (int(model.jnt_qposadr[joint]), int(model.jnt_dofadr[joint]))
    motions: list[Motion] = []
    for index in dynamic:
        address = bodies[index][0]
        position = np.array(data.qpos[address : address + 3], dtype=np.float64)
        quat = np.array(data.qpos[address + 3 : address + 7], dtype=np.float64)
        name = objects[index].name
        verdict, displacement, rotation, drop, reason = judge_at_rest(
            name, geoms[index], position, quat, seconds, tolerance_m, tolerance_deg
        )
        motions.append(
            Motion(
                name=name,
                verdict=verdict,
                displacement_m=float(np.linalg.norm(displacement)),
                displacement=[round(float(v), 6) for v in displacement],
                rotation_deg=rotation,
                drop_m=drop,
                mass_kg=masses[index],
                collision=geoms[index].kind,
                reason=reason,
            )
        )
    moved = [m for m in motions if m.verdict != "stable"]
    seeds = tuple(perturb_seeds) if not moved else ()
    if seeds:
        nudged = perturb(model, data, objects, geoms, bodies, seeds, PERTURB_SECONDS)
        for slot, index in enumerate(dynamic):
            if index in nudged:
                seed, verdict, drop, tilt, reason = nudged[index]
                motions[slot] = replace(
                    motions[slot],
                    verdict=verdict,
                    drop_m=drop,
                    rotation_deg=max(motions[slot].rotation_deg, tilt),
                    reason=reason,
                    nudged=seed,
                )
        moved = [m for m in motions if m.verdict != "stable"]
    perturbed = time.perf_counter()
    motions.sort(key=lambda m: (m.verdict == "stable", -m.displacement_m))
    value = max((m.displacement_m for m in motions), default=0.0)
    return StabilityReport(
        passed=not moved,
        value=value,
        summary=(
            f"all {len(motions)} dynamic objects stay put for {seconds:g} s"
            + (f", and when nudged ({len(seeds)} seeds)" if seeds else "")
            if not moved
            else f"{len(moved)} of {len(motions)} dynamic objects move in {seconds:g} s"
        ),
        reasons=[m.reason for m in motions if m.verdict != "stable"],
        notes=notes,
        seconds=seconds,
        steps=steps,
        tolerance_m=tolerance_m,
        tolerance_deg=tolerance_deg,
        perturb_seeds=list(seeds),
        objects=motions,
        static=static,
        build_s=built - started,
        simulate_s=simulated - built,
        perturb_s=perturbed - simulated,
        elapsed_s=time.perf_counter() - started,
    )
