"""Turning a parsed object (catalogue noun + measured sizes) into one shape of exact dimensions.

A catalogue entry is a primitive (sized as before: a bare size scales the largest dimension,
named ones set that dimension), a profile turned about Y (a bowl, a vase), or parts joined into
one solid (a chair's seat, back and legs). Profiles and parts are written as fractions of the
object's box, so a stated size only has to decide that box: width/length -> x, height -> y,
depth -> z, diameter/radius -> x and z, a bare size -> the largest side, three dimensions ->
the axes whose typical proportions they fit best ("80 x 30 x 180 cm" is a tall bookshelf).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from studio.planner.catalogue import CATALOGUE, Noun
from studio.planner.grammar import ObjectSpec
from studio.scene.model import Shape

Part = dict[str, Any]
UNIT: dict[str, tuple[str, dict[str, Any]]] = {
    "box": ("box", {"size": [1.0, 1.0, 1.0]}),
    "cyl": ("cylinder", {"radius": 0.5, "height": 1.0}),
    "cyl_x": ("cylinder", {"radius": 0.5, "height": 1.0}),
    "cyl_z": ("cylinder", {"radius": 0.5, "height": 1.0}),
    "cone": ("cone", {"radius": 0.5, "height": 1.0}),
    "sphere": ("sphere", {"radius": 0.5}),
    "capsule": ("capsule", {"radius": 0.25, "height": 1.0}),
}
LEG_OVERLAP = 0.01
"""Legs reach this share of the height into the top, so parts join into one solid."""


def table_shape(length: float, height: float, depth: float) -> Shape:
    """A table as one solid: a top and four legs (so things can stand under it)."""
    return noun_shape(CATALOGUE["table"], (length, height, depth))


def spec_shape(spec: ObjectSpec) -> tuple[Shape, list[str]]:
    """The shape for a parsed object, sized as the person said; notes explain any guess."""
    noun = CATALOGUE[spec.noun]
    if noun.primitive:
        kind = str(noun.primitive["kind"])
        sizes = dict(spec.sizes)
        if kind == "box" and {"dims_x", "dims_y", "dims_z"} <= sizes.keys():
            x, y, z = box_size(noun, sizes)
            sizes.update(dims_x=x, dims_y=y, dims_z=z)
        params = _sized(kind, dict(noun.primitive["params"]), sizes)
        return Shape(kind, params), []  # type: ignore[arg-type]
    return noun_shape(noun, box_size(noun, spec.sizes)), []


def box_size(noun: Noun, sizes: dict[str, float]) -> tuple[float, float, float]:
    """The object's box (width, height, depth) in metres: its typical size, then stated sizes."""
    if noun.lying and "length" in sizes:  # a pipe's length runs along its model's height
        sizes = {("height" if role == "length" else role): v for role, v in sizes.items()}
    x, y, z = noun.size
    if {"dims_x", "dims_y", "dims_z"} <= sizes.keys():
        return _best_axes(noun.size, [sizes["dims_x"], sizes["dims_y"], sizes["dims_z"]])
    if "size" in sizes:  # a screen's size is its diagonal ("a 55 inch tv")
        face = math.hypot(x, y) if noun.extra.get("diagonal") else max(noun.size)
        factor = sizes["size"] / face
        x, y, z = x * factor, y * factor, z * factor
    across = sizes.get("diameter", 2 * sizes["radius"] if "radius" in sizes else None)
    if across is not None:
        factor = across / max(x, z)
        x, z = x * factor, z * factor
        if "height" not in sizes and noun.profile:  # a round thing keeps its proportions
            y *= factor
    x = sizes.get("width", sizes.get("length", x))
    return x, sizes.get("height", y), sizes.get("depth", z)


def _best_axes(typical: tuple[float, ...], stated: list[float]) -> tuple[float, float, float]:
    """Stated dimensions in any order, matched to the axes they fit best (first wins ties)."""
    best = min(
        itertools.permutations(range(3)),
        key=lambda order: (
            sum(abs(math.log(stated[i] / typical[axis])) for axis, i in enumerate(order)),
            order != (0, 1, 2),
        ),
    )
    return stated[best[0]], stated[best[1]], stated[best[2]]


def noun_shape(noun: Noun, size: tuple[float, float, float]) -> Shape:
    """The noun modelled at `size`: a turned profile, or its parts joined into one solid."""
    width, height, depth = size
    if noun.profile:
        diameter = max(width, depth)
        profile = [[round(r * diameter, 6), round(y * height, 6)] for r, y in noun.profile]
        return Shape("revolve", {"profile": profile, "sections": noun.sections})
    parts = [_part(part, size) for part in noun.parts]
    if noun.legs:
        parts += _legs(noun.legs, size)
    solid = _join("union", parts)
    if noun.cut:
        solid = _combine("difference", solid, _join("union", [_part(c, size) for c in noun.cut]))
    if solid["kind"] != "boolean":  # one part: a boolean keeps its transform (within its box)
        solid = _combine("intersection", solid, _part(("box", -1, -1, -1, 2, 2, 2), size))
    return Shape("boolean", solid["params"])


def _part(part: tuple[Any, ...], size: tuple[float, float, float]) -> Part:
    kind, *box = part
    low = [float(box[i]) * size[i] for i in range(3)]
    high = [float(box[i + 3]) * size[i] for i in range(3)]
    extent = [max(h - lo, 1e-4) for lo, h in zip(low, high, strict=True)]
    centre = [(lo + h) / 2 for lo, h in zip(low, high, strict=True)]
    rotation = [0.0, 0.0, 0.0]
    if kind == "pyramid":
        radius = max(extent[0], extent[2]) / 2 * math.sqrt(2)
        profile = [[0.0, -extent[1] / 2], [radius, -extent[1] / 2], [0.0, extent[1] / 2]]
        return {
            "kind": "revolve",
            "params": {"profile": profile, "sections": 4},
            # four sections put the corners on the axes: a quarter of a right angle squares them
            "transform": {"translation": centre, "rotation": [0.0, 45.0, 0.0]},
        }
    shape, params = UNIT[kind]
    scale = list(extent)
    if kind == "cyl_x":  # a cylinder lying along X: turn Y onto X, so its length is x
        rotation, scale = [0.0, 0.0, 90.0], [extent[1], extent[0], extent[2]]
    if kind == "cyl_z":
        rotation, scale = [90.0, 0.0, 0.0], [extent[0], extent[2], extent[1]]
    return {
        "kind": shape,
        "params": dict(params),
        "transform": {"translation": centre, "rotation": rotation, "scale": scale},
    }


def _legs(legs: tuple[float, ...], size: tuple[float, float, float]) -> list[Part]:
    top, thick_x, thick_z = legs
    reach = min(1.0, top + LEG_OVERLAP)
    corners = [(0.0, 0.0), (1 - thick_x, 0.0), (0.0, 1 - thick_z), (1 - thick_x, 1 - thick_z)]
    return [_part(("box", x, 0.0, z, x + thick_x, reach, z + thick_z), size) for x, z in corners]


def _combine(op: str, a: Part, b: Part) -> Part:
    return {"kind": "boolean", "params": {"op": op, "a": a, "b": b}, "transform": {}}


def _join(op: str, parts: list[Part]) -> Part:
    """A balanced tree of unions (booleans may only nest a few levels deep)."""
    if len(parts) == 1:
        return parts[0]
    middle = len(parts) // 2
    return _combine(op, _join(op, parts[:middle]), _join(op, parts[middle:]))


def _sized(kind: str, params: dict[str, Any], sizes: dict[str, float]) -> dict[str, Any]:
    if not sizes:
        return params
    if {"dims_x", "dims_y", "dims_z"} <= sizes.keys():
        return _fit_extents(kind, params, [sizes["dims_x"], sizes["dims_y"], sizes["dims_z"]])
    return _scaled(kind, params, sizes)


def _largest(kind: str, params: dict[str, Any]) -> float:
    if kind == "box":
        return float(max(params["size"]))
    if kind == "sphere":
        return 2 * float(params["radius"])
    if kind in ("cylinder", "cone", "capsule"):
        return float(max(2 * params["radius"], params["height"]))
    if kind == "torus":
        return 2 * float(params["major_radius"] + params["minor_radius"])
    return 1.0


def _uniform(params: dict[str, Any], factor: float) -> dict[str, Any]:
    scaled: dict[str, Any] = {}
    for key, value in params.items():
        if key == "size":
            scaled[key] = [part * factor for part in value]
        elif isinstance(value, int | float):
            scaled[key] = value * factor
        else:
            scaled[key] = value
    return scaled


def _scaled(kind: str, params: dict[str, Any], sizes: dict[str, float]) -> dict[str, Any]:
    """A bare size scales the whole shape so its largest dimension matches; named dimensions
    (height, width, diameter...) set that dimension exactly."""
    if "size" in sizes:
        params = _uniform(params, sizes["size"] / _largest(kind, params))
    if kind == "box":
        size = list(params["size"])
        for role, axis in (("width", 0), ("length", 0), ("height", 1), ("depth", 2)):
            if role in sizes:
                size[axis] = sizes[role]
        for role in ("diameter", "radius"):
            if role in sizes:
                size[0] = size[2] = sizes[role] * (2 if role == "radius" else 1)
        return {**params, "size": size}
    if kind == "sphere":
        if "diameter" in sizes or "width" in sizes:
            return {"radius": sizes.get("diameter", sizes.get("width", 0.0)) / 2}
        if "radius" in sizes:
            return {"radius": sizes["radius"]}
        if "height" in sizes:
            return {"radius": sizes["height"] / 2}
        return params
    if kind in ("cylinder", "cone", "capsule"):
        if "diameter" in sizes or "width" in sizes:
            params = {**params, "radius": sizes.get("diameter", sizes.get("width", 0)) / 2}
        if "radius" in sizes:
            params = {**params, "radius": sizes["radius"]}
        if "height" in sizes:
            params = {**params, "height": sizes["height"]}
        return params
    if kind == "torus":
        across = sizes.get("diameter", sizes.get("width"))
        if across is not None:
            return _uniform(params, across / _largest(kind, params))
    return params


def _fit_extents(kind: str, params: dict[str, Any], extents: list[float]) -> dict[str, Any]:
    width, height, depth = extents
    if kind == "box":
        return {**params, "size": [width, height, depth]}
    if kind == "sphere":
        return {"radius": max(extents) / 2}
    if kind in ("cylinder", "cone", "capsule"):
        return {**params, "radius": max(width, depth) / 2, "height": height}
    return _uniform(params, max(extents) / _largest(kind, params))
