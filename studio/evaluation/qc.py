"""The studio kind's solvers for the verifiers' quality control (`agents.evaluation.qc`).

Every task gets the null solver (no tool call, "Done."), which must fail: a check that an empty
scene passes (an absence, a relation between objects that are not there) is a defect.

A single-request task also gets a gold and wrong solvers, all built with the primitive tools
through the model path. The reference is the scene the offline planner builds for the task when
that scene passes every check; the gold rebuilds it object by object (`add_object`, the scale
with `update_object`, `add_light`, `set_camera`) and measures it (`refine_round`), so it shows
that the task can be solved with the tools a model has and that the checks accept a right scene
built another way. Each wrong solver rebuilds it with one thing the request asked for made
wrong, for each kind of check the task has: one of the counted objects dropped, a sized object
half as large again, a coloured object in a far colour, an object of a material in another
family, the subject of a relation moved six metres away. A task the planner fails, and a
conversation, has no gold yet, and says so.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import PurePosixPath
from typing import Any

from agents.evaluation.qc import QcPlan, Solver, null_solver, scripted
from agents.evaluation.runner import run_task
from agents.evaluation.scripted_server import Reply, Request
from agents.evaluation.spec import Check, Task

FAR_COLOURS = ((0.8, 0.05, 0.05), (0.05, 0.1, 0.8), (0.05, 0.6, 0.05), (0.05, 0.05, 0.05))
OTHER_FAMILY = {"metal": "plastic", "glass": "concrete", "wood": "metal", "default": "metal"}
METALS = ("metal", "steel", "iron", "aluminium", "gold", "copper", "brass", "silver")
MOVED = (6.0, 0.0, 6.0)
SCATTER = ((3.0, 0.0, 0.0), (0.0, 0.0, 4.0), (-5.0, 0.0, 0.0), (0.0, 0.0, -6.0))
"""The directions a group's objects are scattered in (`_scatter`): no three in a line."""
GROWN = 1.5
Scene = dict[str, Any]


def plan(task: Task, inputs: dict[str, Any]) -> QcPlan:
    if len(task.turns) != 1:
        return QcPlan((null_solver(),), no_gold="a conversation: its gold is not written yet")
    if task.turns[0].expect_status != "succeeded":
        no_gold = (
            "an honest refusal: a model's run cannot end failed, so the studio's contract for "
            "refusing a request is not written yet"
        )
        return QcPlan((null_solver(),), no_gold=no_gold)
    reference = reference_scene(task)
    if reference is None:
        no_gold = "the offline planner's scene fails this task, and no other reference is written"
        return QcPlan((null_solver(),), no_gold=no_gold)
    scene, answer = reference
    solvers = [replay("gold", "gold", scene, answer), null_solver()]
    for name, wrong in wrong_scenes(scene, task.turns[0].checks):
        solvers.append(replay(f"wrong:{name}", "wrong", wrong, answer))
    return QcPlan(tuple(solvers))


def reference_scene(task: Task) -> tuple[Scene, str] | None:
    """The offline planner's scene for the task, and its answer, when it passes every check."""
    from agents.models import Run
    from studio.models import SceneRevision

    record = run_task(task, policy="offline")
    if not record.passed or not record.run_ids:
        return None
    run = Run.objects.get(pk=record.run_ids[-1])
    revision = SceneRevision.objects.filter(run=run).order_by("-number").first()
    return (copy.deepcopy(revision.scene), run.message) if revision is not None else None


def replay(name: str, role: str, scene: Scene, answer: str = "Done.") -> Solver:
    """Rebuild `scene` with the primitive tools, measure it in a refinement round, and reply
    `answer` (the reference's, which says what was not understood)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for item in scene.get("objects") or []:
        calls.append(("add_object", _object_arguments(item)))
        scale = (item.get("transform") or {}).get("scale") or [1, 1, 1]
        if any(not math.isclose(float(v), 1.0) for v in scale):
            calls.append(("update_object", {"name": item["name"], "scale": list(scale)}))
    for light in scene.get("lights") or []:
        arguments = {
            key: light[key] for key in ("name", "kind", "color", "intensity") if key in light
        }
        arguments |= {key: list(light[key]) for key in ("position", "target") if key in light}
        calls.append(("add_light", arguments))
    camera = scene.get("camera") or {}
    if camera:
        calls.append(
            (
                "set_camera",
                {
                    "position": list(camera["position"]),
                    "target": list(camera["target"]),
                    "yfov_deg": camera["yfov_deg"],
                },
            )
        )
    calls.append(("refine_round", {}))
    return _with_meshes(scripted(name, role, calls, final=answer), scene)


def _with_meshes(solver: Solver, scene: Scene) -> Solver:
    """The solver with the reference's uploaded meshes (`mesh:<id>` of the reference's own
    workspace) pointed at the same files uploaded to the workspace it plays in."""
    from studio.exports import mesh_refs

    used = sorted({ref.strip() for _, ref in mesh_refs(scene)})
    if not used:
        return solver
    moved: dict[str, str] = {}

    def setup(workspace: Any, inputs: dict[str, Any]) -> None:
        from studio.models import UploadedMesh

        uploads = inputs.get("meshes") or {}
        moved.clear()
        for ref in used:
            row = UploadedMesh.objects.filter(pk=int(ref.split(":", 1)[1])).first()
            new = uploads.get(PurePosixPath(row.name).stem) if row is not None else None
            if new is not None:
                moved[ref] = f"mesh:{new}"

    def replies(request: Request) -> Reply:
        reply = solver.replies(request)
        if not reply.calls or not moved:
            return reply
        text = reply.calls[0].raw
        for old, new in moved.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        return Reply.call(reply.calls[0].name, json.loads(text))

    return Solver(solver.name, solver.role, replies, setup)


def _object_arguments(item: dict[str, Any]) -> dict[str, Any]:
    transform = item.get("transform") or {}
    material = item.get("material") or {}
    physics = item.get("physics") or {}
    arguments: dict[str, Any] = {
        "name": item["name"],
        "shape": item["shape"],
        "position": list(transform.get("translation") or [0, 0, 0]),
        "rotation": list(transform.get("rotation") or [0, 0, 0]),
        "material": {
            "color": list(material.get("base_color") or [0.8, 0.8, 0.8]),
            "metallic": material.get("metallic", 0.0),
            "roughness": material.get("roughness", 0.5),
            "opacity": material.get("opacity", 1.0),
            "emissive": list(material.get("emissive") or [0, 0, 0]),
        },
        "physics": {
            key: physics[key]
            for key in ("dynamic", "mass", "friction", "restitution", "collision")
            if physics.get(key) is not None
        },
    }
    if _is_preset(str(material.get("name", ""))):
        arguments["material"]["preset"] = material["name"]
    if item.get("category"):
        arguments["category"] = item["category"]
    if item.get("size_stated"):
        arguments["size_stated"] = True
    return arguments


def wrong_scenes(reference: Scene, checks: tuple[Check, ...]) -> list[tuple[str, Scene]]:
    """One plausible wrong scene for each kind of check the task has (its first such check)."""
    made: dict[str, tuple[str, Scene]] = {}
    for check in checks:
        if check.name in made:
            continue
        wrong = _wrong(reference, check)
        if wrong is not None:
            made[check.name] = wrong
    return list(made.values())


Found = list[dict[str, Any]]


def _wrong(reference: Scene, check: Check) -> tuple[str, Scene] | None:
    """The reference with what `check` asks for made wrong (None for a kind of check with no
    wrong scene yet, or when the reference has nothing it names)."""
    mutate = MUTATIONS.get(check.name)
    if mutate is None:
        return None
    scene = copy.deepcopy(reference)
    objects = scene.get("objects") or []
    found = _answering(objects, check.params.get("name", check.params.get("subject", ())))
    if not found:
        return None
    return mutate(objects, found, check.params), scene


def _dropped(objects: Found, found: Found, params: dict[str, Any]) -> str:
    """Below what was asked: one fewer than the count, or than the minimum of a range."""
    floor = int(params.get("count", params.get("min", len(found))))
    dropped = found[max(0, floor - 1) :] if floor <= len(found) else found[-1:]
    for item in dropped:
        objects.remove(item)
    return f"{len(dropped)} {_word(params['name'])} dropped"


def _grown(objects: Found, found: Found, params: dict[str, Any]) -> str:
    transform = found[0].setdefault("transform", {})
    transform["scale"] = [float(v) * GROWN for v in transform.get("scale") or [1, 1, 1]]
    return f"{found[0]['name']} half as large again"


def _recoloured(objects: Found, found: Found, params: dict[str, Any]) -> str:
    for item in found:
        material = item.setdefault("material", {})
        material["base_color"] = list(_far(material.get("base_color") or [0.8, 0.8, 0.8]))
        material["name"] = "default"
    return f"{found[0]['name']} in a far colour"


def _other_material(objects: Found, found: Found, params: dict[str, Any]) -> str:
    for item in found:
        current = str((item.get("material") or {}).get("name", "default"))
        other = OTHER_FAMILY.get("metal" if current in METALS else current, "metal")
        item["material"] = {"name": other, **_preset_values(other)}
    return f"{found[0]['name']} of another material"


def _moved(objects: Found, found: Found, params: dict[str, Any]) -> str:
    """Every subject moved away from the target; subjects related among themselves (stacked,
    around, in a row) scattered instead, since moving them together keeps the relation."""
    if params.get("target"):
        offsets = [MOVED] * len(found)
        what = f"{found[0]['name']} moved away from what it is {params['relation']}"
    else:
        offsets = [_scatter(n) for n in range(len(found))]
        what = f"the {_word(params['subject'])}s scattered, no longer {params['relation']}"
    for item, offset in zip(found, offsets, strict=True):
        transform = item.setdefault("transform", {})
        position = list(transform.get("translation") or [0, 0, 0])
        transform["translation"] = [p + d for p, d in zip(position, offset, strict=True)]
    return what


MUTATIONS = {
    "object_count": _dropped,
    "size": _grown,
    "color": _recoloured,
    "material": _other_material,
    "relation": _moved,
}
"""How each kind of check's request is made wrong (`wrong_scenes`)."""


def _scatter(number: int) -> tuple[float, float, float]:
    """Where the `number`th object of a scattered group goes: the first stays, the others go
    out in four directions, further out after every four."""
    if number == 0:
        return (0.0, 0.0, 0.0)
    x, y, z = SCATTER[(number - 1) % len(SCATTER)]
    reach = 1 + (number - 1) // len(SCATTER)
    return (x * reach, y * reach, z * reach)


def _answering(objects: list[dict[str, Any]], names: Any) -> list[dict[str, Any]]:
    """The objects a check's name (or list of names) asks about, by the verifiers' own rule."""
    from studio.evaluation.matching import answers_to

    words = [names] if isinstance(names, str) else list(names)
    return [
        item
        for item in objects
        if any(answers_to(_View(item), word) for word in words)  # type: ignore[arg-type]
    ]


class _View:
    """The part of a GLB object view `answers_to` reads: its name and category."""

    def __init__(self, item: dict[str, Any]) -> None:
        self.name = str(item.get("name", ""))
        self.category = str(item.get("category", ""))


def _word(names: Any) -> str:
    return names if isinstance(names, str) else str(next(iter(names)))


def _far(colour: list[float]) -> tuple[float, float, float]:
    def distance(far: tuple[float, float, float]) -> float:
        return sum((a - b) ** 2 for a, b in zip(far, colour, strict=True))

    return max(FAR_COLOURS, key=distance)


def _is_preset(name: str) -> bool:
    from studio.scene.materials import PRESETS

    return name in PRESETS


def _preset_values(name: str) -> dict[str, Any]:
    from studio.scene.materials import PRESETS

    preset = PRESETS[name]
    return {
        "base_color": list(preset.base_color),
        "metallic": preset.metallic,
        "roughness": preset.roughness,
        "opacity": preset.opacity,
    }
