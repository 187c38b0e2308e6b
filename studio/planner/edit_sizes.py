"""Size changes in a follow-up request: absolute sizes ("2 m tall"), multiples ("twice as wide"),
percentages, comparatives ("a bit bigger", "10 cm wider"), turned into resize_object calls."""

from __future__ import annotations

import re

from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_tables import (
    ADJECTIVES,
    COMPARATIVES,
    COUNTS,
    GROW,
    HEDGES,
    MULTIPLES,
    ROLE_WORDS,
    SHRINK,
    UNIT_PATTERN,
    UNITS_M,
)
from studio.planner.references import Scope

REFERRING = {"the", "this", "that", "these", "those"}
"""Determiners that make a comparative pick a thing ("the bigger one") rather than resize it."""
RAISE = {"raise", "heighten"}
"""Verbs that make a thing standing on the floor taller ("raise the desk by 10 cm")."""
PLACE_AFTER_IN = {"a", "an", "the", "it", "them", "this", "that", "my", "front", "there", "here"}
"""Words after 'in' that make it a preposition, not inches."""
MOVE_WORDS = ("closer", "further", "to", "left", "right", "up", "down", "away")
"""Words after a length that make it a distance to move, not a size."""


def resize(text: str, words: list[str], targets: list[str], scope: Scope, plan: EditPlan) -> None:
    text = _digits(text)
    absolute = _absolute_sizes(text)
    relative = _relative_sizes(text, words)
    if not absolute and not relative:
        return
    axes = {role for role, _, _ in relative if role != "size"}
    if len(axes) == 1 and [role for role, _ in absolute] == ["size"]:
        # "taller, 1.5m": the comparative names the axis, the length is its new value
        absolute, relative = [(axes.pop(), absolute[0][1])], []
    for name in targets:
        item = scope.get(name)
        if "size" not in item:
            continue
        size = [float(v) for v in item["size"]]
        new = list(size)
        uniform = item.get("shape") in ("sphere", "torus")
        for role, value in absolute:
            _set(new, size, role, value, uniform)
        for role, factor, delta in relative:
            axis_size = _axis_value(new, role)
            target = axis_size * factor + delta
            if target <= 0:
                plan.notes.append(f"{name} cannot be made {abs(delta):g} m smaller")
                continue
            _set(new, new, role, target, uniform)
        if all(abs(a - b) < 1e-6 for a, b in zip(new, size, strict=True)):
            continue
        rounded = [round(v, 4) for v in new]
        says = f"resized {name} to {_dims(rounded)} m (was {_dims(size)} m)"
        plan.calls.append(Call("resize_object", {"name": name, "size": rounded}, says))


def _dims(size: list[float]) -> str:
    return " x ".join(f"{v:.3g}" for v in size)


def _axis_value(size: list[float], role: str) -> float:
    if role == "height":
        return size[1]
    if role == "width":
        return size[0]
    if role == "depth":
        return size[2]
    if role in ("length", "diameter"):
        return max(size[0], size[2])
    return max(size)


def _set(new: list[float], base: list[float], role: str, value: float, uniform: bool) -> None:
    """Set one dimension (or all, for a bare size or a round object) to `value` metres."""
    current = _axis_value(base, role)
    if role == "size" or (uniform and role in ("diameter", "width", "height", "depth", "length")):
        factor = value / current
        new[:] = [v * factor for v in base]
    elif role == "height":
        new[1] = value
    elif role == "width":
        new[0] = value
    elif role == "depth":
        new[2] = value
    elif role == "length":
        new[0 if base[0] >= base[2] else 2] = value
    elif role == "diameter":
        new[0], new[2] = value, value


NUMBER_WORDS = {w: n for w, n in COUNTS.items() if w not in ("pair", "couple", "dozen")}


FEET_INCHES = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:'|ft|feet|foot)\s*(\d+(?:\.\d+)?)"
    r"(?:\s*(?:\"|''|in\b|inch\b|inches\b)|(?=\s*(?:$|[,.;!?]|tall|high|wide|long|deep)))"
)
FEET = re.compile(r"(\d+(?:\.\d+)?)\s*'(?!')")
INCHES = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\"|'')")


def metric_lengths(text: str) -> str:
    """Feet and inches written together as one length in metres ("6'6\"", "2ft 6in" ->
    "1.9812 m", "0.762 m"), and the marks alone as units ("3'" -> "3 ft", '10"' -> "10 in"), so
    no part of a length reads as a count."""
    text = FEET_INCHES.sub(
        lambda m: f"{float(m.group(1)) * 0.3048 + float(m.group(2)) * 0.0254:.4f} m", text
    )
    text = FEET.sub(lambda m: f"{m.group(1)} ft", text)
    return INCHES.sub(lambda m: f"{m.group(1)} in", text)


def _digits(text: str) -> str:
    """'one metre high' -> '1 metre high': a number word before a unit, as digits."""
    words = "|".join(NUMBER_WORDS)
    return re.sub(
        rf"\b({words})\s+(?=(?:{UNIT_PATTERN})\b)",
        lambda m: f"{NUMBER_WORDS[m.group(1)]} ",
        text,
    )


def _absolute_sizes(text: str) -> list[tuple[str, float]]:
    text = _digits(text)
    found = []
    pattern = rf"(\d+(?:\.\d+)?)\s*({UNIT_PATTERN})\b\s*(?:in\s+)?([a-z]+)?"
    for match in re.finditer(pattern, text):
        role = ROLE_WORDS.get(match.group(3) or "", "")
        after = match.group(3) or ""
        by = text[: match.start()].split()[-1:] == ["by"]
        if by or after in COMPARATIVES or after in MOVE_WORDS or after == "lower":
            continue  # "by 10 cm", "10 cm taller", "30 cm to the left": not a size
        if match.group(2) == "in" and after in PLACE_AFTER_IN:
            continue  # "the red one in a sunny spot", "put 2 in the box": 'in' is no inch
        before = text[: match.start()].split()[-1:] or [""]
        role = role or ROLE_WORDS.get(before[0], "size")
        found.append((role, float(match.group(1)) * UNITS_M[match.group(2)]))
    return found


def _relative_sizes(text: str, words: list[str]) -> list[tuple[str, float, float]]:
    found: list[tuple[str, float, float]] = []
    multiple = re.search(
        r"\b(twice|double|two times|three times|triple|half|(\d+(?:\.\d+)?)\s*(?:times|x))\b"
        r"(?:\s+(?:as|the))?\s+(big|large|tall|wide|long|size|height|width|length|bigger|larger)?",
        text,
    )
    if multiple:
        word = multiple.group(1)
        factor = MULTIPLES.get(word, float(multiple.group(2) or 1.0))
        role = ADJECTIVES.get(multiple.group(3) or "size", "size")
        found.append((role, factor, 0.0))
        return found
    percent = re.search(
        r"(\d+(?:\.\d+)?)\s*(?:%|per\s?cent)\s*"
        r"(bigger|larger|smaller|taller|shorter|wider|narrower|longer)",
        text,
    )
    if percent:
        role, base = COMPARATIVES[percent.group(2)]
        sign = 1 if base > 1 else -1
        found.append((role, 1 + sign * float(percent.group(1)) / 100, 0.0))
        return found
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if word == "lower" and (
            following in {"the", "it", "them", "this", "that"} or _lower(words, index, text)
        ):
            role, factor = (
                "height",
                SHRINK,
            )  # "lower the table", "a bit lower": not "the lower cube"
        elif (
            word in RAISE
            and following in DETERMINERS | {"it", "them"}
            and re.search(r"\bby\s+\d", text)
        ):
            role, factor = "height", GROW  # "raise the bench by 6 inches": a taller bench
        elif word in COMPARATIVES and (index == 0 or words[index - 1] not in REFERRING):
            role, factor = COMPARATIVES[word]  # not "the smaller box": that names one
        else:
            continue
        if word in ("higher",) and re.search(r"\b(?:move|lift|raise)\b", text):
            continue
        delta_match = re.search(
            rf"(\d+(?:\.\d+)?)\s*({UNIT_PATTERN})\s+{word}\b", text
        ) or re.search(rf"\b{word}\b.*?\bby\s+(\d+(?:\.\d+)?)\s*({UNIT_PATTERN})\b", text)
        if delta_match:
            delta = float(delta_match.group(1)) * UNITS_M[delta_match.group(2)]
            found.append((role, 1.0, delta if factor > 1 else -delta))
            continue
        hedge = next((HEDGES[w] for w in words[max(0, index - 3) : index] if w in HEDGES), 1.0)
        found.append((role, 1 + (factor - 1) * hedge, 0.0))
    return found


LOWER_NOT_SHORTER = re.compile(r"\b(?:move|put|place|hang|mount|drop|slide|shift|lift|raise)\b")
"""Verbs that make 'lower' a place ("hang the picture lower"), not a height."""
DETERMINERS = {"the", "its", "their", "this", "that", "a", "an"}


def _lower(words: list[str], index: int, text: str) -> bool:
    """'make the table a bit lower', 'make the desk 10 cm lower': the comparative of height (a
    lower table is a shorter one), unless it follows a determiner ("the lower shelf") or a verb
    moves the thing."""
    before = words[index - 1] if index else ""
    return before not in DETERMINERS and not LOWER_NOT_SHORTER.search(text)
