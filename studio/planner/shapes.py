"""Turning a parsed object (noun + measured sizes) into a shape with exact dimensions."""

from __future__ import annotations

from typing import Any

from studio.planner.grammar import ObjectSpec
from studio.planner.vocabulary import NOUNS
from studio.scene.model import Shape

TABLE_TOP = 0.04
TABLE_LEG = 0.06


def table_shape(length: float, height: float, depth: float) -> Shape:
    """A table as one solid: a top and four legs (so things can stand under it)."""
    leg_height = height - TABLE_TOP + 0.001  # legs reach 1 mm into the top: one solid
    x, z = length / 2 - TABLE_LEG, depth / 2 - TABLE_LEG

    def leg(dx: float, dz: float) -> dict[str, Any]:
        return {
            "kind": "box",
            "params": {"size": [TABLE_LEG, leg_height, TABLE_LEG]},
            "transform": {"translation": [dx, leg_height / 2, dz]},
        }

    def union(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        return {"kind": "boolean", "params": {"op": "union", "a": a, "b": b}}

    top = {
        "kind": "box",
        "params": {"size": [length, TABLE_TOP, depth]},
        "transform": {"translation": [0.0, height - TABLE_TOP / 2, 0.0]},
    }
    legs = union(union(leg(x, z), leg(-x, z)), union(leg(x, -z), leg(-x, -z)))
    return Shape("boolean", union(top, legs)["params"])


def spec_shape(spec: ObjectSpec) -> tuple[Shape, list[str]]:
    """The shape for a parsed object, sized as the person said; notes explain any guess."""
    noun = NOUNS[spec.noun]
    params = _sized(noun.shape, dict(noun.params), spec.sizes)
    if spec.noun == "table":
        length, height, depth = params["size"]
        return table_shape(length, height, depth), []
    return Shape(noun.shape, params), []  # type: ignore[arg-type]


def _sized(kind: str, params: dict[str, Any], sizes: dict[str, float]) -> dict[str, Any]:
    if not sizes:
        return params
    if {"dims_x", "dims_y", "dims_z"} <= sizes.keys():
        extents = [sizes["dims_x"], sizes["dims_y"], sizes["dims_z"]]
        return _fit_extents(kind, params, extents)
    params = _scaled(kind, params, sizes)
    return params


def _largest(kind: str, params: dict[str, Any]) -> float:
    if kind == "box":
        return float(max(params["size"]))
    if kind == "sphere":
        return 2 * float(params["radius"])
    if kind in ("cylinder", "cone", "capsule"):
        return float(max(2 * params["radius"], params["height"]))
    if kind == "torus":
        return 2 * float(params["major_radius"] + params["minor_radius"])
    if kind == "revolve":
        return float(max(max(r for r, _ in params["profile"]) * 2, _profile_height(params)))
    return 1.0


def _profile_height(params: dict[str, Any]) -> float:
    ys = [y for _, y in params["profile"]]
    return float(max(ys) - min(ys))


def _uniform(kind: str, params: dict[str, Any], factor: float) -> dict[str, Any]:
    scaled: dict[str, Any] = {}
    for key, value in params.items():
        if key == "profile":
            scaled[key] = [[r * factor, y * factor] for r, y in value]
        elif key == "size":
            scaled[key] = [part * factor for part in value]
        elif isinstance(value, int | float):
            scaled[key] = value * factor
        else:
            scaled[key] = value
    return scaled


def _scaled(kind: str, params: dict[str, Any], sizes: dict[str, float]) -> dict[str, Any]:
    """Apply measured sizes: a bare size scales the whole shape so its largest dimension matches;
    named dimensions (height, width, diameter...) set that dimension exactly."""
    if "size" in sizes:
        params = _uniform(kind, params, sizes["size"] / _largest(kind, params))
    if kind == "box":
        size = list(params["size"])
        for role, axis in (("width", 0), ("length", 0), ("height", 1), ("depth", 2)):
            if role in sizes:
                size[axis] = sizes[role]
        return {**params, "size": size}
    if kind == "sphere":
        if "diameter" in sizes:
            return {"radius": sizes["diameter"] / 2}
        if "radius" in sizes:
            return {"radius": sizes["radius"]}
        return params
    if kind in ("cylinder", "cone", "capsule"):
        if "height" in sizes and "diameter" not in sizes and "radius" not in sizes:
            params = {**params, "height": sizes["height"]}
        if "diameter" in sizes or "width" in sizes:
            params = {**params, "radius": sizes.get("diameter", sizes.get("width", 0)) / 2}
        if "radius" in sizes:
            params = {**params, "radius": sizes["radius"]}
        if "height" in sizes:
            params = {**params, "height": sizes["height"]}
        return params
    if kind == "torus" and "diameter" in sizes:
        return _uniform(kind, params, sizes["diameter"] / _largest(kind, params))
    if kind == "revolve" and "height" in sizes:
        return _uniform(kind, params, sizes["height"] / _profile_height(params))
    return params


def _fit_extents(kind: str, params: dict[str, Any], extents: list[float]) -> dict[str, Any]:
    width, height, depth = extents
    if kind == "box":
        return {**params, "size": [width, height, depth]}
    if kind == "sphere":
        return {"radius": max(extents) / 2}
    if kind in ("cylinder", "cone", "capsule"):
        return {**params, "radius": max(width, depth) / 2, "height": height}
    return _uniform(kind, params, max(extents) / _largest(kind, params))
