"""Sending a task by its registered name, so services never import the task modules (which
import the services: the cycle this avoids)."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Send `task_name` with `args` once the current transaction commits (eager mode, as the
    evaluation harness uses, runs it in place)."""
    transaction.on_commit(lambda: _task(task_name).delay(*args))


def _task(name: str) -> Any:
    from config.celery import app

    if name not in app.tasks:  # a web process: the task modules are found on first use
        app.autodiscover_tasks(force=True)
    return app.tasks[name]
