"""Driving a run to its end in this process, slice by slice, with the code a worker runs.

Commands (`create_scene`, `evaluate`) use it so a run needs no worker: each slice is a
`run_advance` under its own lease, and a slice that hits a bug fails the run visibly, exactly
as the Celery task does.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from agents.models import Run
from agents.services.execution import run_advance, run_fail_internal

logger = logging.getLogger(__name__)
MAX_SLICES = 10_000


class RunDidNotFinish(RuntimeError):
    """The run was still active after the slice limit."""


def run_drive(
    *,
    run_id: int,
    owner: str = "",
    max_units: int | None = None,
    on_slice: Callable[[], None] | None = None,
    max_slices: int = MAX_SLICES,
) -> Run:
    """Advance the run until it ends (another worker may share it: the lease keeps turns)."""
    owner = owner or f"drive:{uuid.uuid4().hex[:8]}"
    for _ in range(max_slices):
        try:
            result = run_advance(run_id=run_id, owner=owner, max_units=max_units)
        except Exception as error:
            logger.exception("run %s failed with an internal error", run_id)
            run_fail_internal(run_id=run_id, owner=owner, error=error)
            result = None
        if on_slice is not None:
            on_slice()
        run = Run.objects.get(pk=run_id)
        if (result is not None and result.status == "finished") or not run.is_active:
            return run
    raise RunDidNotFinish(f"run {run_id} did not finish within {max_slices} slices")
