"""bench/step_overhead.py on a few steps: the figures it prints with --json, and its reference.

The smolagents reference is a bench-only dependency (`uv sync --group bench`): its tests skip
where it is not installed.
"""

from __future__ import annotations

import json
import math

import pytest

from bench import step_figures, step_reference, step_worker

pytestmark = pytest.mark.django_db(transaction=True)

KEYS = {
    "mean_ms_per_step",
    "median_ms_per_step",
    "growth",
    "reference_ms_per_step",
    "database",
    "steps",
    "goals",
}
needs_smolagents = pytest.mark.skipif(
    step_reference.missing() is not None, reason=step_reference.missing() or ""
)


@pytest.fixture
def holder(monkeypatch):
    """The scripted planner, registered for this test only."""
    from agents import registry

    monkeypatch.setattr(registry, "_extra_planners", dict(registry._extra_planners))
    return step_worker.register_scripted_planner()


def _positive(value) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


def test_the_json_figures(holder, tmp_path):
    """With the smolagents reference where it is installed, with its place empty where not."""
    reference = step_reference.missing() is None
    figures = step_figures.collect(
        steps=10,
        runs=1,
        warmup_steps=1,
        slice_units=12,  # 21 units: two slices, so a step that opens a slice is timed too
        holder=holder,
        reference_dir=tmp_path,
        reference=True,  # collect itself skips it where smolagents is missing
    )
    assert len(figures.db_steps) == 10 and figures.slice_start and figures.in_slice
    assert figures.last_run is not None and figures.last_run.slices == 2
    data = step_figures.to_json(figures)
    assert json.loads(json.dumps(data)) == data

    assert data.keys() >= KEYS
    assert data["database"] in {"sqlite", "postgresql"}
    assert data["steps"] == 10
    assert _positive(data["mean_ms_per_step"])
    assert _positive(data["median_ms_per_step"])
    assert _positive(data["growth"])
    assert isinstance(data["goals"]["growth"], bool)
    if data["database"] == "sqlite":
        assert data["goals"]["postgres_5ms"] is None
    else:
        assert isinstance(data["goals"]["postgres_5ms"], bool)
    if reference:
        assert _positive(data["reference_ms_per_step"])
        assert _positive(data["reference_growth"])
        assert data["reference_skipped"] is None
        assert isinstance(data["goals"]["mean_vs_reference"], bool)
        assert list(tmp_path.iterdir()) == []  # each run's persisted steps are removed after it
    else:
        assert data["reference_ms_per_step"] is None
        assert "uv sync --group bench" in data["reference_skipped"]
        assert data["goals"]["mean_vs_reference"] is None


@needs_smolagents
def test_the_reference_persists_every_step_as_json(tmp_path, monkeypatch):
    written: list[str] = []
    unlink = step_reference.Path.unlink

    def keep(path, *args, **kwargs):
        written.extend(path.read_text().splitlines())
        unlink(path, *args, **kwargs)

    monkeypatch.setattr(step_reference.Path, "unlink", keep)
    marks, total = step_reference.time_reference(3, tmp_path)

    assert len(marks) == 5  # the start, three echo steps and the final answer
    assert marks == sorted(marks) and total >= marks[-1] - marks[0]
    steps = [json.loads(line) for line in written]
    assert [step["step_number"] for step in steps] == [1, 2, 3, 4]
    assert steps[0]["tool_calls"][0]["function"] == {
        "name": "bench_echo",
        "arguments": {"text": "token 1"},
    }
    assert steps[-1]["is_final_answer"] is True


def test_growth_and_the_goals_are_plain_arithmetic():
    assert step_figures.tenth_of(100) == 10 and step_figures.tenth_of(5) == 1
    assert step_figures.growth([1.0, 1.0], [1.5, 0.7]) == pytest.approx(1.1)
    figures = step_figures.Figures(steps=2, runs=1, slice_units=32, database="postgresql")
    figures.db_totals = [0.008]  # 4 ms per step
    figures.first_tenth, figures.last_tenth = [0.004], [0.0045]
    assert step_figures.goals(figures) == {
        "mean_vs_reference": None,
        "postgres_5ms": True,
        "growth": False,
    }
    figures.reference_totals = [0.010]
    # The smolagents reference is the SQLite goal; on PostgreSQL the 5 ms one stands alone.
    assert step_figures.goals(figures)["mean_vs_reference"] is None
    figures.database = "sqlite"
    assert step_figures.goals(figures)["mean_vs_reference"] is True
    assert step_figures.goals(figures)["postgres_5ms"] is None
