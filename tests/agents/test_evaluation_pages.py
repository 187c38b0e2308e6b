"""Staff pages for stored evaluations: the pass-rate charts, one evaluation, one task's history."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from agents.evaluation import selectors
from agents.models import EvaluationRun, Run, TaskResult

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
POINT = re.compile(r'<circle class="(point[^"]*)"[^>]*data-key="([^"]*)" data-value="([^"]*)"')
BAR = re.compile(r'<g class="bar" data-label="([^"]*)" data-value="(\d+)"')
EMPTY = "No evaluations yet: run python manage.py evaluate --suite all"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("sam", password="staff secret", is_staff=True)


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def evaluation(suite="studio", *, rate=1.0, day=0, selection="", passed=1, total=1, **fields):
    return EvaluationRun.objects.create(
        suite=suite,
        policy=fields.pop("policy", "offline"),
        selection=selection,
        pass_rate=rate,
        tasks_passed=passed,
        tasks_total=total,
        mean_reward=rate,
        finished_at=fields.pop("finished_at", T0 + timedelta(days=day)),
        **fields,
    )


def verdict(check, passed, reason="", turn=1):
    return {
        "turn": turn,
        "check": check,
        "params": {},
        "weight": 1.0,
        "passed": passed,
        "score": 1.0 if passed else 0.0,
        "reason": reason,
        "outputs": {},
    }


def result(evaluation, task_id, status="passed", verdicts=(), **fields):
    return TaskResult.objects.create(
        evaluation=evaluation,
        task_id=task_id,
        status=status,
        verdicts=list(verdicts),
        reward=fields.pop("reward", 1.0 if status == "passed" else 0.0),
        metrics=fields.pop("metrics", {"steps": 3, "tokens": 120, "tool_calls": 2}),
        **fields,
    )


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def text_of(markup: str) -> str:
    """The text a person reads: inline tags vanish, the others separate words."""
    inline = re.sub(r"</?(?:a|code|span|strong)\b[^>]*>", "", markup)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", inline)).split())


@pytest.fixture
def failing_evaluation():
    """Three tasks: one passes, one fails one verifier twice, one fails two verifiers."""
    run = evaluation(rate=1 / 3, passed=1, total=3)
    result(run, "ball-on-table", verdicts=[verdict("run_status", True)])
    result(
        run,
        "stacked-boxes",
        "failed",
        [verdict("object_count", False, "2 boxes, not 3"), verdict("object_count", False, turn=2)],
        known_failure="stacking is unsupported",
    )
    result(
        run,
        "taller-table",
        "failed",
        [verdict("object_count", False, "no table"), verdict("size", False, "0.7 m, not 1 m")],
    )
    return run


def test_anonymous_people_are_sent_to_log_in(failing_evaluation):
    for url in (
        "/evaluations/",
        f"/evaluations/{failing_evaluation.pk}/",
        "/evaluations/tasks/studio/taller-table/",
    ):
        response = Client().get(url)

        assert response.status_code == 302
        assert response["Location"].startswith(f"/accounts/login/?next={url}")


def test_people_who_are_not_staff_find_nothing(alice, failing_evaluation):
    client = Client()
    client.force_login(alice)

    for url in (
        "/evaluations/",
        f"/evaluations/{failing_evaluation.pk}/",
        "/evaluations/tasks/studio/taller-table/",
    ):
        assert client.get(url).status_code == 404
    assert 'href="/evaluations/"' not in page(client, "/workspaces/")


def test_staff_see_the_link_in_the_navigation(staff_client):
    assert '<a href="/evaluations/">Evaluations</a>' in page(staff_client, "/workspaces/")


def test_without_evaluations_the_page_says_how_to_make_one(staff_client):
    body = page(staff_client, "/evaluations/")

    assert EMPTY in text_of(body) and "<svg" not in body


def test_the_pass_rate_chart_has_a_point_per_full_evaluation(staff_client):
    full = [evaluation(rate=rate, day=day) for day, rate in enumerate([0.5, 0.75, 1.0])]
    quick = evaluation(rate=0.9, day=1, selection="quick")
    evaluation(rate=None, finished_at=None)  # still running: listed, not plotted
    other = evaluation("finance", rate=0.25, day=2, passed=1, total=4)

    body = page(staff_client, "/evaluations/")

    points = POINT.findall(body)
    plotted = [(key, float(value)) for kind, key, value in points if kind == "point"]
    assert plotted == [(str(run.pk), run.pass_rate) for run in [other, *full]]  # suites by name
    assert [(kind, key) for kind, key, _ in points if kind != "point"] == [
        ("point hollow", str(quick.pk))
    ]
    assert "pass rate" in body and "finished (UTC)" in body
    assert body.count('class="series"') == 2
    rows = re.findall(r'<tr>\s*<td><a href="/evaluations/(\d+)/">', body)
    assert len(rows) == 6


def test_the_recent_table_shows_rate_counts_and_flags(staff_client):
    evaluation(
        rate=0.75,
        passed=3,
        total=5,
        tasks_skipped=1,
        policy="model",
        model="qwen-7b",
        nondeterministic=[{"task": "a", "difference": "status"}],
        isolation_ok=False,
    )

    table = text_of(page(staff_client, "/evaluations/").split("Recent evaluations")[1])

    assert "studio" in table and "model qwen-7b" in table and "full" in table
    assert "75%" in table and "3 / 4" in table and "0.750" in table
    assert "broken" in table


def test_the_floor_of_a_suite_is_drawn_when_its_folder_has_one(staff_client, monkeypatch):
    def load_suites(name):
        if name != "studio":
            raise ValueError("no such suite here")
        return [SimpleNamespace(floors={"quick": 0.9, "full": 0.6})]

    monkeypatch.setattr(selectors, "load_suites", load_suites)
    evaluation(rate=0.7)
    evaluation("finance", rate=0.5)

    body = page(staff_client, "/evaluations/")

    assert body.count('<g class="floor" data-value="0.6">') == 1 and "floor 60%" in body


def test_an_evaluation_shows_its_environment_and_summary(staff_client, failing_evaluation):
    failing_evaluation.environment = {
        "policy": "offline",
        "commit": "5ed2f0b",
        "packages": {"django": "5.2.1", "numpy": "2.2.0"},
        "studio": {"renderer": "osmesa"},
    }
    failing_evaluation.save()

    body = text_of(page(staff_client, f"/evaluations/{failing_evaluation.pk}/"))

    assert "packages.django 5.2.1" in body and "studio.renderer osmesa" in body
    assert "commit 5ed2f0b" in body
    assert "33% 1 of 3 judged passed" in body
    assert "Failing, not marked as known failures: taller-table" in body


def test_the_failing_verifiers_chart_counts_failed_checks(staff_client, failing_evaluation):
    body = page(staff_client, f"/evaluations/{failing_evaluation.pk}/")

    assert BAR.findall(body) == [("object_count", "3"), ("size", "1")]
    assert '<a href="?check=object_count">' in body


def test_the_task_table_lists_every_task_with_its_failed_checks(staff_client, failing_evaluation):
    body = page(staff_client, f"/evaluations/{failing_evaluation.pk}/")

    rows = re.findall(r"<tr>\s*<td><a href=\"/evaluations/tasks/studio/([^/]+)/\"", body)
    assert rows == ["ball-on-table", "stacked-boxes", "taller-table"]
    text = text_of(body)
    assert "turn 1 size: 0.7 m, not 1 m" in text and "turn 2 object_count: failed" in text
    assert 'title="known failure: stacking is unsupported"' in body
    assert "2 / 0" in text  # tool calls / failures


def test_the_task_table_filters_by_status_and_by_failed_check(staff_client, failing_evaluation):
    url = f"/evaluations/{failing_evaluation.pk}/"

    def tasks(query):
        body = page(staff_client, url + query)
        return re.findall(r'<tr>\s*<td><a href="/evaluations/tasks/studio/([^/]+)/"', body)

    assert tasks("?status=failed") == ["stacked-boxes", "taller-table"]
    assert tasks("?status=passed") == ["ball-on-table"]
    assert tasks("?status=skipped") == []
    assert tasks("?check=size") == ["taller-table"]
    assert tasks("?status=nonsense") == ["ball-on-table", "stacked-boxes", "taller-table"]
    assert "No task results match this filter." in page(staff_client, url + "?status=error")


def test_runs_are_shown_by_id_and_linked_to_the_admin_for_who_may_view_them(
    staff, staff_client, failing_evaluation, alice, make_workspace
):
    run = Run.objects.create(workspace=make_workspace(alice), prompt="a red ball")
    failing_evaluation.results.get(task_id="ball-on-table").runs.add(run)
    admin_link = f'href="/admin/agents/run/{run.pk}/change/"'
    url = f"/evaluations/{failing_evaluation.pk}/"

    body = page(staff_client, url)
    assert f"#{run.pk}" in text_of(body) and admin_link not in body

    staff.user_permissions.add(Permission.objects.get(codename="view_run"))
    assert admin_link in page(staff_client, url)


def test_a_task_history_charts_reward_and_lists_the_reasons(staff_client):
    runs = [evaluation(day=day) for day in range(3)]
    result(runs[0], "taller-table", verdicts=[verdict("size", True)])
    failed = [verdict("size", False, "0.7 m, not 1 m")]
    result(runs[1], "taller-table", "failed", failed, reward=0.5)
    result(runs[2], "taller-table", "error", reason="RuntimeError: renderer died")
    result(runs[2], "another-task")
    evaluation("finance")  # another suite's evaluation of a task with the same name
    result(EvaluationRun.objects.get(suite="finance"), "taller-table", "failed")

    body = page(staff_client, "/evaluations/tasks/studio/taller-table/")

    values = [value for _, _, value in POINT.findall(body)]
    assert values == ["1", "0.5", "0"]  # oldest first on the chart
    text = text_of(body)
    assert "Passed 1 of 3 times shown" in text
    assert "turn 1 size: 0.7 m, not 1 m" in text and "RuntimeError: renderer died" in text
    evaluation_links = re.findall(r'<td><a href="/evaluations/(\d+)/\?status=(\w+)"', body)
    assert evaluation_links == [
        (str(runs[2].pk), "error"),
        (str(runs[1].pk), "failed"),
        (str(runs[0].pk), "passed"),
    ]


def test_unknown_evaluations_and_tasks_are_not_found(staff_client, failing_evaluation):
    assert staff_client.get(f"/evaluations/{failing_evaluation.pk + 1}/").status_code == 404
    assert staff_client.get("/evaluations/tasks/studio/no-such-task/").status_code == 404
    assert staff_client.get("/evaluations/tasks/finance/taller-table/").status_code == 404


def test_task_ids_and_reasons_are_escaped(staff_client):
    hostile = '<script>alert("x")</script>'
    run = evaluation(rate=0.0, passed=0)
    failed = [verdict(hostile, False, f"saw {hostile}")]
    result(run, hostile, "failed", failed, known_failure=hostile)
    result(run, "crashed", "error", reason=f"ValueError: {hostile}")

    for url in (
        "/evaluations/",
        f"/evaluations/{run.pk}/",
        f"/evaluations/{run.pk}/?check={hostile}",
        f"/evaluations/tasks/studio/{hostile}/",
    ):
        body = page(staff_client, url)

        assert "<script>" not in body, url
    detail = page(staff_client, f"/evaluations/{run.pk}/")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in detail
    assert f"saw {hostile}" in text_of(detail) and f"ValueError: {hostile}" in text_of(detail)
    assert "/evaluations/tasks/studio/%3Cscript%3Ealert(%22x%22)%3C/script%3E/" in detail
