"""The app's Prometheus metrics, fed from what runs record.

Most figures come from the events a unit commits (`observe_events`), so a metric counts exactly
what the log holds: tool calls by tool and outcome (the success rate), runs by status, their
duration and steps, interruptions by cause, model latency and retries, refinement rounds and
their checks. The rest are observed where they happen (a slice's latency, a lost lease, a
document's ingestion, WebSocket connections) or read from the database at scrape time (queue
depth, evaluation pass rates: `agents.observability.collectors`).

Several processes (web, Celery's prefork children) share the figures through prometheus_client's
multiprocess mode: `PROMETHEUS_MULTIPROC_DIR` (set by the settings, under VAR_DIR, before this
module is imported) holds one file per process, and `/metrics` adds them up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

from agents.runtime import events as event_types

PREFIX = "agentworks"
SECONDS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800)

RUNS = Counter(
    f"{PREFIX}_runs_finished", "Runs that ended, by kind and status.", ["kind", "status"]
)
RUN_SECONDS = Histogram(
    f"{PREFIX}_run_duration_seconds", "Wall time of a finished run.", ["kind"], buckets=SECONDS
)
RUN_STEPS = Histogram(
    f"{PREFIX}_run_steps",
    "Decisions a finished run took.",
    ["kind"],
    buckets=(1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 500),
)
TOOL_CALLS = Counter(
    f"{PREFIX}_tool_calls",
    "Tool calls by tool and outcome (ok, error, timeout).",
    ["kind", "tool", "outcome"],
)
INTERRUPTIONS = Counter(
    f"{PREFIX}_interruptions",
    "Runs or units that did not end normally, by cause: stuck, budget, cancelled, "
    "worker_lost (a unit ran again), lease_lost, time_limit, quota, model_error, internal_error.",
    ["cause"],
)
MODEL_TTFT = Histogram(
    f"{PREFIX}_model_time_to_first_token_seconds",
    "Model server: time to the first streamed token.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
)
MODEL_TOKENS_PER_SECOND = Histogram(
    f"{PREFIX}_model_tokens_per_second",
    "Model server: completion tokens per second while generating.",
    buckets=(5, 10, 20, 40, 80, 160, 320, 640),
)
MODEL_RETRIES = Counter(f"{PREFIX}_model_retries", "Model requests retried after an error.")
SLICE_SECONDS = Histogram(
    f"{PREFIX}_slice_seconds",
    "Wall time of one slice of a run, by queue and how it ended.",
    ["queue", "status"],
    buckets=SECONDS,
)
INGEST_SECONDS = Histogram(
    f"{PREFIX}_ingest_seconds", "Time to ingest one document.", ["status"], buckets=SECONDS
)
INGEST_PAGES_PER_SECOND = Histogram(
    f"{PREFIX}_ingest_pages_per_second",
    "Pages per second of a document's ingestion.",
    buckets=(1, 5, 10, 25, 50, 100, 250, 500),
)
REFINEMENT_ROUNDS = Counter(
    f"{PREFIX}_refinement_rounds",
    "Studio refinement rounds, by whether all checks passed.",
    ["passed"],
)
REFINEMENT_CHECKS = Counter(
    f"{PREFIX}_refinement_checks",
    "Studio refinement checks, by check and result.",
    ["check", "passed"],
)
WEBSOCKETS = Gauge(
    f"{PREFIX}_websocket_connections",
    "Open WebSocket connections.",
    multiprocess_mode="livesum",
)

BUDGET_REASONS = frozenset({"steps", "tokens", "time"})
MODEL_REASONS = frozenset({"policy", "model", "truncated"})


def interruption_cause(status: str, reason: str | None) -> str | None:
    """Why a run ended other than by answering (None when it answered)."""
    if status == "cancelled":
        return "cancelled"
    if status == "stuck":
        return "stuck"
    if status != "failed":
        return None
    if reason in BUDGET_REASONS:
        return "budget"
    if reason == "time_limit":
        return "time_limit"
    if reason == "quota":
        return "quota"
    if reason in MODEL_REASONS:
        return "model_error"
    return "internal_error"


def observe_events(kind: str, events: Iterable[Any]) -> None:
    """Count what a committed unit recorded (`Event` rows or anything with .type/.payload)."""
    for event in events:
        payload = event.payload or {}
        observe = _OBSERVERS.get(event.type)
        if observe is not None:
            observe(kind, payload)


def _tool_result(kind: str, payload: dict[str, Any]) -> None:
    outcome = "timeout" if payload.get("timed_out") else "ok" if payload.get("ok") else "error"
    TOOL_CALLS.labels(kind=kind, tool=str(payload.get("name", "")), outcome=outcome).inc()


def _run_ended(kind: str, payload: dict[str, Any]) -> None:
    status = str(payload.get("status", "failed"))
    RUNS.labels(kind=kind, status=status).inc()
    if isinstance(payload.get("elapsed_s"), int | float):
        RUN_SECONDS.labels(kind=kind).observe(float(payload["elapsed_s"]))
    if isinstance(payload.get("steps"), int):
        RUN_STEPS.labels(kind=kind).observe(payload["steps"])
    cause = interruption_cause(status, payload.get("reason"))
    if cause is not None:
        INTERRUPTIONS.labels(cause=cause).inc()


def _model_message(kind: str, payload: dict[str, Any]) -> None:
    metrics = payload.get("metrics") or {}
    if isinstance(metrics.get("ttft_ms"), int | float):
        MODEL_TTFT.observe(metrics["ttft_ms"] / 1000)
    if isinstance(metrics.get("tokens_per_s"), int | float) and metrics["tokens_per_s"] > 0:
        MODEL_TOKENS_PER_SECOND.observe(metrics["tokens_per_s"])


def _status(kind: str, payload: dict[str, Any]) -> None:
    if str(payload.get("message", "")).startswith("model retrying"):
        MODEL_RETRIES.inc()


def _superseded(kind: str, payload: dict[str, Any]) -> None:
    INTERRUPTIONS.labels(cause="worker_lost").inc()


def _round(kind: str, payload: dict[str, Any]) -> None:
    REFINEMENT_ROUNDS.labels(passed=str(bool(payload.get("passed"))).lower()).inc()
    checks = payload.get("checks") or {}
    for name, check in checks.items() if isinstance(checks, dict) else ():
        passed = str(bool(isinstance(check, dict) and check.get("passed"))).lower()
        REFINEMENT_CHECKS.labels(check=str(name), passed=passed).inc()


_OBSERVERS = {
    event_types.TOOL_RESULT: _tool_result,
    event_types.RUN_FINISHED: _run_ended,
    event_types.RUN_FAILED: _run_ended,
    event_types.MODEL_MESSAGE: _model_message,
    event_types.RUN_STATUS: _status,
    event_types.EVENTS_SUPERSEDED: _superseded,
    event_types.ROUND_COMPLETED: _round,
}


def observe_slice(*, queue: str, status: str, seconds: float) -> None:
    SLICE_SECONDS.labels(queue=queue, status=status).observe(seconds)
    if status == "lost":
        INTERRUPTIONS.labels(cause="lease_lost").inc()


def observe_ingest(*, status: str, seconds: float, pages: int) -> None:
    INGEST_SECONDS.labels(status=status).observe(seconds)
    if status == "ready" and pages and seconds > 0:
        INGEST_PAGES_PER_SECOND.observe(pages / seconds)
