"""Small scenes for verifier tests: objects placed by their bottom centre, turns stored as the
product stores them (a run per turn, a revision per round with its report)."""

from __future__ import annotations

from typing import Any

from agents.evaluation.spec import Task, Turn
from agents.evaluation.verdicts import VerifierContext
from agents.models import Run
from studio.scene.model import Light, Material, Scene, SceneObject, Shape, Transform
from studio.services import revision_create

RED = (0.72, 0.02, 0.02)
BLUE = (0.02, 0.1, 0.72)
WARM = (1.0, 0.67, 0.4)
COOL = (0.58, 0.72, 1.0)
PASSING_REPORT = {
    "round": 1,
    "passed": True,
    "checks": {
        name: {"passed": True, "value": 0.0, "reasons": []}
        for name in ("exposure", "framing", "interpenetration", "support", "stability")
    },
}


def box(name, size, at=(0.0, 0.0, 0.0), *, colour=(0.8, 0.8, 0.8), category="", **material):
    """A box of `size` (x, y, z) whose bottom centre is at `at`."""
    x, y, z = at
    return SceneObject(
        name,
        Shape("box", {"size": list(size)}),
        Transform(translation=(x, y + size[1] / 2, z)),
        Material(base_color=colour, **material),
        category=category or name.split("-")[0],
    )


def ball(name, radius, at=(0.0, 0.0, 0.0), *, colour=RED, category="ball", **material):
    """A sphere resting with its bottom at `at`."""
    x, y, z = at
    return SceneObject(
        name,
        Shape("sphere", {"radius": radius}),
        Transform(translation=(x, y + radius, z)),
        Material(base_color=colour, **material),
        category=category,
    )


def key_light(colour=(1.0, 1.0, 1.0), position=(3.0, 4.0, 3.0), kind="directional"):
    return Light("key", kind, colour, 3.0, position, (0.0, 0.0, 0.0))


def scene(*objects, lights=None):
    return Scene(objects=tuple(objects), lights=tuple(lights or [key_light()]))


def task(turns=1, task_id="t"):
    return Task(
        id=task_id,
        suite="studio",
        kind="studio",
        turns=tuple(Turn(prompt=f"turn {n}") for n in range(1, turns + 1)),
    )


def play(workspace, *turns: Scene | None, report: dict[str, Any] | None = None):
    """Store one run per turn (None: a run that built nothing) and return the last turn's
    verifier context, its memo shared across turns as in the harness."""
    runs = []
    for index, built in enumerate(turns, 1):
        run = Run.objects.create(workspace=workspace, prompt=f"turn {index}", status="succeeded")
        if built is not None:
            revision_create(
                workspace=workspace,
                scene=built,
                source="round 1",
                run=run,
                report=PASSING_REPORT if report is None else report,
            )
        runs.append(run)
    return VerifierContext(
        task=task(len(turns)), workspace=workspace, runs=runs, turn=len(runs) - 1
    )


def judge(context, check, **params):
    from studio.evaluation.verifiers import verifier_table

    return verifier_table()[check](context, params)
