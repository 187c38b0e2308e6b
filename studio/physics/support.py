"""Nothing floats, nothing sinks: every object must rest on the ground or on an object below it.

How (`studio.physics.footing`): the object's footprint is sampled with vertical lines; on each
we take its lowest surface and the highest upward-facing surface beneath it, the ground's top
(y = 0, within the ground square) or the top of another object. Only surfaces no higher than the
object's own mid-height count as "beneath" (so a cup's table counts, but not the shelf above
it). The signed gap is the smallest difference over all lines: more than `tolerance_m` and the
object floats above whatever is nearest beneath it; less than `-tolerance_m` and it sinks into
it (e.g. "sinks 0.050 m into the ground"). A book overhanging a table edge rests (some of its
footprint touches); a ball whose lowest point is exactly on the tabletop rests. Whether such a
rest is *stable* is `stability`'s question.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from studio.physics.common import GROUND, Report, WorldMesh, cached, fmt, the
from studio.physics.footing import Body, Footing, beneath, footing, footings
from studio.scene.model import Scene

__all__ = ["Body", "ObjectSupport", "SupportReport", "footing", "support"]


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
    bodies = Body.of_each([(obj.name, world_mesh(obj)) for obj in scene.objects])
    below = beneath(bodies, bodies, tolerance_m)
    found = footings(
        [(body, [bodies[i] for i in others]) for body, others in zip(bodies, below, strict=True)],
        scene,
        tolerance_m,
    )
    results = [
        describe(body.name, where, tolerance_m) for body, where in zip(bodies, found, strict=True)
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
