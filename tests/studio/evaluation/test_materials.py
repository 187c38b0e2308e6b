"""Material words against the studio's own presets: each preset passes its own family's word and
no other family's (a plastic object is not wood, a ceramic one not marble)."""

from __future__ import annotations

import pytest

from studio.evaluation.glb_scene import ObjectView
from studio.evaluation.materials import bounds_for
from studio.scene.materials import PRESETS

METALS: tuple[str, ...] = ("metal", "steel", "iron", "aluminium", "chrome", "silver")
METALS += ("gold", "brass", "bronze", "copper")
FAMILIES: tuple[str, ...] = ("wood", "plastic", "marble", "ceramic", "glass", "rubber")
FAMILIES += ("fabric", "stone", "concrete")
ROUGH = {"rubber", "fabric", "stone", "concrete"}
"""Rough dielectrics: a renderer shows them alike (any colour, roughness near 1), so the check
cannot tell them apart and accepts each for the others."""
OWN = {
    "wood": {"wood"},
    "oak": {"wood"},
    "plastic": {"plastic"},
    "marble": {"marble"},
    "ceramic": {"ceramic"},
    "glass": {"glass"},
    **{rough: ROUGH for rough in ROUGH},
}


def dressed_in(preset: str) -> ObjectView:
    material = PRESETS[preset]
    return ObjectView(
        preset,
        "",
        "box",
        (0.0, 0.0, 0.0),
        (1.0, 1.0, 1.0),
        material.base_color,
        material.metallic,
        material.roughness,
        material.opacity,
    )


def families_passed(preset: str) -> set[str]:
    item = dressed_in(preset)
    return {word for word in FAMILIES if not bounds_for(word).problems(item)}


@pytest.mark.parametrize("preset", sorted(OWN))
def test_a_non_metal_preset_passes_its_own_family_and_no_other(preset):
    assert families_passed(preset) == OWN[preset]
    assert not any(not bounds_for(metal).problems(dressed_in(preset)) for metal in METALS)


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - set(OWN)))
def test_a_metal_preset_is_no_non_metal(preset):
    assert families_passed(preset) == set()
    assert not bounds_for(preset).problems(dressed_in(preset))


def test_plastic_is_not_wood_and_marble_is_not_ceramic():
    assert bounds_for("wood").problems(dressed_in("plastic"))
    assert bounds_for("wooden").problems(dressed_in("plastic"))
    assert bounds_for("plastic").problems(dressed_in("oak"))
    assert bounds_for("marble").problems(dressed_in("ceramic"))
    assert bounds_for("porcelain").problems(dressed_in("marble"))
    assert bounds_for("ceramic").problems(dressed_in("marble"))
    assert bounds_for("wood").problems(dressed_in("stone"))
