"""From a parsed request to a scene: exact shapes, materials, physics, placement, lights, camera.

Placement follows the relations the person gave: things "on" something rest on its top (several
on one support are spread across it), "stacked" copies rest on each other, "inside" an open
container rest on its inner floor, clustered about its middle, piled when they do not fit side
by side (a closed box asked to hold something is modelled open), "around" a
target stand evenly about it facing it, "between" two things stand with one on each side,
"across" two supports rest on both, "against" a wall stand with their back to it, and "next to /
left of / right of / in front of / behind / under" sit on the ground beside (or beneath) their
target. Everything else stands on the ground, left to right, each group as asked (a row, a
circle, a grid, a pyramid).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from studio.planner import arrangements as arrange
from studio.planner.arrangements import GAP, bounds, move
from studio.planner.catalogue import CATALOGUE
from studio.planner.container_fit import fit_containers
from studio.planner.containers import elevation_to_see, put_inside
from studio.planner.free_side import first_free_side
from studio.planner.lighting import AREA_NOTE
from studio.planner.lights import lights_for, linear_colour
from studio.planner.shapes import spec_shape
from studio.planner.specs import LightingSpec, ObjectSpec, ParsedRequest, RelationSpec
from studio.planner.tabletop import beside_on_top, clear_spot, resting_spot, spread_on_top
from studio.planner.uploads import Uploads, as_mesh, current_resolver, stand_in
from studio.planner.vocabulary import COLOURS
from studio.scene.geometry import object_bounds, world_bounds
from studio.scene.materials import DENSITY, preset
from studio.scene.model import (
    Camera,
    Material,
    Physics,
    Scene,
    SceneObject,
    Shape,
    Transform,
)

SHALLOW = 0.1
"""Things put 'on' an open container lower than this (a tray) stand on its floor."""
FLAT = 0.05
"""Things this thin or thinner that cover a target's footprint (a rug) go under it: it stands on
them."""
GROUND_RELATIONS = ("next_to", "left_of", "right_of", "in_front_of", "behind", "under")
PLACEMENTS = ("on", "inside", "under", "against", *GROUND_RELATIONS[:-1])
SIDES = ("next_to", "left_of", "right_of", "in_front_of", "behind")
SAME_AS = {"stacked_on": "on", "across": "on", "around": "next_to", "each_side": "next_to"}
SAME_AS |= {"between": "next_to", "above": "on", "corner": "against"}

__all__ = [
    "GAP",
    "PLACEMENTS",
    "Built",
    "build_scene",
    "camera_for",
    "lights_for",
    "linear_colour",
    "place",
]


@dataclass
class Built:
    scene: Scene
    notes: list[str] = field(default_factory=list)
    names: list[list[str]] = field(default_factory=list)
    """Object names made for each parsed object spec, in order."""


def build_scene(parsed: ParsedRequest, uploads: Uploads | None = None) -> Built:
    """A complete first scene for the request (the refinement rounds then check and adjust it).

    Objects read as uploads (`spec.upload`) are the workspace's meshes from `uploads`: laid out
    as boxes of their bounds, then swapped for the mesh itself."""
    fit_containers(parsed)  # a bowl of six apples is wide enough to hold them
    built = Built(scene=Scene(), notes=list(parsed.notes))
    meshes: dict[str, tuple[str, float]] = {}  # object name -> (upload noun, scale)
    for spec in parsed.objects:
        names = []
        upload = uploads.by_key.get(spec.upload) if uploads and spec.upload else None
        scale, note = upload.scale(spec.sizes) if upload else (1.0, "")
        if note and note not in built.notes:
            built.notes.append(note)
        for copy in range(spec.count):
            item = _object(spec, _name(spec, copy, built.scene))
            if upload is not None:
                item = replace(item, shape=stand_in(upload, scale))
                meshes[item.name] = (upload.key, scale)
            built.scene = built.scene.with_object(item)
            names.append(item.name)
        built.names.append(names)
    _place(parsed, built)
    lighting = parsed.lighting or LightingSpec()
    if lighting.kind == "area":
        built.notes.append(AREA_NOTE)
    built.scene = replace(built.scene, lights=lights_for(lighting, built.scene))
    built.scene = replace(built.scene, camera=camera_for(built.scene))
    if uploads is not None:
        for name, (key, scale) in meshes.items():
            built.scene = built.scene.with_object(
                as_mesh(built.scene.object(name), uploads.by_key[key], scale)
            )
    if parsed.unknown:
        built.notes.append(
            f"not in my catalogue of {len(CATALOGUE)} objects, so not built: "
            + ", ".join(parsed.unknown)
        )
    if parsed.unparsed:
        built.notes.append(f"I did not understand: {', '.join(parsed.unparsed)}")
    return built


def place(scene: Scene, name: str, relation: str, target: str) -> Scene:
    """Move object `name` into `relation` with object `target` (both must exist)."""
    scene.object(name), scene.object(target)
    if name == target:
        raise ValueError("an object cannot be placed relative to itself")
    relation = SAME_AS.get(relation, relation)
    built = Built(scene=scene)
    if relation in ("on", "inside"):
        _on(built, ObjectSpec(noun=scene.object(name).category), [name], relation, [target])
        category = CATALOGUE.get(scene.object(target).category)
        if relation == "on" and (category is None or category.floor is None):
            built.scene = clear_spot(built.scene, target, name)
    elif relation == "against":
        built.scene = arrange.against(scene, name, target)
    elif relation == "next_to":  # a side of the target nothing stands on yet
        built.scene = first_free_side(
            scene, name, target, lambda kind: _moved(scene, name, kind, target)
        )
    elif relation in GROUND_RELATIONS:
        _beside(built, name, relation, target, 0, 1)
    else:
        raise ValueError(f"relation must be one of {', '.join(PLACEMENTS)}")
    return built.scene


def _moved(scene: Scene, name: str, kind: str, target: str) -> Scene:
    built = Built(scene=scene)
    _beside(built, name, kind, target, 0, 1)
    return built.scene


def _name(spec: ObjectSpec, copy: int, scene: Scene) -> str:
    taken = {item.name for item in scene.objects}
    noun = spec.noun.replace(" ", "-")  # an upload's noun may have words ("chair model")
    base = noun if spec.count == 1 else f"{noun}-{copy + 1}"
    name, number = base, 2
    while name in taken:
        name, number = f"{noun}-{number}", number + 1
    return name


def _object(spec: ObjectSpec, name: str) -> SceneObject:
    if spec.upload:
        return _uploaded(spec, name)
    noun = CATALOGUE[spec.noun]
    shape, _ = spec_shape(spec)
    material_word = spec.material or noun.material
    material = preset(material_word) if material_word else Material()
    if spec.colour is not None:
        colour = linear_colour(spec.colour)
        material = replace(material, base_color=colour, name=f"{material.name} {spec.colour_word}")
    elif noun.colour:  # its own colour: a red apple, a yellow rubber duck
        colour = linear_colour(COLOURS[noun.colour])
        material = replace(material, base_color=colour, name=f"{material.name} {noun.colour}")
    collision = "box" if shape.kind == "box" else "convex"
    physics = Physics(
        dynamic=noun.dynamic,
        density=DENSITY.get(material_word, 500.0),
        collision=collision,  # type: ignore[arg-type]
    )
    lying = Transform(rotation=(0.0, 0.0, 90.0)) if noun.lying else Transform()
    return SceneObject(
        name,
        shape,
        lying,
        material=material,
        physics=physics,
        category=spec.noun,
        size_stated=spec.size_stated,
    )


def _uploaded(spec: ObjectSpec, name: str) -> SceneObject:
    """An upload's object before its shape is known: material and colour as asked, static (its
    mesh collides as its convex hull)."""
    material = preset(spec.material) if spec.material else Material()
    if spec.colour is not None:
        colour = linear_colour(spec.colour)
        material = replace(material, base_color=colour, name=f"{material.name} {spec.colour_word}")
    physics = Physics(dynamic=False, density=DENSITY.get(spec.material, 500.0), collision="convex")
    return SceneObject(
        name,
        Shape("box", {"size": [0.1, 0.1, 0.1]}),
        Transform(),
        material=material,
        physics=physics,
        category=spec.noun,
        size_stated=spec.size_stated,
    )


def _place(parsed: ParsedRequest, built: Built) -> None:
    supported: dict[int, RelationSpec] = {}  # on, inside, across
    beside: dict[int, RelationSpec] = {}  # on the ground, relative to a target
    flanked: set[int] = set()  # targets of 'between': they stand beside their subject
    for relation in parsed.relations:
        if relation.kind in ("on", "inside", "across"):
            supported[relation.subject] = relation
        elif relation.kind == "between":
            flanked.add(relation.target)
            if relation.second is not None:
                flanked.add(relation.second)
            beside.setdefault(relation.subject, relation)
        elif relation.kind != "corner" or any(spec.noun == "wall" for spec in parsed.objects):
            beside[relation.subject] = relation
        else:
            built.notes.append("there is no corner without walls: ask for two walls")
    # beside something that rests on a support ("a mug right of the laptop on the desk"): on
    # that support too, beside it there
    riding: dict[int, tuple[RelationSpec, int]] = {}
    for index, relation in list(beside.items()):
        carrier = supported.get(relation.target)
        if relation.kind in SIDES and index not in supported and carrier and carrier.kind == "on":
            supported[index] = RelationSpec(index, "on", carrier.target)
            riding[index] = (beside.pop(index), carrier.target)
    # 1. things on the ground, left to right, each group as asked
    cursor = 0.0
    for index, names in enumerate(built.names):
        placed_later = index in supported or index in flanked
        if placed_later or (index in beside and beside[index].kind != "between"):
            continue
        spec = parsed.objects[index]
        bases = names[:1] if spec.stacked else names
        kind = spec.arrangement or "row"
        built.scene = arrange.arrange(built.scene, bases, kind, spec.levels, cursor)
        cursor += arrange.footprint(built.scene, bases, kind, spec.levels)[0] + GAP
    # 2. things placed relative to a target that is already placed
    for index, relation in beside.items():
        _relative(parsed, built, index, relation)
    # 3. things on or inside a support, and stacks, bottom-up
    shared: dict[tuple[str, int], list[str]] = {}  # several things on one top share it
    ordered = _support_order(supported)
    for index, relation in ordered:
        if relation.kind in ("on", "inside"):
            spec = parsed.objects[index]
            bases = built.names[index][:1] if spec.stacked else built.names[index]
            shared.setdefault((relation.kind, relation.target), []).extend(bases)
    for index, relation in ordered:
        key = (relation.kind, relation.target)
        if key in shared:
            names = shared.pop(key)
            _on(built, ObjectSpec(noun=""), names, relation.kind, built.names[relation.target])
        elif relation.kind == "across":
            _supported(parsed, built, index, relation)
    for index, (relation, support) in riding.items():
        bases = built.names[index][:1] if parsed.objects[index].stacked else built.names[index]
        for offset, name in enumerate(bases):
            target, below = built.names[relation.target][0], built.names[support][0]
            built.scene = beside_on_top(built.scene, name, relation.kind, target, below, offset)
    for index, names in enumerate(built.names):
        if parsed.objects[index].stacked:
            for below, above in itertools.pairwise(names):
                low, high = bounds(built.scene, below)
                x, z = (low[0] + high[0]) / 2, (low[2] + high[2]) / 2
                built.scene = move(built.scene, above, float(x), float(high[1]), float(z))
    _centre(built)


def _relative(parsed: ParsedRequest, built: Built, index: int, relation: RelationSpec) -> None:
    spec = parsed.objects[index]
    names = built.names[index]
    bases = names[:1] if spec.stacked else names
    if relation.kind == "corner":
        wall = next(n for n, s in zip(built.names, parsed.objects, strict=True) if s.noun == "wall")
        built.scene = arrange.against(built.scene, bases[0], wall[0], corner=True)
        return
    targets = built.names[relation.target]
    if relation.kind == "between":
        second = built.names[relation.second] if relation.second is not None else targets[1:]
        if not second:
            built.notes.append(f"{names[0]} needs two things to stand between: put beside")
            _beside(built, bases[0], "next_to", targets[0], 0, 1)
            return
        built.scene = arrange.flank(built.scene, bases[0], targets[0], second[0])
        return
    shared_out = len(targets) > 1 and len(bases) % len(targets) == 0
    if relation.kind == "around":
        built.scene = arrange.around(built.scene, bases, targets[0])
    elif relation.kind == "next_to" and shared_out:
        built.scene = arrange.each_own(built.scene, bases, targets)
    elif relation.kind == "each_side" or (relation.kind == "next_to" and len(bases) > 1):
        built.scene = arrange.each_side(built.scene, bases, targets[0])
    elif relation.kind == "against":
        built.scene = arrange.along(built.scene, bases, targets[0])
    else:
        for offset, name in enumerate(bases):
            _beside(built, name, relation.kind, targets[0], offset, len(bases))


def _supported(parsed: ParsedRequest, built: Built, index: int, relation: RelationSpec) -> None:
    spec = parsed.objects[index]
    targets = built.names[relation.target]
    if relation.kind == "across":
        supports = targets[:2] if len(targets) > 1 else targets
        if relation.second is not None:
            supports = [targets[0], built.names[relation.second][0]]
        if len(supports) < 2:
            _on(built, spec, built.names[index], "on", targets)
            return
        built.scene = arrange.span(built.scene, built.names[index][0], supports)
        return
    _on(built, spec, built.names[index], relation.kind, targets)


def _support_order(supported: dict[int, RelationSpec]) -> list[tuple[int, RelationSpec]]:
    """Supports before what rests on them (a vase on a book on a table)."""
    depth = {}
    for subject in supported:
        level, current, seen = 0, subject, set()
        while current in supported and current not in seen:
            seen.add(current)
            current = supported[current].target
            level += 1
        depth[subject] = level
    return [(subject, supported[subject]) for subject in sorted(supported, key=lambda s: depth[s])]


def _on(built: Built, spec: ObjectSpec, names: list[str], kind: str, targets: list[str]) -> None:
    if len(names) == len(targets) > 1 and not spec.stacked:  # a lamp on each nightstand
        for name, target in zip(names, targets, strict=True):
            _on(built, spec, [name], kind, [target])
        return
    target = targets[0]
    low, high = bounds(built.scene, target)
    top = float(high[1])
    category = CATALOGUE.get(built.scene.object(target).category)
    floor = category.floor if category is not None else None
    if kind == "on" and floor is not None and float(high[1] - low[1]) < SHALLOW:
        kind = "inside"  # on a tray is in it
    bases = names[:1] if spec.stacked else names
    if kind == "inside":
        if floor is not None:
            built.scene = put_inside(built.scene, bases, target)
            return
        built.notes.append(f"{target} is solid, so {names[0]} is put on top of it")
    for name, (x, z) in zip(bases, spread_on_top(built.scene, bases, low, high), strict=True):
        x, z, surface = resting_spot(built.scene, target, name, x, z)
        built.scene = move(built.scene, name, x, top if surface is None else surface, z)


def _beside(built: Built, name: str, kind: str, target: str, offset: int, count: int) -> None:
    low, high = bounds(built.scene, target)
    mine_low, mine_high = bounds(built.scene, name)
    half_w, half_d = (mine_high[0] - mine_low[0]) / 2, (mine_high[2] - mine_low[2]) / 2
    centre_x, centre_z = (low[0] + high[0]) / 2, (low[2] + high[2]) / 2
    step = offset * (2 * half_w + GAP)
    if kind == "under":
        covers = all(mine_high[a] - mine_low[a] >= high[a] - low[a] for a in (0, 2))
        if covers and mine_high[1] - mine_low[1] <= FLAT and abs(low[1]) < 1e-6:
            # a rug under a table: the table stands on the rug
            built.scene = move(built.scene, name, float(centre_x), 0.0, float(centre_z))
            lifted = float(mine_high[1] - mine_low[1])
            built.scene = move(built.scene, target, float(centre_x), lifted, float(centre_z))
            return
        clearance = _clearance(built.scene, target)
        if mine_high[1] - mine_low[1] < clearance:
            # spread between the legs, like things on a top
            x = low[0] + (high[0] - low[0]) * (offset + 1) / (count + 1)
            built.scene = move(built.scene, name, float(x), 0.0, float(centre_z))
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
    built.scene = move(built.scene, name, float(x), 0.0, float(z))


def _clearance(scene: Scene, name: str) -> float:
    """Free height under an object (a table's top minus its legs' share), 0 for solid shapes."""
    item = scene.object(name)
    share = CATALOGUE[item.category].clearance if item.category in CATALOGUE else 0.0
    low, high = object_bounds(item, resolve_mesh=current_resolver())
    return share * float(high[1] - low[1]) - 0.005 if share else 0.0


def _centre(built: Built) -> None:
    extent = world_bounds(built.scene, resolve_mesh=current_resolver())
    if extent is None:
        return
    dx = -(extent[0][0] + extent[1][0]) / 2
    dz = -(extent[0][2] + extent[1][2]) / 2
    objects = []
    for item in built.scene.objects:
        x, y, z = item.transform.translation
        moved = replace(item.transform, translation=(x + dx, y, z + dz))
        objects.append(replace(item, transform=moved))
    built.scene = replace(built.scene, objects=tuple(objects))


def camera_for(scene: Scene, *, margin: float = 1.25) -> Camera:
    """A three-quarter view that fits the scene's bounding sphere in the frame, looking down
    steeply enough to see over the rim of an open container that holds something."""
    camera = Camera()
    extent = world_bounds(scene, resolve_mesh=current_resolver())
    if extent is None:
        return camera
    centre = extent.mean(axis=0)
    radius = max(float(np.linalg.norm(extent[1] - extent[0])) / 2, 0.05)
    half = math.radians(camera.yfov_deg) / 2
    half = min(half, math.atan(math.tan(half) * camera.aspect))
    distance = margin * radius / math.sin(half)
    direction = np.array([0.55, 0.45, 0.7])
    direction /= np.linalg.norm(direction)
    # looking into an open container that holds something: high enough to see over its rim
    elevation = math.radians(elevation_to_see(scene))
    if elevation > math.asin(direction[1]):
        across = direction[[0, 2]] / np.linalg.norm(direction[[0, 2]]) * math.cos(elevation)
        direction = np.array([across[0], math.sin(elevation), across[1]])
    position = centre + direction * distance
    return replace(
        camera,
        position=tuple(round(float(v), 4) for v in position),  # type: ignore[arg-type]
        target=tuple(round(float(v), 4) for v in centre),  # type: ignore[arg-type]
    )
