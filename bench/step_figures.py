"""The figures of bench/step_overhead.py: run the three paths, reduce them, judge the goals.

`collect` needs a configured Django (migrated database, the `bench-scripted` planner registered
with `step_worker.register_scripted_planner`); everything else here is plain arithmetic.

* mean_ms_per_step: the worker path's total wall time / STEPS, averaged over the runs (slice
  starts included; the total runs up to the end of the final answer's unit).
* median_ms_per_step: the median of the per-step times of all runs (a step: from the end of the
  checkpoint that closed the previous step to the end of the one that closes this step).
* growth: mean of the last tenth of the steps over the mean of the first tenth (steps 91-100
  over 1-10 for 100 steps), pooled over the runs.
* reference_ms_per_step: the same mean for smolagents' ToolCallingAgent (bench/step_reference.py),
  None where smolagents is not installed.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import step_reference
from bench.step_worker import DbRunResult, per_step, time_db, time_pure
from bench.support import percentile

POSTGRES_GOAL_MS = 5.0
GROWTH_GOAL = 1.1


@dataclass
class Figures:
    steps: int
    runs: int
    slice_units: int
    database: str  # "sqlite" or "postgresql"
    db_steps: list[float] = field(default_factory=list)  # seconds, every step of every run
    db_totals: list[float] = field(default_factory=list)  # seconds, one per run
    checkpoints: list[float] = field(default_factory=list)  # seconds inside _checkpoint per step
    in_slice: list[float] = field(default_factory=list)
    slice_start: list[float] = field(default_factory=list)
    first_tenth: list[float] = field(default_factory=list)
    last_tenth: list[float] = field(default_factory=list)
    pure_steps: list[float] = field(default_factory=list)
    pure_totals: list[float] = field(default_factory=list)
    reference_steps: list[float] = field(default_factory=list)
    reference_totals: list[float] = field(default_factory=list)
    reference_first: list[float] = field(default_factory=list)
    reference_last: list[float] = field(default_factory=list)
    reference_skipped: str | None = None  # why there is no reference
    last_run: DbRunResult | None = None
    received: list[int] = field(default_factory=list)  # events per run on the listener channel

    @property
    def tenth(self) -> int:
        return tenth_of(self.steps)

    @property
    def mean_ms(self) -> float:
        return mean_ms_per_step(self.db_totals, self.steps)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.db_steps) * 1000

    @property
    def growth(self) -> float:
        return growth(self.first_tenth, self.last_tenth)

    @property
    def reference_ms(self) -> float | None:
        if not self.reference_totals:
            return None
        return mean_ms_per_step(self.reference_totals, self.steps)

    @property
    def reference_growth(self) -> float | None:
        if not self.reference_totals:
            return None
        return growth(self.reference_first, self.reference_last)


def tenth_of(steps: int) -> int:
    return max(1, steps // 10)


def mean_ms_per_step(totals: Sequence[float], steps: int) -> float:
    return statistics.fmean(totals) / steps * 1000


def growth(first: Sequence[float], last: Sequence[float]) -> float:
    return statistics.fmean(last) / statistics.fmean(first)


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "p95": percentile(values, 95),
        "mean": statistics.fmean(values),
        "max": max(values),
    }


def database_vendor() -> str:
    from django.db import connection

    return "postgresql" if connection.vendor == "postgresql" else "sqlite"


def collect(
    *,
    steps: int,
    runs: int,
    warmup_steps: int,
    slice_units: int,
    holder: dict[str, Any],
    reference_dir: Path,
    reference: bool = True,
    join: Callable[[int], str] | None = None,
    drain: Callable[[str], int] | None = None,
) -> Figures:
    """Warm up, then RUNS runs of STEPS steps through each path."""
    figures = Figures(steps=steps, runs=runs, slice_units=slice_units, database=database_vendor())
    figures.reference_skipped = step_reference.missing() if reference else "not asked for"
    with_reference = figures.reference_skipped is None

    # warm-up (imports, connections, caches)
    time_pure(warmup_steps)
    time_db(warmup_steps, slice_units, holder)
    if with_reference:
        step_reference.time_reference(warmup_steps, reference_dir)

    tenth = figures.tenth
    for _ in range(runs):
        gc.collect()  # every run starts from a collected heap, not the last one's garbage
        marks, total = time_pure(steps)
        figures.pure_steps += per_step(marks, steps)
        figures.pure_totals.append(total)

    channels: list[str] = []
    for _ in range(runs):
        gc.collect()
        channels.clear()
        result = time_db(
            steps,
            slice_units,
            holder,
            before_start=(lambda run_id: channels.append(join(run_id))) if join else None,
        )
        run_steps = result.steps(steps)
        figures.db_steps += run_steps
        figures.db_totals.append(result.total_s)
        for k, seconds in enumerate(run_steps):
            (figures.slice_start if result.opens_slice(k) else figures.in_slice).append(seconds)
        figures.first_tenth += run_steps[:tenth]
        figures.last_tenth += run_steps[-tenth:]
        figures.checkpoints += result.step_checkpoints(steps)
        figures.last_run = result
        if channels and drain:
            figures.received.append(drain(channels[0]))

    if with_reference:
        for _ in range(runs):
            gc.collect()
            # one mark per step (the final answer's is the last), so per_step's pairs are one apart
            marks, total = step_reference.time_reference(steps, reference_dir)
            ref_steps = [marks[k + 1] - marks[k] for k in range(steps)]
            figures.reference_steps += ref_steps
            figures.reference_totals.append(total)
            figures.reference_first += ref_steps[:tenth]
            figures.reference_last += ref_steps[-tenth:]
    return figures


def goals(figures: Figures) -> dict[str, bool | None]:
    """mean <= reference on SQLite (None without one, or on PostgreSQL), <= 5 ms on PostgreSQL
    (None on SQLite), growth."""
    reference = figures.reference_ms
    return {
        # The reference is the SQLite goal; PostgreSQL's is the 5 ms one.
        "mean_vs_reference": (
            None
            if reference is None or figures.database != "sqlite"
            else figures.mean_ms <= reference
        ),
        "postgres_5ms": (
            figures.mean_ms <= POSTGRES_GOAL_MS if figures.database == "postgresql" else None
        ),
        "growth": figures.growth <= GROWTH_GOAL,
    }


def to_json(figures: Figures) -> dict[str, Any]:
    reference = figures.reference_ms
    reference_growth = figures.reference_growth
    return {
        "mean_ms_per_step": round(figures.mean_ms, 4),
        "median_ms_per_step": round(figures.median_ms, 4),
        "growth": round(figures.growth, 4),
        "reference_ms_per_step": None if reference is None else round(reference, 4),
        "reference_growth": None if reference_growth is None else round(reference_growth, 4),
        "reference_skipped": figures.reference_skipped,
        "pure_ms_per_step": round(mean_ms_per_step(figures.pure_totals, figures.steps), 4),
        "database": figures.database,
        "steps": figures.steps,
        "runs": figures.runs,
        "slice_units": figures.slice_units,
        "goals": goals(figures),
    }
