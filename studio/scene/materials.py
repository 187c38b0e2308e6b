"""Named PBR material presets, as a person would say them ("wood", "gold", "glass"...)."""

from __future__ import annotations

from studio.scene.model import Material

PRESETS: dict[str, Material] = {
    "wood": Material("wood", (0.40, 0.24, 0.12), 0.0, 0.65),
    "oak": Material("oak", (0.52, 0.35, 0.18), 0.0, 0.6),
    "metal": Material("metal", (0.56, 0.57, 0.58), 1.0, 0.35),
    "steel": Material("steel", (0.56, 0.57, 0.58), 1.0, 0.3),
    "iron": Material("iron", (0.53, 0.51, 0.49), 1.0, 0.45),
    "aluminium": Material("aluminium", (0.91, 0.92, 0.92), 1.0, 0.3),
    "gold": Material("gold", (1.0, 0.77, 0.34), 1.0, 0.25),
    "copper": Material("copper", (0.95, 0.64, 0.54), 1.0, 0.3),
    "brass": Material("brass", (0.91, 0.78, 0.42), 1.0, 0.3),
    "silver": Material("silver", (0.97, 0.96, 0.91), 1.0, 0.2),
    "glass": Material("glass", (0.9, 0.95, 1.0), 0.0, 0.05, opacity=0.25),
    "plastic": Material("plastic", (0.8, 0.8, 0.8), 0.0, 0.4),
    "rubber": Material("rubber", (0.08, 0.08, 0.08), 0.0, 0.9),
    "marble": Material("marble", (0.9, 0.89, 0.86), 0.0, 0.2),
    "concrete": Material("concrete", (0.5, 0.5, 0.48), 0.0, 0.9),
    "ceramic": Material("ceramic", (0.92, 0.91, 0.88), 0.0, 0.15),
    "fabric": Material("fabric", (0.6, 0.55, 0.5), 0.0, 1.0),
    "stone": Material("stone", (0.45, 0.44, 0.42), 0.0, 0.85),
}
ALIASES = {"aluminum": "aluminium", "wooden": "wood", "metallic": "metal", "cloth": "fabric"}

# Densities in kg/m^3, for masses of dynamic objects.
DENSITY = {
    "wood": 700.0,
    "oak": 750.0,
    "metal": 7850.0,
    "steel": 7850.0,
    "iron": 7870.0,
    "aluminium": 2700.0,
    "gold": 19300.0,
    "copper": 8960.0,
    "brass": 8500.0,
    "silver": 10490.0,
    "glass": 2500.0,
    "plastic": 950.0,
    "rubber": 1100.0,
    "marble": 2700.0,
    "concrete": 2400.0,
    "ceramic": 2300.0,
    "fabric": 300.0,
    "stone": 2600.0,
}


def preset(name: str) -> Material:
    """The preset for a material word; KeyError for words that are not materials."""
    key = name.strip().lower()
    return PRESETS[ALIASES.get(key, key)]
