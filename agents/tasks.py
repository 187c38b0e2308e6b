"""Celery tasks: each takes a run id and calls one service."""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections

from agents.services.execution import run_advance, run_cancel_idle, run_fail_internal
from agents.services.fair_share import run_should_yield
from agents.services.file_janitor import orphan_files_sweep
from agents.services.runs import run_enqueue
from agents.services.sweeper import runs_rescue_stalled, sweep_pass

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError)


@shared_task(
    bind=True,
    name="agents.advance_run",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=10,
)
def advance_run(self, run_id: int) -> str:  # type: ignore[no-untyped-def]
    """Advance one slice of a run, then enqueue the next slice if it is not done."""
    owner = f"task:{self.request.id}"
    if run_should_yield(run_id=run_id):
        run_enqueue(run_id=run_id, countdown=settings.AGENT_YIELD_SECONDS)
        return "yielded"  # another person's run waits: this worker takes the next task
    try:
        result = run_advance(run_id=run_id, owner=owner)
    except TRANSIENT:
        raise
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        logger.warning("run %s: a slice ran past its %s s time limit", run_id, limit)
        run_fail_internal(
            run_id=run_id,
            owner=owner,
            message=f"a step of this run ran past the {limit:g} s time limit (a tool or the "
            "model did not answer in time), so the run was stopped",
            reason="time_limit",
        )
        return "failed"
    except Exception as error:
        logger.exception("run %s failed with an internal error", run_id)
        run_fail_internal(run_id=run_id, owner=owner, error=error)
        return "failed"
    if result.status == "continue":
        run_enqueue(run_id=run_id)
    return result.status


@shared_task(
    name="agents.cancel_run",
    acks_late=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=10,
)
def cancel_run(run_id: int) -> None:
    """End a run whose cancel was asked for, when no worker holds it (a worker that does stops
    on its own within half a second)."""
    run_cancel_idle(run_id=run_id)


@shared_task(name="agents.rescue_stalled_runs", acks_late=True)
def rescue_stalled_runs() -> int:
    """Re-enqueue runs whose worker died; also scheduled from every worker's sweeper thread."""
    return len(runs_rescue_stalled())


def _sweep_forever(stop: threading.Event) -> None:
    while not stop.wait(settings.AGENT_SWEEP_SECONDS):
        try:
            close_old_connections()
            for name, ids in sweep_pass().items():
                if ids:
                    logger.info("re-enqueued stalled %s %s", name, ids)
            orphan_files_sweep()
        except Exception:
            logger.warning("sweeper pass failed", exc_info=True)


@worker_ready.connect
def start_sweeper(**_: object) -> None:
    """Each worker looks for stalled runs, so a dead worker's run resumes without any beat."""
    thread = threading.Thread(
        target=_sweep_forever, args=(threading.Event(),), name="run-sweeper", daemon=True
    )
    thread.start()
