"""/metrics: what runs did (tool calls by outcome, runs, interruptions), protected in production."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, ScriptedPolicy, Tool, ToolCall, ToolError
from agents.services.runs import run_cancel, run_create

ROOT = Path(__file__).resolve().parents[2]


def _flaky(arguments, context):
    if arguments.get("fail"):
        raise ToolError("the provider said no")
    return {"ok": True}


FLAKY = Tool("flaky_lookup", "Look something up.", {"type": "object"}, _flaky)
SCRIPT = [
    Decision(tool_calls=(ToolCall("a", "flaky_lookup", {}),)),
    Decision(tool_calls=(ToolCall("b", "flaky_lookup", {"fail": True}),)),
    Decision(message="looked it up"),
]
register_planner("metrics-test", ExtraPlanner(lambda: ScriptedPolicy(SCRIPT), (FLAKY,)))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def samples(client: Client) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200, response.content
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(figures, name: str, **labels: str) -> float:
    return figures.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_user("ops", password="pw", is_staff=True)
    return logged_in(user)


def test_a_runs_tool_calls_and_end_are_counted(
    alice, make_workspace, finish_run, staff, settings, django_capture_on_commit_callbacks
):
    settings.DEBUG = False
    before = samples(staff)
    workspace = make_workspace(alice)
    run = run_create(workspace=workspace, prompt="go", options={"planner": "metrics-test"})
    with django_capture_on_commit_callbacks(execute=True):  # counted once each unit commits
        run = finish_run(run)
    assert run.message == "looked it up"

    after = samples(staff)
    tool = {"kind": "finance", "tool": "flaky_lookup"}
    calls = "agentworks_tool_calls_total"
    assert (
        value(after, calls, **tool, outcome="ok") - value(before, calls, **tool, outcome="ok") == 1
    )
    failed = value(after, calls, **tool, outcome="error") - value(
        before, calls, **tool, outcome="error"
    )
    assert failed == 1
    finished = "agentworks_runs_finished_total"
    labels = {"kind": "finance", "status": "succeeded"}
    assert value(after, finished, **labels) - value(before, finished, **labels) == 1
    steps = "agentworks_run_steps_count"
    assert value(after, steps, kind="finance") - value(before, steps, kind="finance") == 1
    slices = [k for k in after if k[0] == "agentworks_slice_seconds_count"]
    assert slices, "slice latency is exported"


def test_a_cancelled_run_counts_as_an_interruption_and_waiting_work_as_queue_depth(
    alice, make_workspace, staff, settings, django_capture_on_commit_callbacks
):
    settings.DEBUG = False
    workspace = make_workspace(alice)
    run = run_create(workspace=workspace, prompt="go", options={"planner": "metrics-test"})
    waiting = samples(staff)
    assert value(waiting, "agentworks_queue_depth", queue="agents") >= 1

    with django_capture_on_commit_callbacks(execute=True):
        run_cancel(run=run)

    after = samples(staff)
    cause = "agentworks_interruptions_total"
    assert value(after, cause, cause="cancelled") - value(waiting, cause, cause="cancelled") == 1
    assert (
        value(after, "agentworks_queue_depth", queue="agents")
        == value(waiting, "agentworks_queue_depth", queue="agents") - 1
    )


def test_metrics_are_closed_in_production_without_staff_or_token(alice, settings):
    settings.DEBUG = False
    settings.METRICS_TOKEN = "scrape-secret"

    assert Client().get("/metrics").status_code == 403
    assert logged_in(alice).get("/metrics").status_code == 403
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    scraped = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-secret")
    assert scraped.status_code == 200 and b"agentworks_queue_depth" in scraped.content


def test_every_alert_names_metrics_the_app_exports(staff, settings):
    settings.DEBUG = False
    exported = {name for name, _ in samples(staff)}
    families = {re.sub(r"_(total|count|sum|bucket|created)$", "", name) for name in exported}
    # counters and histograms with no sample yet in this process still declare their families
    from agents.observability import metrics

    declared = {
        getattr(metrics, name)._name
        for name in dir(metrics)
        if hasattr(getattr(metrics, name), "_name")
    }
    rules = yaml.safe_load((ROOT / "deploy/prometheus/alerts.yml").read_text())
    names = [
        rule["alert"] for group in rules["groups"] for rule in group["rules"] if "alert" in rule
    ]
    assert {"ToolCallSuccessRateFalling", "InterruptionRateRising", "ModelErrorSpike"} <= set(names)
    for group in rules["groups"]:
        for rule in group["rules"]:
            used = set(re.findall(r"\bagentworks_[a-z_]+", rule["expr"]))
            assert used, rule["alert"]
            for metric in used:
                base = re.sub(r"_(total|count|sum|bucket)$", "", metric)
                assert base in families | declared, f"{rule['alert']} uses unknown {metric}"


def test_the_operations_page_shows_the_last_hour_and_day_to_staff_only(
    alice, make_workspace, finish_run, staff
):
    workspace = make_workspace(alice)
    finish_run(run_create(workspace=workspace, prompt="go", options={"planner": "metrics-test"}))

    page = staff.get("/operations/")

    assert page.status_code == 200
    html = page.content.decode()
    hour = html[html.index('id="window-hour"') : html.index('id="window-day"')]
    assert "1 ok, 1 errors, 0 timed out" in hour
    assert 'data-figure="success-rate">50%' in hour
    assert "succeeded 1" in hour and "flaky_lookup 1" in hour
    assert html.count("<svg") == 4  # success rate and interruptions, for each window
    assert logged_in(alice).get("/operations/").status_code == 404
    assert Client().get("/operations/").status_code == 302
