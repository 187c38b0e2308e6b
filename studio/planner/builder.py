"""From a parsed request to a scene: exact shapes, materials, physics, placement, lights, camera.

Placement follows the relations the person gave: things "on" something rest on its top (several
on one support are spread across it), "stacked" copies rest on each other, "inside" a container
rests on its floor, and "next to / left of / right of / in front of / behind / under" sit on the
ground beside (or beneath) their target. Everything else stands in a row on the ground.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from studio.planner.grammar import LightingSpec, ObjectSpec, ParsedRequest
from studio.planner.shapes import spec_shape
from studio.planner.vocabulary import MOODS, NOUNS
from studio.scene.geometry import object_bounds, world_bounds
from studio.scene.materials import DENSITY, preset
from studio.scene.model import (
    Camera,
    Light,
    Material,
    Physics,
    Scene,
    SceneObject,
    Transform,
    Vec3,
)

GAP = 0.3  # metres between things standing side by side
WHITE = (1.0, 1.0, 1.0)
CONTAINER_FLOOR = {"bowl": 0.01}


@dataclass
class Built:
    scene: Scene
    notes: list[str] = field(default_factory=list)
    names: list[list[str]] = field(default_factory=list)
    """Object names made for each parsed object spec, in order."""


def build_scene(parsed: ParsedRequest) -> Built:
    """A complete first scene for the request (the refinement rounds then check and adjust it)."""
    built = Built(scene=Scene())
    for spec in parsed.objects:
        names = []
        for copy in range(spec.count):
            item = _object(spec, _name(spec, copy, built.scene))
            built.scene = built.scene.with_object(item)
            names.append(item.name)
        built.names.append(names)
    _place(parsed, built)
    lighting = parsed.lighting or LightingSpec()
    built.scene = replace(built.scene, lights=lights_for(lighting, built.scene))
    built.scene = replace(built.scene, camera=camera_for(built.scene))
    if parsed.unparsed:
        built.notes.append(f"I did not understand: {', '.join(parsed.unparsed)}")
    return built


PLACEMENTS = ("on", "inside", "under", "next_to", "left_of", "right_of", "in_front_of", "behind")


def place(scene: Scene, name: str, relation: str, target: str) -> Scene:
    """Move object `name` into `relation` with object `target` (both must exist)."""
    scene.object(name), scene.object(target)
    if name == target:
        raise ValueError("an object cannot be placed relative to itself")
    built = Built(scene=scene)
    if relation in ("on", "inside"):
        _on(built, ObjectSpec(noun=scene.object(name).category), [name], relation, [target])
    elif relation in PLACEMENTS:
        _beside(built, name, relation, target, 0, 1)
    else:
        raise ValueError(f"relation must be one of {', '.join(PLACEMENTS)}")
    return built.scene


def _name(spec: ObjectSpec, copy: int, scene: Scene) -> str:
    taken = {item.name for item in scene.objects}
    base = spec.noun if spec.count == 1 else f"{spec.noun}-{copy + 1}"
    name, number = base, 2
    while name in taken:
        name, number = f"{spec.noun}-{number}", number + 1
    return name


def srgb_to_linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_colour(srgb: tuple[int, int, int]) -> Vec3:
    """glTF base colours are linear; colour words and hex codes are sRGB."""
    r, g, b = (round(srgb_to_linear(part), 4) for part in srgb)
    return (r, g, b)


def _object(spec: ObjectSpec, name: str) -> SceneObject:
    noun = NOUNS[spec.noun]
    shape, _ = spec_shape(spec)
    material_word = spec.material or noun.material
    material = preset(material_word) if material_word else Material()
    if spec.colour is not None:
        colour = linear_colour(spec.colour)
        material = replace(material, base_color=colour, name=f"{material.name} {spec.colour_word}")
    physics = Physics(
        dynamic=noun.dynamic,
        density=DENSITY.get(material_word, 500.0),
        collision="box" if shape.kind == "box" else "convex",
    )
    return SceneObject(name, shape, Transform(), material, physics, category=spec.noun)


def _move(scene: Scene, name: str, x: float, bottom: float, z: float) -> Scene:
    """Put the object's footprint centre at (x, z) and its lowest point at `bottom`."""
    item = scene.object(name)
    low, high = object_bounds(item)
    tx, ty, tz = item.transform.translation
    dx = x - (low[0] + high[0]) / 2
    dy = bottom - low[1]
    dz = z - (low[2] + high[2]) / 2
    moved = replace(item.transform, translation=(tx + dx, ty + dy, tz + dz))
    return scene.with_object(replace(item, transform=moved))


def _bounds(scene: Scene, name: str) -> np.ndarray:
    return object_bounds(scene.object(name))


def _place(parsed: ParsedRequest, built: Built) -> None:
    supported: dict[int, tuple[str, int]] = {}  # subject spec -> (relation, target spec)
    beside: dict[int, tuple[str, int]] = {}
    for relation in parsed.relations:
        if relation.kind in ("on", "inside"):
            supported[relation.subject] = (relation.kind, relation.target)
        else:
            beside[relation.subject] = (relation.kind, relation.target)
    # 1. things on the ground in a row, left to right
    cursor = 0.0
    for index, names in enumerate(built.names):
        if index in supported or index in beside:
            continue
        for name in _stack_bases(parsed.objects[index], names):
            low, high = _bounds(built.scene, name)
            width = high[0] - low[0]
            built.scene = _move(built.scene, name, cursor + width / 2, 0.0, 0.0)
            cursor += width + GAP
    # 2. things beside (or under) a target that is already placed
    for index, (kind, target) in beside.items():
        bases = _stack_bases(parsed.objects[index], built.names[index])
        for offset, name in enumerate(bases):
            _beside(built, name, kind, built.names[target][0], offset, len(bases))
    # 3. things on or inside a support, and stacks, bottom-up
    for index, (kind, target) in _support_order(supported):
        _on(built, parsed.objects[index], built.names[index], kind, built.names[target])
    for index, names in enumerate(built.names):
        if parsed.objects[index].stacked:
            for below, above in itertools.pairwise(names):
                low, high = _bounds(built.scene, below)
                x, z = (low[0] + high[0]) / 2, (low[2] + high[2]) / 2
                built.scene = _move(built.scene, above, x, float(high[1]), z)
    _centre(built)


def _stack_bases(spec: ObjectSpec, names: list[str]) -> list[str]:
    return names[:1] if spec.stacked else names


def _support_order(supported: dict[int, tuple[str, int]]) -> list[tuple[int, tuple[str, int]]]:
    """Supports before what rests on them (a vase on a book on a table)."""
    ordered: list[tuple[int, tuple[str, int]]] = []
    depth = {}
    for subject in supported:
        level, current, seen = 0, subject, set()
        while current in supported and current not in seen:
            seen.add(current)
            current = supported[current][1]
            level += 1
        depth[subject] = level
    for subject in sorted(supported, key=lambda s: depth[s]):
        ordered.append((subject, supported[subject]))
    return ordered


def _on(built: Built, spec: ObjectSpec, names: list[str], kind: str, targets: list[str]) -> None:
    target = targets[0]
    low, high = _bounds(built.scene, target)
    top = float(high[1])
    if kind == "inside":
        floor = CONTAINER_FLOOR.get(built.scene.object(target).category)
        if floor is None:
            built.notes.append(f"{target} is solid, so {names[0]} is put on top of it")
        else:
            top = float(low[1]) + floor
    bases = _stack_bases(spec, names)
    span = high[0] - low[0]
    for index, name in enumerate(bases):
        x = low[0] + span * (index + 1) / (len(bases) + 1)
        built.scene = _move(built.scene, name, float(x), top, float((low[2] + high[2]) / 2))


def _beside(built: Built, name: str, kind: str, target: str, offset: int, count: int) -> None:
    low, high = _bounds(built.scene, target)
    mine_low, mine_high = _bounds(built.scene, name)
    half_w, half_d = (mine_high[0] - mine_low[0]) / 2, (mine_high[2] - mine_low[2]) / 2
    centre_x, centre_z = (low[0] + high[0]) / 2, (low[2] + high[2]) / 2
    step = offset * (2 * half_w + GAP)
    if kind == "under":
        clearance = _clearance(built.scene, target)
        if mine_high[1] - mine_low[1] < clearance:
            # spread between the legs, like things on a top
            x = low[0] + (high[0] - low[0]) * (offset + 1) / (count + 1)
            built.scene = _move(built.scene, name, float(x), 0.0, float(centre_z))
            return
        built.notes.append(f"{name} is taller than the space under {target}: put it beside it")
        kind = "next_to"
    positions = {
        "left_of": (low[0] - GAP - half_w - step, centre_z),
        "right_of": (high[0] + GAP + half_w + step, centre_z),
        "next_to": (high[0] + GAP + half_w + step, centre_z),
        "in_front_of": (centre_x + step, high[2] + GAP + half_d),
        "behind": (centre_x + step, low[2] - GAP - half_d),
    }
    x, z = positions[kind]
    built.scene = _move(built.scene, name, float(x), 0.0, float(z))


def _clearance(scene: Scene, name: str) -> float:
    """Free height under an object (a table's top minus its legs' share), 0 for solid shapes."""
    item = scene.object(name)
    if item.category != "table":
        return 0.0
    low, high = object_bounds(item)
    return float(high[1] - low[1]) - 0.045


def _centre(built: Built) -> None:
    bounds = world_bounds(built.scene)
    if bounds is None:
        return
    dx = -(bounds[0][0] + bounds[1][0]) / 2
    dz = -(bounds[0][2] + bounds[1][2]) / 2
    objects = []
    for item in built.scene.objects:
        x, y, z = item.transform.translation
        moved = replace(item.transform, translation=(x + dx, y, z + dz))
        objects.append(replace(item, transform=moved))
    built.scene = replace(built.scene, objects=tuple(objects))


def lights_for(lighting: LightingSpec, scene: Scene) -> tuple[Light, ...]:
    """A key, fill and rim light for the mood, the key from the direction asked for."""
    mood = MOODS[lighting.mood]
    bounds = world_bounds(scene)
    centre = (0.0, 0.5, 0.0) if bounds is None else tuple(float(v) for v in bounds.mean(axis=0))
    azimuth = {"left": -90.0, "right": 90.0, "behind": 180.0, "front": 0.0, "above": 30.0}.get(
        lighting.direction, 45.0
    )
    elevation = 80.0 if lighting.direction == "above" else float(mood["elevation"])
    colour = linear_colour(mood["color"])
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
    return (
        Light("key", "directional", colour, key, at(azimuth, elevation), target),
        Light("fill", "directional", WHITE, fill, at(azimuth + 180, 30), target, False),
        Light("rim", "directional", WHITE, rim, at(azimuth + 135, 50), target, False),
    )


def camera_for(scene: Scene, *, margin: float = 1.25) -> Camera:
    """A three-quarter view that fits the scene's bounding sphere in the frame."""
    camera = Camera()
    bounds = world_bounds(scene)
    if bounds is None:
        return camera
    centre = bounds.mean(axis=0)
    radius = max(float(np.linalg.norm(bounds[1] - bounds[0])) / 2, 0.05)
    half = math.radians(camera.yfov_deg) / 2
    half = min(half, math.atan(math.tan(half) * camera.aspect))
    distance = margin * radius / math.sin(half)
    direction = np.array([0.55, 0.45, 0.7])
    direction /= np.linalg.norm(direction)
    position = centre + direction * distance
    return replace(
        camera,
        position=tuple(round(float(v), 4) for v in position),  # type: ignore[arg-type]
        target=tuple(round(float(v), 4) for v in centre),  # type: ignore[arg-type]
    )
