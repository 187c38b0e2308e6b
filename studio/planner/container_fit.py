"""Containers sized to what they hold: "half a dozen apples in a bowl", "a bowl holding three
oranges". An open container's flat inner floor (its catalogue profile's floor) must take two or
more things put inside side by side, as `containers.put_inside` sets them out (a ring about the
middle, up to RING); on a sloped wall they would roll. A container whose size the person did not
state is made wider and deeper (its height kept: a wide, shallow bowl) until its floor takes them,
and the answer says so. A stated size is kept as said.
"""

from __future__ import annotations

import math

from studio.planner.catalogue import CATALOGUE
from studio.planner.containers import APART, RING
from studio.planner.grammar import ParsedRequest
from studio.planner.shapes import box_size

SLACK = 1.08
"""Room to spare on the floor (the layout works on a grid of cells, not exact circles)."""


def floor_radius_share(key: str) -> float | None:
    """The inner floor's radius as a share of the container's width, from its profile (the
    points at the floor's height), or None for a container without one."""
    noun = CATALOGUE[key]
    if noun.floor is None or not noun.profile:
        return None
    level = noun.floor
    radii = [r for r, y in noun.profile if abs(y - level) < 1e-6 and r > 0]
    return min(radii) if radii else None


def needed_floor_radius(count: int, footprint: float) -> float:
    """The floor radius that takes `count` things `footprint` across side by side (their
    footprints wholly on it): a ring of up to RING about the middle."""
    ring = min(count, RING)
    spacing = footprint * APART
    centre = 0.0 if ring == 1 else spacing / (2 * math.sin(math.pi / ring))
    return (centre + footprint / 2) * SLACK


def fit_containers(parsed: ParsedRequest) -> None:
    """Widen each unsized container so what goes inside it stands on its floor."""
    held: dict[int, tuple[int, float]] = {}
    for relation in parsed.relations:
        if relation.kind != "inside" or relation.target < 0:
            continue
        spec = parsed.objects[relation.subject]
        if spec.upload or spec.noun not in CATALOGUE:
            continue
        width, _, depth = box_size(CATALOGUE[spec.noun], spec.sizes)
        count, widest = held.get(relation.target, (0, 0.0))
        held[relation.target] = (count + spec.count, max(widest, width, depth))
    for target, (count, footprint) in held.items():
        container = parsed.objects[target]
        share = None if container.sizes or container.upload else floor_radius_share(container.noun)
        if share is None or count < 2:  # one thing settles in the middle, even on a slope
            continue
        width, _, depth = CATALOGUE[container.noun].size
        wanted = needed_floor_radius(count, footprint) / share
        if wanted <= min(width, depth):
            continue
        container.sizes = {"width": round(wanted, 3), "depth": round(wanted, 3)}
        parsed.notes.append(
            f"the {container.noun} is {wanted * 100:.0f} cm across so its floor takes all {count}"
        )
