"""Agent tools that build a scene from a request and run measured refinement rounds."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from agents.models import Run
from agents.runtime import Tool, ToolContext, ToolError
from agents.services.runs import MAX_PROMPT_CHARS
from studio.physics.memo import measured_physics
from studio.planner.builder import build_scene as build_from_request
from studio.planner.grammar import GrammarError, parse_request
from studio.planner.uploads import workspace_uploads
from studio.refinement import refine_round as measure_and_adjust
from studio.rendering.checks import exposure, framing
from studio.rendering.renderer import render
from studio.scene.geometry import object_bounds, object_matrix, object_mesh, world_mesh
from studio.services import revision_create
from studio.tools.working import load, mesh_resolver, rounds_done, run_id, save

DEFAULT_ROUNDS = 4
PREVIEW = (320, 240)


def build_scene(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Build the request's scene; the workspace's uploaded meshes are nouns it may name."""
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    uploads = workspace_uploads(run.workspace)
    try:
        parsed = parse_request(arguments["request"], extra_nouns=uploads.words)
    except GrammarError as error:
        raise ToolError(str(error)) from error
    built = build_from_request(parsed, uploads)
    save(context, built.scene)
    resolve = mesh_resolver(context)
    objects = []
    for item in built.scene.objects:
        low, high = object_bounds(item, resolve_mesh=resolve)
        size = [round(float(h - lo), 4) for lo, h in zip(low, high, strict=True)]
        objects.append({"name": item.name, "material": item.material.name, "size_m": size})
    return {
        "objects": objects,
        "lights": [light.name for light in built.scene.lights],
        "notes": built.notes,
        "unparsed": parsed.unparsed,
    }


def render_scene(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    resolve = mesh_resolver(context)
    width, height = arguments.get("width", PREVIEW[0]), arguments.get("height", PREVIEW[1])
    image = render(
        scene,
        mesh_for=lambda obj: (object_mesh(obj, resolve_mesh=resolve), object_matrix(obj.transform)),
        width=width,
        height=height,
    )
    light, frame = exposure(image), framing(image, scene)
    return {
        "size": [width, height],
        "mean_luminance": light.mean_luma.value,
        "exposure_problems": list(light.problems),
        "pixels": image.pixel_counts(),
        "framing_problems": list(frame.problems),
    }


def run_checks(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    scene = load(context)
    resolve = mesh_resolver(context)
    reports, _ = measured_physics(scene, lambda obj: world_mesh(obj, resolve_mesh=resolve))
    return {
        name: {"passed": report.passed, "value": report.value, "reasons": report.reasons[:5]}
        | ({"warnings": report.warnings} if report.warnings else {})
        for name, report in reports.items()
    }


def refine_round(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Render + all checks on the working scene, store it as a revision, adjust what failed."""
    done, limit = rounds_done(context), int(context.options.get("rounds") or DEFAULT_ROUNDS)
    if done >= limit:
        raise ToolError(f"the round budget is spent ({limit} rounds); give your final answer")
    number = done + 1
    context.progress(done / limit, f"round {number} of {limit}: rendering and checking")
    scene = load(context)
    result = measure_and_adjust(scene, number, resolve_mesh=mesh_resolver(context))
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    with transaction.atomic():
        revision = revision_create(
            workspace=run.workspace,
            scene=result.measured,
            source=f"round {number}",
            run=run,
            report=result.summary() | {"reports": result.reports},
            thumbnail_png=result.thumbnail,
            render_png=result.png or None,
        )
        save(context, result.next_scene, rounds=number)
    summary = result.summary() | {"revision": revision.number}
    context.emit("round.completed", summary)
    context.progress(number / limit, f"round {number}: {'passed' if result.passed else 'adjusted'}")
    return summary | {"rounds_left": limit - number}


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


ROUND_TOOLS = (
    Tool(
        "build_scene",
        "Build a whole scene from a plain-language description (objects, sizes, materials, "
        "relations, lighting mood).",
        # The person's request goes here whole: the same limit as the prompt's, not a second one.
        _schema(
            {"request": {"type": "string", "minLength": 1, "maxLength": MAX_PROMPT_CHARS}},
            ["request"],
        ),
        build_scene,
        effects=True,  # saves the working scene
    ),
    Tool(
        "render_scene",
        "Render the scene headless and measure exposure and what each object shows in frame.",
        _schema(
            {
                "width": {"type": "integer", "minimum": 64, "maximum": 2048},
                "height": {"type": "integer", "minimum": 64, "maximum": 2048},
            },
            [],
        ),
        render_scene,
    ),
    Tool(
        "run_checks",
        "Physics checks: interpenetration, support, a rigid-body stability simulation, scale.",
        _schema({}, []),
        run_checks,
    ),
    Tool(
        "refine_round",
        "One measured round: render 1024x768, run every check, store a revision, fix failures.",
        _schema({}, []),
        refine_round,
        effects=True,  # stores a revision and saves the working scene
    ),
)
