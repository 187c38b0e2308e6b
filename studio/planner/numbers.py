"""Counts and lengths as people write them: digits, number words, units and compounds.

Public helpers (the conversation planner reuses them):

    parse_count("a dozen") -> 12          parse_count("twenty one") -> 21
    parse_length("half a metre") -> 0.5   parse_length("5 ft 6 in") -> 1.6764
    parse_length("1 m 20") -> 1.2         parse_length("30 inches") -> 0.762

Units are recognised by `pint` (every spelling and plural of a length unit it knows: mm, cm,
metres, meters, km, in, inches, foot, feet, yards...), so this module holds only the words pint
does not: number words, fractions and the shorthands people type (5' 6").
Token-level readers (`read_number`, `read_length`) return the value and how many tokens they
used, so the grammar can read a request left to right.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

import pint

ONES = {
    "zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
SCALES = {"hundred": 100, "thousand": 1000}
GROUPS = {"dozen": 12, "pair": 2, "couple": 2, "few": 3, "several": 4, "score": 20}
"""Words that stand for a count, usually after "a" and before "of"."""
FRACTIONS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?|-?\d+/\d+|-?\.\d+")
SHORTHAND_UNITS = {"'": 0.3048, '"': 0.0254, "\u2032": 0.3048, "\u2033": 0.0254}
ENDINGS = {"tall", "high", "wide", "long", "deep", "across", "thick", "and", "in", "by", "x"}
"""Words that may follow "1 m 20" (a second part with its unit left out); a noun may not."""
NOT_UNITS = {"a", "at", "to", "of", "by", "and", "x", "s", "g", "l"}
"""Words pint reads as a unit that in a request are grammar (a = annum, x, g...)."""


class QuantityError(ValueError):
    """A count or length that cannot be meant (negative, zero, absurd); the message says why."""


@cache
def _registry() -> pint.UnitRegistry[Any]:
    return pint.UnitRegistry()


@cache
def unit_metres(word: str) -> float | None:
    """Metres in one `word` of length unit ("metres" -> 1.0, "ft" -> 0.3048), else None."""
    word = word.strip().lower()
    if word in SHORTHAND_UNITS:
        return SHORTHAND_UNITS[word]
    if not word.isalpha() or word in NOT_UNITS:
        return None
    registry = _registry()
    try:
        quantity = registry.Quantity(1, word)
    except (pint.errors.UndefinedUnitError, AttributeError, ValueError, TypeError):
        return None
    if quantity.dimensionality != registry.metre.dimensionality:
        return None
    return float(quantity.to("metre").magnitude)


def number_value(token: str) -> float | None:
    """A number written with digits ("12", "0.5", "3/4"), else None."""
    if not NUMBER.fullmatch(token):
        return None
    if "/" in token:
        top, bottom = token.split("/")
        return float(top) / float(bottom) if float(bottom) else None
    return float(token)


def read_number(words: list[str], index: int) -> tuple[float, int] | None:
    """The number at words[index] (digits, number words, "a dozen", "half a"), and tokens used."""
    if index >= len(words):
        return None
    word = words[index]
    value = number_value(word)
    if value is not None:
        return value, 1
    if word in ("a", "an") and index + 1 < len(words):
        following = words[index + 1]
        if following in GROUPS or following in SCALES:
            scale = GROUPS.get(following) or SCALES[following]
            used = 3 if index + 2 < len(words) and words[index + 2] == "of" else 2
            return float(scale), used
        if following in FRACTIONS:  # "a half", "a quarter"
            return FRACTIONS[following], 2
        return None
    if word in FRACTIONS:  # "half a metre"
        used = 2 if index + 1 < len(words) and words[index + 1] in ("a", "an") else 1
        group = words[index + used] if index + used < len(words) else ""
        if group in GROUPS or group in SCALES:  # "half a dozen": a fraction of a group
            used += 2 if index + used + 1 < len(words) and words[index + used + 1] == "of" else 1
            return FRACTIONS[word] * (GROUPS.get(group) or SCALES[group]), used
        return FRACTIONS[word], used
    if word in GROUPS and word != "no":
        used = 2 if index + 1 < len(words) and words[index + 1] == "of" else 1
        return float(GROUPS[word]), used
    return _number_words(words, index)


def _number_words(words: list[str], index: int) -> tuple[float, int] | None:
    total, current, used = 0, 0, 0
    position = index
    while position < len(words):
        word = words[position]
        if word in ONES and (used == 0 or (current % 10 == 0 and current >= 20 and word != "no")):
            current += ONES[word]
        elif word in TENS and current % 100 == 0:
            current += TENS[word]
        elif word in SCALES and (current or used == 0):
            current = max(current, 1) * SCALES[word]
            if SCALES[word] == 1000:
                total, current = total + current, 0
        elif (
            word == "and"
            and used
            and position + 1 < len(words)
            and _is_number_word(words[position + 1])
        ):
            position += 1
            continue
        else:
            break
        used = position - index + 1
        position += 1
    if not used or (words[index] == "no"):
        return None
    return float(total + current), used


def _is_number_word(word: str) -> bool:
    return word in ONES or word in TENS


def read_length(words: list[str], index: int) -> tuple[float, int] | None:
    """A length in metres at words[index]: '2 m', 'three feet', '5 ft 6 in', '1 m 20',
    'half a metre'; None when no number followed by a length unit starts there."""
    number = read_number(words, index)
    if number is None:
        return None
    value, used = number
    if index + used >= len(words):
        return None
    metres = unit_metres(words[index + used])
    if metres is None:
        return None
    total, used = value * metres, used + 1
    # a second part in a smaller unit: "5 ft 6 in", "1 m 20" (cm implied), "2 m 5 cm"
    rest = read_number(words, index + used) if index + used < len(words) else None
    if rest is not None and number_value(words[index + used]) is not None:
        after = index + used + rest[1]
        smaller = unit_metres(words[after]) if after < len(words) else None
        if smaller is not None and smaller < metres:
            return total + rest[0] * smaller, used + rest[1] + 1
        implicit = after >= len(words) or not words[after].isalpha() or words[after] in ENDINGS
        if smaller is None and not implicit:
            return total, used
        if smaller is None and math.isclose(metres, 1.0) and rest[0] < 100:
            return total + rest[0] * 0.01, used + rest[1]
        if smaller is None and math.isclose(metres, 0.3048) and rest[0] < 12:
            return total + rest[0] * 0.0254, used + rest[1]
    return total, used


def tokens(text: str) -> list[str]:
    """Lower-case words, numbers and the marks the grammar reads (, ; . - ' ")."""
    return re.findall(
        r"(?<![\w.])-\d+(?:\.\d+)?|#[0-9a-f]{6}\b|#[0-9a-f]{3}\b|\d+(?:\.\d+)?/?\d*|[a-z]+|[,;.\u2014\u2013:!?\"'\u2032\u2033]|-",
        _joined(text.lower()).replace("\u00d7", " x "),
    )


def _joined(text: str) -> str:
    """Apostrophes inside words dropped ("i'd" -> "id"), hyphens inside words made spaces
    ("blue-ish", "side-table", "mid-century"): a hyphen between letters joins words, it does not
    start a new clause the way a free-standing dash does."""
    text = re.sub(r"(?<=[a-z])['\u2019](?=[a-z])", "", text)
    return re.sub(r"(?<=[a-z])-(?=[a-z])", " ", text)


def parse_count(text: str) -> int | None:
    """How many things `text` starts with ("twelve", "a dozen", "a couple of", "3"), else None."""
    found = read_number(tokens(text), 0)
    if found is None or found[0] != int(found[0]):
        return None
    return int(found[0])


def parse_length(text: str) -> float:
    """Metres in a written length ("half a metre", "5 ft 6 in", "1 m 20"); QuantityError if none."""
    words = tokens(text)
    found = read_length(words, 0)
    if found is None:
        raise QuantityError(f"no length in {text!r}: write a number and a unit, like '30 cm'")
    return found[0]
