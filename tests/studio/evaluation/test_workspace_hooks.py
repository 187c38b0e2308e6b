"""The studio's harness hooks: inputs laid into a fresh workspace, leftovers, key outputs, the
environment report, and the registration itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents.evaluation.kinds import InputUnavailable, get_evaluation_kind
from studio.evaluation.workspace import environment, key_outputs, leftovers, prepare
from tests.conftest import SHARED_DATA
from tests.studio.evaluation.scenes import ball, box, play, scene

DUCK = "studio/meshes/Duck.glb"


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, "Eval", "studio")


@pytest.mark.django_db
def test_a_fresh_workspace_has_no_leftovers_and_a_used_one_lists_them(workspace):
    assert leftovers(workspace) == []
    play(workspace, scene(box("crate", (0.5, 0.5, 0.5))))
    assert leftovers(workspace) == ["scene revision 1 (round 1)"]


@pytest.mark.django_db
def test_prepare_uploads_meshes_from_shared_data(workspace, monkeypatch):
    if not (SHARED_DATA / DUCK).is_file():
        pytest.skip(f"shared data not here: {SHARED_DATA / DUCK}")
    monkeypatch.setenv("SHARED_DATA", str(SHARED_DATA))
    inputs = prepare(workspace, {"meshes": [DUCK]})
    assert list(inputs["meshes"]) == ["Duck"]
    assert leftovers(workspace) == ["uploaded mesh Duck.glb"]


@pytest.mark.django_db
def test_prepare_says_when_an_input_is_absent(workspace, monkeypatch, tmp_path):
    monkeypatch.setenv("SHARED_DATA", str(tmp_path))
    with pytest.raises(InputUnavailable, match=r"Duck\.glb"):
        prepare(workspace, {"meshes": [DUCK]})
    with pytest.raises(ValueError, match="only 'meshes'"):
        prepare(workspace, {"documents": ["x.pdf"]})


@pytest.mark.django_db
def test_key_outputs_summarise_the_final_scene_in_millimetres(workspace):
    context = play(
        workspace,
        scene(box("table", (1.2, 0.75, 0.7)), ball("ball", 0.11, (0, 0.75, 0))),
    )
    outputs = key_outputs(context)
    assert outputs["objects"] == {
        "ball": {"size": [0.22, 0.22, 0.22], "at": [0.0, 0.86, 0.0]},
        "table": {"size": [1.2, 0.75, 0.7], "at": [0.0, 0.375, 0.0]},
    }
    assert outputs["lights"] == ["key:directional"]
    assert outputs["built_this_turn"] is True
    assert key_outputs(context) == outputs  # read from the memo, same answer


@pytest.mark.django_db
def test_key_outputs_of_a_workspace_without_scene(workspace):
    outputs = key_outputs(play(workspace, None))
    assert outputs["scene"] is None and "no scene" in outputs["reason"]


def test_environment_names_libraries_and_the_renderer():
    report = environment()
    assert set(report["libraries"]) == {
        "trimesh",
        "pyrender",
        "PyOpenGL",
        "mujoco",
        "manifold3d",
        "numpy",
    }
    assert report["libraries"]["trimesh"]
    renderer = report["renderer"]
    assert renderer["platform"] in ("osmesa", "egl")
    assert renderer["renders"] == ("error" not in renderer)


def test_the_studio_kind_is_registered_with_every_verifier():
    kind = get_evaluation_kind("studio")
    assert kind.suites["studio"].is_dir()
    assert set(kind.verifier_table()) >= {
        "scene_nonempty",
        "object_count",
        "size",
        "size_change",
        "color",
        "material",
        "relation",
        "lights",
        "physics_pass",
        "unchanged",
    }


def test_registering_loads_no_geometry_or_rendering_module():
    root = Path(__file__).resolve().parents[3]
    code = (
        "import sys, django; django.setup(); "
        "from agents.evaluation.kinds import get_evaluation_kind; get_evaluation_kind('studio'); "
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('trimesh', 'pyrender', 'OpenGL')"
        " or m.startswith(('studio.scene.geometry', 'studio.evaluation.'))]; "
        "print(heavy); sys.exit(1 if heavy else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={"DJANGO_SETTINGS_MODULE": "tests.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
