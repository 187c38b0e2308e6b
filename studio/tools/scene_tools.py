"""Agent tools that edit the run's scene: objects, materials, lights, camera, placement."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agents.runtime import Tool, ToolContext, ToolError
from studio.planner.builder import PLACEMENTS, camera_for, lights_for, linear_colour, place
from studio.planner.grammar import LightingSpec
from studio.planner.uploads import resolving
from studio.planner.vocabulary import DIRECTIONS, MOODS
from studio.scene.geometry import object_bounds
from studio.scene.materials import PRESETS, preset
from studio.scene.model import SHAPES, Scene, SceneObject, Shape, scene_from_dict
from studio.tools.working import check_budget, guarded, load, mesh_resolver, save

VEC3 = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}
COLOUR = {
    "description": "A hex colour '#rrggbb' or linear RGB [r, g, b] in 0..1.",
    "anyOf": [
        {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
        {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}, "minItems": 3},
    ],
}
SHAPE = {
    "type": "object",
    "properties": {"kind": {"enum": list(SHAPES)}, "params": {"type": "object"}},
    "required": ["kind", "params"],
}
MATERIAL_PROPERTIES: dict[str, Any] = {
    "preset": {"enum": sorted(PRESETS)},
    "color": COLOUR,
    "metallic": {"type": "number", "minimum": 0, "maximum": 1},
    "roughness": {"type": "number", "minimum": 0, "maximum": 1},
    "opacity": {"type": "number", "minimum": 0, "maximum": 1},
    "emissive": COLOUR,
}
MATERIAL = {"type": "object", "properties": MATERIAL_PROPERTIES, "additionalProperties": False}
PHYSICS = {
    "type": "object",
    "properties": {
        "dynamic": {"type": "boolean"},
        "mass": {"type": "number", "exclusiveMinimum": 0},
        "friction": {"type": "number", "minimum": 0},
        "restitution": {"type": "number", "minimum": 0, "maximum": 1},
        "collision": {"enum": ["box", "convex", "mesh"]},
    },
    "additionalProperties": False,
}
NAME = {"type": "string", "minLength": 1, "maxLength": 100}


def colour_value(value: Any) -> list[float]:
    if isinstance(value, str):
        match = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", value)
        if not match:
            raise ToolError(f"not a colour: {value!r}")
        r, g, b = (int(part, 16) for part in match.groups())
        return list(linear_colour((r, g, b)))
    return [float(part) for part in value[:3]]


def material_dict(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    material = dict(current)
    if "preset" in changes:
        base = preset(changes["preset"])
        material.update(
            name=base.name,
            base_color=list(base.base_color),
            metallic=base.metallic,
            roughness=base.roughness,
            opacity=base.opacity,
        )
    if "color" in changes:
        material["base_color"] = colour_value(changes["color"])
    if "emissive" in changes:
        material["emissive"] = colour_value(changes["emissive"])
    for key in ("metallic", "roughness", "opacity"):
        if key in changes:
            material[key] = changes[key]
    return material


def _edit_object(context: ToolContext, name: str, change: dict[str, Any]) -> dict[str, Any]:
    """Create or replace object `name` with the fields in `change` merged onto it."""
    scene = load(context)
    data = scene.to_dict()
    objects = data["objects"]
    existing = next((item for item in objects if item["name"] == name), None)
    item = dict(existing or {"name": name})
    for key, value in change.items():
        if key == "material":
            item["material"] = material_dict(item.get("material") or {}, value)
        elif key in ("transform", "physics"):
            item[key] = {**(item.get(key) or {}), **value}
        else:
            item[key] = value
    if "shape" not in item:
        raise ToolError(f"no object {name!r}: give a shape to create it")
    data["objects"] = [item if entry is existing else entry for entry in objects]
    if existing is None:
        data["objects"].append(item)
    new = guarded(lambda: scene_from_dict(data))
    check_budget(context, new)
    guarded(lambda: object_bounds(new.object(name), resolve_mesh=mesh_resolver(context)))
    save(context, new)
    return summary_with(context, new, name)


def summary_with(context: ToolContext, scene: Scene, name: str) -> dict[str, Any]:
    low, high = object_bounds(scene.object(name), resolve_mesh=mesh_resolver(context))
    return {
        "name": name,
        "bounds_min": [round(float(v), 4) for v in low],
        "bounds_max": [round(float(v), 4) for v in high],
        "objects": [item.name for item in scene.objects],
    }


def add_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    change: dict[str, Any] = {"shape": arguments["shape"]}
    transform = {
        key: arguments[source]
        for key, source in (("translation", "position"), ("rotation", "rotation"))
        if source in arguments
    }
    if transform:
        change["transform"] = transform
    for key in ("material", "physics", "category", "size_stated"):
        if key in arguments:
            change[key] = arguments[key]
    return _edit_object(context, arguments["name"], change)


def update_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    name = arguments["name"]
    if name not in {item.name for item in load(context).objects}:
        raise ToolError(f"no object {name!r}; add it first")
    change: dict[str, Any] = {}
    transform = {
        key: arguments[source]
        for key, source in (
            ("translation", "position"),
            ("rotation", "rotation"),
            ("scale", "scale"),
        )
        if source in arguments
    }
    if transform:
        change["transform"] = transform
    for key in ("shape", "material", "physics"):
        if key in arguments:
            change[key] = arguments[key]
    return _edit_object(context, name, change)


def delete_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    new = guarded(lambda: scene.without_object(arguments["name"]))
    save(context, new)
    return {"deleted": arguments["name"], "objects": [item.name for item in new.objects]}


def set_material(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    material = {key: value for key, value in arguments.items() if key != "name"}
    return update_object({"name": arguments["name"], "material": material}, context)


def place_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    name, target = arguments["name"], arguments["target"]
    new = guarded(lambda: place(scene, name, arguments["relation"], target))
    save(context, new)
    return summary_with(context, new, name)


def combine_objects(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Boolean union/difference/intersection of two objects into a new one (operands removed)."""
    scene = load(context)
    a = guarded(lambda: scene.object(arguments["a"]))
    b = guarded(lambda: scene.object(arguments["b"]))

    def operand(item: Any) -> dict[str, Any]:
        t = item.transform
        transform = {"translation": list(t.translation), "rotation": list(t.rotation)}
        return {"kind": item.shape.kind, "params": item.shape.params, "transform": transform}

    params = {"op": arguments["op"], "a": operand(a), "b": operand(b)}
    shape = {"kind": "boolean", "params": params}
    material = {"preset": a.material.name} if a.material.name in PRESETS else {}
    scene = scene.without_object(a.name).without_object(b.name)
    # Refused before the operands leave the scene, so a refusal loses nothing.
    combined = SceneObject(arguments["name"], Shape(kind="boolean", params=params))
    check_budget(context, scene.with_object(combined))
    save(context, scene)
    return add_object(
        {"name": arguments["name"], "shape": shape, "material": material, "category": a.category},
        context,
    )


def set_lighting(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    lighting = LightingSpec(arguments["mood"], arguments.get("direction", ""))
    new = replace(scene, lights=lights_for(lighting, scene))
    save(context, new)
    return {"lights": [{"name": light.name, "intensity": light.intensity} for light in new.lights]}


def add_light(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    data = scene.to_dict()
    light = {key: value for key, value in arguments.items() if key != "color"}
    if "color" in arguments:
        light["color"] = colour_value(arguments["color"])
    data["lights"] = [item for item in data["lights"] if item["name"] != arguments["name"]]
    data["lights"].append(light)
    new = guarded(lambda: scene_from_dict(data))
    save(context, new)
    return {"lights": [item.name for item in new.lights]}


def set_camera(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    if arguments.get("frame_all"):
        camera = camera_for(scene)
    else:
        data = scene.to_dict()["camera"] | {
            key: arguments[key] for key in ("position", "target", "yfov_deg") if key in arguments
        }
        camera = guarded(lambda: scene_from_dict({"camera": data})).camera
    save(context, replace(scene, camera=camera))
    return {"position": list(camera.position), "target": list(camera.target)}


def import_mesh_object(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    params: dict[str, Any] = {"ref": arguments["ref"]}
    if "scale" in arguments:
        params["scale"] = arguments["scale"]
    return add_object(
        {
            "name": arguments["name"],
            "shape": {"kind": "mesh", "params": params},
            "position": arguments.get("position", [0, 0, 0]),
            "physics": {"collision": "convex"},
        },
        context,
    )


def scene_tool(
    name: str, description: str, properties: dict[str, Any], required: list[str], fn: Any
) -> Tool:
    schema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return Tool(name, description, schema, _with_meshes(fn), effects=True)  # edits the scene


def _with_meshes(fn: Any) -> Any:
    """Run a scene tool with the workspace's meshes measurable by the planner's layout code
    (placing something beside an uploaded mesh needs the mesh's bounds)."""

    def run(arguments: dict[str, Any], context: ToolContext) -> Any:
        try:
            resolver = mesh_resolver(context)
        except ToolError:
            resolver = None
        with resolving(resolver):
            return fn(arguments, context)

    return run


SCENE_TOOLS = (
    scene_tool(
        "add_object",
        "Create (or replace) an object with an exact shape in metres, material and physics.",
        {
            "name": NAME,
            "shape": SHAPE,
            "position": VEC3,
            "rotation": VEC3,
            "material": MATERIAL,
            "physics": PHYSICS,
            "category": {"type": "string"},
            "size_stated": {
                "type": "boolean",
                "description": "The person gave this size: keep it; the checks warn about an "
                "unusual size instead of fixing it.",
            },
        },
        ["name", "shape"],
        add_object,
    ),
    scene_tool(
        "update_object",
        "Change an object's position, rotation (degrees), scale, shape, material or physics.",
        {
            "name": NAME,
            "position": VEC3,
            "rotation": VEC3,
            "scale": VEC3,
            "shape": SHAPE,
            "material": MATERIAL,
            "physics": PHYSICS,
        },
        ["name"],
        update_object,
    ),
    scene_tool("delete_object", "Remove an object.", {"name": NAME}, ["name"], delete_object),
    scene_tool(
        "set_material",
        "Set an object's PBR material from a preset and/or colour, metallic, roughness, opacity.",
        {"name": NAME, **MATERIAL_PROPERTIES},
        ["name"],
        set_material,
    ),
    scene_tool(
        "place_object",
        "Put an object on, inside, under, next to, left/right of, in front of or behind another.",
        {"name": NAME, "relation": {"enum": list(PLACEMENTS)}, "target": NAME},
        ["name", "relation", "target"],
        place_object,
    ),
    scene_tool(
        "combine_objects",
        "Boolean union, difference or intersection of objects a and b into a new object.",
        {
            "name": NAME,
            "op": {"enum": ["union", "difference", "intersection"]},
            "a": NAME,
            "b": NAME,
        },
        ["name", "op", "a", "b"],
        combine_objects,
    ),
    scene_tool(
        "set_lighting",
        "Replace the lights with a key/fill/rim setup for a mood, the key from a direction.",
        {"mood": {"enum": sorted(MOODS)}, "direction": {"enum": sorted(DIRECTIONS)}},
        ["mood"],
        set_lighting,
    ),
    scene_tool(
        "add_light",
        "Add or replace a directional, point or spot light (intensity in lux or candela).",
        {
            "name": NAME,
            "kind": {"enum": ["directional", "point", "spot"]},
            "color": COLOUR,
            "intensity": {"type": "number", "minimum": 0},
            "position": VEC3,
            "target": VEC3,
            "cast_shadows": {"type": "boolean"},
        },
        ["name", "kind"],
        add_light,
    ),
    scene_tool(
        "set_camera",
        "Aim the camera (position, target, vertical field of view) or frame the whole scene.",
        {
            "position": VEC3,
            "target": VEC3,
            "yfov_deg": {"type": "number", "minimum": 5, "maximum": 150},
            "frame_all": {"type": "boolean"},
        },
        [],
        set_camera,
    ),
    scene_tool(
        "import_mesh",
        "Add an uploaded mesh (ref 'mesh:<id>' from the upload) as an object.",
        {
            "name": NAME,
            "ref": {"type": "string", "pattern": "^mesh:[0-9]+$"},
            "scale": VEC3,
            "position": VEC3,
        },
        ["name", "ref"],
        import_mesh_object,
    ),
)
