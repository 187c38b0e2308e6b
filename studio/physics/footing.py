"""How objects rest on what is beneath them: the vertical casts behind `support` and its fix.

An object's footprint is sampled with vertical lines: its lower vertices (the lowest
`OWN_SAMPLES // 2`, and as many more spread over the rest), a `GRID` x `GRID` grid over its XZ
box, and the `SUPPORT_SAMPLES` highest vertices of each object beneath it that fall inside that
box. On each line we take the object's lowest surface and the highest upward-facing surface
beneath it: the ground's top (y = 0, within the ground square) or the top of an object beneath
(one whose box overlaps the footprint and starts below the object's mid-height, and that is not
held by the object, as an apple in a bowl is). The signed gap is the smallest difference over
all lines, with what lies there (`Footing`).

`footings` answers for many objects at once: every object's lines are cast in one search
against its own triangles, and every (object, object beneath) pair's in one more, so a hundred
objects cost a few NumPy passes rather than a hundred small ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import trimesh
from numpy.typing import NDArray

from studio.physics.common import (
    GROUND,
    FloatArray,
    Triangles,
    bounds,
    crossings,
    ground_covers,
)
from studio.scene.model import Scene
from studio.scene.solids import enclosed_volume

GRID = 7
OWN_SAMPLES = 128
SUPPORT_SAMPLES = 16
Index = NDArray[np.intp]


@dataclass
class Body:
    """An object's world mesh with what the vertical casts need, built once per mesh."""

    name: str
    mesh: trimesh.Trimesh
    low: FloatArray
    high: FloatArray
    _facing: dict[bool, Triangles] = field(default_factory=dict)

    @staticmethod
    def of(name: str, mesh: trimesh.Trimesh) -> Body:
        box = bounds(mesh)
        return Body(name, mesh, box[0], box[1])

    @staticmethod
    def of_each(named: Sequence[tuple[str, trimesh.Trimesh]]) -> list[Body]:
        """`Body.of` for each (name, mesh), their triangles prepared in one pass."""
        bodies = [Body.of(name, mesh) for name, mesh in named]
        for body, triangles in zip(
            bodies, Triangles.of_each([mesh for _, mesh in named]), strict=True
        ):
            body._split(triangles)
        return bodies

    def facing(self, up: bool) -> Triangles:
        """The triangles facing up (or down). A closed mesh's outward normals say which side is
        which; for any other mesh every triangle counts both ways."""
        if up not in self._facing:
            self._split(Triangles.of(self.mesh))
        return self._facing[up]

    def _split(self, triangles: Triangles) -> None:
        if enclosed_volume(self.mesh) is None:
            self._facing = {True: triangles, False: triangles}
        else:
            self._facing = {side: triangles.subset(triangles.up == side) for side in (True, False)}

    @property
    def mid_height(self) -> float:
        return float(self.low[1] + self.high[1]) / 2.0


@dataclass
class Footing:
    gap: float | None
    """Signed: positive above, negative into `nearest`; None when nothing is beneath."""
    nearest: str | None
    supports: list[str]
    """What it rests on, within the tolerance, ground first, then in the order given."""
    lowest: float


def beneath(bodies: Sequence[Body], others: Sequence[Body], tolerance_m: float) -> list[list[int]]:
    """For each body, the indices in `others` of the objects that may be beneath it: a box that
    overlaps its footprint (within `tolerance_m`) and starts below its mid-height, other than
    itself and what it holds."""
    if not bodies or not others:
        return [[] for _ in bodies]
    low = np.array([b.low for b in bodies])[:, None, :]
    high = np.array([b.high for b in bodies])[:, None, :]
    other_low = np.array([o.low for o in others])[None, :, :]
    other_high = np.array([o.high for o in others])[None, :, :]
    ceiling = (low[:, :, 1] + high[:, :, 1]) / 2.0
    overlaps = np.all(
        (other_low[..., [0, 2]] <= high[..., [0, 2]] + tolerance_m)
        & (other_high[..., [0, 2]] >= low[..., [0, 2]] - tolerance_m),
        axis=2,
    )
    # Held: starts above the body's lowest point and within its footprint (an apple in a bowl,
    # a book on a shelf), so never what the body rests on.
    held = (
        (other_low[..., 1] > low[..., 1] + tolerance_m)
        & np.all(other_low[..., [0, 2]] >= low[..., [0, 2]] - tolerance_m, axis=2)
        & np.all(other_high[..., [0, 2]] <= high[..., [0, 2]] + tolerance_m, axis=2)
    )
    itself = np.array([id(b) for b in bodies])[:, None] == np.array([id(o) for o in others])
    candidate = overlaps & (other_low[..., 1] < ceiling) & ~held & ~itself
    return [list(np.flatnonzero(row)) for row in candidate]


def footing(body: Body, others: Sequence[Body], scene: Scene, tolerance_m: float) -> Footing:
    """How `body` rests on the ground and on `others`."""
    below = beneath([body], others, tolerance_m)[0]
    return footings([(body, [others[i] for i in below])], scene, tolerance_m)[0]


def footings(
    queries: Sequence[tuple[Body, Sequence[Body]]], scene: Scene, tolerance_m: float
) -> list[Footing]:
    """For each (body, the bodies that may be beneath it), how the body rests on them and on
    the ground."""
    if not queries:
        return []
    ceilings = np.array([body.mid_height for body, _ in queries])
    points, owner = _samples(queries, ceilings)
    # The lowest surface of each body over its own lines.
    own = [body.facing(up=False) for body, _ in queries]
    which, _, heights = crossings(Triangles.concatenate(own), points, (owner, _repeat_for(own)))
    lowest: FloatArray = np.full(len(points), np.inf)
    np.minimum.at(lowest, which, heights)
    on_body = np.isfinite(lowest)
    points, owner, lowest = points[on_body], owner[on_body], lowest[on_body]

    # What is beneath each line: the ground (column 0) and the bodies beneath (1, 2, ...).
    widest = max(len(below) for _, below in queries)
    tops: FloatArray = np.full((len(points), 1 + widest), -np.inf)
    tops[ground_covers(scene, points[:, 0], points[:, 1]), 0] = 0.0
    pairs = [(q, k) for q, (_, below) in enumerate(queries) for k in range(len(below))]
    if pairs:
        _tops_beneath(queries, ceilings, pairs, points, owner, tops)
    tops[~np.isfinite(tops)] = np.nan
    return _judge(queries, points, owner, lowest, tops, tolerance_m)


def _samples(
    queries: Sequence[tuple[Body, Sequence[Body]]], ceilings: FloatArray
) -> tuple[FloatArray, Index]:
    """Every query's lines (XZ points, distinct after rounding to 1e-12 m, sorted by X then Z)
    and the query each belongs to, queries in order."""
    lower, query = _lower_vertices([body for body, _ in queries], ceilings)
    parts: list[FloatArray] = [lower[:, [0, 2]]]
    groups: list[Index] = [query]
    low = np.array([body.low for body, _ in queries])
    high = np.array([body.high for body, _ in queries])
    xs = np.linspace(low[:, 0], high[:, 0], GRID, axis=1)
    zs = np.linspace(low[:, 2], high[:, 2], GRID, axis=1)
    grid = np.stack([np.repeat(xs, GRID, axis=1), np.tile(zs, (1, GRID))], axis=2)
    parts.append(grid.reshape(-1, 2))
    groups.append(np.repeat(np.arange(len(queries)), GRID * GRID))
    parts.append(_tops_inside(queries, ceilings, low, high, groups))
    points: FloatArray = np.concatenate(parts).round(12)
    owner = np.concatenate(groups)
    order = np.lexsort((points[:, 1], points[:, 0], owner))
    points, owner = points[order], owner[order]
    repeated = np.zeros(len(points), dtype=bool)
    repeated[1:] = (
        (owner[1:] == owner[:-1])
        & (points[1:, 0] == points[:-1, 0])
        & (points[1:, 1] == points[:-1, 1])
    )
    return points[~repeated], owner[~repeated]


def _lower_vertices(bodies: Sequence[Body], ceilings: FloatArray) -> tuple[FloatArray, Index]:
    """Each body's vertices no higher than its ceiling, and the body each belongs to: all of
    them up to OWN_SAMPLES, else the lowest half of that and the other half spread evenly over
    the rest (lowest first, ties in vertex order)."""
    every = [np.asarray(body.mesh.vertices, dtype=np.float64) for body in bodies]
    vertices = np.concatenate(every)
    query = np.repeat(np.arange(len(bodies)), [len(v) for v in every])
    low = vertices[:, 1] <= ceilings[query] + 1e-9
    vertices, query = vertices[low], query[low]
    order = np.lexsort((vertices[:, 1], query))
    vertices, query = vertices[order], query[order]
    starts = np.searchsorted(query, np.arange(len(bodies)), side="left")
    counts = np.searchsorted(query, np.arange(len(bodies)), side="right") - starts
    kept = np.ones(len(query), dtype=bool)
    half = OWN_SAMPLES // 2
    for many in np.flatnonzero(counts > OWN_SAMPLES):
        rest = int(counts[many]) - half
        spread = np.zeros(rest, dtype=bool)
        spread[np.linspace(0, rest - 1, half).astype(int)] = True
        kept[starts[many] + half : starts[many] + counts[many]] = spread
    return vertices[kept], query[kept]


def _tops_inside(
    queries: Sequence[tuple[Body, Sequence[Body]]],
    ceilings: FloatArray,
    low: FloatArray,
    high: FloatArray,
    groups: list[Index],
) -> FloatArray:
    """For each body beneath each query's body, its SUPPORT_SAMPLES highest vertices inside the
    body's XZ box and no higher than its ceiling (appends their queries to `groups`)."""
    every: list[FloatArray] = []
    pair_of: list[Index] = []
    query_of: list[int] = []
    for q, (_, below) in enumerate(queries):
        for other in below:
            vertices = np.asarray(other.mesh.vertices, dtype=np.float64)
            every.append(vertices)
            pair_of.append(np.full(len(vertices), len(query_of)))
            query_of.append(q)
    if not every:
        return np.zeros((0, 2))
    vertices, pair = np.concatenate(every), np.concatenate(pair_of)
    query = np.asarray(query_of)[pair]
    inside = (
        (vertices[:, 1] <= ceilings[query])
        & (vertices[:, 0] >= low[query, 0])
        & (vertices[:, 0] <= high[query, 0])
        & (vertices[:, 2] >= low[query, 2])
        & (vertices[:, 2] <= high[query, 2])
    )
    vertices, pair, query = vertices[inside], pair[inside], query[inside]
    # Highest first within each pair, ties in vertex order (a stable sort).
    order = np.lexsort((-vertices[:, 1], pair))
    vertices, pair, query = vertices[order], pair[order], query[order]
    starts = np.searchsorted(pair, pair, side="left")
    kept = np.arange(len(pair)) - starts < SUPPORT_SAMPLES
    groups.append(query[kept])
    picked: FloatArray = vertices[kept][:, [0, 2]]
    return picked


def _tops_beneath(
    queries: Sequence[tuple[Body, Sequence[Body]]],
    ceilings: FloatArray,
    pairs: list[tuple[int, int]],
    points: FloatArray,
    owner: Index,
    tops: FloatArray,
) -> None:
    """Fill `tops[:, 1 + k]` with the highest upward-facing surface of each query's k-th body
    beneath, on that query's lines, no higher than its ceiling (-inf where there is none)."""
    starts = np.searchsorted(owner, np.arange(len(queries)), side="left")
    ends = np.searchsorted(owner, np.arange(len(queries)), side="right")
    pair_query = np.array([q for q, _ in pairs])
    counts = ends[pair_query] - starts[pair_query]
    # Each pair's lines: its query's, repeated once per body beneath.
    line_pair = np.repeat(np.arange(len(pairs)), counts)
    offsets = np.cumsum(counts) - counts
    line = np.repeat(starts[pair_query] - offsets, counts) + np.arange(int(counts.sum()))
    surfaces = [queries[q][1][k].facing(up=True) for q, k in pairs]
    which, _, heights = crossings(
        Triangles.concatenate(surfaces), points[line], (line_pair, _repeat_for(surfaces))
    )
    pair = line_pair[which]
    usable = heights <= ceilings[pair_query[pair]] + 1e-9
    columns = 1 + np.array([k for _, k in pairs])
    np.maximum.at(tops, (line[which[usable]], columns[pair[usable]]), heights[usable])


def _judge(
    queries: Sequence[tuple[Body, Sequence[Body]]],
    points: FloatArray,
    owner: Index,
    lowest: FloatArray,
    tops: FloatArray,
    tolerance_m: float,
) -> list[Footing]:
    """Each query's smallest gap over its lines, what lies there and what it touches."""
    found = [Footing(None, None, [], float(body.low[1])) for body, _ in queries]
    beneath_line = ~np.all(np.isnan(tops), axis=1)
    owner, lowest, tops = owner[beneath_line], lowest[beneath_line], tops[beneath_line]
    if not len(owner):
        return found
    column = np.nanargmax(tops, axis=1)
    gaps = lowest - tops[np.arange(len(tops)), column]
    # The first line of each query with its smallest gap (a stable sort keeps line order).
    order = np.lexsort((gaps, owner))
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
    touching = np.unique(np.stack([owner, column])[:, np.abs(gaps) <= tolerance_m], axis=1)
    for q, decisive in zip(owner[first], first, strict=True):
        body, below = queries[q]
        names = [GROUND, *(other.name for other in below)]
        supports = [names[int(c)] for c in touching[1, touching[0] == q]]
        found[q] = Footing(
            float(gaps[decisive]), names[int(column[decisive])], supports, float(body.low[1])
        )
    return found


def _repeat_for(sets: Sequence[Triangles]) -> Index:
    """Each triangle's set, for the triangles of `sets` concatenated."""
    return np.repeat(np.arange(len(sets)), [len(t.corners) for t in sets])
