"""`design_scene`: the model server writes exact geometry as schema-checked JSON.

With a model server, this tool asks it for the scene's objects as structured output
(`response_format` with the JSON schema below where the server supports it, JSON mode or plain
instructions where it does not; see ModelPolicy.complete_json), validates them and places them as
written. Without a model server it says so, and `build_scene` (the offline grammar) remains.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from agents.model_settings import model_config
from agents.models import Run
from agents.runtime import PolicyError, Tool, ToolContext, ToolError
from studio.planner.builder import camera_for, lights_for
from studio.planner.grammar import LightingSpec
from studio.planner.vocabulary import MOODS
from studio.scene.geometry import object_bounds
from studio.scene.materials import PRESETS, preset
from studio.scene.model import SHAPES, SceneObject, scene_from_dict
from studio.tools.scene_tools import colour_value
from studio.tools.working import check_budget, guarded, mesh_resolver, run_id, save

NUMBER3 = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}
DESIGN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "objects": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 100},
                    "kind": {"enum": [kind for kind in SHAPES if kind not in ("boolean", "mesh")]},
                    "params": {"type": "object"},
                    "position": NUMBER3,
                    "rotation_deg": NUMBER3,
                    "material": {"enum": sorted(PRESETS)},
                    "color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
                    "dynamic": {"type": "boolean"},
                    "category": {"type": "string"},
                },
                "required": ["name", "kind", "params", "position"],
                "additionalProperties": False,
            },
        },
        "mood": {"enum": sorted(MOODS)},
    },
    "required": ["objects"],
    "additionalProperties": False,
}
INSTRUCTIONS = (
    "Design a 3D scene for the request below as JSON matching the schema. Units are metres, +Y "
    "is up, the ground's top is y = 0, and `position` is the centre of each shape (so a 1 m box "
    "standing on the ground has y = 0.5). Shape params: box size [x, y, z]; sphere radius; "
    "cylinder, cone, capsule radius and height; torus major_radius and minor_radius; plane size "
    "[x, z]; extrusion profile [[x, z], ...] and height; revolve profile [[r, y], ...]. Objects "
    "must not overlap; things resting on others sit exactly on their top."
)


def design_scene(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    from agents.runtime.model.policy import ModelPolicy

    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    config = model_config(run.workspace)
    if config is None:
        raise ToolError("design_scene needs a model server; use build_scene instead")
    messages = [
        {"role": "system", "content": INSTRUCTIONS},
        {"role": "user", "content": arguments["request"]},
    ]
    status = lambda text: context.progress(0.0, text)  # noqa: E731
    try:
        design = ModelPolicy(config).complete_json(
            messages, DESIGN_SCHEMA, name="scene", on_status=status
        )
    except PolicyError as error:
        raise ToolError(str(error)) from error
    scene = guarded(lambda: scene_from_dict({"objects": [_object(o) for o in design["objects"]]}))
    check_budget(context, scene)
    resolve = mesh_resolver(context)
    for item in scene.objects:
        _check_geometry(item, resolve)
    scene = replace(scene, lights=lights_for(LightingSpec(design.get("mood", "studio")), scene))
    scene = replace(scene, camera=camera_for(scene))
    save(context, scene)
    return {"objects": [item.name for item in scene.objects], "mood": design.get("mood", "studio")}


def _check_geometry(item: SceneObject, resolve: Any) -> None:
    guarded(lambda: object_bounds(item, resolve_mesh=resolve))


def _object(data: dict[str, Any]) -> dict[str, Any]:
    material = preset(data["material"]) if data.get("material") else None
    item: dict[str, Any] = {
        "name": data["name"],
        "shape": {"kind": data["kind"], "params": data["params"]},
        "transform": {
            "translation": data["position"],
            "rotation": data.get("rotation_deg", [0, 0, 0]),
        },
        "physics": {
            "dynamic": bool(data.get("dynamic", False)),
            "collision": "box" if data["kind"] == "box" else "convex",
        },
        "category": data.get("category", ""),
    }
    if material is not None:
        item["material"] = {
            "name": material.name,
            "base_color": list(material.base_color),
            "metallic": material.metallic,
            "roughness": material.roughness,
            "opacity": material.opacity,
        }
    if data.get("color"):
        item.setdefault("material", {})["base_color"] = colour_value(data["color"])
    return item


DESIGN_TOOL = Tool(
    "design_scene",
    "With a model server: write the scene's exact geometry as schema-checked JSON and place it.",
    {
        "type": "object",
        "properties": {"request": {"type": "string", "minLength": 1, "maxLength": 4000}},
        "required": ["request"],
        "additionalProperties": False,
    },
    design_scene,
    effects=True,  # saves the working scene
)
