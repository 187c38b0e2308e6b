"""Creating, enqueuing and cancelling runs."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from agents.models import Run, Workspace
from agents.services.options import parse_run_options
from agents.services.queueing import enqueue_on_commit
from agents.services.quotas import check_run_quotas

MAX_PROMPT_CHARS = 20_000
"""The one prompt limit: the API schema's maxLength, its 400 and this service all say it."""
PROMPT_TOO_LONG = f"the prompt is longer than {MAX_PROMPT_CHARS} characters"


class RunInputError(ValueError):
    """A request that cannot become a run; the message says why."""


def run_create(*, workspace: Workspace, prompt: str, options: Any = None) -> Run:
    """Create a queued run and enqueue its first slice once the transaction commits.

    Raises RunInputError or OptionsError for a request that cannot be a run, and QuotaExceeded
    when the owner's quotas (runs at once, runs per hour, stored bytes) refuse another one."""
    prompt = (prompt or "").strip()
    if not prompt:
        raise RunInputError("the prompt is empty")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise RunInputError(PROMPT_TOO_LONG)
    parsed = parse_run_options(workspace.kind, options, workspace=workspace)
    with transaction.atomic():
        # The owner's row lock makes count-then-create one step: two requests at once cannot
        # both take the last free slot of a quota.
        owner = User.objects.select_for_update().get(pk=workspace.owner_id)
        check_run_quotas(user=owner)
        run = Run.objects.create(
            workspace=workspace,
            prompt=prompt,
            options={"planner": parsed.planner}
            | ({"rounds": parsed.rounds} if parsed.rounds else {}),
            budget=parsed.budget.to_dict(),
        )
        run_enqueue(run_id=run.pk)
    return run


def run_enqueue(*, run_id: int, countdown: float | None = None) -> None:
    """Send the next slice of a run to the workers after the current transaction commits.

    A slice the broker does not take leaves the run marked never enqueued, and the sweeper's
    next pass sends it again: the run was accepted, so the caller is not told of a failure."""
    Run.objects.filter(pk=run_id).update(enqueued_at=timezone.now())
    enqueue_on_commit(
        "agents.advance_run",
        run_id,
        on_failure=lambda: Run.objects.filter(pk=run_id).update(enqueued_at=None),
        countdown=countdown,
    )


def run_cancel(*, run: Run) -> Run:
    """Ask a run to stop: this only records the wish (one UPDATE) and enqueues `agents.cancel_run`.

    A worker holding the run sees the flag within half a second, even mid-stream, and ends it as
    `cancelled` (what was done stays); a run no worker holds (queued, or between slices) is ended by
    the cancel task. The caller gets the run back at once, still active, with `cancel_requested`.
    """
    if not run.is_active:
        return run
    asked = Run.objects.filter(pk=run.pk, status__in=Run.ACTIVE).update(cancel_requested=True)
    if asked:
        enqueue_on_commit("agents.cancel_run", run.pk)
    run.refresh_from_db()
    return run
