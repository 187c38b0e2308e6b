"""Small readers the grammar applies at each word: attributes, relations, arrangements.

Each reader looks at `words[index]` (and what follows) and returns how many words it used, so the
grammar can read a clause left to right. Attributes gather in a `Pending` until their noun comes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from studio.planner.catalogue import match_noun, match_phrase
from studio.planner.numbers import (
    QuantityError,
    number_value,
    read_length,
    read_number,
    unit_metres,
)
from studio.planner.specs import ObjectSpec, Srgb
from studio.planner.vocabulary import (
    ARRANGEMENTS,
    COLOURS,
    RELATIONS,
    SHADES,
    STACK_PHRASES,
    STACKED,
    words_not_objects,
)
from studio.scene.materials import ALIASES, PRESETS

SEPARATORS = {",", ";", ".", ":", "!", "?", "-", "\u2014", "\u2013"}
ROLES = {
    "tall": "height", "high": "height", "height": "height", "wide": "width", "width": "width",
    "long": "length", "length": "length", "deep": "depth", "depth": "depth",
    "diameter": "diameter", "across": "diameter", "radius": "radius", "thick": "thickness",
    "thickness": "thickness", "big": "size", "in": "",
}  # fmt: skip
METAL_WORDS = {"gold", "silver", "copper", "brass"}  # materials first, colours second
EXTRA_MATERIALS = {"bronze": "brass", "timber": "wood", "walnut": "oak", "pine": "wood",
                   "granite": "stone", "porcelain": "ceramic", "clay": "ceramic",
                   "chrome": "steel", "leather": "fabric", "velvet": "fabric", "wool": "fabric",
                   "cotton": "fabric", "cardboard": "wood", "paper": "fabric",
                   "crystal": "glass", "terracotta": "ceramic", "stainless": "steel"}  # fmt: skip
"""Material words without a preset of their own, read as the nearest preset."""
MATERIAL_WORDS = frozenset({*METAL_WORDS, *PRESETS, *ALIASES, *EXTRA_MATERIALS})
DIMENSION_JOINERS = {"x", "by", "*"}
TYPO_SCORE = 80.0
"""How close (0-100) a misspelt word must be to a colour or material word to be read as it."""
ARTICLES = {"the", "a", "an", "it", "them", "my"}
NEGATIVE = {"minus", "negative"}
SIZE_WORDS = {"small": 0.75, "little": 0.75, "smaller": 0.75, "mini": 0.6, "tiny": 0.5,
              "big": 1.3, "large": 1.3, "bigger": 1.3, "huge": 1.8, "giant": 2.0}  # fmt: skip
"""Size words right before a noun: how much smaller or bigger than usual, where no size is given."""


@dataclass
class Pending:
    """Attributes read before (or after) their noun."""

    count: int | None = None
    colour: Srgb | None = None
    colour_word: str = ""
    shade: float = 1.0
    material: str = ""
    sizes: dict[str, float] = field(default_factory=dict)
    stacked: bool = False
    arrangement: str = ""
    open: bool = False
    negative: bool = False
    scale: float = 1.0

    def empty(self) -> bool:
        return not (
            self.count is not None
            or self.colour
            or self.material
            or self.sizes
            or self.stacked
            or self.arrangement
            or self.open
        )

    def object(self, noun: str) -> ObjectSpec:
        return ObjectSpec(
            noun=noun,
            count=1 if self.count is None else self.count,
            colour=self.colour,
            colour_word=self.colour_word,
            material=self.material,
            sizes=dict(self.sizes),
            stacked=self.stacked,
            arrangement=self.arrangement,
            open=self.open,
            scale=self.scale,
        )

    def flush_into(self, spec: ObjectSpec, *, override: bool = False) -> None:
        """Attributes written after their noun ("a table made of oak, 2 m long") belong to it;
        a clause of attributes alone ("50 cm tall") corrects or completes the last object."""
        if self.colour and (spec.colour is None or override):
            spec.colour, spec.colour_word = self.colour, self.colour_word
        if self.material and (not spec.material or override):
            spec.material = self.material
        for role, value in self.sizes.items():
            if override:
                spec.sizes[role] = value
            else:
                spec.sizes.setdefault(role, value)
        spec.stacked = spec.stacked or self.stacked
        spec.arrangement = self.arrangement or spec.arrangement
        spec.open = spec.open or self.open
        if self.count is not None and override and self.count != 1:
            spec.count = self.count


def _phrase_at(words: list[str], index: int, table: dict[tuple[str, ...], str]) -> tuple[str, int]:
    for phrase in sorted(table, key=len, reverse=True):
        if tuple(words[index : index + len(phrase)]) == phrase:
            return table[phrase], len(phrase)
    return "", 0


def read_relation(words: list[str], index: int) -> tuple[str, int] | None:
    """A relation phrase at index ('on top of', 'next to', 'around'), and its length."""
    kind, used = _phrase_at(words, index, RELATIONS)
    if words[index] == "round" and index + 1 < len(words) and words[index + 1] in ARTICLES:
        kind, used = "around", 1  # "chairs round the table" (but "a round table" is a table)
    if not used:
        return None
    following = words[index + used] if index + used < len(words) else ""
    if kind == "around" and read_length(words, index + used) is not None:
        return None  # "around 2 m": about
    if (
        kind == "inside"
        and words[index] == "in"
        and (unit_metres(following) is not None or following in COLOURS or following in ROLES)
    ):
        return None  # "in blue", "30 cm in diameter"
    return kind, used


def read_arrangement(words: list[str], index: int) -> tuple[str, int] | None:
    """'in a row', 'in a circle', 'stacked', 'on top of each other'..., and its length."""
    for phrase in sorted(STACK_PHRASES, key=len, reverse=True):
        if tuple(words[index : index + len(phrase)]) == phrase:
            return "stacked", len(phrase)
    kind, used = _phrase_at(words, index, ARRANGEMENTS)
    if used:
        return kind, used
    grid = read_grid(words, index)
    if grid is not None:
        return "grid", grid[1]
    if words[index] in STACKED and not (index + 1 < len(words) and words[index + 1] == "of"):
        following = words[index + 1] if index + 1 < len(words) else ""
        if following not in ("on", "onto"):
            return "stacked", 1
    return None


def read_grid(words: list[str], index: int) -> tuple[int, int] | None:
    """'in a 3 by 4 grid', 'a 2 x 3 grid of', 'a grid of 3 by 3', 'in two rows of 3': how many
    places (0 when the words do not say), and the words used."""
    position = index
    if words[index] in ("grid", "array") and words[index + 1 : index + 2] == ["of"]:
        rows = read_number(words, index + 2)
        after = index + 2 + (rows[1] if rows else 0)
        if rows and after + 1 < len(words) and words[after] in DIMENSION_JOINERS:
            columns = read_number(words, after + 1)
            if columns is not None:
                return int(rows[0] * columns[0]), after + 1 + columns[1] - index
        return None
    while position < len(words) and words[position] in ("in", "a", "an", "as"):
        position += 1
    rows = read_number(words, position)
    if rows is None or (number_value(words[position]) is None and words[position] in ("a", "an")):
        return None
    after = position + rows[1]
    if words[position - 1 : position] == ["in"] and words[after : after + 1] == ["rows"]:
        return _rows_of(words, index, int(rows[0]), after + 1)
    if after + 2 >= len(words) or words[after] not in DIMENSION_JOINERS:
        return None
    columns = read_number(words, after + 1)
    if columns is None or words[after + 1 + columns[1]] not in ("grid", "array", "rows"):
        return None
    end = after + 2 + columns[1]
    if end < len(words) and words[end] == "of":
        end += 1
    return int(rows[0] * columns[0]), end - index


def _rows_of(words: list[str], index: int, rows: int, after: int) -> tuple[int, int]:
    """'in two rows of 3': six places; 'in two rows': the count said elsewhere (0 here)."""
    columns = read_number(words, after + 1) if words[after : after + 1] == ["of"] else None
    if columns is None or words[after + 1] in ("a", "an"):
        return 0, after - index
    return rows * int(columns[0]), after + 1 + columns[1] - index


def read_attribute(words: list[str], index: int, pending: Pending) -> int:
    """Read a count, size, colour, material or 'open' at index; return the words used."""
    word = words[index]
    following = words[index + 1] if index + 1 < len(words) else ""
    if word in NEGATIVE or (word == "-" and number_value(following) is not None):
        pending.negative = True
        return 1
    if word == "open" or word == "opened" or word == "empty":
        pending.open = True
        return 1
    dims = read_dimensions(words, index)
    if dims is not None:
        values, used = dims
        values = [-v if pending.negative else v for v in values]
        if len(values) == 3:
            pending.sizes.update(dims_x=values[0], dims_y=values[1], dims_z=values[2])
        else:
            pending.sizes.update(width=values[0], depth=values[1])
        return used
    length = read_length(words, index)
    if length is not None:
        value, used = length
        value = -value if pending.negative else value
        after = words[index + used] if index + used < len(words) else ""
        role = ROLES.get(after, "")
        if after == "in" and index + used + 1 < len(words):  # "30 cm in diameter"
            role = ROLES.get(words[index + used + 1], "")
            used += 1 if role else 0
        if not role:
            role = _role_before(words, index)
        pending.sizes[role or "size"] = value
        return used + (1 if after in ROLES and after != "in" else 0)
    number = read_number(words, index)
    carried = _carried_unit(words, index, number)
    if carried is not None and number is not None:  # "160 cm wide and 80 deep"
        value = number[0] * carried * (-1 if pending.negative else 1)
        pending.sizes[ROLES[words[index + number[1]]]] = value
        return number[1] + 1
    if number is not None and word not in ("a", "an"):
        value, used = number
        if pending.negative:
            value = -value
        if value != int(value):
            raise QuantityError(f"{value:g} is not a whole number of things")
        pending.count = int(value)
        return used
    if word in ("a", "an", "single", "one"):
        pending.count = 1 if pending.count is None else pending.count
        return 1
    if word in SIZE_WORDS and _noun_follows(words, index + 1):
        pending.scale *= SIZE_WORDS[word]  # "a small bed", "a big red box"
        return 1
    if word in SHADES and colour_key(words, index + 1):
        pending.shade = SHADES[word]
        return 1
    if word.startswith("#"):
        pending.colour, pending.colour_word = _hex(word), word
        return 1
    material = word if word in MATERIAL_WORDS else _misspelt(words, index, MATERIAL_WORDS)
    if material:  # "oak", "a concret bench"
        pending.material = EXTRA_MATERIALS.get(material) or ALIASES.get(material, material)
        return 1
    colour = colour_key(words, index)
    if colour:
        base = COLOURS[colour]
        shaded = tuple(min(255, round(c * pending.shade)) for c in base)
        pending.colour = (shaded[0], shaded[1], shaded[2])
        pending.colour_word = colour
        return 2 if following == "ish" else 1  # "blue-ish"
    return 0


def _noun_follows(words: list[str], index: int) -> bool:
    """Whether an object's name comes next, after any colour, material or size words."""
    while index < len(words) and (
        words[index] in COLOURS or words[index] in MATERIAL_WORDS or words[index] in SHADES
        or words[index] in SIZE_WORDS
    ):  # fmt: skip
        index += 1
    if index >= len(words):
        return False
    return match_phrase(words, index) is not None or match_noun(words[index]) is not None


def colour_key(words: list[str], index: int) -> str:
    """The colour word at words[index] ('' when none): the word itself, its '-ish' form
    ('bluish', 'reddish'), or, right before an object, an unambiguous misspelling ('blak
    chairs', 'a yelow lamp'): a word the vocabulary does not know otherwise."""
    if index >= len(words):
        return ""
    return colour_word(words[index]) or _misspelt(words, index, COLOURS)


def colour_word(word: str) -> str:
    """The colour word `word` is, or is the '-ish' form of ('bluish', 'reddish', 'blue-ish');
    '' when it is neither."""
    if word in COLOURS:
        return word
    stem = word.removesuffix("ish").removesuffix("-") if len(word) > 5 else word
    if stem == word:
        return ""
    return next((form for form in (stem, stem + "e", stem[:-1]) if form in COLOURS), "")


def _misspelt(words: list[str], index: int, choices: Collection[str]) -> str:
    """The one word of `choices` that words[index] misspells, right before an object ('blak
    chairs', 'a concret bench'); '' for a word the vocabulary or the catalogue knows."""
    word = words[index]
    if len(word) < 4 or not word.isalpha() or word in words_not_objects():
        return ""
    following = words[index + 1] if index + 1 < len(words) else ""
    if not following.isalpha() or match_noun(following) is None or match_noun(word):
        return ""
    found = process.extract(word, list(choices), scorer=fuzz.ratio, limit=2)
    close = [name for name, score, _ in found if score >= TYPO_SCORE]
    return close[0] if len(close) == 1 else ""


def read_dimensions(words: list[str], index: int) -> tuple[list[float], int] | None:
    """'120 x 75 x 70 cm', '2 m by 3 m', '2x3 m': two or three lengths in metres."""
    values: list[float | None] = []
    scales: list[float | None] = []
    position = index
    while position < len(words):
        value = number_value(words[position])
        if value is None:
            break
        compound = _compound_length(words, position)
        unit: float | None = 1.0
        if compound is not None:  # "5ft by 2'6\"", "4 ft 6 in x 2 ft": feet and inches
            value = compound[0]
            position += compound[1]
        else:
            position += 1
            unit = unit_metres(words[position]) if position < len(words) else None
            if unit is not None and (words[position] != "in" or _inches_end(words, position + 1)):
                position += 1
            else:
                unit = None
        values.append(value)
        scales.append(unit)
        joined = position < len(words) and words[position] in DIMENSION_JOINERS
        if joined and position + 1 < len(words) and number_value(words[position + 1]) is not None:
            position += 1
            continue
        break
    if len(values) < 2 or len(values) > 3:
        return None
    last_unit = next((s for s in reversed(scales) if s is not None), None)
    if last_unit is None:
        return None
    metres = [
        float(v or 0.0) * (s if s is not None else last_unit)
        for v, s in zip(values, scales, strict=True)
    ]
    return metres, position - index


def _compound_length(words: list[str], index: int) -> tuple[float, int] | None:
    """A length in two units at words[index] ("2 ' 6 \"", "5 ft 6 in"), else None."""
    found = read_length(words, index)
    if found is None or found[1] <= 2:
        return None
    after = index + found[1]
    joined = after < len(words) and words[after] in DIMENSION_JOINERS  # "4 ft 6 in x 2 ft"
    if words[after - 1] == "in" and not joined and not _inches_end(words, after):
        return None  # "5 ft 6 in a row": 'in' is a preposition there
    return found


def _inches_end(words: list[str], index: int) -> bool:
    """Whether an 'in' before words[index] is inches ("48 x 24 in", "48 x 24 in wide"): it ends
    the phrase, or a role word follows; 'in a row', 'in blue' keep it a preposition."""
    following = words[index] if index < len(words) else ""
    return not following or following in SEPARATORS or following in ROLES or following == "and"


def _carried_unit(words: list[str], index: int, number: tuple[float, int] | None) -> float | None:
    """The unit of the last length before a bare number followed by a role word, if any."""
    if number is None or words[index] in ("a", "an"):
        return None
    after = index + number[1]
    if after >= len(words) or words[after] not in ROLES or words[after] in ("in", "big"):
        return None
    for position in range(index - 1, 0, -1):
        unit = unit_metres(words[position])
        if unit is not None and number_value(words[position - 1]) is not None:
            return unit
    return None


def _role_before(words: list[str], index: int) -> str:
    """'a radius of 20 cm', 'height: 2 m', 'diameter 30 cm'."""
    position = index - 1
    while position >= 0 and words[position] in ("of", "a", "an", "about", "roughly", "is"):
        position -= 1
    if position >= 0 and words[position] in ROLES and words[position] not in ("in", "big"):
        return ROLES[words[position]]
    return ""


def _hex(word: str) -> Srgb:
    digits = word[1:]
    if len(digits) == 3:
        digits = "".join(char * 2 for char in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
