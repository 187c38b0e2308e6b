"""Things inside open containers: where they rest, and how steeply a camera must look to see them.

A container (a catalogue noun with a `floor`: a bowl, a cup, a basket, an open box, a tray) is
whatever shape its mesh has, so nothing here assumes one: heights come from vertical rays cast
against world meshes. `put_inside` clusters things on the inner floor (as many side by side as
the flat floor takes; the others let down, one by one, into the lowest free place: up a curved
wall, into the gaps of the layer below, a pile), each lowered until its own underside touches the
surface under it. `contents` finds what sits inside which container
in a scene, and `elevation_to_see` the camera elevation that looks over the rims at it.
"""

from __future__ import annotations

import math

import numpy as np
import trimesh

from studio.planner.arrangements import bounds, move, size
from studio.planner.catalogue import CATALOGUE
from studio.planner.uploads import current_resolver
from studio.scene.geometry import world_mesh
from studio.scene.model import Scene

FLAT = 0.004
"""How far (metres) the inner surface may rise above the floor and still count as floor."""
CHUNK = 64
"""Points per batch when casting rays (each batch meets only the triangles near it)."""
GRID = 160
"""At most this many heights across a container, per side."""
APART = 1.06
"""Things inside are let down as if this much wider, so neighbours keep a little apart."""
TOWARDS_MIDDLE = 0.01
"""Metres of height one metre nearer the middle is worth, when choosing where to let down."""
RING = 6
"""At most this many stand side by side on a container's floor before the rest are let down."""
MARGIN_DEG = 6.0
"""Looked over a rim by this much more than the line that just grazes the contents' middle."""
MAX_ELEVATION_DEG = 70.0

__all__ = ["contents", "elevation_to_see", "heights", "is_container", "put_inside"]


def is_container(scene: Scene, name: str) -> bool:
    noun = CATALOGUE.get(scene.object(name).category)
    return noun is not None and noun.hollow


def heights(triangles: np.ndarray, points: np.ndarray, *, highest: bool = True) -> np.ndarray:
    """The y of the highest (or lowest) surface of `triangles` (n x 3 x 3, world) over each
    (x, z) of `points` (m x 2): what a ray straight down (or up) meets first; nan where none."""
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    found = np.full(len(points), np.nan)
    if len(triangles) == 0:
        return found
    low = triangles[:, :, [0, 2]].min(axis=1)
    high = triangles[:, :, [0, 2]].max(axis=1)
    order = np.lexsort((points[:, 1], points[:, 0]))  # nearby points together, few triangles each
    for start in range(0, len(points), CHUNK):
        chunk = order[start : start + CHUNK]
        near = np.all(low <= points[chunk].max(axis=0), axis=1)
        near &= np.all(high >= points[chunk].min(axis=0), axis=1)
        if near.any():
            found[chunk] = _heights(triangles[near], points[chunk], highest)
    return found


def _heights(triangles: np.ndarray, points: np.ndarray, highest: bool) -> np.ndarray:
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    e1, e2 = b - a, c - a
    det = e1[:, 0] * e2[:, 2] - e2[:, 0] * e1[:, 2]
    upright = np.abs(det) > 1e-12  # walls seen edge-on from above hold nothing
    det = np.where(upright, det, 1.0)
    px = points[:, :1] - a[None, :, 0]
    pz = points[:, 1:] - a[None, :, 2]
    u = (px * e2[None, :, 2] - pz * e2[None, :, 0]) / det
    v = (pz * e1[None, :, 0] - px * e1[None, :, 2]) / det
    eps = 1e-9
    hit = (u >= -eps) & (v >= -eps) & (u + v <= 1 + eps) & upright[None, :]
    y = a[None, :, 1] + u * e1[None, :, 1] + v * e2[None, :, 1]
    if highest:
        found = np.where(hit, y, -np.inf).max(axis=1)
    else:
        found = np.where(hit, y, np.inf).min(axis=1)
    return np.where(np.isfinite(found), found, np.nan)


def _triangles(scene: Scene, name: str) -> np.ndarray:
    mesh: trimesh.Trimesh = world_mesh(scene.object(name), resolve_mesh=current_resolver())
    return np.asarray(mesh.triangles, dtype=float)


class _Field:
    """The highest surface over a grid of (x, z) points around a container: what a thing let
    down at any point of it would meet first."""

    def __init__(self, scene: Scene, container: str, cell: float, margin: float) -> None:
        low, high = bounds(scene, container)
        self.cell = cell
        self.centre = np.array([low[0] + high[0], low[2] + high[2]]) / 2
        half = np.ceil((np.array([high[0] - low[0], high[2] - low[2]]) / 2 + margin) / cell)
        xs = self.centre[0] + np.arange(-half[0], half[0] + 1) * cell
        zs = self.centre[1] + np.arange(-half[1], half[1] + 1) * cell
        self.x, self.z = np.meshgrid(xs, zs, indexing="ij")
        self.within = np.ones(self.x.shape, dtype=bool)
        self.points = np.stack([self.x.ravel(), self.z.ravel()], axis=1)
        shell = heights(_triangles(scene, container), self.points).reshape(self.x.shape)
        self.top = np.where(np.isnan(shell), -np.inf, shell)
        rim = float(high[1])
        self.inside = ~np.isnan(shell) & (shell < rim - FLAT)
        if not self.inside.any():  # no opening found: its middle, whatever is there
            self.inside = np.zeros_like(self.inside)
            nearest = np.hypot(self.x - self.centre[0], self.z - self.centre[1]).argmin()
            self.inside.flat[nearest] = True

    def add(self, scene: Scene, name: str) -> None:
        """Something now rests here: its top is the surface over its footprint."""
        low, high = bounds(scene, name)
        near = (self.points[:, 0] >= low[0] - self.cell) & (
            self.points[:, 0] <= high[0] + self.cell
        )
        near &= (self.points[:, 1] >= low[2] - self.cell) & (
            self.points[:, 1] <= high[2] + self.cell
        )
        found = heights(_triangles(scene, name), self.points[near])
        flat = self.top.ravel()
        flat[near] = np.fmax(flat[near], np.where(np.isnan(found), -np.inf, found))
        self.top = flat.reshape(self.top.shape)

    def rests(self, scene: Scene, name: str) -> np.ndarray:
        """Where `name`'s lowest point would be, centred over each grid point, let down until
        its underside (kept a little apart from neighbours) meets the highest surface under it."""
        low, high = bounds(scene, name)
        reach = np.ceil(np.array([high[0] - low[0], high[2] - low[2]]) / 2 / self.cell).astype(int)
        di, dj = np.meshgrid(
            np.arange(-reach[0], reach[0] + 1), np.arange(-reach[1], reach[1] + 1), indexing="ij"
        )
        offsets = np.stack([di.ravel(), dj.ravel()], axis=1)
        middle = np.array([low[0] + high[0], low[2] + high[2]]) / 2
        under = heights(
            _triangles(scene, name), middle + offsets * self.cell / APART, highest=False
        )
        found = ~np.isnan(under)
        rest = np.full(self.top.shape, -np.inf)
        self.within = np.ones(self.top.shape, dtype=bool)  # all of it over the opening
        pad = int(reach.max())
        padded = np.pad(self.top, pad, constant_values=-np.inf)
        opening = np.pad(self.inside, pad, constant_values=False)
        rows, cols = self.top.shape
        for (i, j), rise in zip(offsets[found], under[found] - float(low[1]), strict=True):
            window = padded[pad + i : pad + i + rows, pad + j : pad + j + cols]
            rest = np.maximum(rest, window - rise)
            self.within &= opening[pad + i : pad + i + rows, pad + j : pad + j + cols]
        return rest

    def lowest(self, rest: np.ndarray) -> tuple[int, ...] | None:
        """The grid point inside with the lowest rest, the nearest the middle of equal ones;
        where the whole thing is over the opening, if it fits anywhere."""
        distance = np.hypot(self.x - self.centre[0], self.z - self.centre[1])
        allowed = self.within if self.within.any() else self.inside
        score = np.where(allowed & np.isfinite(rest), rest + TOWARDS_MIDDLE * distance, np.inf)
        if not np.isfinite(score).any():
            return None
        return tuple(int(i) for i in np.unravel_index(int(np.argmin(score)), score.shape))

    def nearest(self, x: float, z: float) -> tuple[int, ...]:
        return tuple(
            int(i)
            for i in np.unravel_index(int(np.hypot(self.x - x, self.z - z).argmin()), self.x.shape)
        )


def _ring(count: int, spacing: float) -> list[tuple[float, float]]:
    """Footprint centres (relative) of `count` things side by side: one, or a ring."""
    if count == 1:
        return [(0.0, 0.0)]
    radius = spacing / (2 * math.sin(math.pi / count))
    turn = math.pi / 2 if count == 2 else math.pi / 6
    return [
        (
            radius * math.cos(turn + 2 * math.pi * i / count),
            radius * math.sin(turn + 2 * math.pi * i / count),
        )
        for i in range(count)
    ]


def put_inside(scene: Scene, names: list[str], container: str) -> Scene:
    """Rest `names` inside the container: as many as the flat inner floor takes side by side
    (a ring about its middle, up to RING), the others let down one by one into the lowest free
    place nearest the middle (up the walls, into the gaps, onto the ones below: a pile)."""
    sizes = [size(scene, name) for name in names]
    widest = max(max(width, depth) for width, _, depth in sizes)
    smallest = min(max(min(width, depth), 0.005) for width, _, depth in sizes)
    c_width, _, c_depth = size(scene, container)
    cell = max(min(smallest / 12, min(c_width, c_depth) / 24), max(c_width, c_depth) / GRID)
    field = _Field(scene, container, cell, widest / 2 + cell)
    first = field.rests(scene, names[0])
    floor = first[field.nearest(*field.centre)]
    ringed: list[tuple[float, float]] = []
    for count in range(min(len(names), RING), 0, -1):
        ring = _ring(count, widest * APART + 2 * cell)
        spots = [(field.centre[0] + x, field.centre[1] + z) for x, z in ring]
        levels = np.array([first[field.nearest(*spot)] for spot in spots])
        if count == 1 or bool(np.all(np.isfinite(levels) & (levels <= floor + FLAT))):
            ringed = spots
            break
    for index, name in enumerate(names):
        rest = field.rests(scene, name)
        spot = field.nearest(*ringed[index]) if index < len(ringed) else field.lowest(rest)
        if spot is None or not np.isfinite(rest[spot]):
            spot = field.nearest(*field.centre)
        bottom = (
            float(rest[spot]) if np.isfinite(rest[spot]) else float(bounds(scene, container)[0][1])
        )
        scene = move(scene, name, float(field.x[spot]), bottom, float(field.z[spot]))
        field.add(scene, name)
    return scene


def contents(scene: Scene) -> list[tuple[str, str]]:
    """(container, thing) for each thing whose footprint centre is within an open container's
    and whose bottom is below its rim."""
    containers = [item.name for item in scene.objects if is_container(scene, item.name)]
    if not containers:
        return []
    boxes = {item.name: bounds(scene, item.name) for item in scene.objects}
    found = []
    for name in containers:
        low, high = boxes[name]
        for other, (o_low, o_high) in boxes.items():
            x, z = (o_low[0] + o_high[0]) / 2, (o_low[2] + o_high[2]) / 2
            within = low[0] < x < high[0] and low[2] < z < high[2]
            if other != name and within and low[1] - 0.01 <= o_low[1] < high[1]:
                found.append((name, other))
    return found


def elevation_to_see(scene: Scene) -> float:
    """Degrees above the horizon a camera must look from to see the middle of everything inside
    an open container over its rim (0 when nothing is inside one)."""
    needed = 0.0
    for container, thing in contents(scene):
        low, high = bounds(scene, container)
        t_low, t_high = bounds(scene, thing)
        x, z = (t_low[0] + t_high[0]) / 2, (t_low[2] + t_high[2]) / 2
        middle = (t_low[1] + t_high[1]) / 2
        below = float(high[1] - middle)
        if below <= 0:
            continue
        # the nearest rim, whichever way the camera looks from
        reach = max(float(min(high[0] - x, x - low[0], high[2] - z, z - low[2])), 0.01)
        needed = max(needed, math.degrees(math.atan2(below, reach)) + MARGIN_DEG)
    return min(needed, MAX_ELEVATION_DEG)
