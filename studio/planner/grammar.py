"""Parsing a plain-language scene request into object, relation and lighting specs.

The grammar (documented for people in README "Studio requests"):

    request   := clause ("," | ";" | "." | "and" | "with" clause)*
    clause    := object [relation object] | lighting
    object    := [count] [size] [colour] [material] noun [size] ["made of" material] ["in" colour]
    count     := a | an | one..ten | dozen | pair of | <integer>
    size      := <number> <unit> [tall | high | wide | long | deep | diameter | radius | across]
               | <number> x <number> x <number> <unit>            (width x height x depth)
    unit      := mm | cm | m | in | inch | ft | foot | feet
    colour    := [light | dark | pale | deep | bright] <colour name> | #rgb | #rrggbb
    relation  := on [top of] | resting/sitting/standing/placed on | under | next to | beside |
                 left of | right of | in front of | behind | inside | stacked (on)
    lighting  := <mood> light[ing] [from the (left | right | above | behind | front)]
    mood      := warm | cool | studio | evening | sunset | dramatic | soft | daylight

Words it cannot place are returned in `unparsed`, so nothing a person typed is silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from studio.planner.vocabulary import (
    COLOURS,
    COUNTS,
    DIRECTIONS,
    FILLER,
    MAX_COUNT,
    MOOD_WORDS,
    NOUN_FOR_WORD,
    RELATIONS,
    SHADES,
    STACKED,
    UNITS_M,
)
from studio.scene.materials import ALIASES, PRESETS

Srgb = tuple[int, int, int]
ROLES = {
    "tall": "height",
    "high": "height",
    "height": "height",
    "wide": "width",
    "width": "width",
    "long": "length",
    "length": "length",
    "deep": "depth",
    "depth": "depth",
    "diameter": "diameter",
    "across": "diameter",
    "radius": "radius",
    "thick": "thickness",
}
TOKEN = re.compile(
    r"#[0-9a-f]{6}\b|#[0-9a-f]{3}\b"
    r"|\d+(?:\.\d+)?\s*[x\u00d7]\s*\d+(?:\.\d+)?\s*[x\u00d7]\s*\d+(?:\.\d+)?"
    r"|\d+(?:\.\d+)?|[a-z]+|[,;.]|[\"']"
)
DIMENSIONS = re.compile(
    r"(\d+(?:\.\d+)?)\s*[x\u00d7]\s*(\d+(?:\.\d+)?)\s*[x\u00d7]\s*(\d+(?:\.\d+)?)"
)
PRONOUNS = {"it", "them", "that", "this"}
METAL_WORDS = {"gold", "silver", "copper", "brass"}  # materials first, colours second
LIGHT_WORDS = {"light", "lighting", "lit", "lights", "lamp", "sun", "mood", "atmosphere"}


class GrammarError(ValueError):
    """A request the offline planner cannot turn into a scene; the message says why."""


@dataclass
class ObjectSpec:
    noun: str
    count: int = 1
    colour: Srgb | None = None
    colour_word: str = ""
    material: str = ""
    sizes: dict[str, float] = field(default_factory=dict)
    """Measured dimensions in metres by role: size, height, width, length, depth, diameter,
    radius, thickness; or `dims` given as width x height x depth (stored as dims_x/y/z)."""
    stacked: bool = False


@dataclass(frozen=True)
class RelationSpec:
    subject: int
    kind: str
    target: int


@dataclass
class LightingSpec:
    mood: str = "studio"
    direction: str = ""


@dataclass
class ParsedRequest:
    objects: list[ObjectSpec] = field(default_factory=list)
    relations: list[RelationSpec] = field(default_factory=list)
    lighting: LightingSpec | None = None
    unparsed: list[str] = field(default_factory=list)


@dataclass
class _Pending:
    count: int | None = None
    colour: Srgb | None = None
    colour_word: str = ""
    shade: float = 1.0
    material: str = ""
    sizes: dict[str, float] = field(default_factory=dict)
    stacked: bool = False

    def empty(self) -> bool:
        return not (self.count or self.colour or self.material or self.sizes or self.stacked)


def parse_request(text: str) -> ParsedRequest:
    """Parse a request; raise GrammarError when it names no object at all."""
    parsed = ParsedRequest()
    for clause in _clauses(text.lower()):
        _parse_clause(clause, parsed)
    if not parsed.objects:
        unknown = f" (unknown: {', '.join(parsed.unparsed)})" if parsed.unparsed else ""
        raise GrammarError(
            f"no object I know in {text.strip()[:200]!r}{unknown}; try 'a red ball on a table'"
        )
    return parsed


def _clauses(text: str) -> list[list[str]]:
    tokens = TOKEN.findall(text.replace("\u00d7", "x"))
    clauses: list[list[str]] = [[]]
    for token in tokens:
        if token in {",", ";", "."}:
            clauses.append([])
        else:
            clauses[-1].append(token)
    return [clause for clause in clauses if clause]


def _parse_clause(words: list[str], parsed: ParsedRequest) -> None:
    is_lighting = LIGHT_WORDS & set(words) and not any(
        NOUN_FOR_WORD.get(w) == "lamp" for w in words
    )
    if is_lighting and _parse_lighting(words, parsed):
        return
    pending = _Pending()
    relation: tuple[int, str] | None = None
    last: int | None = None
    index = 0
    while index < len(words):
        word = words[index]
        matched = _relation_at(words, index)
        if matched and (last is not None or relation is None):
            kind, length = matched
            if last is not None:
                _flush(pending, parsed.objects[last])
                pending = _Pending()
                relation = (last, kind)
            index += length
            continue
        consumed = _attribute(words, index, pending)
        if consumed:
            index += consumed
            continue
        if word in PRONOUNS and relation is not None and relation[0] > 0:
            # "a platform with a vase on it": the target is the object named before the subject
            parsed.relations.append(RelationSpec(relation[0], relation[1], relation[0] - 1))
            relation = None
            index += 1
            continue
        if word in NOUN_FOR_WORD:
            current = _mentioned(parsed, NOUN_FOR_WORD[word], words, index, pending)
            if current is None:
                parsed.objects.append(_object(NOUN_FOR_WORD[word], pending))
                current = len(parsed.objects) - 1
            if relation is not None:
                parsed.relations.append(RelationSpec(relation[0], relation[1], current))
                relation = None
            last, pending = current, _Pending()
            index += 1
            continue
        if word not in FILLER and word not in ("and", "with", "made", "of", "in"):
            parsed.unparsed.append(word)
        index += 1
    if last is not None and not pending.empty():
        _flush(pending, parsed.objects[last])
    elif pending.colour or pending.material or pending.sizes:
        parsed.unparsed.append(" ".join(words))  # attributes with no object to carry them


def _parse_lighting(words: list[str], parsed: ParsedRequest) -> bool:
    mood = next((MOOD_WORDS[word] for word in words if word in MOOD_WORDS), "")
    direction = ""
    for position, word in enumerate(words):
        if word in DIRECTIONS and position > 0 and words[position - 1] in {"the", "from", "above"}:
            direction = {"top": "above", "back": "behind", "side": "left"}.get(word, word)
        elif word == "above":
            direction = "above"
    if not mood and not direction:
        return False
    lighting = parsed.lighting or LightingSpec()
    lighting.mood = mood or lighting.mood
    lighting.direction = direction or lighting.direction
    parsed.lighting = lighting
    return True


def _relation_at(words: list[str], index: int) -> tuple[str, int] | None:
    for phrase in sorted(RELATIONS, key=len, reverse=True):
        if tuple(words[index : index + len(phrase)]) == phrase:
            return RELATIONS[phrase], len(phrase)
    return None


def _attribute(words: list[str], index: int, pending: _Pending) -> int:
    """Read a count, size, colour, material or stacking word at index; return words consumed."""
    word = words[index]
    following = words[index + 1] if index + 1 < len(words) else ""
    if word in STACKED:
        pending.stacked = True
        return 1
    if word in COUNTS and following not in UNITS_M:
        pending.count = COUNTS[word] if word not in {"a", "an"} or pending.count is None else 1
        return 2 if word in {"pair", "couple"} and following == "of" else 1
    if dims := DIMENSIONS.fullmatch(word):
        scale = UNITS_M.get(following, 1.0)
        x, y, z = (float(part) * scale for part in dims.groups())
        pending.sizes.update(dims_x=x, dims_y=y, dims_z=z)
        return 2 if following in UNITS_M else 1
    if re.fullmatch(r"\d+(?:\.\d+)?", word):
        if following in UNITS_M:
            value = float(word) * UNITS_M[following]
            after = words[index + 2] if index + 2 < len(words) else ""
            before = words[index - 1] if index > 0 else ""
            role = ROLES.get(after) or ROLES.get(before) or "size"
            pending.sizes[role] = value
            return 3 if after in ROLES else 2
        if following in NOUN_FOR_WORD or (following and following[0].isalpha()):
            pending.count = min(int(float(word)), MAX_COUNT)
            return 1
        return 0
    if word in SHADES and following in COLOURS:
        pending.shade = SHADES[word]
        return 1
    if word.startswith("#"):
        pending.colour, pending.colour_word = _hex(word), word
        return 1
    if word in METAL_WORDS or word in PRESETS or word in ALIASES:
        pending.material = ALIASES.get(word, word)
        return 1
    if word in COLOURS:
        base = COLOURS[word]
        pending.colour = tuple(min(255, round(c * pending.shade)) for c in base)  # type: ignore[assignment]
        pending.colour_word = word
        return 1
    return 0


def _hex(word: str) -> Srgb:
    digits = word[1:]
    if len(digits) == 3:
        digits = "".join(char * 2 for char in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def _mentioned(
    parsed: ParsedRequest, noun: str, words: list[str], index: int, pending: _Pending
) -> int | None:
    """'the sofa' after 'a sofa' is the same sofa, not a second one."""
    if index == 0 or words[index - 1] != "the" or not pending.empty():
        return None
    for position in range(len(parsed.objects) - 1, -1, -1):
        if parsed.objects[position].noun == noun:
            return position
    return None


def _object(noun: str, pending: _Pending) -> ObjectSpec:
    return ObjectSpec(
        noun=noun,
        count=pending.count or 1,
        colour=pending.colour,
        colour_word=pending.colour_word,
        material=pending.material,
        sizes=dict(pending.sizes),
        stacked=pending.stacked,
    )


def _flush(pending: _Pending, spec: ObjectSpec) -> None:
    """Attributes written after their noun ("a table made of oak, 2 m long") belong to it."""
    if pending.colour and spec.colour is None:
        spec.colour, spec.colour_word = pending.colour, pending.colour_word
    if pending.material and not spec.material:
        spec.material = pending.material
    for role, value in pending.sizes.items():
        spec.sizes.setdefault(role, value)
    spec.stacked = spec.stacked or pending.stacked
