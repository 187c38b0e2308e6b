"""Reading a check's parameters from the suite: names, lengths with units, numbers, choices.

Lengths may be plain numbers (metres) or strings with a unit, as a designer would state them:
`0.75`, `"75 cm"`, `"3 ft"`, `"30 in"`, `"5 km"`. Every reader raises ParamError naming the
parameter, so a mistyped suite fails loudly instead of checking nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

UNITS_M = {
    "mm": 0.001,
    "cm": 0.01,
    "m": 1.0,
    "km": 1000.0,
    "in": 0.0254,
    "inch": 0.0254,
    "inches": 0.0254,
    "ft": 0.3048,
    "foot": 0.3048,
    "feet": 0.3048,
    "yd": 0.9144,
}
LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z]+)?\s*$")


class ParamError(ValueError):
    """A check parameter that is missing or malformed; the message names it."""


@dataclass(frozen=True)
class ParamSpec:
    """The parameters a verifier takes: those it needs, and every one it understands."""

    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    one_of: tuple[tuple[str, ...], ...] = ()
    """Groups of which at least one parameter must be given (e.g. count, or min / max)."""

    def problems(self, params: Mapping[str, Any]) -> list[str]:
        """What is wrong with `params` for this verifier (empty when they are valid)."""
        found = [f"missing parameter {name!r}" for name in self.required if name not in params]
        known = set(self.required) | set(self.optional)
        found += [f"unknown parameter {name!r}" for name in params if name not in known]
        for group in self.one_of:
            if not any(name in params for name in group):
                found.append(f"give one of {', '.join(repr(name) for name in group)}")
        return found


def names(params: Mapping[str, Any], key: str = "name") -> tuple[str, ...]:
    """A word or a list of words (`name: shelf` or `name: [shelf, bookcase]`), lower-cased."""
    value = params.get(key)
    items: Iterable[Any] = value if isinstance(value, list | tuple) else [value]
    words = tuple(str(item).strip().lower() for item in items if item is not None)
    if not words or not all(words):
        raise ParamError(f"{key!r} must be a word or a list of words")
    return words


def length(params: Mapping[str, Any], key: str, default: float | None = None) -> float:
    """A length in metres from a number or a string such as '75 cm' or '3 ft'."""
    if key not in params:
        if default is None:
            raise ParamError(f"missing parameter {key!r}")
        return default
    return parse_length(params[key], key)


def parse_length(value: Any, what: str) -> float:
    if isinstance(value, bool):
        raise ParamError(f"{what!r} must be a length, not {value!r}")
    if isinstance(value, int | float):
        return float(value)
    match = LENGTH.match(str(value).lower())
    if match is None or (match[2] and match[2] not in UNITS_M):
        raise ParamError(f"{what!r} must be a length such as 0.75 or '75 cm', not {value!r}")
    return float(match[1]) * UNITS_M.get(match[2] or "m", 1.0)


def number(params: Mapping[str, Any], key: str, default: float | None = None) -> float:
    if key not in params:
        if default is None:
            raise ParamError(f"missing parameter {key!r}")
        return default
    value = params[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParamError(f"{key!r} must be a number, not {value!r}")
    return float(value)


def integer(params: Mapping[str, Any], key: str) -> int | None:
    value = params.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ParamError(f"{key!r} must be a whole number >= 0, not {value!r}")
    return value


def choice(params: Mapping[str, Any], key: str, allowed: Iterable[str], default: str = "") -> str:
    options = tuple(allowed)
    raw = params.get(key, default)
    if isinstance(raw, bool):
        raise ParamError(
            f"{key!r} is {raw!r}: YAML reads a bare on / off / yes / no as true or false, "
            f"so quote it ('on')"
        )
    value = str(raw).strip().lower()
    if value not in options:
        raise ParamError(f"{key!r} must be one of {', '.join(options)}, not {value!r}")
    return value


def words(params: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """An optional list of words (empty when absent)."""
    return names(params, key) if key in params else ()
