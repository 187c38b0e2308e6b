"""The word tables a follow-up edit request is read with: counts, units, size words, lighting words.

The regular expressions that spot what kind of edit a request asks for are in
studio.planner.edit_verbs.
"""

from __future__ import annotations

from studio.planner.numbers import unit_metres
from studio.scene.materials import ALIASES, PRESETS

COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
    "pair": 2,
    "couple": 2,
    "few": 3,
    "several": 4,
}
UNIT_WORDS: tuple[str, ...] = ("mm", "cm", "m", "metre", "metres", "meter", "meters")
UNIT_WORDS += ("in", "inch", "inches", "ft", "foot", "feet")
# The lengths come from the one unit reader the request grammar uses (pint underneath).
UNITS_M = {word: metres for word in UNIT_WORDS if (metres := unit_metres(word)) is not None}
UNIT_PATTERN = "|".join(sorted(UNITS_M, key=len, reverse=True))
"""Any unit word in UNITS_M, longest first, for a regular expression."""

# --- which words name objects, and whether a mention is new -------------------------------------

MODALS = {"can", "could", "would", "will"}  # "can you ...": not a tin can
SUBJECTS = {"you", "u", "i", "we"}
ADD_WORDS = {"add", "another", "more", "extra", "new", "second", "also", "too", "additional"}
INDEFINITE = {"a", "an", "another", "some", "new", "extra", "additional", *COUNTS}
DEFINITE = {"the", "this", "that", "these", "those", "my", "all", "both", "every", "each"}

# --- colour, material, lighting ----------------------------------------------------------------

MATERIAL_WORDS = {*PRESETS, *ALIASES}
LIGHT_WORDS = {"light", "lights", "lighting", "lit", "mood", "atmosphere", "ambience", "hour"}
"""Words that make a mood word about the light ("golden hour", "warm light"), not a colour."""
SKY_MOODS = {"sunset", "evening", "dusk", "night", "daylight", "dramatic", "moody", "sunny"}
WARMER = {"warmer": "warm", "cooler": "cool", "colder": "cool"}
BRIGHTNESS = {
    "brighter": 1.5,
    "brighten": 1.5,
    "darker": 0.6,
    "darken": 0.6,
    "dimmer": 0.6,
    "dim": 0.6,
}


# --- sizes ---------------------------------------------------------------------------------------

ROLE_WORDS = {
    "tall": "height",
    "high": "height",
    "height": "height",
    "wide": "width",
    "width": "width",
    "long": "length",
    "length": "length",
    "deep": "depth",
    "depth": "depth",
    "across": "diameter",
    "diameter": "diameter",
    "thick": "depth",
}
"""The dimension a word next to a length names ("2 m tall", "width 40 cm")."""
GROW, SHRINK = 1.25, 0.8
COMPARATIVES = {
    word: (role, factor)
    for role, factor, words in (
        ("size", GROW, ("bigger", "larger")),
        ("size", SHRINK, ("smaller",)),
        ("height", GROW, ("taller", "higher")),
        ("height", SHRINK, ("shorter",)),
        ("width", GROW, ("wider", "broader")),
        ("width", SHRINK, ("narrower", "thinner")),
        ("length", GROW, ("longer",)),
        ("depth", GROW, ("deeper",)),
        ("depth", SHRINK, ("shallower",)),
    )
    for word in words
}
"""A comparative's dimension and the factor it scales that dimension by."""
ADJECTIVES = {
    "big": "size",
    "large": "size",
    **{word: ROLE_WORDS[word] for word in ("tall", "wide", "long", "height", "width", "length")},
}
"""The dimension 'twice as tall' / 'half the width' scales; any other word scales the size."""
MULTIPLES = {
    "twice": 2.0,
    "double": 2.0,
    "two times": 2.0,
    "three times": 3.0,
    "triple": 3.0,
    "half": 0.5,
}
HEDGES = {"bit": 0.4, "little": 0.4, "slightly": 0.4, "tad": 0.4, "much": 2.0, "lot": 2.0}

# --- moves -----------------------------------------------------------------------------------

DIRECTION_VECTORS = {
    "left": (-1.0, 0.0, 0.0),
    "right": (1.0, 0.0, 0.0),
    "forward": (0.0, 0.0, 1.0),
    "forwards": (0.0, 0.0, 1.0),
    "backward": (0.0, 0.0, -1.0),
    "backwards": (0.0, 0.0, -1.0),
    "back": (0.0, 0.0, -1.0),
    "up": (0.0, 1.0, 0.0),
}
DEFAULT_STEP = 0.5  # metres a move goes when the person gives no distance
