"""Which Celery queue each task goes to, so each kind of work gets its own pool of workers.

* ``agents``: agent slices of finance (and any other non-studio) workspaces, cancels, rescues;
* ``ingest``: document ingestion (PDF parsing: CPU-bound, minutes per long filing);
* ``studio``: slices of studio runs, whose tools render (OSMesa) and simulate physics: CPU-heavy
  steps that should not hold up a finance run, on workers sized for them.

A worker started without ``-Q`` consumes every queue in ``QUEUES`` (declared in
config/celery.py), so the embedded default's single worker does all the work; a deployment
starts one worker group per queue (``celery -A config worker -Q studio``).
"""

from __future__ import annotations

from typing import Any

AGENTS = "agents"
INGEST = "ingest"
STUDIO = "studio"
QUEUES = (AGENTS, INGEST, STUDIO)
ROUTED_PREFIXES = {"agents.": AGENTS, "finance.ingest_": INGEST, "studio.": STUDIO}


def route_task(
    name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **_: Any
) -> dict[str, str] | None:
    """Celery router (``CELERY_TASK_ROUTES``): the queue for one message of task ``name``."""
    if name == "agents.advance_run" and args and _workspace_kind(args[0]) == "studio":
        return {"queue": STUDIO}
    for prefix, queue in ROUTED_PREFIXES.items():
        if name.startswith(prefix):
            return {"queue": queue}
    return None  # CELERY_TASK_DEFAULT_QUEUE


def _workspace_kind(run_id: Any) -> str | None:
    # One indexed query per slice (a slice runs for seconds); a message is never lost for want
    # of a kind: an unknown run goes to the agents queue, where the slice ends it cleanly.
    from agents.models import Run

    kind = Run.objects.filter(pk=run_id).values_list("workspace__kind", flat=True).first()
    return str(kind) if kind is not None else None
