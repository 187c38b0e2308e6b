"""Figures read from the database when Prometheus scrapes: queue depth, evaluation pass rates."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from agents.observability.metrics import PREFIX
from config.queues import AGENTS, INGEST, STUDIO


def queue_of_kind(kind: str) -> str:
    """The queue a run's slices go to (config.queues.route_task)."""
    return STUDIO if kind == "studio" else AGENTS


def waiting_runs_by_queue() -> dict[str, int]:
    """Active runs nobody holds, per queue: their next slice waits for a worker."""
    from django.db.models import Count

    from agents.models import Run

    depth: dict[str, int] = {}
    rows = (
        Run.objects.filter(status__in=Run.ACTIVE, lease_owner="")
        .values("workspace__kind")
        .annotate(count=Count("id"))
    )
    for row in rows:
        queue = queue_of_kind(row["workspace__kind"])
        depth[queue] = depth.get(queue, 0) + row["count"]
    return depth


class DatabaseCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        from agents.models import EvaluationRun
        from finance.models import Document

        depth = GaugeMetricFamily(
            f"{PREFIX}_queue_depth",
            "Work waiting for a worker: active runs nobody holds (their next slice is queued), "
            "and documents still being ingested.",
            labels=["queue"],
        )
        waiting = {AGENTS: 0, STUDIO: 0} | waiting_runs_by_queue()
        for queue, count in waiting.items():
            depth.add_metric([queue], count)
        ingesting = Document.objects.filter(status=Document.Status.PROCESSING).count()
        depth.add_metric([INGEST], ingesting)
        yield depth

        passing = GaugeMetricFamily(
            f"{PREFIX}_evaluation_pass_rate",
            "Pass rate of the latest finished evaluation of each suite.",
            labels=["suite"],
        )
        latest: dict[str, float] = {}
        finished = EvaluationRun.objects.exclude(finished_at=None).exclude(pass_rate=None)
        for suite, rate in finished.order_by("suite", "-finished_at").values_list(
            "suite", "pass_rate"
        ):
            latest.setdefault(suite, float(rate or 0.0))
        for suite, rate in latest.items():
            passing.add_metric([suite], rate)
        yield passing
