"""Agent tools for editing an existing scene in a conversation: resize, copy, add by description,
move by an offset, turn, go back to a revision, dim or brighten the lights.

Each keeps every object it was not asked about exactly where and as it was, except what rests
on a resized or moved object, which moves with it (so a ball stays on a table made taller).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from agents.models import Run
from agents.runtime import ToolContext, ToolError
from studio.planner.builder import GAP, build_scene, camera_for, place
from studio.planner.catalogue import CATALOGUE
from studio.planner.grammar import GrammarError, parse_request
from studio.planner.shapes import noun_shape
from studio.planner.uploads import workspace_uploads
from studio.scene.geometry import object_bounds, world_bounds
from studio.scene.model import Scene, SceneObject, Shape, free_name, scene_from_dict
from studio.selectors import revision_get
from studio.tools.scene_tools import NAME, VEC3, material_dict, scene_tool, summary_with
from studio.tools.working import guarded, load, mesh_resolver, run_id, save

RESTING = 0.01  # metres: an object whose bottom is this close to another's top rests on it


def _bounds(scene: Scene, name: str, context: ToolContext) -> np.ndarray:
    return object_bounds(scene.object(name), resolve_mesh=mesh_resolver(context))


def _shifted(item: SceneObject, delta: np.ndarray) -> SceneObject:
    x, y, z = item.transform.translation
    moved = (float(x + delta[0]), float(y + delta[1]), float(z + delta[2]))
    return replace(item, transform=replace(item.transform, translation=moved))


def _resting_on(scene: Scene, name: str, context: ToolContext) -> list[str]:
    """Objects whose bottom lies on `name`'s top, within its footprint (recursively above)."""
    low, high = _bounds(scene, name, context)
    found = []
    for item in scene.objects:
        if item.name == name:
            continue
        a, b = _bounds(scene, item.name, context)
        centre = (a + b) / 2
        inside = low[0] <= centre[0] <= high[0] and low[2] <= centre[2] <= high[2]
        if inside and abs(a[1] - high[1]) <= RESTING:
            found.append(item.name)
    return found


def _carry(scene: Scene, names: list[str], delta: np.ndarray, context: ToolContext) -> Scene:
    for name in names:
        above = _resting_on(scene, name, context)
        scene = scene.with_object(_shifted(scene.object(name), delta))
        scene = _carry(scene, above, delta, context)
    return scene


def _resized_shape(item: SceneObject, old: np.ndarray, new: np.ndarray) -> SceneObject:
    factors = new / np.maximum(old, 1e-9)
    rx, ry, rz = item.transform.rotation
    quarter = not (rx or rz) and round(ry / 90) % 2 == 1
    local = factors[[2, 1, 0]] if quarter else factors  # a quarter turn swaps width and depth
    kind, params = item.shape.kind, dict(item.shape.params)
    uniform = bool(np.allclose(local, local[0], rtol=1e-6))
    if item.category in CATALOGUE and kind in ("boolean", "revolve"):
        # a modelled object (legs, shelves, a turned profile) is rebuilt at the new size
        extents = old * factors
        x, y, z = (float(v) for v in (extents[[2, 1, 0]] if quarter else extents))
        return replace(item, shape=noun_shape(CATALOGUE[item.category], (x, y, z)))
    if kind == "box":
        params["size"] = [float(s * f) for s, f in zip(params["size"], local, strict=True)]
    elif kind == "sphere" and uniform:
        params["radius"] = float(params["radius"] * local[0])
    elif kind in ("cylinder", "cone") and math.isclose(local[0], local[2], rel_tol=1e-6):
        params["radius"] = float(params["radius"] * local[0])
        params["height"] = float(params["height"] * local[1])
    else:  # any other shape keeps its parameters and is scaled
        scale = tuple(float(s * f) for s, f in zip(item.transform.scale, local, strict=True))
        return replace(item, transform=replace(item.transform, scale=scale))  # type: ignore[arg-type]
    return replace(item, shape=Shape(kind, params))


def resize_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Set an object's extents (width x height x depth, metres), keeping its footprint centre and
    its bottom where they are; what rests on it moves up or down with its top. The size is the
    person's (they asked for it): the scale check warns about an unusual one, never changes it."""
    scene = load(context)
    name = arguments["name"]
    item = guarded(lambda: scene.object(name))
    low, high = _bounds(scene, name, context)
    target = np.array(arguments["size"], dtype=float)
    if (target <= 0).any():
        raise ToolError("sizes must be positive")
    above = _resting_on(scene, name, context)
    resized = replace(_resized_shape(item, high - low, target), size_stated=True)
    scene = scene.with_object(resized)
    new_low, new_high = _bounds(scene, name, context)
    centre_delta = np.array(
        [
            (low[0] + high[0] - new_low[0] - new_high[0]) / 2,
            low[1] - new_low[1],
            (low[2] + high[2] - new_low[2] - new_high[2]) / 2,
        ]
    )
    scene = scene.with_object(_shifted(resized, centre_delta))
    scene = _carry(
        scene, above, np.array([0.0, new_high[1] - new_low[1] - (high[1] - low[1]), 0.0]), context
    )
    scene = replace(scene, camera=camera_for(scene))
    save(context, scene)
    return summary_with(context, scene, name) | {"carried": above}


def move_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Move an object by an offset in metres (what rests on it goes along)."""
    scene = load(context)
    name = arguments["name"]
    guarded(lambda: scene.object(name))
    scene = _carry(scene, [name], np.array(arguments["by"], dtype=float), context)
    save(context, scene)
    return summary_with(context, scene, name)


def turn_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Turn an object about the vertical axis: to face another object (its front is +Z), or by
    a number of degrees."""
    scene = load(context)
    item = guarded(lambda: scene.object(arguments["name"]))
    rotation = list(item.transform.rotation)
    if "face" in arguments:
        low, high = _bounds(scene, item.name, context)
        t_low, t_high = guarded(lambda: _bounds(scene, arguments["face"], context))
        dx = (t_low[0] + t_high[0] - low[0] - high[0]) / 2
        dz = (t_low[2] + t_high[2] - low[2] - high[2]) / 2
        rotation[1] = round(math.degrees(math.atan2(dx, dz)), 3)
    else:
        rotation[1] = (rotation[1] + float(arguments.get("degrees", 0))) % 360
    turned = replace(item, transform=replace(item.transform, rotation=tuple(rotation)))  # type: ignore[arg-type]
    scene = scene.with_object(turned)
    save(context, scene)
    return summary_with(context, scene, item.name) | {"rotation": rotation}


def _put(scene: Scene, name: str, arguments: dict[str, Any], context: ToolContext) -> Scene:
    """Place a new object as asked, or on the ground to the right of everything else."""
    relation, target = arguments.get("relation"), arguments.get("target")
    if relation and target:
        scene = guarded(lambda: place(scene, name, relation, target))
        target_bottom = float(_bounds(scene, target, context)[0][1])
        if relation not in ("on", "inside", "under") and target_bottom > RESTING:
            # beside something that stands on a support: on that support, at its height
            bottom = float(_bounds(scene, name, context)[0][1])
            lift = np.array([0.0, target_bottom - bottom, 0.0])
            scene = scene.with_object(_shifted(scene.object(name), lift))
            scene = _onto_support(scene, name, target, context)
        return scene
    others = replace(scene, objects=tuple(i for i in scene.objects if i.name != name))
    bounds = world_bounds(others, resolve_mesh=mesh_resolver(context))
    low, high = _bounds(scene, name, context)
    right = 0.0 if bounds is None else float(bounds[1][0]) + GAP
    centre_z = 0.0 if bounds is None else float(bounds[0][2] + bounds[1][2]) / 2
    delta = np.array([right - low[0], -low[1], centre_z - (low[2] + high[2]) / 2], dtype=float)
    return scene.with_object(_shifted(scene.object(name), delta))


def _onto_support(scene: Scene, name: str, target: str, context: ToolContext) -> Scene:
    """Keep an object put beside `target` on what `target` stands on: mirrored to the other side
    when it would hang over the edge, pulled in when it still does."""
    supports = [
        other
        for other in scene.objects
        if other.name not in (name, target) and target in _resting_on(scene, other.name, context)
    ]
    if not supports:
        return scene
    low, high = _bounds(scene, supports[0].name, context)
    mine_low, mine_high = _bounds(scene, name, context)
    t_low, t_high = _bounds(scene, target, context)
    half = (mine_high - mine_low) / 2
    centre = (mine_low + mine_high) / 2
    target_centre = (t_low + t_high) / 2
    for axis in (0, 2):
        inside = low[axis] + half[axis] <= centre[axis] <= high[axis] - half[axis]
        if not inside:
            mirrored = 2 * target_centre[axis] - centre[axis]
            if low[axis] + half[axis] <= mirrored <= high[axis] - half[axis]:
                centre[axis] = mirrored
            else:  # pulled in as far as it goes without touching the target
                lo, hi = low[axis] + half[axis], high[axis] - half[axis]
                side = 1.0 if centre[axis] >= target_centre[axis] else -1.0
                clear = (t_high if side > 0 else t_low)[axis] + side * (half[axis] + 0.01)
                pulled = min(max(centre[axis], lo), hi) if lo <= hi else centre[axis]
                centre[axis] = max(pulled, clear) if side > 0 else min(pulled, clear)
    delta = centre - (mine_low + mine_high) / 2
    delta[1] = 0.0
    return scene.with_object(_shifted(scene.object(name), delta))


def duplicate_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Copy an object (shape, material, physics) under a new name and place the copy."""
    scene = load(context)
    source = guarded(lambda: scene.object(arguments["name"]))
    name = arguments.get("new_name") or free_name(
        {other.name for other in scene.objects}, source.category or source.name
    )
    if name in {item.name for item in scene.objects}:
        raise ToolError(f"there is already an object named {name!r}")
    copy = replace(source, name=name)
    if arguments.get("material"):
        data = _as_dict(copy)
        data["material"] = material_dict(data["material"], arguments["material"])
        copy = guarded(lambda: scene_from_dict({"objects": [data]})).objects[0]
    scene = _put(scene.with_object(copy), name, arguments, context)
    scene = replace(scene, camera=camera_for(scene))
    save(context, scene)
    return summary_with(context, scene, name)


def _as_dict(item: SceneObject) -> dict[str, Any]:
    data: dict[str, Any] = Scene(objects=(item,)).to_dict()["objects"][0]
    return data


def add_described(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Add the objects a short description names ("a red ball", "two oak chairs") to the scene,
    placed relative to an existing object or beside everything else."""
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    uploads = workspace_uploads(run.workspace)  # "my duck" is the workspace's uploaded duck
    try:
        parsed = parse_request(arguments["description"], extra_nouns=uploads.words)
    except GrammarError as error:
        raise ToolError(str(error)) from error
    parsed.relations = []
    built = build_scene(parsed, uploads)
    scene = load(context)
    names = []
    for item in built.scene.objects:
        name = free_name(
            {other.name for other in scene.objects},
            arguments.get("name") or item.category or item.name,
        )
        scene = scene.with_object(replace(item, name=name))
        scene = _put(scene, name, arguments, context)
        names.append(name)
        arguments = {**arguments, "target": arguments.get("target") or None}
    scene = replace(scene, camera=camera_for(scene))
    save(context, scene)
    return {"added": names, "objects": [item.name for item in scene.objects], "notes": built.notes}


def revert_scene(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Make the scene of an earlier revision of this workspace the run's working scene."""
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    revision = revision_get(workspace=run.workspace, number=arguments["revision"])
    if revision is None:
        raise ToolError(f"no revision {arguments['revision']} in this workspace")
    scene = guarded(lambda: scene_from_dict(revision.scene))
    save(context, scene)
    return {"revision": revision.number, "objects": [item.name for item in scene.objects]}


def scale_lights(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Make every light brighter (factor > 1) or dimmer (factor < 1)."""
    scene = load(context)
    factor = float(arguments["factor"])
    lights = tuple(replace(light, intensity=light.intensity * factor) for light in scene.lights)
    save(context, replace(scene, lights=lights))
    return {
        "lights": [{"name": light.name, "intensity": round(light.intensity, 3)} for light in lights]
    }


RELATION = {
    "enum": ["on", "inside", "under", "next_to", "left_of", "right_of", "in_front_of", "behind"]
}
EDIT_TOOLS = (
    scene_tool(
        "resize_object",
        "Set an object's width x height x depth in metres; its footprint and bottom stay put.",
        {"name": NAME, "size": {**VEC3, "items": {"type": "number", "exclusiveMinimum": 0}}},
        ["name", "size"],
        resize_object,
    ),
    scene_tool(
        "move_object",
        "Move an object by [dx, dy, dz] metres; what rests on it moves with it.",
        {"name": NAME, "by": VEC3},
        ["name", "by"],
        move_object,
    ),
    scene_tool(
        "turn_object",
        "Turn an object about the vertical axis to face another object, or by some degrees.",
        {"name": NAME, "face": NAME, "degrees": {"type": "number"}},
        ["name"],
        turn_object,
    ),
    scene_tool(
        "duplicate_object",
        "Copy an object under a new name, optionally recoloured, placed relative to another.",
        {
            "name": NAME,
            "new_name": NAME,
            "material": {"type": "object"},
            "relation": RELATION,
            "target": {"anyOf": [NAME, {"type": "null"}]},
        },
        ["name"],
        duplicate_object,
    ),
    scene_tool(
        "add_described",
        "Add the objects a short description names ('a red ball'), placed relative to another.",
        {
            "description": {"type": "string", "minLength": 1, "maxLength": 500},
            "name": NAME,
            "relation": RELATION,
            "target": {"anyOf": [NAME, {"type": "null"}]},
        },
        ["description"],
        add_described,
    ),
    scene_tool(
        "revert_scene",
        "Go back to the scene of an earlier revision of this workspace (by its number).",
        {"revision": {"type": "integer", "minimum": 1}},
        ["revision"],
        revert_scene,
    ),
    scene_tool(
        "scale_lights",
        "Multiply every light's intensity by a factor (above 1 brighter, below 1 dimmer).",
        {"factor": {"type": "number", "exclusiveMinimum": 0, "maximum": 10}},
        ["factor"],
        scale_lights,
    ),
)
