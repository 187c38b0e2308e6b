"""Words the offline planner understands: everyday nouns, colours, counts, units, moods."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Noun:
    """An everyday object as a primitive shape with typical dimensions (metres)."""

    shape: str
    params: dict[str, Any]
    material: str = ""
    dynamic: bool = False
    aliases: tuple[str, ...] = field(default=())


NOUNS: dict[str, Noun] = {
    "table": Noun("box", {"size": [1.2, 0.75, 0.7]}, "wood", aliases=("desk",)),
    "crate": Noun("box", {"size": [0.5, 0.5, 0.5]}, "wood", True, ("box", "chest")),
    "cube": Noun("box", {"size": [0.5, 0.5, 0.5]}, "", True, ("block",)),
    "barrel": Noun("cylinder", {"radius": 0.3, "height": 0.9}, "wood", True, ("drum", "keg")),
    "ball": Noun("sphere", {"radius": 0.11}, "rubber", True, ("orb",)),
    "sphere": Noun("sphere", {"radius": 0.25}, "", True, ()),
    "pillar": Noun("cylinder", {"radius": 0.2, "height": 2.5}, "marble", aliases=("column",)),
    "cylinder": Noun("cylinder", {"radius": 0.25, "height": 0.5}, "", True, ("tube",)),
    "cone": Noun("cone", {"radius": 0.25, "height": 0.5}, "", True, ("pyramid",)),
    "torus": Noun(
        "torus", {"major_radius": 0.3, "minor_radius": 0.08}, "", True, ("ring", "donut")
    ),
    "capsule": Noun("capsule", {"radius": 0.1, "height": 0.5}, "", True, ("pill",)),
    "vase": Noun(
        "revolve",
        {"profile": [[0.0, 0.0], [0.08, 0.0], [0.12, 0.12], [0.07, 0.26], [0.09, 0.3], [0.0, 0.3]]},
        "ceramic",
        True,
        ("pot", "urn"),
    ),
    "bowl": Noun(
        "revolve",
        {
            "profile": [
                [0.0, 0.0],
                [0.06, 0.0],
                [0.13, 0.08],
                [0.12, 0.08],
                [0.055, 0.01],
                [0.0, 0.01],
            ]
        },
        "ceramic",
        True,
        ("basin",),
    ),
    "lamp": Noun("cone", {"radius": 0.15, "height": 0.45}, "metal", True, ("lantern",)),
    "cup": Noun("cylinder", {"radius": 0.04, "height": 0.1}, "ceramic", True, ("mug", "glass")),
    "bottle": Noun("cylinder", {"radius": 0.04, "height": 0.3}, "glass", True, ()),
    "book": Noun("box", {"size": [0.16, 0.03, 0.24]}, "fabric", True, ()),
    "chair": Noun("box", {"size": [0.45, 0.9, 0.45]}, "wood", aliases=("stool",)),
    "shelf": Noun("box", {"size": [0.8, 1.8, 0.35]}, "wood", aliases=("bookcase", "cabinet")),
    "sofa": Noun("box", {"size": [2.0, 0.85, 0.9]}, "fabric", aliases=("couch",)),
    "bed": Noun("box", {"size": [1.6, 0.5, 2.0]}, "fabric", aliases=()),
    "plate": Noun("cylinder", {"radius": 0.13, "height": 0.02}, "ceramic", True, ("dish",)),
    "wall": Noun("box", {"size": [4.0, 2.5, 0.15]}, "concrete", aliases=()),
    "platform": Noun("box", {"size": [2.0, 0.2, 2.0]}, "concrete", aliases=("pedestal", "plinth")),
}
NOUN_FOR_WORD = {
    word: key for key, noun in NOUNS.items() for word in (key, *noun.aliases, key + "s")
} | {alias + "s": key for key, noun in NOUNS.items() for alias in noun.aliases}
NOUN_FOR_WORD.update({"boxes": "crate", "glasses": "cup", "benches": "table", "shelves": "shelf"})

# sRGB values of colour words (converted to linear for glTF base colours).
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (220, 40, 40),
    "green": (40, 160, 60),
    "blue": (40, 90, 220),
    "yellow": (240, 210, 40),
    "orange": (245, 140, 30),
    "purple": (130, 60, 170),
    "violet": (150, 90, 200),
    "pink": (240, 130, 170),
    "white": (240, 240, 240),
    "black": (20, 20, 20),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
    "brown": (120, 80, 45),
    "beige": (220, 205, 170),
    "teal": (30, 140, 140),
    "cyan": (40, 200, 220),
    "magenta": (210, 40, 170),
    "navy": (25, 35, 90),
    "olive": (110, 120, 40),
    "maroon": (120, 25, 35),
    "turquoise": (60, 200, 190),
    "gold": (212, 175, 55),
    "silver": (192, 192, 192),
    "ivory": (245, 240, 225),
    "cream": (245, 235, 205),
}
SHADES = {"light": 1.35, "pale": 1.5, "dark": 0.55, "deep": 0.65, "bright": 1.15}

COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "two": 2,
    "pair": 2,
    "couple": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "dozen": 12,
}
MAX_COUNT = 50

UNITS_M = {
    "mm": 0.001,
    "millimetre": 0.001,
    "millimeter": 0.001,
    "cm": 0.01,
    "centimetre": 0.01,
    "centimeter": 0.01,
    "m": 1.0,
    "metre": 1.0,
    "meter": 1.0,
    "in": 0.0254,
    "inch": 0.0254,
    "inches": 0.0254,
    '"': 0.0254,
    "ft": 0.3048,
    "foot": 0.3048,
    "feet": 0.3048,
    "'": 0.3048,
}

# Lighting moods: key light colour (sRGB), intensity scale, fill ratio, key elevation (degrees).
MOODS: dict[str, dict[str, Any]] = {
    "warm": {"color": (255, 214, 170), "scale": 1.0, "fill": 0.4, "elevation": 40},
    "cool": {"color": (200, 220, 255), "scale": 1.0, "fill": 0.4, "elevation": 45},
    "studio": {"color": (255, 255, 255), "scale": 1.0, "fill": 0.6, "elevation": 45},
    "evening": {"color": (255, 170, 110), "scale": 0.6, "fill": 0.25, "elevation": 12},
    "sunset": {"color": (255, 150, 90), "scale": 0.7, "fill": 0.25, "elevation": 8},
    "dramatic": {"color": (255, 240, 225), "scale": 1.2, "fill": 0.08, "elevation": 25},
    "soft": {"color": (255, 248, 240), "scale": 0.8, "fill": 0.8, "elevation": 60},
    "daylight": {"color": (255, 250, 245), "scale": 1.3, "fill": 0.5, "elevation": 60},
}
MOOD_WORDS = {
    "warm": "warm",
    "cozy": "warm",
    "cool": "cool",
    "cold": "cool",
    "studio": "studio",
    "neutral": "studio",
    "evening": "evening",
    "dusk": "evening",
    "night": "evening",
    "sunset": "sunset",
    "dramatic": "dramatic",
    "moody": "dramatic",
    "soft": "soft",
    "diffuse": "soft",
    "daylight": "daylight",
    "sunny": "daylight",
    "bright": "daylight",
}
DIRECTIONS = {"left", "right", "above", "behind", "front", "top", "back", "side"}

RELATIONS = {
    ("on", "top", "of"): "on",
    ("on", "top"): "on",
    ("resting", "on"): "on",
    ("sitting", "on"): "on",
    ("standing", "on"): "on",
    ("placed", "on"): "on",
    ("lying", "on"): "on",
    ("on",): "on",
    ("atop",): "on",
    ("upon",): "on",
    ("under",): "under",
    ("underneath",): "under",
    ("below",): "under",
    ("beneath",): "under",
    ("next", "to"): "next_to",
    ("beside",): "next_to",
    ("by",): "next_to",
    ("near",): "next_to",
    ("left", "of"): "left_of",
    ("to", "the", "left", "of"): "left_of",
    ("right", "of"): "right_of",
    ("to", "the", "right", "of"): "right_of",
    ("in", "front", "of"): "in_front_of",
    ("before",): "in_front_of",
    ("behind",): "behind",
    ("in", "back", "of"): "behind",
    ("inside",): "inside",
    ("in",): "inside",
    ("within",): "inside",
    ("stacked", "on"): "on",
}
STACKED = {"stacked", "stack", "pile", "tower"}

FILLER = {
    "the",
    "of",
    "with",
    "and",
    "make",
    "create",
    "build",
    "add",
    "put",
    "place",
    "show",
    "me",
    "please",
    "scene",
    "there",
    "is",
    "are",
    "some",
    "that",
    "which",
    "it",
    "its",
    "in",
    "at",
    "to",
    "from",
    "made",
    "size",
    "sized",
    "about",
    "around",
    "roughly",
    "each",
    "light",
    "lighting",
    "lit",
    "lights",
    "coloured",
    "colored",
    "color",
    "colour",
    "finish",
    "material",
    "object",
    "objects",
    "thing",
    "things",
    "big",
    "small",
    "large",
    "tiny",
    "huge",
    "little",
    "tall",
    "wide",
    "long",
    "high",
    "deep",
    "thick",
    "diameter",
    "radius",
    "across",
    "by",
    "x",
}
