"""Scene lights in pyrender: units, ambient term, shadows per light, and camera poses.

**Light units.** The scene uses glTF KHR_lights_punctual units: lux for directional lights,
candela for point and spot lights. pyrender's shader uses the same model (illuminance E for a
directional light, I / d^2 for point and spot lights, glTF's squared cone falloff for spots, a
Lambert term c_diff / pi) but has no camera exposure and no tone mapping: the linear result is
gamma-encoded (1/2.2) and clipped at 1. So the mapping is a single factor for every kind,
`pyrender intensity = EXPOSURE * scene intensity`, which keeps glTF's relations between lux and
candela. EXPOSURE = 0.3 is calibrated on the studio rig (`studio.rendering.adjust.studio_lights`:
key 3 lux, fill 1.2 lux, rim 2 lux; the model's default `Light.intensity` is 3): it gives a mean
luma of 0.47-0.50 for that rig on a few objects or a grid of 20-100 objects on the grey ground,
the middle of `checks.exposure`'s 0.25-0.75 band (at 1.0 the same frame measured 0.85). A single
default light (3 lux) then measures 0.37-0.40, also well exposed. Physical values (a 100 000 lux
sun) are far too bright here; `adjust.fix_exposure` rescales them.

**Ambient.** The scene model has no environment light, so without one every shadow would be pure
black. The renderer adds a uniform ambient term equal to AMBIENT_FRACTION (10 %) of the light
that reaches the centre of the objects (E / pi, tinted by the lights' colours). It scales with
the lights, so scaling every intensity by s scales the whole image's linear light by s.

**Sky.** Glossy surfaces also reflect a procedural sky (the shader is patched in
`pyrender_fixes.sky_shader_source`; no lights are added). Its radiance at the horizon is
`sky_light`: SKY_STRENGTH (0.5) of the same E / pi, tinted by the lights' colours, so it scales
with the lights like the ambient term and keeps exposure calibration intact. 0.5 is modest: a
polished metal mirrors the upper sky at about half the brightness of a white matte surface
facing the lights, enough for gold and steel to read as metals, while a matte dielectric (f0 =
0.04, weighted by 1 - roughness) changes by a few per cent at most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from studio.scene.model import Light

Matrix = NDArray[np.float64]

EXPOSURE = 0.3
"""pyrender intensity per scene intensity (lux or candela); see the module docstring."""
AMBIENT_FRACTION = 0.1
SKY_STRENGTH = 0.5
"""The sky's radiance at the horizon per E / pi of the lights at the objects (see the docstring)."""
SPOT_MAX_OUTER_DEG = 80.0
_GL_CLAMP_TO_BORDER = 0x812D


def look_at(eye: Iterable[float], target: Iterable[float]) -> Matrix:
    """Camera-to-world pose looking from eye to target with +Y up (-Z forward, glTF/OpenGL).

    Looking straight down or up, the image's up is world -Z. Eye == target looks straight down.
    """
    position = np.asarray(tuple(eye), dtype=np.float64)
    forward = np.asarray(tuple(target), dtype=np.float64) - position
    length = float(np.linalg.norm(forward))
    forward = forward / length if length > 1e-9 else np.array([0.0, -1.0, 0.0])
    back = -forward
    up = np.array([0.0, 1.0, 0.0])
    if np.linalg.norm(np.cross(up, back)) < 1e-6:
        up = np.array([0.0, 0.0, -1.0]) if back[1] > 0 else np.array([0.0, 0.0, 1.0])
    right = np.cross(up, back)
    right /= np.linalg.norm(right)
    true_up = np.cross(back, right)
    pose = np.eye(4)
    pose[:3, 0], pose[:3, 1], pose[:3, 2], pose[:3, 3] = right, true_up, back, position
    return pose


def add_lights(
    pr: ModuleType,
    prs: Any,
    lights: Iterable[Light],
    centre: NDArray[np.float64],
    notes: list[str],
) -> tuple[int, set[Any]]:
    """Add the scene's lights to a pyrender scene with its ambient term.

    Returns the render flags (shadows per light type) and the nodes of lights whose type casts
    shadows while they themselves do not (their shadow pass is skipped).
    """
    flags = pr.RenderFlags.NONE
    no_shadow: list[Any] = []
    ambient = np.zeros(3)
    for light in lights:
        color = np.asarray(light.color, dtype=np.float64)
        intensity = EXPOSURE * light.intensity
        position = np.asarray(light.position, dtype=np.float64)
        distance_sq = max(float(np.sum((centre - position) ** 2)), 0.01)
        if light.kind == "directional":
            directional = pr.DirectionalLight(color=color, intensity=intensity, name=light.name)
            # Outside its (fitted) shadow map a light casts no shadow: clamp lookups to the
            # border, whose depth pyrender sets to 1 (nothing in the way), instead of repeating.
            directional._generate_shadow_texture()
            directional.shadow_texture.sampler.wrapS = _GL_CLAMP_TO_BORDER
            directional.shadow_texture.sampler.wrapT = _GL_CLAMP_TO_BORDER
            node = prs.add(directional, pose=look_at(light.position, light.target))
            if light.cast_shadows:
                flags |= pr.RenderFlags.SHADOWS_DIRECTIONAL
            else:
                no_shadow.append(node)
            ambient += color * intensity
        elif light.kind == "point":
            pose = np.eye(4)
            pose[:3, 3] = position
            prs.add(pr.PointLight(color=color, intensity=intensity, name=light.name), pose=pose)
            if light.cast_shadows:
                notes.append(
                    f"point light {light.name!r} casts no shadow: pyrender has no point-light "
                    "shadows (use a spot or directional light for shadows)"
                )
            ambient += color * intensity / distance_sq
        else:
            outer = math.radians(min(light.outer_cone_deg, SPOT_MAX_OUTER_DEG))
            inner = min(math.radians(light.inner_cone_deg), outer)
            pose = look_at(light.position, light.target)
            node = prs.add(
                pr.SpotLight(
                    color=color,
                    intensity=intensity,
                    innerConeAngle=inner,
                    outerConeAngle=outer,
                    name=light.name,
                ),
                pose=pose,
            )
            if light.cast_shadows:
                flags |= pr.RenderFlags.SHADOWS_SPOT
            else:
                no_shadow.append(node)
            to_centre = centre - position
            cos_angle = float(np.dot(-pose[:3, 2], to_centre)) / math.sqrt(distance_sq)
            ambient += color * intensity / distance_sq * _spot_falloff(cos_angle, inner, outer)
    # Lights of a type whose shadows are on, but which themselves do not cast.
    skip_shadows = {
        node
        for node in no_shadow
        if (
            isinstance(node.light, pr.DirectionalLight)
            and flags & pr.RenderFlags.SHADOWS_DIRECTIONAL
        )
        or (isinstance(node.light, pr.SpotLight) and flags & pr.RenderFlags.SHADOWS_SPOT)
    }
    prs.ambient_light = AMBIENT_FRACTION * ambient / math.pi
    return int(flags), skip_shadows


def sky_light(ambient_light: NDArray[np.float64]) -> NDArray[np.float32]:
    """The shader's `sky_light` uniform for a scene whose ambient term `add_lights` has set."""
    scaled = np.asarray(ambient_light, dtype=np.float64) * (SKY_STRENGTH / AMBIENT_FRACTION)
    return scaled.astype(np.float32)


def _spot_falloff(cos_angle: float, inner: float, outer: float) -> float:
    scale = 1.0 / max(0.001, math.cos(inner) - math.cos(outer))
    value = min(max(cos_angle * scale - math.cos(outer) * scale, 0.0), 1.0)
    return value * value
