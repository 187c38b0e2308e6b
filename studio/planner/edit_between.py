"""Helpers for adding a thing in a follow-up: the two things it goes between, left to right, and
whether it fits there; the catalogue kind its words name together ("a small round table" is a
round table)."""

from __future__ import annotations

from studio.planner.arrangements import spacing
from studio.planner.catalogue import CATALOGUE, match_phrase
from studio.planner.references import Scope


def between_flanks(names: list[str], scope: Scope) -> list[str]:
    """The leftmost and rightmost of the things named ('between them', 'between the chairs'),
    by where they stand; [] unless there are two with known places."""
    placed = [scope.get(name) for name in dict.fromkeys(names) if name in scope.names()]
    placed = [item for item in placed if "position" in item]
    if len(placed) < 2:
        return []
    ordered = sorted(placed, key=lambda item: float(item["position"][0]))
    return [str(ordered[0]["name"]), str(ordered[-1]["name"])]


def fits_between(scope: Scope, left: str, right: str, noun: str) -> bool:
    """Whether a usual `noun` fits in the clear gap between `left` and `right` as they stand
    (else the right one makes room: moved to stand right of it)."""
    first, second = scope.get(left), scope.get(right)
    if noun not in CATALOGUE or "size" not in first or "size" not in second:
        return True
    clear = (float(second["position"][0]) - float(second["size"][0]) / 2) - (
        float(first["position"][0]) + float(first["size"][0]) / 2
    )
    width = CATALOGUE[noun].size[0]
    return clear >= width + 2 * spacing(width)


def kind_phrase(modifiers: list[str], said: str, noun: str) -> tuple[str, str]:
    """The longest catalogue name made of the last modifiers and the noun said ('round' +
    'table': 'round table') and its key, else the noun as said and `noun`."""
    for start in range(len(modifiers)):
        words = [*modifiers[start:], *said.split(" ")]
        found = match_phrase(words, 0)
        if found is not None and found[1] == len(words) and len(words) > len(said.split(" ")):
            return " ".join(words), found[0]
    return said, noun
