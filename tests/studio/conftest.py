"""Fixtures shared by the studio tests: a GL context or a clear skip, a studio workspace, turns."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def gl_context():
    """Skip the module where no headless OpenGL context can be made (no libosmesa6)."""
    from studio.rendering.renderer import RenderUnavailable, render
    from studio.scene.model import Scene

    try:
        render(Scene(), mesh_for=lambda obj: None, width=16, height=16)  # type: ignore[arg-type,return-value]
    except RenderUnavailable as exc:
        pytest.skip(f"no headless OpenGL context here (libosmesa6 missing?): {exc}")


@pytest.fixture
def studio(alice, make_workspace, settings):
    """A studio workspace of alice's, run by the offline planner."""
    settings.MODEL_BASE_URL = ""
    return make_workspace(alice, kind="studio")


@pytest.fixture
def ask(studio, finish_run):
    """One turn in the studio workspace, through the run path, which must succeed."""
    from agents.models import Run
    from agents.services.runs import run_create

    def ask(prompt: str) -> Run:
        run = finish_run(run_create(workspace=studio, prompt=prompt, options={"rounds": 2}))
        assert run.status == Run.Status.SUCCEEDED, run.message
        return run

    return ask
