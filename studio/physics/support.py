"""Nothing floats, nothing sinks: every object must rest on the ground or on an object below it.

How: the object's footprint is sampled with vertical lines (its lower vertices, a 7 x 7 grid over
its XZ box, and the highest vertices of the objects beneath it that fall inside that box). On each
line we take the object's lowest surface and the highest upward-facing surface beneath it: the
ground's top (y = 0, within the ground square) or the top of another object whose footprint
overlaps there. Only surfaces no higher than the object's own mid-height count as "beneath" (so a
cup's table counts, but not the shelf above it). The signed gap is the smallest difference over
all lines: more than `tolerance_m` and the object floats above whatever is nearest beneath it;
less than `-tolerance_m` and it sinks into it (e.g. "sinks 0.050 m into the ground"). A book
overhanging a table edge rests (some of its footprint touches); a ball whose lowest point is
exactly on the tabletop rests. Whether such a rest is *stable* is `stability`'s question.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import trimesh

from studio.physics.common import (
    GROUND,
    FloatArray,
    Report,
    Triangles,
    WorldMesh,
    bounds,
    cached,
    fmt,
    ground_covers,
    lowest_surface,
    the,
    tops_below,
)
from studio.scene.model import Scene
from studio.scene.solids import enclosed_volume

GRID = 7
OWN_SAMPLES = 128
SUPPORT_SAMPLES = 16


@dataclass
class ObjectSupport:
    name: str
    status: str
    """supported | floats | sinks | unsupported (nothing at all beneath it)"""
    gap_m: float | None
    """Signed: positive floats above, negative sinks into `nearest`; None when nothing beneath."""
    lowest_m: float
    nearest: str | None
    """What is beneath the object where the gap is smallest ("ground" or an object's name)."""
    supports: list[str]
    """What it rests on, within tolerance."""
    reason: str


@dataclass(kw_only=True)
class SupportReport(Report):
    check: str = "support"
    unit: str = "m"
    tolerance_m: float = 0.002
    objects: list[ObjectSupport] = field(default_factory=list)

    def item(self, name: str) -> ObjectSupport:
        """The result for the object called `name` (KeyError when it was not checked)."""
        for entry in self.objects:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def failing(self) -> list[ObjectSupport]:
        return [item for item in self.objects if item.status != "supported"]


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

    def facing(self, up: bool) -> Triangles:
        """The triangles facing up (or down). A closed mesh's outward normals say which side is
        which; for any other mesh every triangle counts both ways."""
        if up not in self._facing:
            triangles = Triangles.of(self.mesh)
            if enclosed_volume(self.mesh) is not None:
                triangles = triangles.subset(triangles.up == up)
            self._facing[up] = triangles
        return self._facing[up]

    @property
    def mid_height(self) -> float:
        return float(self.low[1] + self.high[1]) / 2.0


@dataclass
class Footing:
    gap: float | None
    nearest: str | None
    supports: list[str]
    lowest: float


def footing(body: Body, others: list[Body], scene: Scene, tolerance_m: float) -> Footing:
    """How `body` rests on the ground and on `others` (see the module docstring)."""
    ceiling = body.mid_height
    below = [
        other
        for other in others
        if other is not body
        and other.low[1] < ceiling
        and other.low[0] <= body.high[0] + tolerance_m
        and other.high[0] >= body.low[0] - tolerance_m
        and other.low[2] <= body.high[2] + tolerance_m
        and other.high[2] >= body.low[2] - tolerance_m
        and not _held_by(other, body, tolerance_m)
    ]
    points = _samples(body, below, ceiling)
    lowest = lowest_surface(body.facing(up=False), points)
    on_body = ~np.isnan(lowest)
    points, lowest = points[on_body], lowest[on_body]
    lowest_y = float(body.low[1])
    if len(points) == 0:
        return Footing(None, None, [], lowest_y)

    names = [GROUND] + [other.name for other in below]
    tops = np.full((len(points), len(names)), np.nan)
    tops[ground_covers(scene, points[:, 0], points[:, 1]), 0] = 0.0
    tops[:, 1:] = tops_below([other.facing(up=True) for other in below], points, ceiling)
    beneath = ~np.all(np.isnan(tops), axis=1)
    if not beneath.any():
        return Footing(None, None, [], lowest_y)
    tops, lowest = tops[beneath], lowest[beneath]
    owner = np.nanargmax(tops, axis=1)
    gaps = lowest - tops[np.arange(len(tops)), owner]
    decisive = int(np.argmin(gaps))
    gap = float(gaps[decisive])
    touching = sorted(
        {names[int(o)] for o, g in zip(owner, gaps, strict=True) if abs(g) <= tolerance_m}
    )
    supports = [name for name in names if name in touching]
    return Footing(gap, names[int(owner[decisive])], supports, lowest_y)


def _held_by(other: Body, body: Body, tolerance_m: float) -> bool:
    """`other` starts above `body`'s lowest point and within its footprint: it is in or on the
    body (an apple in a bowl, a book on a shelf), never what the body rests on."""
    return bool(
        other.low[1] > body.low[1] + tolerance_m
        and np.all(other.low[[0, 2]] >= body.low[[0, 2]] - tolerance_m)
        and np.all(other.high[[0, 2]] <= body.high[[0, 2]] + tolerance_m)
    )


def _samples(body: Body, below: list[Body], ceiling: float) -> FloatArray:
    vertices = np.asarray(body.mesh.vertices, dtype=np.float64)
    lower = vertices[vertices[:, 1] <= ceiling + 1e-9]
    lower = lower[np.argsort(lower[:, 1], kind="stable")]
    if len(lower) > OWN_SAMPLES:
        half = OWN_SAMPLES // 2
        rest = lower[half:]
        lower = np.vstack([lower[:half], rest[np.linspace(0, len(rest) - 1, half).astype(int)]])
    xs, zs = np.meshgrid(
        np.linspace(body.low[0], body.high[0], GRID),
        np.linspace(body.low[2], body.high[2], GRID),
        indexing="ij",
    )
    grid = np.column_stack([xs.ravel(), zs.ravel()])
    parts = [lower[:, [0, 2]], grid]
    for other in below:
        v = np.asarray(other.mesh.vertices, dtype=np.float64)
        inside = (
            (v[:, 1] <= ceiling)
            & (v[:, 0] >= body.low[0])
            & (v[:, 0] <= body.high[0])
            & (v[:, 2] >= body.low[2])
            & (v[:, 2] <= body.high[2])
        )
        top = v[inside]
        top = top[np.argsort(-top[:, 1], kind="stable")[:SUPPORT_SAMPLES]]
        parts.append(top[:, [0, 2]])
    points: FloatArray = np.unique(np.round(np.vstack(parts), 12), axis=0)
    return points


def describe(name: str, found: Footing, tolerance_m: float) -> ObjectSupport:
    if found.gap is None:
        return ObjectSupport(
            name,
            "unsupported",
            None,
            found.lowest,
            None,
            [],
            f"{name} has nothing beneath it (no ground, no object): it floats",
        )
    gap, nearest = found.gap, found.nearest or GROUND
    if gap > tolerance_m:
        status, reason = "floats", f"{name} floats {fmt(gap)} above {the(nearest)}"
    elif gap < -tolerance_m:
        status, reason = "sinks", f"{name} sinks {fmt(-gap)} into {the(nearest)}"
    else:
        status = "supported"
        reason = f"{name} rests on {', '.join(the(s) for s in found.supports)}"
    return ObjectSupport(name, status, gap, found.lowest, nearest, found.supports, reason)


def support(scene: Scene, world_mesh: WorldMesh, tolerance_m: float = 0.002) -> SupportReport:
    """Every object must rest on the ground or on an object below it, within `tolerance_m`."""
    started = time.perf_counter()
    world_mesh = cached(world_mesh)
    bodies = [Body.of(obj.name, world_mesh(obj)) for obj in scene.objects]
    results = [
        describe(b.name, footing(b, bodies, scene, tolerance_m), tolerance_m) for b in bodies
    ]
    failing = [r for r in results if r.status != "supported"]
    gaps = [abs(r.gap_m) for r in results if r.gap_m is not None]
    value = max(gaps, default=0.0)
    summary = (
        f"all {len(results)} objects rest on something"
        if not failing
        else f"{len(failing)} of {len(results)} objects float or sink"
    )
    return SupportReport(
        passed=not failing,
        value=value,
        summary=summary,
        reasons=[r.reason for r in failing],
        tolerance_m=tolerance_m,
        objects=results,
        elapsed_s=time.perf_counter() - started,
    )
