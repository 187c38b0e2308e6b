"""Sending a task by its registered name, so services never import the task modules (which
import the services: the cycle this avoids).

A task is sent with `send_task`, by name: the web process needs no task registry at all, so no
request waits on (or races) the discovery of task modules, and a worker resolves the name when
it receives the message, its modules having been imported at its start. The evaluation harness
and the tests run tasks eagerly, in place; for them the task modules are imported once, under a
lock, before the first task runs.

Once the row it is about has committed, a task that cannot be sent (the broker is down, its
folder is full) must not turn the request into an error: the work is accepted and recorded, so
the failure is logged, `on_failure` marks the row as never enqueued, and the sweeper sends it
again on its next pass (agents/services/sweeper.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)
_imported = threading.Lock()
_tasks_ready = False


def enqueue_on_commit(
    task_name: str,
    *args: Any,
    on_failure: Callable[[], object] | None = None,
    countdown: float | None = None,
) -> None:
    """Send `task_name` with `args` once the current transaction commits (not run before
    `countdown` seconds, where given); never raises then."""
    transaction.on_commit(
        lambda: enqueue_now(task_name, *args, on_failure=on_failure, countdown=countdown)
    )


def enqueue_now(
    task_name: str,
    *args: Any,
    on_failure: Callable[[], object] | None = None,
    countdown: float | None = None,
) -> bool:
    """Send the task; False (logged, `on_failure` called) when the broker did not take it."""
    from config.celery import app

    try:
        if app.conf.task_always_eager:
            _eager_task(task_name).delay(*args)
        else:
            app.send_task(task_name, args=args, countdown=countdown)
        return True
    except Exception:
        if app.conf.task_always_eager:
            raise  # in place, the task's own error is the caller's to see
        logger.exception("could not send %s%r; the sweeper will send it again", task_name, args)
        if on_failure is not None:
            try:
                on_failure()
            except Exception:
                logger.exception("could not mark %s%r as not enqueued", task_name, args)
        return False


def _eager_task(name: str) -> Any:
    global _tasks_ready
    from config.celery import app

    with _imported:
        if not _tasks_ready:
            app.loader.import_default_modules()
            app.autodiscover_tasks(force=True)
            _tasks_ready = True
    return app.tasks[name]
