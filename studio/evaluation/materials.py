"""Material words as bounds on glTF PBR factors (and, for coloured metals, a hue family).

The check judges what a renderer would show, not the material's label: "metal" is a metallic
factor of at least 0.5, "glass" an opacity below 0.6, the solid dielectrics bands of roughness.

The dielectric families differ on screen mainly in roughness, so each has its own band, split
halfway between the roughness of neighbouring presets of studio.scene.materials (ceramic 0.15,
marble 0.2, plastic 0.4, oak 0.6 and wood 0.65, stone 0.85): glazed ceramic up to 0.175, polished
marble 0.175-0.3, plastic 0.3-0.5, wood 0.5-0.75, and the rough ones (stone, concrete, rubber,
fabric) from 0.75. A value exactly on a split counts for both sides. Colour does not separate
them (painted wood, coloured plastic, green marble, red rubber); nor can anything a renderer shows
tell stone, concrete, rubber and fabric apart, so those four share a band.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.evaluation.colours import family
from studio.evaluation.glb_scene import ObjectView

DIELECTRIC = 0.2


@dataclass(frozen=True)
class MaterialBounds:
    metallic: tuple[float, float] = (0.0, 1.0)
    roughness: tuple[float, float] = (0.0, 1.0)
    opacity: tuple[float, float] = (0.0, 1.0)
    families: tuple[str, ...] = ()
    """Hue families the base colour must fall in (empty: any colour, e.g. painted wood)."""

    def problems(self, item: ObjectView) -> list[str]:
        """What about the object's material is outside these bounds (empty when it fits)."""
        found = []
        for label, value, (low, high) in (
            ("metallic", item.metallic, self.metallic),
            ("roughness", item.roughness, self.roughness),
            ("opacity", item.opacity, self.opacity),
        ):
            if not low <= value <= high:
                found.append(f"{label} {value:.2f} is outside {low:g}-{high:g}")
        measured = family(item.base_color)
        if self.families and measured not in self.families:
            found.append(f"its colour reads as {measured}, not {'/'.join(self.families)}")
        return found


_METAL = (0.5, 1.0)
_NOT_METAL = (0.0, DIELECTRIC)
_SOLID = (0.9, 1.0)
# Roughness bands of the solid dielectrics, split halfway between neighbouring presets.
CERAMIC_ROUGHNESS = (0.0, 0.175)
MARBLE_ROUGHNESS = (0.175, 0.3)
PLASTIC_ROUGHNESS = (0.3, 0.5)
WOOD_ROUGHNESS = (0.5, 0.75)
ROUGH_ROUGHNESS = (0.75, 1.0)


def _dielectric(roughness: tuple[float, float]) -> MaterialBounds:
    return MaterialBounds(metallic=_NOT_METAL, roughness=roughness, opacity=_SOLID)


LIKE: dict[str, MaterialBounds] = {
    "metal": MaterialBounds(metallic=_METAL),
    "steel": MaterialBounds(metallic=_METAL, families=("grey", "white")),
    "iron": MaterialBounds(metallic=_METAL, families=("grey", "white", "black", "brown")),
    "aluminium": MaterialBounds(metallic=_METAL, families=("grey", "white")),
    "chrome": MaterialBounds(metallic=_METAL, roughness=(0.0, 0.35), families=("grey", "white")),
    "silver": MaterialBounds(metallic=_METAL, families=("grey", "white")),
    "gold": MaterialBounds(metallic=_METAL, families=("yellow", "orange", "brown")),
    "brass": MaterialBounds(metallic=_METAL, families=("yellow", "orange", "brown")),
    "bronze": MaterialBounds(metallic=_METAL, families=("orange", "brown", "yellow")),
    "copper": MaterialBounds(metallic=_METAL, families=("orange", "red", "brown", "pink")),
    "glass": MaterialBounds(opacity=(0.0, 0.6)),
    "wood": _dielectric(WOOD_ROUGHNESS),
    "ceramic": _dielectric(CERAMIC_ROUGHNESS),
    "marble": _dielectric(MARBLE_ROUGHNESS),
    "plastic": _dielectric(PLASTIC_ROUGHNESS),
    "rubber": _dielectric(ROUGH_ROUGHNESS),
    "fabric": _dielectric(ROUGH_ROUGHNESS),
    "stone": _dielectric(ROUGH_ROUGHNESS),
    "concrete": _dielectric(ROUGH_ROUGHNESS),
    "matte": MaterialBounds(roughness=(0.6, 1.0)),
    "glossy": MaterialBounds(roughness=(0.0, 0.35)),
}
ALIASES = {
    "metallic": "metal",
    "stainless": "steel",
    "aluminum": "aluminium",
    "wooden": "wood",
    "oak": "wood",
    "walnut": "wood",
    "pine": "wood",
    "porcelain": "ceramic",
    "cloth": "fabric",
    "velvet": "fabric",
    "linen": "fabric",
    "granite": "stone",
    "shiny": "glossy",
}


def bounds_for(word: str) -> MaterialBounds:
    """The bounds a material word stands for; KeyError for a word with none."""
    key = word.strip().lower()
    return LIKE[ALIASES.get(key, key)]


def material_words() -> list[str]:
    return sorted({*LIKE, *ALIASES})
