"""Spatial relations between objects, judged on their world bounds (metres, +Y up).

Directions are the studio's world frame, the one its default camera looks at from the front
right: +X is right, -X left, +Z in front (towards the viewer), -Z behind. Every predicate returns
whether the relation holds and a phrase with what was measured, for the verdict's reason.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from studio.evaluation.glb_scene import ObjectView
from studio.physics.common import Triangles, top_surface_below

Judgement = tuple[bool, str]
CONTACT_TOLERANCE = 0.03
SIDE_REACH = 1.5
"""left_of / right_of / in_front_of / behind: the footprints at most this many times the larger
object's footprint extent apart (a chair 30 m left of a table is not left of it)..."""
SIDE_MIN_REACH = 0.5
"""...and at least this far may always be (metres: a cup 40 cm left of a mug is left of it)."""
BESIDE_SHARE = 0.3
"""beside / next_to: the footprints at most this share of the larger object's footprint extent
apart..."""
BESIDE_MIN_GAP = 0.35
"""...or this many metres, whichever is more: two things a hand-span or a forearm apart (the
studio sets things side by side 30 cm apart) are beside each other; 40 cm between a cup and a
vase, or a metre between two chairs, is not beside."""
AROUND_MAX_GAP = 1.0
"""around: how far from the centre object's footprint the surrounding ones may stand."""


def rests_on(a: ObjectView, b: ObjectView, tolerance: float = CONTACT_TOLERANCE) -> Judgement:
    """a's bottom touches the surface of b under it and a's centre is over b's footprint. The
    surface is the highest of b's upward faces under a's footprint that is not above a's bottom
    (a pillow on a bed lies on the mattress, below the headboard's top; a book on a bookshelf's
    middle shelf); b's top where b's triangles are not known or none is under a."""
    over = _within_footprint(a, b, tolerance)
    surface = _surface_under(a, b, tolerance)
    if surface is None or abs(surface - b.top) < 1e-6:
        surface, what = b.top, "top"
    else:
        what = f"surface under it (at {surface:.2f} m; its top is at {b.top:.2f} m)"
    gap = a.bottom - surface
    held = abs(gap) <= tolerance and over
    return held, f"{a.name}'s bottom is {_cm(gap)} from {b.name}'s {what}" + (
        "" if over else f" and not over {b.name}"
    )


def _surface_under(a: ObjectView, b: ObjectView, tolerance: float) -> float | None:
    if b.mesh is None or len(b.mesh.faces) == 0:
        return None
    triangles = Triangles.of(b.mesh)
    triangles = triangles.subset(triangles.up)
    (x0, _, z0), (x1, _, z1) = a.low, a.high
    cx, cz, hx, hz = (x0 + x1) / 2, (z0 + z1) / 2, 0.45 * (x1 - x0), 0.45 * (z1 - z0)
    points = np.array([(cx + i * hx, cz + k * hz) for i in (-1, 0, 1) for k in (-1, 0, 1)])
    found = top_surface_below(triangles, points, a.bottom + tolerance)
    return None if np.isnan(found).all() else float(np.nanmax(found))


def under(a: ObjectView, b: ObjectView, tolerance: float = CONTACT_TOLERANCE) -> Judgement:
    """a is below b's top surface, within b's footprint (a ball under a table)."""
    over = _within_footprint(a, b, tolerance)
    clearance = b.top - a.top
    held = over and clearance >= tolerance
    where = "within" if over else "outside"
    return held, f"{a.name}'s top is {_cm(clearance)} below {b.name}'s top, {where} its footprint"


def inside(a: ObjectView, b: ObjectView, tolerance: float = CONTACT_TOLERANCE) -> Judgement:
    """a sits within b's walls: over its footprint, starting between its floor and its rim."""
    over = _within_footprint(a, b, tolerance) and _footprint_contained(a, b, tolerance)
    starts = b.bottom - tolerance <= a.bottom <= b.top - tolerance
    held = over and starts
    return held, (
        f"{a.name}'s bottom at {a.bottom:.3f} m vs {b.name} {b.bottom:.3f}-{b.top:.3f} m"
        + ("" if over else f", not within {b.name}'s footprint")
    )


def above(a: ObjectView, b: ObjectView, tolerance: float = CONTACT_TOLERANCE) -> Judgement:
    """a is higher than b and over it: a's bottom at or above b's top (within tolerance) and a's
    footprint overlapping b's (each grown by tolerance). A lamp hanging over a table's edge is
    above the table; one as high but off to the side is not."""
    gap = a.bottom - b.top
    over = _footprints_overlap(a, b, tolerance)
    held = gap >= -tolerance and over
    return held, f"{a.name}'s bottom is {_cm(gap)} above {b.name}'s top" + (
        "" if over else f" and not over {b.name}'s footprint"
    )


def beside_gap(a: ObjectView, b: ObjectView) -> float:
    """The widest gap at which a is beside b: BESIDE_SHARE of the larger footprint extent of
    the two, or BESIDE_MIN_GAP, whichever is more (0.6 m by a 2 m sofa, 0.35 m by a vase)."""
    return max(BESIDE_SHARE * max(_extent(a), _extent(b)), BESIDE_MIN_GAP)


def beside(a: ObjectView, b: ObjectView, max_gap: float | None = None) -> Judgement:
    """a stands next to b: footprints apart but within max_gap (default `beside_gap`), at
    overlapping heights."""
    limit = beside_gap(a, b) if max_gap is None else max_gap
    gap = footprint_gap(a, b)
    level = a.bottom < b.top and b.bottom < a.top
    held = 0.0 <= gap <= limit and level and not _footprints_overlap(a, b)
    far = "" if gap <= limit else f", more than {_cm(limit)}"
    return held, f"{a.name} is {_cm(gap)} from {b.name}{far}" + (
        "" if level else " at another height"
    )


def side_reach(a: ObjectView, b: ObjectView) -> float:
    """How far apart two footprints may be for one to be on a side of the other: SIDE_REACH
    times the larger footprint extent of the two, at least SIDE_MIN_REACH (1.8 m for a 1.2 m
    table)."""
    return max(SIDE_REACH * max(_extent(a), _extent(b)), SIDE_MIN_REACH)


def side(
    a: ObjectView, b: ObjectView, direction: str, tolerance: float = CONTACT_TOLERANCE
) -> Judgement:
    """left_of / right_of / in_front_of / behind: a's footprint clear of b's on that side (within
    tolerance), a's centre on that side of b's, and the footprints near: at most `side_reach`
    apart, measured horizontally in any direction (a chair a metre left of a table but six
    metres behind it is behind it, not left of it)."""
    axis, sign = {
        "left_of": (0, -1),
        "right_of": (0, 1),
        "in_front_of": (2, 1),
        "behind": (2, -1),
    }[direction]
    clearance = a.low[axis] - b.high[axis] if sign > 0 else b.low[axis] - a.high[axis]
    offset = (a.centre[axis] - b.centre[axis]) * sign
    reach, apart = side_reach(a, b), footprint_gap(a, b)
    near = apart <= reach
    held = clearance >= -tolerance and offset > 0 and near
    word = direction.replace("_", " ")
    return held, f"{a.name} is {_cm(clearance)} clear {word} {b.name}" + (
        "" if near else f", {_cm(apart)} from it: more than {_cm(reach)}"
    )


def footprint_gap(a: ObjectView, b: ObjectView) -> float:
    """Horizontal distance between two footprints (0 when they touch or overlap)."""
    dx = max(b.low[0] - a.high[0], a.low[0] - b.high[0], 0.0)
    dz = max(b.low[2] - a.high[2], a.low[2] - b.high[2], 0.0)
    return math.hypot(dx, dz)


def longest_stack(items: Sequence[ObjectView], tolerance: float = CONTACT_TOLERANCE) -> list[str]:
    """The names of the tallest chain of items each resting on the one below, bottom first."""
    ordered = sorted(items, key=lambda item: (item.bottom, item.name))
    chains: list[list[str]] = []
    for index, item in enumerate(ordered):
        best: list[str] = []
        for below, chain in zip(ordered[:index], chains, strict=False):
            if rests_on(item, below, tolerance)[0] and len(chain) > len(best):
                best = chain
        chains.append([*best, item.name])
    return max(chains, key=len, default=[])


def surround(
    items: Sequence[ObjectView], centre: ObjectView, max_distance: float
) -> tuple[list[str], float]:
    """Items within max_distance (horizontally) of centre's footprint, and the widest angle
    between neighbours seen from centre (below 180 degrees means they enclose it)."""
    near = [item for item in items if footprint_gap(item, centre) <= max_distance]
    cx, _, cz = centre.centre
    angles = sorted(
        math.degrees(math.atan2(item.centre[2] - cz, item.centre[0] - cx)) % 360 for item in near
    )
    if len(angles) < 2:
        return [item.name for item in near], 360.0
    gaps = [b - a for a, b in itertools.pairwise(angles)]
    gaps.append(360 - angles[-1] + angles[0])
    return [item.name for item in near], max(gaps)


def levels(items: Sequence[ObjectView], tolerance: float = CONTACT_TOLERANCE) -> list[list[str]]:
    """Items grouped by the height they stand at, bottom level first."""
    grouped: list[list[ObjectView]] = []
    for item in sorted(items, key=lambda item: (item.bottom, item.name)):
        if grouped and item.bottom - grouped[-1][0].bottom <= tolerance:
            grouped[-1].append(item)
        else:
            grouped.append([item])
    return [[item.name for item in level] for level in grouped]


def level_rests_on_level(
    upper: Sequence[ObjectView], lower: Sequence[ObjectView], tolerance: float
) -> list[str]:
    """Names of upper items that do not rest on top of some item of the level below."""
    loose = []
    for item in upper:
        held = any(
            abs(item.bottom - below.top) <= tolerance and _footprints_overlap(item, below)
            for below in lower
        )
        if not held:
            loose.append(item.name)
    return loose


def _within_footprint(a: ObjectView, b: ObjectView, tolerance: float) -> bool:
    x, _, z = a.centre
    return (
        b.low[0] - tolerance <= x <= b.high[0] + tolerance
        and b.low[2] - tolerance <= z <= b.high[2] + tolerance
    )


def _footprint_contained(a: ObjectView, b: ObjectView, tolerance: float) -> bool:
    return all(
        a.low[axis] >= b.low[axis] - tolerance and a.high[axis] <= b.high[axis] + tolerance
        for axis in (0, 2)
    )


def _footprints_overlap(a: ObjectView, b: ObjectView, tolerance: float = 0.0) -> bool:
    return (
        a.low[0] < b.high[0] + tolerance
        and b.low[0] < a.high[0] + tolerance
        and a.low[2] < b.high[2] + tolerance
        and b.low[2] < a.high[2] + tolerance
    )


def _extent(item: ObjectView) -> float:
    """The longer side of an object's footprint."""
    width, _, depth = item.size
    return max(width, depth)


def _cm(metres: float) -> str:
    return f"{metres * 100:.1f} cm"
