"""Lighting phrases wherever they stand in a request, and the lights they become.

"under warm light", "in daylight", "with a 3000 K spotlight on it", "sunset lighting",
"dramatic lighting from the left", "a softbox". The mood sets a key, fill and rim rig (three
directional lights); a light type adds that light: a spot aimed at its object, a point bulb
above the scene, a sun. The scene model has no area lights, so an area light or softbox is a
wide, soft spotlight, and the answer says so. A colour temperature ("3000 K") colours the lights.
"""

from __future__ import annotations

import math

from studio.planner.catalogue import match_phrase
from studio.planner.specs import LightingSpec
from studio.planner.vocabulary import (
    DIRECTIONS,
    LIGHT_HEAD_MOODS,
    LIGHT_HEADS,
    LIGHT_PREPOSITIONS,
    LIGHT_TYPES,
    MOOD_WORDS,
)

KELVIN_WORDS = {"k", "kelvin"}
ARTICLES = {"a", "an", "the", "some"}
HEDGES = {"ish", "very", "slightly", "quite", "really", "kinda", "rather", "fairly"}
"""Words that soften a mood inside a lighting phrase without ending it."""
TARGETS = {"on", "onto", "over", "at", "above", "towards", "pointing"}
ARRIVING = {"coming", "comes", "streaming", "streams", "pouring", "falling", "shining", "in",
            "through"}  # fmt: skip
"""Words between a light and where it comes from ("daylight coming in from the left")."""
AREA_NOTE = "area lights and softboxes are not in the scene model: a wide, soft spotlight stands in"


def is_light_word(word: str) -> bool:
    """Whether the word ends a lighting phrase ('light', 'spotlight', 'daylight'...)."""
    return word in LIGHT_HEADS or word in LIGHT_HEAD_MOODS


def read_lighting(
    words: list[str], index: int, current: LightingSpec | None
) -> tuple[LightingSpec, int, str] | None:
    """A lighting phrase starting at index: the updated spec, the words used, and 'it' when it
    points at the object named before ('a spotlight on it'), else ''."""
    position = index
    if words[position] in LIGHT_PREPOSITIONS:
        position += 1
    while position < len(words) and words[position] in ARTICLES:
        position += 1
    mood, kind, kelvin = "", "", None
    while position < len(words):
        word = words[position]
        following = words[position + 1] if position + 1 < len(words) else ""
        if word.replace(".", "", 1).isdigit() and following in KELVIN_WORDS:
            kelvin = float(word)
            position += 2
        elif _mood_word(word) and not is_light_word(word):
            mood = MOOD_WORDS[_mood_word(word)]
            position += 1
        elif word in HEDGES and position > index:  # "cold blue-ish light", "very warm light"
            position += 1
        elif word in LIGHT_TYPES and not is_light_word(word):
            kind = LIGHT_TYPES[word] or kind
            position += 1
        elif word == "box" and words[position - 1] == "soft":  # "a soft box"
            kind = "area"
            position += 1
            break
        else:
            break
    head = words[position] if position < len(words) else ""
    after = words[position + 1] if position + 1 < len(words) else ""
    named = match_phrase(words, position) if head else None
    if named is not None and named[1] > 1:
        return None  # "a sun lounger", "a sun umbrella": a thing named after a light
    if head == "light" and after in ("blue", "grey", "gray", "green", "wood", "brown", "pink"):
        return None  # "a light blue ball": a shade, not a light
    if kind == "area" and words[position - 1] == "box":
        head_used = 0
    elif is_light_word(head):
        head_used = 1
        kind = kind or LIGHT_HEADS.get(head, "")
        mood = mood or LIGHT_HEAD_MOODS.get(head, "")
    else:
        return None
    position += head_used
    spec = current or LightingSpec()
    spec.mood = mood or spec.mood
    spec.kind = kind or spec.kind
    spec.kelvin = kelvin if kelvin is not None else spec.kelvin
    direction, used = _direction(words, position)
    spec.direction = direction or spec.direction
    position += used
    target = ""
    if position < len(words) and words[position] in TARGETS:
        following = words[position + 1] if position + 1 < len(words) else ""
        if following in ("it", "them", "this", "that"):
            target, position = "it", position + 2
        elif spec.kind == "spot" and following in ("the", "a", "an"):
            target, position = "next", position + 1  # "a spotlight on the vase": its noun
    return spec, position - index, target


def _direction(words: list[str], index: int) -> tuple[str, int]:
    start = index
    while index < len(words) and words[index] in ARRIVING and "from" in words[index : index + 4]:
        index += 1
    if index < len(words) and words[index] == "from":
        position = index + 1
        while position < len(words) and words[position] in ("the", "a", "its"):
            position += 1
        word = words[position] if position < len(words) else ""
        if word in DIRECTIONS:
            return {"top": "above", "back": "behind", "side": "left"}.get(word, word), (
                position - start + 1
            )
    if start < len(words) and words[start] in ("above", "overhead"):
        return "above", 1
    return "", 0


def _mood_word(word: str) -> str:
    """The mood word `word` is, or is the '-ish' form of ('bluish', 'warmish'); else ''."""
    if word in MOOD_WORDS:
        return word
    stem = word[:-3] if word.endswith("ish") and len(word) > 5 else ""
    return next((form for form in (stem, stem + "e", stem[:-1]) if stem and form in MOOD_WORDS), "")


def kelvin_colour(kelvin: float) -> tuple[int, int, int]:
    """The sRGB colour of a black body at `kelvin` (a fit good to a few percent, 1000-40000 K)."""
    t = min(max(kelvin, 1000.0), 40000.0) / 100
    if t <= 66:
        red = 255.0
        green = 99.4708025861 * math.log(t) - 161.1195681661
        blue = 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
    else:
        red = 329.698727446 * (t - 60) ** -0.1332047592
        green = 288.1221695283 * (t - 60) ** -0.0755148492
        blue = 255.0
    r, g, b = (round(min(255.0, max(0.0, c))) for c in (red, green, blue))
    return (r, g, b)


__all__ = ["AREA_NOTE", "LightingSpec", "is_light_word", "kelvin_colour", "read_lighting"]
