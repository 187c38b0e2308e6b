"""A person's edit of a scene: its source line, its size caps, and the checks every revision gets.

Plain domain code (no Django): the service layer calls it with a mesh resolver. An edit is checked
like an agent round (exposure and framing on a 1024 x 768 render, then the physics checks) but
nothing is adjusted: the person's scene is stored as they made it, with the report beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from studio.scene.budget import (
    MAX_BOOLEAN_TRIANGLES,
    BudgetExceeded,
    MeshFaces,
    over_budget,
    scene_estimate,
)
from studio.scene.model import Scene, SceneError

if TYPE_CHECKING:
    # Geometry, rendering and physics (trimesh, pyrender, mujoco) load where a scene is
    # checked, not when the API imports the caps.
    from studio.scene.geometry import MeshResolver

MAX_OBJECTS = 200
MAX_TRIANGLES = 1_000_000
MAX_EXPORT_BYTES = 64 * 1024 * 1024
MAX_SOURCE_CHARS = 80
RENDER_SIZE = (1024, 768)

EDIT_PREFIX = "edit"
_SOURCE = re.compile(r"^[\w .,:;'()+\-/#&]*$")


class CapExceeded(BudgetExceeded):
    """An edited scene over one of the caps (objects, triangles, export size)."""


@dataclass
class Measured:
    """The checks of a scene as stored on its revision, and its render."""

    report: dict[str, Any]
    png: bytes = b""
    thumbnail: bytes = b""
    notes: list[str] = field(default_factory=list)


def edit_source(description: Any) -> str:
    """The revision source of an edit: "edit" or "edit: <what>" ("edit: moved chair").

    SceneError when the description is not a short line of plain text."""
    if description is None or description == "":
        return EDIT_PREFIX
    if not isinstance(description, str):
        raise SceneError("source must be a short text such as 'edit: moved chair'")
    text = " ".join(description.split())
    if len(text) > MAX_SOURCE_CHARS:
        raise SceneError(f"source must be at most {MAX_SOURCE_CHARS} characters")
    if not _SOURCE.match(text):
        raise SceneError("source may hold letters, digits, spaces and simple punctuation only")
    what = text.removeprefix(EDIT_PREFIX).lstrip(" :").strip()
    return f"{EDIT_PREFIX}: {what}" if what else EDIT_PREFIX


def check_estimate(scene: Scene, *, mesh_faces: MeshFaces | None = None) -> None:
    """CapExceeded when the scene has too many objects, or its triangles or boolean work,
    bounded from its parameters (and its meshes' stored counts), are over the caps.
    Builds nothing, so a scene over the caps costs nothing but this walk."""
    if len(scene.objects) > MAX_OBJECTS:
        raise CapExceeded(
            f"the scene has {len(scene.objects)} objects; an edit may have at most {MAX_OBJECTS}"
        )
    reason = over_budget(
        scene_estimate(scene, mesh_faces=mesh_faces),
        what="this scene",
        max_triangles=MAX_TRIANGLES,
        max_boolean_triangles=MAX_BOOLEAN_TRIANGLES,
    )
    if reason:
        raise CapExceeded(reason)


def check_caps(
    scene: Scene,
    *,
    resolve_mesh: MeshResolver | None = None,
    mesh_faces: MeshFaces | None = None,
    caps: dict[str, int] | None = None,
) -> bytes:
    """Enforce the caps, estimated before building (`check_estimate`) and then measured on the
    built objects (SceneError if one cannot be built), and return the GLB, which the caller may
    keep as the revision's cached export. Without `mesh_faces`, meshes count their resolved
    faces. `caps` (`current_caps()`, as the caller's process has them) override the defaults."""
    max_triangles, max_export_bytes = (caps or current_caps()).values()
    from studio.scene.export import scene_to_glb
    from studio.scene.geometry import object_mesh

    if mesh_faces is None and resolve_mesh is not None:
        mesh_faces = lambda ref: len(resolve_mesh(ref).faces)  # noqa: E731
    check_estimate(scene, mesh_faces=mesh_faces)
    triangles = sum(
        len(object_mesh(item, resolve_mesh=resolve_mesh).faces) for item in scene.objects
    )
    if triangles > max_triangles:
        raise CapExceeded(
            f"the scene has {triangles:,} triangles; an edit may have at most {max_triangles:,}"
        )
    glb = scene_to_glb(scene, resolve_mesh=resolve_mesh)
    if len(glb) > max_export_bytes:
        megabytes = max_export_bytes / 2**20
        raise CapExceeded(
            f"the scene's GLB export would be {len(glb) / 2**20:.1f} MB; "
            f"the cap is {megabytes:g} MB"
        )
    return glb


def current_caps() -> dict[str, int]:
    """The built scene's caps, read when asked (a child is handed its caller's)."""
    return {"max_triangles": MAX_TRIANGLES, "max_export_bytes": MAX_EXPORT_BYTES}


def measure(scene: Scene, *, resolve_mesh: MeshResolver | None = None) -> Measured:
    """Render the scene at 1024 x 768 and run the studio's checks, adjusting nothing.

    The report has the shape of an agent round's summary (`passed`, `checks`, `changes`). Where
    no GL context can be made the physics checks still run and a note says why there is no image.
    """
    from studio.physics import run_checks
    from studio.refinement import measure_round
    from studio.rendering.renderer import RenderUnavailable
    from studio.scene.geometry import world_mesh

    measured = Measured(report={})
    try:
        width, height = RENDER_SIZE
        result, _ = measure_round(scene, 0, resolve_mesh=resolve_mesh, width=width, height=height)
    except RenderUnavailable as error:
        measured.notes.append(f"not rendered: {error}")
        physics = run_checks(scene, lambda obj: world_mesh(obj, resolve_mesh=resolve_mesh))
        checks = {
            name: {"passed": report.passed, "value": report.value, "reasons": report.reasons[:5]}
            for name, report in physics.items()
        }
    else:
        checks = result.checks
        measured.png, measured.thumbnail = result.png, result.thumbnail
    measured.report = {
        "passed": all(check["passed"] for check in checks.values()),
        "checks": checks,
        "changes": [],
        **({"notes": measured.notes} if measured.notes else {}),
    }
    return measured
