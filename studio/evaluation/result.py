"""What a turn left behind: its scene revision, exported as the GLB a person downloads, and the
round report of that revision.

The scene a turn is judged on is the last revision its own run stored. A run that stored none
(it built nothing) leaves the workspace's current revision in place, which is what the person
then sees; such a result is marked `from_run = False`, so checks that need the turn to have made
something can say so. Each revision's GLB is exported and read once per task (`context.memo`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from agents.evaluation.verdicts import VerifierContext
from studio.evaluation.glb_scene import GlbScene, read_glb
from studio.models import SceneRevision
from studio.selectors import revision_current

MEMO_PREFIX = "studio"


class ResultUnavailable(LookupError):
    """The scene could not be read (nothing stored, or an export that failed); says why."""


@dataclass(frozen=True)
class TurnScene:
    """One revision as the evaluation reads it."""

    revision_number: int
    from_run: bool
    scene: GlbScene
    report: dict[str, Any] = field(default_factory=dict)
    source: str = ""


def turn_scene(context: VerifierContext) -> TurnScene:
    """The scene the current turn left (ResultUnavailable when the workspace has none at all)."""
    revision = _latest(SceneRevision.objects.filter(run=context.run))
    from_run = revision is not None
    if revision is None:
        revision = revision_current(workspace=context.workspace)
    if revision is None:
        raise ResultUnavailable("the workspace has no scene: the run stored no revision")
    return _load(context, revision, from_run=from_run)


def previous_scene(context: VerifierContext) -> TurnScene:
    """The scene the previous turns left (ResultUnavailable on a first turn or when none)."""
    earlier = [run.pk for run in context.runs[:-1]]
    if not earlier:
        raise ResultUnavailable("there is no previous turn to compare with")
    revision = _latest(SceneRevision.objects.filter(run_id__in=earlier))
    if revision is None:
        raise ResultUnavailable("the previous turns stored no scene revision")
    return _load(context, revision, from_run=True)


def _latest(revisions: QuerySet[SceneRevision]) -> SceneRevision | None:
    return revisions.order_by("-number").first()


def _load(context: VerifierContext, revision: SceneRevision, *, from_run: bool) -> TurnScene:
    key = f"{MEMO_PREFIX}.revision.{revision.pk}"
    cached = context.memo.get(key)
    if isinstance(cached, TurnScene):
        return TurnScene(
            cached.revision_number, from_run, cached.scene, cached.report, cached.source
        )
    if isinstance(cached, ResultUnavailable):
        raise cached
    from studio.exports import revision_export  # geometry and trimesh: only when judging

    try:
        scene = read_glb(revision_export(revision, "glb"))
    except ValueError as error:  # SceneError, GlbError: the download itself is broken
        failure = ResultUnavailable(f"revision {revision.number} does not export: {error}")
        context.memo[key] = failure
        raise failure from error
    loaded = TurnScene(
        revision_number=revision.number,
        from_run=from_run,
        scene=scene,
        report=dict(revision.report or {}),
        source=revision.source,
    )
    context.memo[key] = loaded
    return loaded
