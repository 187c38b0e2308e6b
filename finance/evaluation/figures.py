"""Numbers as finance answers state them: units, rounding of a printed reference, printed figures.

Pure Python (no Django): the verifiers and the suite builder share these rules.

* Units. Money is compared in USD millions (`USD thousands`/`USD millions`/`USD billions`, and
  plain `USD`); shares of a whole in `ratio` (0.165), `%` (16.5) or `x`/`times` (17.98, a
  multiple is a ratio too). A money answer never matches a ratio reference, and vice versa.
* Rounding of a reference. The tolerance is half a unit of the last significant decimal the
  reference prints: "17.98" -> ±0.005, "4.2%" -> ±0.05 (%). Trailing zeros after the point
  are not significant: FinanceBench prints every dollar amount with two decimals, so "$1577.00"
  is rounded to the million (±0.5) and "$8.70" (3M's PP&E of 8,738 millions, in billions) to
  one decimal (±0.05). Reading "$8.70" as ±0.005 would reject the filing's own 8.738.
* Printed figures. A page "prints" a value when one of its numbers, read in millions,
  thousands or billions (statements print all three), agrees with the value at the coarser of
  the two precisions (the page's rounding, or the answer's own); read in another scale, a
  number needs two significant digits ("$1" does not state 1,233 millions). A value in plain
  `USD` (a per-share amount, "$3.85") is compared as printed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

MONEY_UNITS = {
    "usd": 1e-6,
    "usd thousands": 1e-3,
    "usd millions": 1.0,
    "usd billions": 1e3,
}
RATIO_UNITS = {"ratio": 1.0, "x": 1.0, "times": 1.0, "%": 0.01, "percent": 0.01}
# How statements print money: in millions, in thousands (value / 1000 = millions), in billions.
PRINTED_SCALES = (1.0, 1e-3, 1e3)

_REFERENCE = re.compile(r"^\s*\(?(-)?\$?\s*(-)?([\d,]*\.?\d+)\s*(%)?\)?\s*\.?\s*$")
_PRINTED = re.compile(r"(?<![\w.,])\(?-?(?:\$\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?(%|x)?(?!\w)")


class UnitError(ValueError):
    """A unit the verifiers do not know, or two units that cannot be compared."""


def unit_kind(unit: str) -> str:
    """ "money" or "ratio" for a known unit; UnitError otherwise."""
    key = normalise_unit(unit)
    if key in MONEY_UNITS:
        return "money"
    if key in RATIO_UNITS:
        return "ratio"
    raise UnitError(f"unknown unit {unit!r}")


def normalise_unit(unit: str) -> str:
    key = " ".join(unit.lower().replace("$", "usd").split())
    return {
        "usd million": "usd millions",
        "usd billion": "usd billions",
        "usd thousand": "usd thousands",
        "millions": "usd millions",
        "billions": "usd billions",
        "thousands": "usd thousands",
        "percentage": "%",
    }.get(key, key)


def convert(value: float, source: str, target: str) -> float:
    """`value` in unit `source` expressed in unit `target` (money to money, ratio to ratio)."""
    a, b = normalise_unit(source), normalise_unit(target)
    if unit_kind(a) != unit_kind(b):
        raise UnitError(f"cannot compare {source!r} with {target!r}")
    table = MONEY_UNITS if a in MONEY_UNITS else RATIO_UNITS
    return value * table[a] / table[b]


@dataclass(frozen=True)
class Reference:
    """A reference answer as printed ("$8.70"): its value and the half-unit it is rounded to."""

    text: str
    value: float
    tolerance: float
    percent: bool  # printed with a % sign


def read_reference(text: str) -> Reference:
    """Parse a bare-number reference answer; ValueError when it is not one."""
    match = _REFERENCE.match(text)
    if match is None:
        raise ValueError(f"not a bare number: {text!r}")
    digits = match.group(3).replace(",", "")
    negative = bool(match.group(1) or match.group(2))
    value = float(digits) * (-1 if negative else 1)
    return Reference(
        text=text.strip(),
        value=value,
        tolerance=0.5 * 10.0 ** -significant_decimals(digits),
        percent=bool(match.group(4)),
    )


def significant_decimals(digits: str) -> int:
    """Decimals up to the last non-zero one: "8.70" -> 1, "1577.00" -> 0, "17.98" -> 2."""
    if "." not in digits:
        return 0
    return len(digits.split(".", 1)[1].rstrip("0"))


def float_decimals(value: float, cap: int = 6) -> int:
    """Decimals of a float's shortest form (8.74 -> 2, 8738.0 -> 0), at most `cap`."""
    try:
        exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    except InvalidOperation:
        return cap
    if not isinstance(exponent, int):
        return cap
    return min(cap, max(0, -exponent))


@dataclass(frozen=True)
class PrintedNumber:
    """A number as a page prints it: absolute value, the unit of its last digit, and its sign
    ("(16,135)" and "-7.2%" are negative)."""

    text: str
    value: float
    step: float  # 1 for "1,577", 0.1 for "8.7"
    percent: bool
    negative: bool = False


CITATION_WORDS = re.compile(
    r"(?:\b(?:note|notes|page|pages|p|pp|item|items|part|section|exhibit|schedule|article|rule|"
    r"topic|asc|footnote|chapter|form|level)\.?|§|#)\s*$",
    re.IGNORECASE,
)
"""Words that make the number after them a reference, not a figure ("Note 24", "page 1",
"Item 7", "ASC 842", "Level 2")."""


def printed_numbers(text: str) -> list[PrintedNumber]:
    """Every figure a page prints ("$ 1,577", "(16,135)", "4.2%"), in order; numbers that
    name a note, page, item or section are references, not figures, and are left out."""
    out = []
    for match in _PRINTED.finditer(text):
        if CITATION_WORDS.search(text[max(0, match.start() - 16) : match.start()]):
            continue
        whole, fraction = match.group(1), match.group(2) or ""
        decimals = len(fraction) - 1 if fraction else 0
        value = float(whole.replace(",", "") + fraction)
        printed = match.group(0)
        negative = printed.lstrip().startswith(("(", "-"))
        out.append(PrintedNumber(printed, value, 10.0**-decimals, match.group(3) == "%", negative))
    return out


def significant_digits(text: str) -> int:
    return len("".join(ch for ch in text if ch.isdigit()).lstrip("0"))


def agrees(a: float, a_step: float, b: float, b_step: float) -> bool:
    """Two roundings of one quantity: equal within half of the coarser step."""
    return abs(abs(a) - abs(b)) <= max(a_step, b_step) / 2 + 1e-9 * max(1.0, abs(a))


def find_printed(value: float, unit: str, numbers: list[PrintedNumber]) -> PrintedNumber | None:
    """The first printed number that states `value` (in `unit`), or None.

    A percentage printed with its sign never states money; a ratio or percentage is stated only
    with its own sign, and with at least as many significant digits as it has, up to two
    ("1" does not state 1.21). A negative amount is stated only by a negative printing; a
    positive one also by a bracketed one (statements bracket outflows whose amount is asked)."""
    if not math.isfinite(value):
        return None
    kind = unit_kind(unit)
    own_step = 10.0 ** -float_decimals(value)
    if kind == "money":
        candidates = [
            number for number in numbers if not number.percent and (value >= 0 or number.negative)
        ]
        if normalise_unit(unit) == "usd":  # a per-share amount ("$3.85"): as printed
            for number in candidates:
                if agrees(number.value, number.step, value, own_step):
                    return number
            return None
        millions = convert(value, unit, "USD millions")
        step = own_step * MONEY_UNITS[normalise_unit(unit)]
        for scale in PRINTED_SCALES:  # as printed first, then in thousands, then in billions
            for number in candidates:
                if scale != 1.0 and significant_digits(number.text) < 2:
                    continue  # "$1" is no statement of 1,233 millions in billions
                if agrees(number.value * scale, number.step * scale, millions, step):
                    return number
        return None
    factor = RATIO_UNITS[normalise_unit(unit)]
    percent, ratio = value * factor * 100, value * factor
    for number in numbers:
        if value != 0 and number.negative != (value < 0):
            continue  # "7.2%" is no statement of -7.22 %
        # "16.5%" or "16.5" for a margin; "17.98" or "17.98x" for a multiple
        if _states(number, percent, own_step * factor * 100):
            return number
        if not number.percent and _states(number, ratio, own_step * factor):
            return number
    return None


def _states(number: PrintedNumber, value: float, step: float) -> bool:
    """`number` states the share or multiple `value` (given to `step`): it agrees, and prints as
    many significant digits as the value has, up to two."""
    wanted = min(2, significant_digits(f"{abs(value) / step:.0f}"))
    return significant_digits(number.text) >= wanted and agrees(
        number.value, number.step, value, step
    )
