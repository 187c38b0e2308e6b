"""Checks on the scene as a whole: its lights, its round report, and what a follow-up kept."""

from __future__ import annotations

import math
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from studio.evaluation import params as p
from studio.evaluation.colours import colour_temperature, temperature_word
from studio.evaluation.glb_scene import GlbScene, LightView, ObjectView
from studio.evaluation.matching import find
from studio.evaluation.result import ResultUnavailable, previous_scene, turn_scene

LIGHT_KINDS = ("directional", "point", "spot")
TEMPERATURES = ("warm", "neutral", "cool")
DIRECTIONS = ("left", "right", "front", "behind", "above")
PLACE_TOLERANCE = 0.02
ABOVE_SINE = 0.8
"""A light comes from above when it is more than ~53 degrees up."""


def lights(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The scene has lights of every kind in `types`, at least `min_count` of them, a key light
    (the brightest) of colour `temperature` (warm / neutral / cool), coming from `direction`."""
    found = turn_scene(context).scene.lights
    kinds = sorted({light.kind for light in found})
    outputs: dict[str, Any] = {"count": len(found), "kinds": kinds}
    problems: list[str] = []
    for kind in p.words(params, "types"):
        if kind not in LIGHT_KINDS:
            raise p.ParamError(f"'types' must name {', '.join(LIGHT_KINDS)}, not {kind!r}")
        if kind not in kinds:
            problems.append(f"no {kind} light (found {', '.join(kinds) or 'none'})")
    least = p.integer(params, "min_count")
    if least is not None and len(found) < least:
        problems.append(f"{len(found)} lights, expected at least {least}")
    key = max(found, key=lambda light: light.intensity, default=None)
    if key is not None:
        kelvin = colour_temperature(key.color)
        outputs |= {"key": key.name, "key_kelvin": None if kelvin is None else round(kelvin)}
        if "temperature" in params:
            wanted = p.choice(params, "temperature", TEMPERATURES)
            seen = "unknown" if kelvin is None else temperature_word(kelvin)
            if seen != wanted:
                shown = "" if kelvin is None else f" ({kelvin:.0f} K)"
                problems.append(f"key light {key.name} is {seen}{shown}, not {wanted}")
        if "direction" in params:
            side = p.choice(params, "direction", DIRECTIONS)
            sides = _shines_from(key)
            outputs["key_from"] = sides
            if side not in sides:
                problems.append(f"key light {key.name} comes from {'/'.join(sides)}, not {side}")
    elif "temperature" in params or "direction" in params:
        problems.append("the scene has no light")
    if problems:
        return Verdict.fail("; ".join(problems), **outputs)
    return Verdict.ok(**outputs)


def physics_pass(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The last round of the turn's run passed every check of its report (or those in `checks`)."""
    result = turn_scene(context)
    if not result.from_run:
        return Verdict.fail("this turn's run stored no revision, so no round was checked")
    checks = result.report.get("checks")
    if not isinstance(checks, dict) or not checks:
        return Verdict.fail(f"revision {result.revision_number} has no round report")
    wanted = p.words(params, "checks") or tuple(sorted(checks))
    missing = [name for name in wanted if name not in checks]
    failed = {
        name: checks[name].get("reasons") or []
        for name in wanted
        if name in checks and not checks[name].get("passed")
    }
    outputs: dict[str, Any] = {
        "passed": sorted(name for name in wanted if name in checks and name not in failed),
        "failed": sorted(failed),
    }
    if missing:
        return Verdict.fail(f"the round report has no {', '.join(missing)} check", **outputs)
    if failed:
        shown = "; ".join(
            f"{name}: {', '.join(str(reason) for reason in reasons[:2]) or 'failed'}"
            for name, reasons in failed.items()
        )
        return Verdict.fail(shown, score=1 - len(failed) / len(wanted), **outputs)
    return Verdict.ok(**outputs)


def unchanged(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Objects of the previous turn's scene (those in `names`, or all but `except`) are still
    there with the same name, shape and category, size and place within `tolerance`."""
    tolerance = p.length(params, "tolerance", PLACE_TOLERANCE)
    try:
        before = previous_scene(context).scene
    except ResultUnavailable as error:
        return Verdict.fail(str(error))
    after = turn_scene(context).scene
    chosen = _chosen(before, params)
    if not chosen:
        return Verdict.fail("the previous scene has none of the objects to compare")
    problems = {item.name: _difference(item, after.object(item.name), tolerance) for item in chosen}
    changed = {name: problem for name, problem in problems.items() if problem}
    outputs: dict[str, Any] = {
        "kept": sorted(set(problems) - set(changed)),
        "changed": sorted(changed),
    }
    if changed:
        return Verdict.fail(
            "; ".join(f"{name} {problem}" for name, problem in changed.items()),
            score=1 - len(changed) / len(problems),
            **outputs,
        )
    return Verdict.ok(**outputs)


def _chosen(before: GlbScene, params: dict[str, Any]) -> list[ObjectView]:
    if "names" in params:
        return find(before, p.names(params, "names"))
    skipped = {item.name for item in find(before, p.words(params, "except"))}
    return [item for item in before.objects if item.name not in skipped]


def _difference(item: ObjectView, now: ObjectView | None, tolerance: float) -> str:
    if now is None:
        return "is gone"
    if (now.shape, now.category) != (item.shape, item.category):
        return (
            f"became a {now.category or now.shape} {now.shape} (was {item.category} {item.shape})"
        )
    grown = max(abs(a - b) for a, b in zip(now.size, item.size, strict=True))
    if grown > tolerance:
        return f"changed size by {grown * 100:.1f} cm"
    moved = math.dist(now.centre, item.centre)
    if moved > tolerance:
        return f"moved {moved * 100:.1f} cm"
    return ""


def _shines_from(light: LightView) -> list[str]:
    """Where a light shines from, seen from the scene's centre: left, right, front, behind,
    above (the frame of `relations`: +X right, +Z front)."""
    x, y, z = (-component for component in light.direction)
    sides = []
    if y > ABOVE_SINE:
        sides.append("above")
    horizontal = math.hypot(x, z)
    if horizontal > 0.2:
        if abs(x) >= 0.5 * horizontal:
            sides.append("right" if x > 0 else "left")
        if abs(z) >= 0.5 * horizontal:
            sides.append("front" if z > 0 else "behind")
    return sides or ["above"]
