"""The lights a request asks for: the mood's key, fill and rim, the light type it names (a spot
on its object, a bulb, a softbox), and a glow in every lamp. Colours are linear RGB (glTF)."""

from __future__ import annotations

import math

from studio.planner.catalogue import CATALOGUE
from studio.planner.lighting import kelvin_colour
from studio.planner.specs import LightingSpec
from studio.planner.uploads import current_resolver
from studio.planner.vocabulary import MOODS
from studio.scene.geometry import object_bounds, world_bounds
from studio.scene.model import Light, Scene, Vec3

WHITE = (1.0, 1.0, 1.0)
LAMP_KELVIN = 2700.0


def srgb_to_linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_colour(srgb: tuple[int, int, int]) -> Vec3:
    """glTF base colours are linear; colour words and hex codes are sRGB."""
    r, g, b = (round(srgb_to_linear(part), 4) for part in srgb)
    return (r, g, b)


def lights_for(lighting: LightingSpec, scene: Scene) -> tuple[Light, ...]:
    """A key, fill and rim light for the mood, the key from the direction asked for; then the
    light type asked for (a spot on its object, a bulb, a sun), and a glow in every lamp."""
    mood = MOODS[lighting.mood]
    extent = world_bounds(scene, resolve_mesh=current_resolver())
    centre = (0.0, 0.5, 0.0) if extent is None else tuple(float(v) for v in extent.mean(axis=0))
    azimuth = {"left": -90.0, "right": 90.0, "behind": 180.0, "front": 0.0, "above": 30.0}.get(
        lighting.direction, 45.0
    )
    elevation = 80.0 if lighting.direction == "above" else float(mood["elevation"])
    srgb = kelvin_colour(lighting.kelvin) if lighting.kelvin else mood["color"]
    colour = linear_colour(srgb)
    key = 3.0 * mood["scale"]

    def at(azimuth_deg: float, elevation_deg: float, distance: float = 6.0) -> Vec3:
        a, e = math.radians(azimuth_deg), math.radians(elevation_deg)
        return (
            centre[0] + distance * math.cos(e) * math.sin(a),
            centre[1] + distance * math.sin(e),
            centre[2] + distance * math.cos(e) * math.cos(a),
        )

    target: Vec3 = (centre[0], centre[1], centre[2])
    fill, rim = key * mood["fill"], key * 0.3
    lights = [
        Light("key", "directional", colour, key, at(azimuth, elevation), target),
        Light("fill", "directional", WHITE, fill, at(azimuth + 180, 30), target, False),
        Light("rim", "directional", WHITE, rim, at(azimuth + 135, 50), target, False),
    ]
    lights += _typed_light(lighting, scene, colour)
    lights += _lamp_lights(scene, key * float(mood.get("lamps", 0.5)))
    return tuple(lights)


def _typed_light(lighting: LightingSpec, scene: Scene, colour: Vec3) -> list[Light]:
    if lighting.kind not in ("spot", "area", "point"):
        return []
    aim = _aim(scene, lighting.target)
    if lighting.kind == "point":
        return [Light("bulb", "point", colour, 20.0, (aim[0], aim[1] + 2.0, aim[2]), aim)]
    position = (aim[0] + 0.8, aim[1] + 2.8, aim[2] + 0.8)
    if lighting.kind == "area":
        return [Light("softbox", "spot", colour, 25.0, position, aim, True, 50.0, 80.0)]
    return [Light("spot", "spot", colour, 40.0, position, aim, True, 12.0, 25.0)]


def _aim(scene: Scene, category: str) -> Vec3:
    chosen = [item for item in scene.objects if item.category == category] or list(scene.objects)
    if not chosen:
        return (0.0, 0.5, 0.0)
    low, high = object_bounds(chosen[0], resolve_mesh=current_resolver())
    middle = (low + high) / 2
    return (float(middle[0]), float(high[1]), float(middle[2]))


def _lamp_lights(scene: Scene, intensity: float) -> list[Light]:
    """A lamp gives light: a warm point light just under the top of each lamp (dimmer than the
    key, which stays the scene's main light)."""
    glow = linear_colour(kelvin_colour(LAMP_KELVIN))
    lights = []
    for item in scene.objects:
        noun = CATALOGUE.get(item.category)
        if noun is None or not noun.emits:
            continue
        low, high = object_bounds(item, resolve_mesh=current_resolver())
        spot = (float(low[0] + high[0]) / 2, float(high[1]) - 0.1 * float(high[1] - low[1]),
                float(low[2] + high[2]) / 2)  # fmt: skip
        lights.append(Light(f"{item.name}-light", "point", glow, intensity, spot, spot, False))
    return lights
