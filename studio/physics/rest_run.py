"""The run at rest: simulate the scene and name how each dynamic object moved (for `stability`).

After `seconds` of simulated time (`mjcf.TIMESTEP`, 4 ms steps; deterministic) each dynamic
object's displacement and rotation are read; more than `tolerance_m` or `tolerance_deg` is
flagged, named as well as the motion allows: slides (moves mostly sideways without turning, down a
ramp too), falls (its lowest point drops), topples (turns and gets lower), rolls, rotates, drops
(settles a little) or rises (pushed out of something it started inside).
"""

from __future__ import annotations

import math
from typing import Any

import mujoco  # type: ignore[import-untyped]
import numpy as np

from studio.physics.common import FloatArray, fmt
from studio.physics.mjcf import CollisionGeom

REST_SPEED = 1e-3
REST_SPIN = 0.01
REST_CHECK_S = 0.05
REST_CHECKS = 3
MIN_SETTLE_S = 0.3
ROLL_GAIN = 0.001


def quat_matrix(quat: FloatArray) -> FloatArray:
    """The rotation of MuJoCo's (w, x, y, z) quaternion, normalised first (the standard formula:
    a hundred bodies judged four times over, scipy's general conversion cost 0.02 s)."""
    w, x, y, z = (float(v) for v in quat)
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / norm, x / norm, y / norm, z / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def judge_at_rest(
    name: str,
    geom: CollisionGeom,
    position: FloatArray,
    quat: FloatArray,
    seconds: float,
    tolerance_m: float,
    tolerance_deg: float,
) -> tuple[str, FloatArray, float, float, str]:
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quat))):
        reason = f"{name}: the simulation blew up (it probably starts deep inside something)"
        return "unstable", np.zeros(3), 0.0, 0.0, reason
    displacement = position - geom.origin
    distance = float(np.linalg.norm(displacement))
    along = float(np.linalg.norm(displacement[[0, 2]]))
    w = min(1.0, abs(float(quat[0])) / max(float(np.linalg.norm(quat)), 1e-12))
    rotation = math.degrees(2.0 * math.acos(w))
    after = (geom.points - geom.origin) @ quat_matrix(quat).T + position
    drop = float(geom.points[:, 1].min() - after[:, 1].min())
    height_before = float(np.ptp(geom.points[:, 1]))
    height_after = float(np.ptp(after[:, 1]))
    when = f"in {seconds:g} s"
    if distance <= tolerance_m and rotation <= tolerance_deg:
        return "stable", displacement, rotation, drop, f"{name} stays put"
    if rotation <= tolerance_deg and along > tolerance_m and along >= abs(float(displacement[1])):
        verdict = "slides"
        reason = f"{name} slides {fmt(along)} {when}"
    elif drop > max(5 * tolerance_m, 0.05):
        verdict = "falls"
        reason = (
            f"{name} falls {fmt(drop)} {when} (its lowest point drops to {after[:, 1].min():.2f} m)"
        )
    elif rotation > tolerance_deg and height_before - height_after > max(
        tolerance_m, 0.1 * height_before
    ):
        verdict = "topples"
        reason = f"{name} topples: it tips {rotation:.0f}° and moves {fmt(distance)} {when}"
    elif rotation > tolerance_deg and along > tolerance_m:
        verdict = "rolls"
        reason = f"{name} rolls {fmt(along)} {when}"
    elif rotation > tolerance_deg:
        verdict = "rotates"
        reason = f"{name} turns {rotation:.0f}° in place {when}"
    elif displacement[1] > 0:
        verdict = "rises"
        reason = (
            f"{name} is pushed up {fmt(float(displacement[1]))} {when} (it starts inside something)"
        )
    else:
        verdict = "drops"
        reason = (
            f"{name} drops {fmt(-float(displacement[1]))} {when} (it was not resting on anything)"
        )
    return verdict, displacement, rotation, drop, reason


def simulate(
    model: Any,
    data: Any,
    steps: int,
    rolling: list[int] | None = None,
    settle_s: float = MIN_SETTLE_S,
    still: tuple[float, float] = (REST_SPEED, REST_SPIN),
    check_s: float = REST_CHECK_S,
) -> int:
    """Step up to `steps`; stop early once the scene is at rest. Returns the steps taken.

    At rest means every free body slower than `still` (REST_SPEED m/s, REST_SPIN rad/s) at
    REST_CHECKS checks in a row, `check_s` (REST_CHECK_S) apart, after at least `settle_s`
    (MIN_SETTLE_S for a run from rest: long enough for a slow creep, an object starting to slide
    down a slight slope, to pass REST_SPEED). A scene at rest stays at rest (nothing is left to
    accelerate it), so the rest of the time could move nothing by more than REST_SPEED x the
    time left (under 1.5 mm in 1.5 s, against a 1 cm tolerance); a balance that only holds
    without a disturbance is what the nudged runs are for.
    In a nudged run the free bodies listed in `rolling` (balls) only need to stop going up or
    down and to stop speeding up (by more than ROLL_GAIN m/s from one check to the next): a ball
    rolling level on a table after a push is not falling; one rolling off another ball is.
    """
    timestep = float(model.opt.timestep)
    chunk = max(1, round(check_s / timestep))
    least = round(settle_s / timestep)
    done = quiet = 0
    rolled: FloatArray | None = None
    while done < steps:
        count = min(chunk, steps - done)
        mujoco.mj_step(model, data, nstep=count)
        done += count
        velocity = np.abs(np.asarray(data.qvel).reshape(-1, 6))
        speeding = False
        if rolling:
            # A nudged ball rolling level on its support is neither falling nor tipping, and
            # keeps its speed; one rolling off a curved top (another ball, a cone's tip) barely
            # goes down at first, but it speeds up.
            level = np.hypot(velocity[rolling, 0], velocity[rolling, 2])
            speeding = rolled is not None and bool(np.any(level > rolled + ROLL_GAIN))
            rolled = level
            velocity[np.ix_(rolling, [0, 2, 3, 4, 5])] = 0.0
        at_rest = not speeding and (
            not len(velocity)
            or (velocity[:, :3].max() < still[0] and velocity[:, 3:].max() < still[1])
        )
        quiet = quiet + 1 if at_rest else 0
        if quiet >= REST_CHECKS and done >= least:
            break
    return done
