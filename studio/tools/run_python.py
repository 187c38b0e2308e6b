"""`run_python`: the model's own trimesh/manifold3d code builds a mesh in the sandbox; the mesh
it writes to out/ becomes an uploaded mesh of the workspace and an object of the scene."""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from agents.models import Run
from agents.runtime import ToolContext
from agents.sandbox import SandboxError
from agents.sandbox.configured import CODE, configured_session, tool_timeout_s
from studio.exports import MAX_UPLOAD_BYTES, mesh_upload
from studio.scene.mesh_import import MeshImportError
from studio.tools.scene_tools import NAME, VEC3, import_mesh_object, scene_tool
from studio.tools.working import run_id

MESH_FILES = ("out/mesh.glb", "out/mesh.stl", "out/mesh.obj", "out/mesh.ply")


def run_python(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Run the code in the sandbox; a mesh it wrote is added to the scene as object `name`."""
    with configured_session() as session:
        result = session.run(arguments["code"])
        observation = result.to_dict()
        written = {item.path for item in result.files}
        found = next((path for path in MESH_FILES if path in written), None)
        if result.exit_reason != "ok" or found is None:
            if result.exit_reason == "ok":
                observation["mesh"] = f"no mesh: write one of {', '.join(MESH_FILES)}"
            return observation
        name = arguments.get("name", "generated")
        try:
            data = session.read(found, max_bytes=MAX_UPLOAD_BYTES)
            workspace = Run.objects.select_related("workspace").get(pk=run_id(context)).workspace
            upload = mesh_upload(
                workspace=workspace, data=data, filename=f"{name}{PurePosixPath(found).suffix}"
            )
        except (SandboxError, MeshImportError) as error:
            observation["mesh"] = f"{found} is not a usable mesh: {error}"
            return observation
    placed = {"name": name, "ref": upload.ref, "position": arguments.get("position", [0, 0, 0])}
    observation["mesh"] = {"ref": upload.ref, "faces": upload.faces}
    observation["object"] = import_mesh_object(placed, context)
    return observation


RUN_PYTHON = replace(
    scene_tool(
        "run_python",
        "Run Python 3 (trimesh, manifold3d, numpy) in a sandbox without network to build a "
        "mesh in metres (+Y up); write it to out/mesh.glb (or .stl, .obj, .ply) and it is added "
        "to the scene as object `name` at `position`. Returns exit_reason (ok, error, timeout, "
        "memory, killed), stdout, stderr, files, and the object's bounds.",
        {"code": CODE, "name": NAME, "position": VEC3},
        ["code"],
        run_python,
    ),
    timeout_s=tool_timeout_s(),
)
