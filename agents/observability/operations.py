"""The staff operations page's figures for a window (the last hour, the last day), read from the
run log: the same quantities as the Prometheus metrics, for a team without a Prometheus."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from statistics import median
from typing import Any

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from agents.evaluation.charts import Bar, Point, Series, bar_chart, line_chart
from agents.models import Event
from agents.observability.metrics import interruption_cause
from agents.runtime import events as event_types

WINDOWS = {
    "hour": (timedelta(hours=1), timedelta(minutes=5)),
    "day": (timedelta(days=1), timedelta(hours=1)),
}
MAX_EVENTS = 200_000
"""Events read for one window at most (the newest ones): the page stays quick on a busy day."""
TYPES = (
    event_types.TOOL_RESULT,
    event_types.RUN_FINISHED,
    event_types.RUN_FAILED,
    event_types.EVENTS_SUPERSEDED,
    event_types.MODEL_MESSAGE,
)


@dataclass
class Window:
    name: str
    since: datetime
    tool_calls: Counter[str] = field(default_factory=Counter)
    """outcome -> count"""
    failing_tools: Counter[str] = field(default_factory=Counter)
    runs: Counter[str] = field(default_factory=Counter)
    interruptions: Counter[str] = field(default_factory=Counter)
    ttft_ms: list[float] = field(default_factory=list)
    success_by_bucket: dict[datetime, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    truncated: bool = False

    # Plain rows for the template (a Counter answers any attribute lookup with 0).
    @property
    def run_rows(self) -> list[tuple[str, int]]:
        return self.runs.most_common()

    @property
    def interruption_rows(self) -> list[tuple[str, int]]:
        return self.interruptions.most_common()

    @property
    def failing_rows(self) -> list[tuple[str, int]]:
        return self.failing_tools.most_common()

    @property
    def success_rate(self) -> float | None:
        total = sum(self.tool_calls.values())
        return self.tool_calls["ok"] / total if total else None

    @property
    def ttft_median_ms(self) -> float | None:
        return median(self.ttft_ms) if self.ttft_ms else None

    def success_chart(self) -> SafeString:
        points = [
            Point(
                when=bucket,
                value=counts["ok"] / sum(counts.values()),
                label=(
                    f"{bucket:%H:%M}: {counts['ok']} of {sum(counts.values())} tool calls succeeded"
                ),
            )
            for bucket, counts in sorted(self.success_by_bucket.items())
        ]
        svg = line_chart(
            [Series("tool calls", points)],
            title=f"Tool-call success rate, last {self.name}",
            y_label="succeeded",
            x_label="time (UTC)",
            empty="No tool calls in this window.",
        )
        return mark_safe(svg)

    def interruption_chart(self) -> SafeString:
        bars = [Bar(cause, count) for cause, count in self.interruptions.most_common()]
        svg = bar_chart(
            bars, title=f"Interruptions, last {self.name}", x_label="runs or units", empty="None."
        )
        return mark_safe(svg)


def window_figures(name: str, *, now: datetime | None = None) -> Window:
    span, bucket = WINDOWS[name]
    now = now or timezone.now()
    window = Window(name=name, since=now - span)
    rows = list(
        Event.objects.filter(ts__gte=window.since, type__in=TYPES)
        .order_by("-ts")
        .values_list("type", "ts", "payload")[:MAX_EVENTS]
    )
    window.truncated = len(rows) == MAX_EVENTS
    for type, ts, payload in rows:
        _count(window, type, ts, payload or {}, bucket)
    return window


def _count(
    window: Window, type: str, ts: datetime, payload: dict[str, Any], bucket: timedelta
) -> None:
    if type == event_types.TOOL_RESULT:
        outcome = "timeout" if payload.get("timed_out") else "ok" if payload.get("ok") else "error"
        window.tool_calls[outcome] += 1
        if outcome != "ok":
            window.failing_tools[str(payload.get("name", ""))] += 1
        start = window.since + ((ts - window.since) // bucket) * bucket
        window.success_by_bucket[start][outcome] += 1
    elif type in (event_types.RUN_FINISHED, event_types.RUN_FAILED):
        status = str(payload.get("status", "failed"))
        window.runs[status] += 1
        cause = interruption_cause(status, payload.get("reason"))
        if cause is not None:
            window.interruptions[cause] += 1
    elif type == event_types.EVENTS_SUPERSEDED:
        window.interruptions["worker_lost"] += 1
    elif type == event_types.MODEL_MESSAGE:
        ttft = (payload.get("metrics") or {}).get("ttft_ms")
        if isinstance(ttft, int | float):
            window.ttft_ms.append(float(ttft))
