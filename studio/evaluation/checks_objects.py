"""Checks on what objects the scene has: how many, how big, what colour, what material."""

from __future__ import annotations

import math
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from studio.evaluation import params as p
from studio.evaluation.colours import accepted_families, family, to_srgb
from studio.evaluation.glb_scene import ObjectView
from studio.evaluation.matching import describe, find
from studio.evaluation.materials import MaterialBounds, bounds_for
from studio.evaluation.result import ResultUnavailable, TurnScene, previous_scene, turn_scene

AXES = ("width", "height", "depth", "length", "diameter", "largest")


def scene_nonempty(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The turn's own run stored a scene with at least `min_objects` objects (default 1)."""
    least = p.integer(params, "min_objects") or 1
    try:
        result = turn_scene(context)
    except ResultUnavailable as error:
        return Verdict.fail(str(error), objects=0)
    count = len(result.scene.objects)
    outputs: dict[str, Any] = {"objects": count, "revision": result.revision_number}
    if not result.from_run:
        return Verdict.fail(
            "this turn's run stored no scene revision (it built nothing)", **outputs
        )
    if count < least:
        return Verdict.fail(f"the scene has {count} objects, fewer than {least}", **outputs)
    return Verdict.ok(**outputs)


def object_count(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Objects answering to `name` number exactly `count`, or lie within `min` / `max`."""
    words = p.names(params)
    exact, least, most = (
        p.integer(params, "count"),
        p.integer(params, "min"),
        p.integer(params, "max"),
    )
    want = describe(words)
    try:
        found = find(turn_scene(context).scene, words)
    except ResultUnavailable as error:  # no scene at all holds none of anything
        found, want = [], f"{want} ({error})"
    outputs: dict[str, Any] = {"count": len(found), "objects": [item.name for item in found]}
    if exact is not None and len(found) != exact:
        score = min(len(found), exact) / max(len(found), exact) if max(len(found), exact) else 0.0
        return Verdict.fail(f"found {len(found)} {want}, expected {exact}", score=score, **outputs)
    if least is not None and len(found) < least:
        return Verdict.fail(
            f"found {len(found)} {want}, expected at least {least}",
            score=len(found) / least,
            **outputs,
        )
    if most is not None and len(found) > most:
        return Verdict.fail(f"found {len(found)} {want}, expected at most {most}", **outputs)
    return Verdict.ok(**outputs)


def measure(item: ObjectView, axis: str) -> float:
    """An object's width (x), height (y), depth (z), length or diameter (the larger horizontal
    extent) or largest extent, in metres."""
    width, height, depth = item.size
    return {
        "width": width,
        "height": height,
        "depth": depth,
        "length": max(width, depth),
        "diameter": max(width, depth),
        "largest": max(width, height, depth),
    }[axis]


def size(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Each object answering to `name` measures `value` +- `tolerance` along `axis` (metres or
    lengths with units), or lies within `min` / `max`."""
    words, axis = p.names(params), p.choice(params, "axis", AXES)
    low, high = _size_range(params)
    found = find(turn_scene(context).scene, words)
    if not found:
        return Verdict.fail(f"no {describe(words)} in the scene to measure")
    measured = {item.name: round(measure(item, axis), 4) for item in found}
    wrong = {name: value for name, value in measured.items() if not low <= value <= high}
    outputs: dict[str, Any] = {"measured": measured, "expected": [round(low, 4), round(high, 4)]}
    if wrong:
        shown = ", ".join(f"{name} is {value:.3f} m" for name, value in wrong.items())
        allowed = f"{low:.3f}-{high:.3f} m" if math.isfinite(high) else f"at least {low:.3f} m"
        return Verdict.fail(
            f"{axis} outside {allowed}: {shown}",
            score=1 - len(wrong) / len(measured),
            **outputs,
        )
    return Verdict.ok(**outputs)


def size_change(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The object's `axis` changed by `factor` (+- `tolerance`, relative) since the previous
    turn, or grew / shrank by at least `at_least` / at most `at_most` times."""
    words, axis = p.names(params), p.choice(params, "axis", AXES)
    before = _single(previous_scene(context), words, "the previous turn's scene")
    after = _single(turn_scene(context), words, "the scene")
    if isinstance(before, str) or isinstance(after, str):
        return Verdict.fail(before if isinstance(before, str) else str(after))
    old, new = measure(before, axis), measure(after, axis)
    ratio = new / old if old > 0 else float("inf")
    outputs: dict[str, Any] = {
        "before": round(old, 4),
        "after": round(new, 4),
        "ratio": round(ratio, 3),
    }
    low, high = _ratio_range(params)
    if not low <= ratio <= high:
        wanted = f"x{low:.2f}-x{high:.2f}" if high < float("inf") else f"at least x{low:.2f}"
        return Verdict.fail(
            f"{after.name}'s {axis} went from {old:.3f} to {new:.3f} m (x{ratio:.2f}), "
            f"expected {wanted}",
            **outputs,
        )
    return Verdict.ok(**outputs)


def _ratio_range(params: dict[str, Any]) -> tuple[float, float]:
    if "factor" in params:
        factor, tolerance = p.number(params, "factor"), p.number(params, "tolerance", 0.1)
        return factor * (1 - tolerance), factor * (1 + tolerance)
    return p.number(params, "at_least", 0.0), p.number(params, "at_most", float("inf"))


def color(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Each object answering to `name` has a base colour in a family the colour word allows."""
    words = p.names(params)
    try:
        allowed = sorted({f for word in p.names(params, "color") for f in accepted_families(word)})
    except KeyError as error:
        raise p.ParamError(f"'color' has a word with no colour family: {error}") from None
    found = find(turn_scene(context).scene, words)
    if not found:
        return Verdict.fail(f"no {describe(words)} in the scene to look at")
    measured = {item.name: family(item.base_color) for item in found}
    srgb = {item.name: _hex(item.base_color) for item in found}
    wrong = [name for name, seen in measured.items() if seen not in allowed]
    outputs: dict[str, Any] = {"families": measured, "srgb": srgb}
    if wrong:
        shown = ", ".join(f"{name} is {measured[name]} ({srgb[name]})" for name in wrong)
        return Verdict.fail(
            f"expected {'/'.join(allowed)}: {shown}", score=1 - len(wrong) / len(found), **outputs
        )
    return Verdict.ok(**outputs)


def material(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Each object answering to `name` has PBR factors like the material word `like`, and within
    any explicit `metallic_min` ... `opacity_max` bounds."""
    words = p.names(params)
    bounds = _material_bounds(params)
    found = find(turn_scene(context).scene, words)
    if not found:
        return Verdict.fail(f"no {describe(words)} in the scene to look at")
    outputs: dict[str, Any] = {
        "pbr": {
            item.name: {
                "metallic": round(item.metallic, 3),
                "roughness": round(item.roughness, 3),
                "opacity": round(item.opacity, 3),
            }
            for item in found
        }
    }
    problems = {item.name: bounds.problems(item) for item in found}
    wrong = {name: found for name, found in problems.items() if found}
    if wrong:
        like = params.get("like", "the bounds")
        shown = "; ".join(f"{name}: {', '.join(items)}" for name, items in wrong.items())
        return Verdict.fail(
            f"not like {like}: {shown}", score=1 - len(wrong) / len(found), **outputs
        )
    return Verdict.ok(**outputs)


def _material_bounds(params: dict[str, Any]) -> MaterialBounds:
    base = MaterialBounds()
    if "like" in params:
        try:
            base = bounds_for(str(params["like"]))
        except KeyError:
            raise p.ParamError(f"'like' is not a material word: {params['like']!r}") from None
    values: dict[str, tuple[float, float]] = {}
    for factor in ("metallic", "roughness", "opacity"):
        low, high = getattr(base, factor)
        values[factor] = (
            p.number(params, f"{factor}_min", low),
            p.number(params, f"{factor}_max", high),
        )
    return MaterialBounds(**values, families=base.families)


def _size_range(params: dict[str, Any]) -> tuple[float, float]:
    if "value" in params:
        value = p.length(params, "value")
        tolerance = p.length(params, "tolerance", max(0.01, 0.03 * value))
        return value - tolerance, value + tolerance
    if "min" not in params and "max" not in params:
        raise p.ParamError("give 'value' (with 'tolerance') or 'min' / 'max'")
    return p.length(params, "min", 0.0), p.length(params, "max", float("inf"))


def _single(result: TurnScene, words: tuple[str, ...], where: str) -> ObjectView | str:
    """The one object answering to `words`, or why there is not exactly one."""
    found = find(result.scene, words)
    if len(found) != 1:
        return f"expected one {describe(words)} in {where}, found {len(found)}"
    return found[0]


def _hex(linear: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(part * 255):02x}" for part in to_srgb(linear))
