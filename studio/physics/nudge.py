"""The nudged runs: does what rests also survive a small push and tilt? (for `stability`)

Resting is not enough: a ball exactly on the tip of a cone, or a tower of cubes on one, stays
put in a perfect simulation. So every scene that rests is also nudged, once per seed in
`PERTURB_SEEDS` (fixed, so the check is deterministic): every dynamic object starts with a small
push (`PUSH_SPEED` m/s in a random horizontal direction) and a small tilt (its centre moving at
`TILT_SPEED` m/s about a random horizontal axis through its lowest point), and the scene runs
`PERTURB_SECONDS`. A stable scene absorbs that (a crate rocks back, a ball on a table rolls a few
centimetres); an object balanced on a point or an edge falls (its lowest point drops more than
`FALL_M`) or topples (it turns past `TOPPLE_DEG` and its centre drops more than `SINK_M`), and is
flagged with the seed that showed it. The seeds run on their own `MjData` of the same compiled
model, side by side on threads of their own (MuJoCo releases the GIL while it steps). A nudged run
stops once everything is at rest again (see `rest_run.simulate`), so a steady scene costs a
fraction of PERTURB_SECONDS.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import mujoco  # type: ignore[import-untyped]
import numpy as np

from studio.physics.common import FloatArray, fmt
from studio.physics.mjcf import CollisionGeom
from studio.physics.rest_run import quat_matrix, simulate
from studio.scene.model import SceneObject

PERTURB_SEEDS = (1, 2, 3)
PUSH_SPEED = 0.05
"""m/s: a push a hand barely notices; a ball on a table rolls about 3 cm in PERTURB_SECONDS."""
TILT_SPEED = 0.1
"""m/s: how fast a tilt about its lowest point first moves an object's centre (so a tall pillar
turns slower than a crate: the nudge is the same hand, not the same angle). It lifts a 0.5 m
crate's edge by about a millimetre, rocks a 2 m pillar on a 0.2 m base by under a degree, and
tips a tower balanced on a cone's tip past TOPPLE_DEG within PERTURB_SECONDS."""
PERTURB_SECONDS = 0.8
NUDGE_TIMESTEP = 0.008
"""The nudged runs look for coarse motions (a 5 cm fall, a 15° tip), which 8 ms steps resolve
(MuJoCo's default contacts, time constant 0.02 s, want steps of at most half that): balls on a
cone's tip or on another ball, a pencil on its point, a crate on its edge and a plank across a
post fall as they do at 4 ms, and towers, poles and piles stand, at half the steps."""
NUDGE_SETTLE_S = 0.15
NUDGE_STILL = (0.005, 0.05)
NUDGE_CHECK_S = 0.024
"""A nudged run may stop once every free body is slower than NUDGE_STILL (m/s, rad/s) at three
checks NUDGE_CHECK_S apart (three steps), after NUDGE_SETTLE_S: it looks for a 5 cm fall or a
15° tip, and what a nudge tips over is still moving then and speeds up until it has fallen (a
ball rolling off a curved top, which barely goes down at first, is caught by its speeding up; a
pile of crates that absorbed the nudge is that still after about 0.2 s; the run at rest keeps
its stricter test)."""
NUDGE_SOLVER_TOLERANCES = (1e-4, 0.1)
"""The constraint solver's tolerance and line-search tolerance in the nudged runs (MuJoCo's
defaults are 1e-8 and 0.01): about 6 conjugate-gradient iterations a step instead of 30 on a
pushed pile of a hundred crates, a third less time, and every body within 0.3 mm of where the
default tolerances leave it after the run (it looks for a 5 cm fall or a 15° tip). The run at
rest keeps the defaults: it judges 1 cm and 5°."""
FALL_M = 0.05
TOPPLE_DEG = 15.0
SINK_M = 0.01


def _nudged_qpos(
    model: Any,
    rest: Any,
    seed: int,
    bodies: list[tuple[int, float]],
    seconds: float,
    rolling: list[int],
) -> FloatArray:
    """The scene's positions after `seconds` from where the run at rest left it (`rest`, its
    `MjData`: every contact settled, and the solver's last answer as its first guess), every
    free body (its velocity address and the height of its centre over its lowest point) given a
    push and a tilt drawn from `seed`. The tilt turns the body about its lowest point, as a
    hand tipping it would: its angular velocity is about a horizontal axis (body frames start
    aligned with the world's, and the run at rest turned none by more than its 5° tolerance, so
    local and world axes agree) and its centre moves with it (omega x (0, h, 0))."""
    data = mujoco.MjData(model)
    data.qpos[:] = rest.qpos
    data.qacc_warmstart[:] = rest.qacc_warmstart
    addresses = np.array([address for address, _ in bodies], dtype=np.intp)[:, None]
    heights = np.array([height for _, height in bodies])
    # Per body, in order, a push direction and a tilt axis drawn from the seed.
    push, tilt = np.random.default_rng(seed).uniform(0.0, 2.0 * math.pi, size=(len(bodies), 2)).T
    flat = np.zeros(len(bodies))
    omega = np.column_stack([np.cos(tilt), flat, np.sin(tilt)])
    omega *= (TILT_SPEED / np.maximum(heights, 0.01))[:, None]
    swing = np.cross(omega, np.column_stack([flat, heights, flat]))
    shove = np.column_stack([np.cos(push), flat, np.sin(push)]) * PUSH_SPEED
    data.qvel[addresses + np.arange(3)] = swing + shove
    data.qvel[addresses + np.arange(3, 6)] = omega
    steps = max(1, round(seconds / NUDGE_TIMESTEP))
    simulate(model, data, steps, rolling, NUDGE_SETTLE_S, NUDGE_STILL, NUDGE_CHECK_S)
    return np.array(data.qpos, dtype=np.float64)


def _judge_nudged(
    name: str, geom: CollisionGeom, position: FloatArray, quat: FloatArray, seed: int
) -> tuple[str, float, float, str] | None:
    """(verdict, drop, tilt, reason) when a nudge made the object fall or topple, else None."""
    how = f"when nudged (a {PUSH_SPEED:g} m/s push and a {TILT_SPEED:g} m/s tilt, seed {seed})"
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quat))):
        return "unstable", 0.0, 0.0, f"{name}: the simulation blew up {how}"
    rotation = quat_matrix(quat)
    after = (geom.points - geom.origin) @ rotation.T + position
    drop = float(geom.points[:, 1].min() - after[:, 1].min())
    tilt = math.degrees(math.acos(min(1.0, max(-1.0, float(rotation[1, 1])))))
    if drop > FALL_M:
        return "falls", drop, tilt, f"{name} falls {fmt(drop)} {how}: it is balanced, not resting"
    # A resting object rocks back within a degree or two. One that stays tipped and whose
    # centre went down has toppled; a ball or a pipe on its side rolls: it turns, but its centre
    # stays as high as it was.
    sink = float(geom.origin[1] - position[1])
    if tilt > TOPPLE_DEG and sink > SINK_M:
        reason = f"{name} topples {how}: it tips {tilt:.0f}° and its centre drops {fmt(sink)}"
        return "topples", drop, tilt, reason
    return None


def perturb(
    model: Any,
    rest: Any,
    objects: tuple[SceneObject, ...],
    geoms: list[CollisionGeom],
    bodies: dict[int, tuple[int, int]],
    seeds: tuple[int, ...],
    seconds: float,
) -> dict[int, tuple[int, str, float, float, str]]:
    """Per object index, the first seed (and its verdict) under which a nudge topples it, the
    nudges starting from the end of the run at rest (`rest`, its `MjData`)."""
    nudged = [
        (dof, float(geoms[index].origin[1] - geoms[index].points[:, 1].min()))
        for index, (_, dof) in bodies.items()
    ]
    rolling = [n for n, index in enumerate(bodies) if geoms[index].radius is not None]
    model.opt.timestep = NUDGE_TIMESTEP  # the rest run is done: the model is the nudges' now
    # Conjugate gradients instead of Newton: about a sixth cheaper per step on a pile of a
    # hundred objects, positions within a millimetre of Newton's, and the same verdicts on
    # balanced, heavy-on-light and stacked scenes (tests/studio/physics/test_nudged_balance.py).
    model.opt.solver = mujoco.mjtSolver.mjSOL_CG
    model.opt.tolerance, model.opt.ls_tolerance = NUDGE_SOLVER_TOLERANCES
    # Each seed steps its own MjData of the one compiled model (MuJoCo only reads the model
    # while stepping, and releases the GIL), so the seeds run side by side on their own threads;
    # every run is as deterministic as it is alone.
    with ThreadPoolExecutor(max_workers=max(1, len(seeds)), thread_name_prefix="nudge") as pool:
        runs = list(
            pool.map(lambda seed: _nudged_qpos(model, rest, seed, nudged, seconds, rolling), seeds)
        )
    found: dict[int, tuple[int, str, float, float, str]] = {}
    for seed, qpos in zip(seeds, runs, strict=True):
        for index, (address, _) in bodies.items():
            if index in found:
                continue
            position, quat = qpos[address : address + 3], qpos[address + 3 : address + 7]
            judged = _judge_nudged(objects[index].name, geoms[index], position, quat, seed)
            if judged is not None:
                found[index] = (seed, *judged)
    return found
