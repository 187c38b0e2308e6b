"""What counts and sizes the studio can build, and what it says about those it cannot."""

from __future__ import annotations

from studio.planner.catalogue import CATALOGUE
from studio.planner.numbers import QuantityError
from studio.planner.vocabulary import MAX_COUNT
from studio.scene.model import MAX_SIZE_M

MIN_SIZE_M = 0.001
LARGE_FACTOR = 50.0
"""A stated size this many times the thing's typical size is built, with a note saying so."""


def check_count(noun: str, count: int) -> None:
    """Raise QuantityError for a count of things that cannot be built (none, negative, too many)."""
    if count <= 0:
        raise QuantityError(
            f"{count} {noun}s is nothing to build: ask for one or more"
            if count == 0
            else f"a negative count ({count}) of {noun}s cannot be built"
        )
    if count > MAX_COUNT:
        raise QuantityError(
            f"{count} {noun}s is more than the {MAX_COUNT} copies a request may ask for"
        )


def check_sizes(noun: str, sizes: dict[str, float], *, upload: bool = False) -> list[str]:
    """Raise QuantityError for sizes that cannot be built (zero, negative, too small, beyond the
    studio's limit): a size is never changed to one the person did not ask for. A size far
    beyond the thing's usual one is built as asked, with a note."""
    notes: list[str] = []
    typical = float("inf") if upload else max(CATALOGUE[noun].size)
    for role, value in sizes.items():
        what = "size" if role.startswith("dims") else role
        if value <= 0:
            raise QuantityError(
                f"a {noun} {what} of {_metres(value)} cannot be built: sizes are positive"
            )
        limit = MAX_SIZE_M / (2 if role == "radius" else 1)
        if value > limit:
            raise QuantityError(
                f"a {noun} {what} of {_metres(value)} cannot be built: the studio's scenes are "
                f"at most {_metres(MAX_SIZE_M)} across, so a {what} may be {_metres(limit)} at most"
            )
        if value < MIN_SIZE_M:
            raise QuantityError(f"a {noun} {what} of {_metres(value)} is too small to build")
        if value > typical * LARGE_FACTOR:
            notes.append(
                f"the {noun} is built {_metres(value)} ({what}) as asked, far larger than a "
                f"usual {noun} ({_metres(typical)})"
            )
    return notes


def _metres(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value / 1000:g} km"
    if abs(value) >= 1:
        return f"{value:g} m"
    if abs(value) >= 0.01:
        return f"{value * 100:g} cm"
    return f"{value * 1000:g} mm"


def scaled_sizes(noun: str, sizes: dict[str, float], scale: float) -> dict[str, float]:
    """'a small bed', 'a big box': the usual size times `scale` (its largest extent), where the
    person gave no size of their own."""
    if sizes or scale == 1.0 or noun not in CATALOGUE:
        return sizes
    return {"size": round(max(CATALOGUE[noun].size) * scale, 4)}
