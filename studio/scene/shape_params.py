"""Reading a shape's parameters: lengths in metres within the studio's limits, and 2-D profiles
(points, rings, a polygon that encloses an area and does not cross itself), each refused with a
SceneError that names the parameter and what was wrong."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import Polygon  # type: ignore[import-untyped]
from shapely.validation import explain_validity  # type: ignore[import-untyped]

from studio.scene.budget import MAX_PROFILE_POINTS
from studio.scene.model import MAX_SIZE_M, MIN_SIZE_M, SceneError

Params = dict[str, Any]


def length(params: Params, key: str, kind: str) -> float:
    if key not in params:
        raise SceneError(f"{kind} needs {key} (metres)")
    return check_length(params[key], f"{kind} {key}")


def lengths(params: Params, key: str, kind: str, axes: tuple[str, ...]) -> list[float]:
    value = params.get(key)
    if not isinstance(value, list | tuple) or len(value) != len(axes):
        names = ", ".join(axes)
        raise SceneError(f"{kind} needs {key} [{names}] (metres), not {value!r}")
    return [
        check_length(part, f"{kind} {key} {axis}") for part, axis in zip(value, axes, strict=True)
    ]


def check_length(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SceneError(f"{what} must be a number of metres, not {value!r}")
    if not math.isfinite(value):
        raise SceneError(f"{what} must be a finite number, not {value}")
    if value <= 0:
        raise SceneError(f"{what} must be positive, not {value:g}")
    if value < MIN_SIZE_M:
        raise SceneError(f"{what} must be at least {MIN_SIZE_M:g} m, not {value:g}")
    if value > MAX_SIZE_M:
        raise SceneError(
            f"{what} must be at most {MAX_SIZE_M:g} m, not {value:g} (is the unit right?)"
        )
    return float(value)


def profile(params: Params, kind: str, axes: tuple[str, str]) -> list[tuple[float, float]]:
    if "profile" not in params:
        raise SceneError(f"{kind} needs profile [[{axes[0]}, {axes[1]}], ...] (metres)")
    return points(params["profile"], f"{kind} profile", axes)


def points(value: Any, what: str, axes: tuple[str, str]) -> list[tuple[float, float]]:
    shape = f"[[{axes[0]}, {axes[1]}], ...]"
    if not isinstance(value, list | tuple) or len(value) > MAX_PROFILE_POINTS + 1:
        raise SceneError(f"{what} must be a list of at most {MAX_PROFILE_POINTS} points {shape}")
    points: list[tuple[float, float]] = []
    for point in value:
        if not isinstance(point, list | tuple) or len(point) != 2:
            raise SceneError(f"{what} points must be pairs {shape}, not {point!r}")
        a, b = (coordinate(part, what) for part in point)
        points.append((a, b))
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()  # a closed ring repeats its first point
    if len(points) < 3:
        raise SceneError(f"{what} needs at least 3 points {shape}, not {len(points)}")
    return points


def coordinate(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SceneError(f"{what} coordinates must be finite numbers, not {value!r}")
    if abs(value) > MAX_SIZE_M:
        raise SceneError(f"{what} coordinates must be within {MAX_SIZE_M:g} m, not {value:g}")
    return float(value)


def valid_polygon(
    shell: list[tuple[float, float]], holes: list[list[tuple[float, float]]], kind: str
) -> Any:
    spread = np.linalg.svd(np.array(shell) - np.mean(shell, axis=0), compute_uv=False)
    if spread[-1] <= 1e-9 * max(spread[0], MIN_SIZE_M):
        raise SceneError(f"{kind} profile encloses no area (its points are on one line)")
    polygon = Polygon(shell, holes)
    if not polygon.is_valid:
        reason = explain_validity(polygon)
        raise SceneError(f"{kind} profile must not cross itself ({reason})")
    if polygon.area < MIN_SIZE_M**2:
        raise SceneError(f"{kind} profile encloses less than {MIN_SIZE_M**2:g} m^2")
    return polygon
