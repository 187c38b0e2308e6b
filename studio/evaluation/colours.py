"""Colours as a person names them: hue families of a material's base colour, light temperature.

A colour word passes when the measured colour falls in one of the families the word allows
("teal" accepts cyan, green or blue), judged on the sRGB value a viewer sees (glTF stores linear
RGB). Light temperature is the correlated colour temperature (McCamy's approximation) of the
light's colour: warm is below 4500 K, cool above 7000 K, neutral between.
"""

from __future__ import annotations

import colorsys
import re

Rgb = tuple[float, float, float]

FAMILIES = (
    "red",
    "orange",
    "yellow",
    "green",
    "cyan",
    "blue",
    "purple",
    "pink",
    "brown",
    "white",
    "grey",
    "black",
)
ACCEPTS: dict[str, tuple[str, ...]] = {
    "red": ("red",),
    "crimson": ("red",),
    "scarlet": ("red", "orange"),
    "maroon": ("red", "brown"),
    "burgundy": ("red", "brown", "purple", "pink"),
    "orange": ("orange",),
    "yellow": ("yellow",),
    "gold": ("yellow", "orange"),
    "green": ("green",),
    "olive": ("green", "yellow", "brown"),
    "lime": ("green", "yellow"),
    "teal": ("cyan", "green", "blue"),
    "turquoise": ("cyan", "green", "blue"),
    "cyan": ("cyan", "blue"),
    "blue": ("blue",),
    "navy": ("blue",),
    "purple": ("purple",),
    "violet": ("purple", "blue"),
    "lilac": ("purple", "pink"),
    "pink": ("pink",),
    "magenta": ("pink", "purple"),
    "brown": ("brown", "orange"),
    "tan": ("brown", "orange", "yellow"),
    "beige": ("white", "yellow", "orange", "brown"),
    "cream": ("white", "yellow"),
    "ivory": ("white", "yellow"),
    "white": ("white",),
    "grey": ("grey",),
    "gray": ("grey",),
    "silver": ("grey", "white"),
    "charcoal": ("grey", "black"),
    "black": ("black",),
}
HEX = re.compile(r"^#(?:[0-9a-f]{3}|[0-9a-f]{6})$")
WARM_BELOW_K = 4500.0
COOL_ABOVE_K = 7000.0


def to_srgb(linear: Rgb) -> Rgb:
    """Linear RGB (glTF base colours, light colours) as the sRGB values a display shows."""

    def encode(value: float) -> float:
        value = min(1.0, max(0.0, value))
        return value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055

    r, g, b = (encode(part) for part in linear)
    return (r, g, b)


def family(linear: Rgb) -> str:
    """The hue family of a linear RGB colour: red, orange ... brown, white, grey or black."""
    hue, saturation, value = colorsys.rgb_to_hsv(*to_srgb(linear))
    degrees = hue * 360
    if value < 0.2:
        return "black"
    if saturation < 0.2:
        if value >= 0.85:
            return "white"
        return "grey" if value >= 0.3 else "black"
    if 15 <= degrees < 70 and value < 0.65:
        return "brown"  # a dark orange or yellow reads as brown
    for limit, name in (
        (15, "red"),
        (45, "orange"),
        (70, "yellow"),
        (165, "green"),
        (200, "cyan"),
        (260, "blue"),
        (300, "purple"),
        (345, "pink"),
    ):
        if degrees < limit:
            return name
    return "red"


def accepted_families(word: str) -> tuple[str, ...]:
    """The families a colour word (or a #rrggbb code, or a family name) allows; KeyError if none."""
    key = word.strip().lower()
    if HEX.match(key):
        return (family(_hex_linear(key)),)
    if key in ACCEPTS:
        return ACCEPTS[key]
    if key in FAMILIES:
        return (key,)
    raise KeyError(word)


def colour_temperature(linear: Rgb) -> float | None:
    """Correlated colour temperature (kelvin) of a light colour; None for black or off-chart."""
    r, g, b = linear
    x_ = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y_ = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z_ = 0.0193 * r + 0.1192 * g + 0.9505 * b
    total = x_ + y_ + z_
    if total <= 1e-9:
        return None
    x, y = x_ / total, y_ / total
    if abs(0.1858 - y) < 1e-9:
        return None
    n = (x - 0.3320) / (0.1858 - y)
    return 449 * n**3 + 3525 * n**2 + 6823.3 * n + 5520.33


def temperature_word(kelvin: float) -> str:
    if kelvin < WARM_BELOW_K:
        return "warm"
    if kelvin > COOL_ABOVE_K:
        return "cool"
    return "neutral"


def _hex_linear(code: str) -> Rgb:
    digits = code[1:]
    if len(digits) == 3:
        digits = "".join(char * 2 for char in digits)
    srgb = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]

    def decode(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (decode(part) for part in srgb)
    return (r, g, b)
