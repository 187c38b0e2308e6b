"""`run_python` in both workspaces and `manage.py run_sandboxed`, end to end in the sandbox."""

from __future__ import annotations

import io
import json
import textwrap

import pytest
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command

from agents.runtime import ToolContext, ToolRegistry
from agents.runtime.types import ToolCall
from agents.services.runs import run_create
from finance.models import Document
from finance.tools.run_python import RUN_PYTHON as FINANCE_RUN_PYTHON
from studio.models import UploadedMesh, WorkingScene
from studio.scene.geometry import object_bounds
from studio.scene.model import scene_from_dict
from studio.tools.run_python import RUN_PYTHON as STUDIO_RUN_PYTHON

pytestmark = pytest.mark.django_db

STATEMENTS = {
    "income_statement": {
        "revenue": {"FY2022": {"value": 100.0, "page": 40}, "FY2023": {"value": 120.0, "page": 40}}
    },
    "balance_sheet": {},
    "cash_flow": {},
}


def context_for(workspace) -> ToolContext:
    run = run_create(workspace=workspace, prompt="compute")
    options = {"run_id": run.pk, "workspace_id": workspace.pk}
    return ToolContext(artifacts=None, progress=lambda *a: None, options=options)  # type: ignore[arg-type]


def call(tool, code: str, context: ToolContext, **arguments):
    result = ToolRegistry([tool]).execute(
        ToolCall("1", tool.name, {"code": textwrap.dedent(code), **arguments}), context
    )
    return result


def test_the_finance_tool_reads_the_workspaces_data_read_only(bwrap, alice, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    filing = Document.objects.create(
        workspace=workspace, name="acme.pdf", sha256="1" * 64, status="ready", statements=STATEMENTS
    )
    prices = Document(
        workspace=workspace, name="p.csv", sha256="2" * 64, status="ready", kind="csv"
    )
    prices.file.save("p.csv", ContentFile(b"Date,Close\n2023-01-02,10\n2023-01-03,11\n"))
    result = call(
        FINANCE_RUN_PYTHON,
        f"""
        import json, pandas as pd
        frame = pd.read_csv("/input/statements/{filing.pk}.csv")
        revenue = frame[frame.line == "revenue"].set_index("year")["value"]
        print("growth", revenue["FY2023"] / revenue["FY2022"] - 1)
        print("close", pd.read_csv("/input/prices/{prices.pk}.csv")["Close"].iloc[-1])
        print([d["name"] for d in json.load(open("/input/documents.json"))])
        try:
            open("/input/documents.json", "w")
        except OSError:
            print("read-only")
        """,
        context_for(workspace),
    )
    assert result.ok, result.content
    observation = json.loads(result.content)
    assert observation["exit_reason"] == "ok", observation["stderr"]
    assert observation["stdout"].split("\n")[:4] == [
        "growth 0.19999999999999996",
        "close 11",
        "['acme.pdf', 'p.csv']",
        "read-only",
    ]


def test_the_studio_tool_puts_the_mesh_it_built_into_the_scene(bwrap, alice, make_workspace):
    workspace = make_workspace(alice, kind="studio")
    context = context_for(workspace)
    result = call(
        STUDIO_RUN_PYTHON,
        """
        import manifold3d, trimesh
        solid = manifold3d.Manifold.cube([0.5, 0.2, 0.3], center=True)
        mesh = solid.to_mesh()
        trimesh.Trimesh(mesh.vert_properties[:, :3], mesh.tri_verts).export("out/mesh.glb")
        print("built")
        """,
        context,
        name="plinth",
        position=[0, 0.1, 0],
    )
    assert result.ok, result.content
    observation = json.loads(result.content)
    assert observation["exit_reason"] == "ok", observation["stderr"]
    assert [item["path"] for item in observation["files"]] == ["out/mesh.glb"]
    upload = UploadedMesh.objects.get(workspace=workspace)
    assert observation["mesh"]["ref"] == upload.ref
    scene = scene_from_dict(WorkingScene.objects.get(run_id=context.options["run_id"]).scene)
    item = scene.object("plinth")
    assert item.shape.params["ref"] == upload.ref
    from studio.exports import mesh_resolver

    low, high = object_bounds(item, resolve_mesh=mesh_resolver(workspace))
    assert list(high - low) == pytest.approx([0.5, 0.2, 0.3], abs=1e-6)
    assert observation["object"]["bounds_min"][1] == pytest.approx(0.0, abs=1e-6)


def test_a_studio_script_that_fails_changes_nothing(bwrap, alice, make_workspace):
    workspace = make_workspace(alice, kind="studio")
    result = call(STUDIO_RUN_PYTHON, "raise SystemExit('no mesh today')", context_for(workspace))
    observation = json.loads(result.content)
    assert observation["exit_reason"] == "error" and "no mesh today" in observation["stderr"]
    assert not UploadedMesh.objects.filter(workspace=workspace).exists()


def test_without_bubblewrap_the_tool_says_it_is_disabled(alice, make_workspace, settings):
    settings.SANDBOX_BWRAP = "/nonexistent/bwrap"
    result = call(FINANCE_RUN_PYTHON, "print(1)", context_for(make_workspace(alice)))
    assert not result.ok
    assert result.content.startswith("error: the Python sandbox is disabled: bubblewrap is not")


def test_the_command_prints_the_result_as_json(bwrap, tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("print('hello')\nopen('out/a.txt', 'w').write('abc')\nraise SystemExit(3)")
    out = io.StringIO()
    call_command("run_sandboxed", str(script), "--timeout", "10", stdout=out)
    result = json.loads(out.getvalue())
    assert {key: result[key] for key in ("exit_reason", "exit_code", "stdout", "stderr")} == {
        "exit_reason": "error",
        "exit_code": 3,
        "stdout": "hello\n",
        "stderr": "",
    }
    assert result["files"] == [{"path": "out/a.txt", "bytes": 3}]
    with pytest.raises(CommandError, match="no such file"):
        call_command("run_sandboxed", str(tmp_path / "missing.py"))
