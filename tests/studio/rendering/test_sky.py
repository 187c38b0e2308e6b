"""The procedural sky (environment light) in the renderer's shader, compared with `sky=False`.

Skipped, like test_render.py, when no GL context can be made here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.rendering._gl import load
from studio.rendering.adjust import studio_lights
from studio.rendering.checks import exposure
from studio.rendering.pyrender_fixes import ProgramCache, sky_shader_source
from studio.rendering.renderer import render
from studio.scene.model import Camera, Material, Scene, SceneObject, Shape, Transform
from tests.studio.rendering.shapes import mesh_for

W, H = 320, 240
pytestmark = pytest.mark.usefixtures("gl_context")


CAMERA = Camera(position=(2.6, 1.8, 3.4), target=(0.0, 0.35, 0.0), yfov_deg=50.0)
GOLD = Material("gold", (1.0, 0.766, 0.336), metallic=1.0, roughness=0.1)
MATTE_GREY = Material("matte", (0.5, 0.5, 0.5), metallic=0.0, roughness=0.9)
GLASS = Material("glass", (0.9, 0.95, 1.0), metallic=0.0, roughness=0.05, opacity=0.3)


def scene() -> Scene:
    objects = (
        SceneObject("gold", Shape("sphere", {"radius": 0.4}), Transform((-0.5, 0.4, 0.0)), GOLD),
        SceneObject(
            "cube", Shape("box", {"size": [0.6, 0.6, 0.6]}), Transform((0.6, 0.3, -0.2)), MATTE_GREY
        ),
        SceneObject("glass", Shape("sphere", {"radius": 0.3}), Transform((0.5, 0.3, 0.8)), GLASS),
    )
    return Scene(objects=objects, lights=studio_lights(CAMERA), camera=CAMERA)


def upper_half(mask: np.ndarray) -> np.ndarray:
    rows = np.flatnonzero(mask.any(axis=1))
    middle = (rows[0] + rows[-1]) // 2
    upper = mask.copy()
    upper[middle:] = False
    return upper


def luma(pixels: np.ndarray) -> float:
    return float((pixels.astype(float) @ [0.2126, 0.7152, 0.0722]).mean())


def saturation(pixels: np.ndarray) -> float:
    values = pixels.astype(float)
    return float((values.max(axis=1) - values.min(axis=1)).mean())


def test_the_shader_patch_applies_to_pyrenders_mesh_shader():
    source = (Path(ProgramCache(load()).shader_dir) / "mesh.frag").read_text()
    patched = sky_shader_source(source)
    assert "uniform vec3 sky_light;" in patched and "sky_alpha" in patched
    assert sky_shader_source("not a shader") == "not a shader"


def test_polished_gold_reflects_the_sky_and_matte_grey_barely_changes():
    with_sky = render(scene(), mesh_for=mesh_for, width=W, height=H)
    without = render(scene(), mesh_for=mesh_for, width=W, height=H, sky=False)
    np.testing.assert_array_equal(with_sky.segmentation, without.segmentation)

    gold = upper_half(with_sky.mask("gold"))
    assert gold.sum() > 500
    lit, dark = with_sky.color[gold], without.color[gold]
    assert luma(lit) > luma(dark) + 20, (luma(lit), luma(dark))
    assert saturation(lit) > 1.2 * saturation(dark), (saturation(lit), saturation(dark))
    assert lit[:, 0].mean() > lit[:, 2].mean() + 30  # still gold, not washed out to white

    cube = with_sky.mask("cube")
    change = np.abs(with_sky.color[cube].astype(float) - without.color[cube].astype(float))
    assert change.mean() < 6, change.mean()

    # Glass keeps showing what is behind it, with the sky's reflection on top (brighter rims).
    glass = with_sky.mask("glass")
    assert luma(with_sky.color[glass]) > luma(without.color[glass])


def test_the_sky_is_deterministic_and_keeps_the_exposure_calibrated():
    first = render(scene(), mesh_for=mesh_for, width=W, height=H)
    second = render(scene(), mesh_for=mesh_for, width=W, height=H)
    np.testing.assert_array_equal(first.color, second.color)
    assert exposure(first).passed, exposure(first).problems
