"""How copies and groups stand: rows, circles, grids, pyramids, around / between / each side of
a target, across two supports, against a wall. Each function moves named objects of a scene.

Every position is a footprint centre (x, z) and a bottom height; `move` puts an object there by
its world bounds, so shapes of any kind (a chair's legs, a bowl's rim) land exactly.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from studio.planner.uploads import current_resolver
from studio.scene.geometry import object_bounds
from studio.scene.model import Scene

GAP = 0.3  # metres between things standing side by side
TIGHT = 0.01  # between crates of one pyramid level, so they read as one pile
AROUND_GAP = 0.1  # between a table's edge and the chairs around it


def spacing(width: float) -> float:
    """The gap between copies: GAP for furniture, less for small things (tennis balls)."""
    return min(GAP, max(0.05, width / 2))


def bounds(scene: Scene, name: str) -> np.ndarray:
    return object_bounds(scene.object(name), resolve_mesh=current_resolver())


def move(scene: Scene, name: str, x: float, bottom: float, z: float) -> Scene:
    """Put the object's footprint centre at (x, z) and its lowest point at `bottom`."""
    item = scene.object(name)
    low, high = object_bounds(item, resolve_mesh=current_resolver())
    tx, ty, tz = item.transform.translation
    dx = x - (low[0] + high[0]) / 2
    dy = bottom - low[1]
    dz = z - (low[2] + high[2]) / 2
    moved = replace(item.transform, translation=(tx + dx, ty + dy, tz + dz))
    return scene.with_object(replace(item, transform=moved))


def turn(scene: Scene, name: str, degrees: float) -> Scene:
    """Turn the object about the vertical axis (0 = facing +Z, the viewer)."""
    item = scene.object(name)
    rx, _, rz = item.transform.rotation
    turned = replace(item.transform, rotation=(rx, round(degrees % 360, 6), rz))
    return scene.with_object(replace(item, transform=turned))


def size(scene: Scene, name: str) -> tuple[float, float, float]:
    low, high = bounds(scene, name)
    return float(high[0] - low[0]), float(high[1] - low[1]), float(high[2] - low[2])


def footprint(scene: Scene, names: list[str], kind: str, levels: list[int]) -> tuple[float, float]:
    """The width and depth a group of copies needs when arranged as `kind`."""
    width, _, depth = size(scene, names[0])
    gap = spacing(width)
    count = len(names)
    if kind == "circle":
        radius = _circle_radius(width, depth, count, gap)
        return 2 * radius + width, 2 * radius + depth
    if kind == "grid":
        columns = math.ceil(math.sqrt(count))
        rows = math.ceil(count / columns)
        return columns * (width + gap) - gap, rows * (depth + gap) - gap
    if kind == "pyramid":
        return max(levels_for(count, levels)) * (width + TIGHT), depth
    return count * (width + gap) - gap, depth


def arrange(scene: Scene, names: list[str], kind: str, levels: list[int], x: float) -> Scene:
    """Stand copies as a row, circle, grid or pyramid whose left edge is at `x`, centred on z=0."""
    width, height, depth = size(scene, names[0])
    gap = spacing(width)
    total, _ = footprint(scene, names, kind, levels)
    centre = x + total / 2
    if kind == "circle":
        radius = _circle_radius(width, depth, len(names), gap)
        for index, name in enumerate(names):
            angle = 2 * math.pi * index / len(names)
            px, pz = centre + radius * math.sin(angle), radius * math.cos(angle)
            scene = move(turn(scene, name, math.degrees(angle)), name, px, 0.0, pz)
        return scene
    if kind == "grid":
        columns = math.ceil(math.sqrt(len(names)))
        rows = math.ceil(len(names) / columns)
        for index, name in enumerate(names):
            row, column = divmod(index, columns)
            px = x + width / 2 + column * (width + gap)
            pz = (row - (rows - 1) / 2) * (depth + gap)
            scene = move(scene, name, px, 0.0, pz)
        return scene
    if kind == "pyramid":
        counts = levels_for(len(names), levels)
        remaining = list(names)
        for level, count in enumerate(counts):
            left = centre - (count * (width + TIGHT) - TIGHT) / 2
            for index in range(count):
                px = left + width / 2 + index * (width + TIGHT)
                scene = move(scene, remaining.pop(0), px, level * height, 0.0)
        return scene
    for index, name in enumerate(names):
        scene = move(scene, name, x + width / 2 + index * (width + gap), 0.0, 0.0)
    return scene


def levels_for(count: int, levels: list[int]) -> list[int]:
    """Copies per level, bottom first: as asked, or the fullest triangle (6 -> 3, 2, 1)."""
    if levels and sum(levels) == count:
        return sorted(levels, reverse=True)
    bottom = 1
    while bottom * (bottom + 1) // 2 < count:
        bottom += 1
    counts, left = [], count
    for width in range(bottom, 0, -1):
        take = min(width, left)
        if take:
            counts.append(take)
        left -= take
    return counts


def _circle_radius(width: float, depth: float, count: int, gap: float) -> float:
    if count == 1:
        return 0.0
    return max((max(width, depth) + gap) * count / (2 * math.pi), max(width, depth))


def around(scene: Scene, names: list[str], target: str) -> Scene:
    """Copies evenly around the target, each turned to face it (chairs around a table)."""
    low, high = bounds(scene, target)
    cx, cz = float(low[0] + high[0]) / 2, float(low[2] + high[2]) / 2
    width, _, depth = size(scene, names[0])
    reach = math.hypot(width, depth) / 2 + AROUND_GAP
    rx, rz = float(high[0] - low[0]) / 2 + reach, float(high[2] - low[2]) / 2 + reach
    for index, name in enumerate(names):
        angle = 2 * math.pi * index / len(names) + (math.pi / 2 if len(names) % 2 == 0 else 0)
        px, pz = cx + rx * math.sin(angle), cz + rz * math.cos(angle)
        scene = turn(scene, name, math.degrees(angle) + 180.0)
        scene = move(scene, name, px, 0.0, pz)
    return scene


def each_side(scene: Scene, names: list[str], target: str) -> Scene:
    """Copies alternately left and right of the target (lamps on each side of a sofa)."""
    low, high = bounds(scene, target)
    cz = float(low[2] + high[2]) / 2
    for index, name in enumerate(names):
        width, _, _ = size(scene, name)
        step = index // 2 * (width + GAP)
        if index % 2 == 0:
            px = float(low[0]) - GAP / 2 - width / 2 - step
        else:
            px = float(high[0]) + GAP / 2 + width / 2 + step
        scene = move(scene, name, px, 0.0, cz)
    return scene


def each_own(scene: Scene, names: list[str], targets: list[str]) -> Scene:
    """Copies shared out evenly over several targets, each share on either side of its own (two
    chairs at each of two tables); a target and its share move right until they clear the group
    before them."""
    share = len(names) // len(targets)
    edge: float | None = None
    for index, target in enumerate(targets):
        group = names[index * share : (index + 1) * share]
        scene = each_side(scene, group, target)
        lows = [float(bounds(scene, name)[0][0]) for name in (target, *group)]
        if edge is not None and min(lows) < edge + GAP:
            shift = edge + GAP - min(lows)
            for name in (target, *group):
                low, high = bounds(scene, name)
                x, z = float(low[0] + high[0]) / 2 + shift, float(low[2] + high[2]) / 2
                scene = move(scene, name, x, float(low[1]), z)
        edge = max(float(bounds(scene, name)[1][0]) for name in (target, *group))
    return scene


def flank(scene: Scene, subject: str, left: str, right: str) -> Scene:
    """Put `left` and `right` on either side of `subject` (a lamp between two chairs)."""
    low, high = bounds(scene, subject)
    cz = float(low[2] + high[2]) / 2
    left_w, _, _ = size(scene, left)
    right_w, _, _ = size(scene, right)
    scene = move(scene, left, float(low[0]) - GAP / 2 - left_w / 2, 0.0, cz)
    return move(scene, right, float(high[0]) + GAP / 2 + right_w / 2, 0.0, cz)


def span(scene: Scene, subject: str, supports: list[str]) -> Scene:
    """Two supports set apart so the subject rests across both (a plank across two crates)."""
    length, _, _ = size(scene, subject)
    first, second = supports[0], supports[1]
    low, high = bounds(scene, first)
    second_w, _, _ = size(scene, second)
    first_w = float(high[0] - low[0])
    cz = float(low[2] + high[2]) / 2
    apart = max(length - first_w / 2 - second_w / 2 - 0.1, first_w / 2 + second_w / 2 + 0.05)
    scene = move(scene, second, float(low[0]) + first_w / 2 + apart, 0.0, cz)
    top = max(float(bounds(scene, name)[1][1]) for name in supports)
    middle = float(low[0]) + first_w / 2 + apart / 2
    return move(scene, subject, middle, top, cz)


def against(scene: Scene, subject: str, wall: str, *, corner: bool = False) -> Scene:
    """Back to the wall's front face (+Z side), centred on it or at its left end."""
    low, high = bounds(scene, wall)
    width, _, depth = size(scene, subject)
    px = float(low[0]) + width / 2 if corner else float(low[0] + high[0]) / 2
    return move(scene, subject, px, 0.0, float(high[2]) + depth / 2 + 0.005)


def along(scene: Scene, names: list[str], wall: str) -> Scene:
    """Copies side by side with their backs to the wall's front face, centred on it."""
    low, high = bounds(scene, wall)
    widths = [size(scene, name)[0] for name in names]
    x = float(low[0] + high[0]) / 2 - (sum(widths) + GAP * (len(names) - 1)) / 2
    for name, width in zip(names, widths, strict=True):
        depth = size(scene, name)[2]
        scene = move(scene, name, x + width / 2, 0.0, float(high[2]) + depth / 2 + 0.005)
        x += width + GAP
    return scene
