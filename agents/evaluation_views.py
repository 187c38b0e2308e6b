"""Staff pages for stored evaluations: pass rate per suite, one evaluation, one task's history."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from agents.evaluation import figures, selectors

View = Callable[..., HttpResponse]


def staff_only(view: View) -> View:
    """Anonymous people go to the login page; signed-in people who are not staff see a 404."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise Http404("No such page.")
        return view(request, *args, **kwargs)

    return wrapped


@staff_only
def evaluation_list(request: HttpRequest) -> HttpResponse:
    charts = []
    for suite, evaluations in selectors.finished_by_suite().items():
        floors = selectors.suite_floors(suite)
        svg = figures.pass_rate_chart(suite, evaluations, floor=floors.get("full"))
        charts.append({"suite": suite, "svg": svg, "floors": floors})
    context = {"charts": charts, "evaluations": selectors.evaluation_list()}
    return render(request, "agents/evaluations/list.html", context)


@staff_only
def evaluation_detail(request: HttpRequest, evaluation_id: int) -> HttpResponse:
    evaluation = selectors.evaluation_get(evaluation_id=evaluation_id)
    if evaluation is None:
        raise Http404("No such evaluation.")
    overview = selectors.evaluation_overview(evaluation=evaluation)
    status = request.GET.get("status", "")
    status = status if status in selectors.STATUSES else ""
    check = request.GET.get("check", "")
    context = {
        "evaluation": evaluation,
        "overview": overview,
        "results": overview.filtered(status=status, check=check),
        "status": status,
        "check": check,
        "environment": figures.environment_rows(evaluation.environment or {}),
        "policy": figures.policy_label(evaluation),
        "verifiers_chart": figures.failing_verifiers_chart(overview.failing_verifiers),
    }
    return render(request, "agents/evaluations/detail.html", context)


@staff_only
def task_history(request: HttpRequest, suite: str, task_id: str) -> HttpResponse:
    history = selectors.task_history(suite=suite, task_id=task_id)
    if not history:
        raise Http404("No results for this task.")
    context = {
        "suite": suite,
        "task_id": task_id,
        "history": history,
        "chart": figures.reward_chart(task_id, history),
        "passed": sum(result.passed for result in history),
    }
    return render(request, "agents/evaluations/task.html", context)


@staff_only
def operations(request: HttpRequest) -> HttpResponse:
    """Tool-call success, runs, interruptions and model latency for the last hour and day."""
    from agents.observability.collectors import waiting_runs_by_queue
    from agents.observability.operations import window_figures

    windows = [window_figures("hour"), window_figures("day")]
    context = {"windows": windows, "queues": waiting_runs_by_queue()}
    return render(request, "agents/operations.html", context)
