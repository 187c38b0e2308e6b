"""`manage.py evaluate`: a table, stored results, a JSON report and floors that fail CI."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from agents.models import EvaluationRun, TaskResult

pytestmark = pytest.mark.django_db


def test_json_report_has_per_task_results_and_the_pass_rate(arithmetic_kind, tmp_path, capsys):
    out = tmp_path / "report.json"
    call_command("evaluate", "--suite", "arith", "--json", str(out))
    printed = capsys.readouterr()
    assert "sum-wrong-reference" in printed.out and "FAIL" in printed.out
    assert "3/3" in printed.err  # the progress bar counts every task
    report = json.loads(out.read_text())
    assert report["pass_rate"] == {"arith": pytest.approx(2 / 3, abs=1e-3)}
    tasks = {task["task"]: task for task in report["suites"]["arith"]["tasks"]}
    assert tasks["sum-right"]["passed"] and not tasks["sum-wrong-reference"]["passed"]
    assert tasks["sum-wrong-reference"]["checks"][1]["reason"].startswith("calculated")
    assert report["environment"]["policy"] == "offline"
    assert "django" in report["environment"]["packages"]
    evaluation = EvaluationRun.objects.get()
    assert evaluation.tasks_total == 3 and evaluation.tasks_passed == 2
    # The stored environment is the suite's own: its kind's versions, not every kind's.
    assert "finance" in evaluation.environment and "studio" not in evaluation.environment
    assert TaskResult.objects.filter(evaluation=evaluation, status="failed").count() == 1


def test_a_pass_rate_below_the_floor_fails_the_command(arithmetic_kind):
    with pytest.raises(CommandError, match=r"below the recorded floor: arith 66\.7% < floor 90%"):
        call_command("evaluate", "--suite", "arith", "--check-floors")


def test_the_quick_subset_is_held_to_its_own_floor(arithmetic_kind, capsys):
    call_command("evaluate", "--suite", "arith", "--quick", "--check-floors")
    assert "at or above its floor" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "nope"], "no suite 'nope'"),
        (["--suite", "arith", "--tasks", "zzz*"], "no task matches"),
        (["--suite", "arith", "--repeat", "0"], "--repeat must be between 1 and 10"),
        (["--suite", "arith", "--policy", "model"], "needs MODEL_BASE_URL"),
    ],
)
def test_bad_arguments_get_a_clear_message(arithmetic_kind, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("evaluate", *args)


def test_the_same_suite_runs_against_a_model_server(
    arithmetic_kind, settings, fake_openai, tmp_path
):
    from tests.fakes.openai_server import arithmetic_model

    fake_openai.responder = arithmetic_model
    settings.MODEL_BASE_URL, settings.MODEL_NAME = fake_openai.base_url, fake_openai.model
    out = tmp_path / "model.json"
    call_command(
        "evaluate",
        "--suite",
        "arith",
        "--policy",
        "model",
        "--tasks",
        "sum-right",
        "--json",
        str(out),
    )
    report = json.loads(out.read_text())
    assert report["pass_rate"] == {"arith": 1.0}
    assert report["environment"]["policy"] == "model"
    assert report["environment"]["model"] == fake_openai.model
    assert fake_openai.chat_requests, "the model server was never asked"
    evaluation = EvaluationRun.objects.get()
    assert (evaluation.policy, evaluation.model) == ("model", fake_openai.model)


def test_a_suite_with_a_bad_check_is_refused_before_anything_runs(arithmetic_kind):
    def strict(name, params):
        return ["value must be an integer"] if not isinstance(params.get("value"), int) else []

    folder = arithmetic_kind(check_params=strict)
    (folder / "more.yaml").write_text(
        "tasks:\n- {id: bad, prompt: 'what is 1+1?', verify: [{check: computed, value: two}]}\n"
        "- {id: unknown, prompt: 'what is 1+2?', verify: [{check: no_such_check}]}\n"
    )
    with pytest.raises(CommandError, match="cannot run") as raised:
        call_command("evaluate", "--suite", "arith")
    assert "bad: computed: value must be an integer" in str(raised.value)
    assert "unknown: no verifier named 'no_such_check'" in str(raised.value)
    assert not EvaluationRun.objects.exists()


def test_a_suite_without_its_inputs_fails_the_floor_check_unless_that_is_expected(
    arithmetic_kind, capsys
):
    folder = arithmetic_kind()
    (folder / "tasks.yaml").write_text(
        "tasks:\n- {id: needs-file, quick: true, prompt: 'what is 1+1?',\n"
        "   inputs: {missing: a.pdf}}\n"
    )
    with pytest.raises(CommandError, match="no floor could be checked for arith"):
        call_command("evaluate", "--suite", "arith", "--quick", "--check-floors")

    call_command(
        "evaluate", "--suite", "arith", "--quick", "--check-floors", "--allow-absent-inputs"
    )
    out = capsys.readouterr().out
    assert "floor not checked, all 1 task(s) skipped because their inputs are not on this" in out
    assert "SKIP" in out


def test_skipped_tasks_count_as_failed_against_the_floor(arithmetic_kind):
    folder = arithmetic_kind()
    (folder / "tasks.yaml").write_text(
        "tasks:\n- {id: right, quick: true, prompt: 'what is 1+1?'}\n"
        "- {id: needs-file, quick: true, prompt: 'what is 1+2?', inputs: {missing: a.pdf}}\n"
    )  # one passes, one is skipped: 100 % of those judged, 50 % of the suite

    with pytest.raises(CommandError, match=r"arith 50\.0% \(1 skipped count as failed\)"):
        call_command(
            "evaluate", "--suite", "arith", "--quick", "--check-floors", "--allow-absent-inputs"
        )


def test_the_summary_gives_the_pass_rate_with_its_95_percent_interval(arithmetic_kind, capsys):
    call_command("evaluate", "--suite", "arith")
    assert "pass rate 66.7% (95% CI 20.8%-93.9%) (2/3)" in capsys.readouterr().out


def test_first_contact_and_paraphrase_sets_are_reported_apart_and_kept(
    arithmetic_kind, capsys, client, django_user_model
):
    folder = arithmetic_kind()
    (folder / "tasks.yaml").write_text(
        "tasks:\n- {id: seen, prompt: 'what is 1+1?', verify: [{check: computed, value: 2}]}\n"
        "- {id: new, tags: [first-contact], prompt: 'what is 2+2?',\n"
        "   verify: [{check: computed, value: 5}]}\n"
        "- {id: reworded, tags: [paraphrase, first-contact], prompt: 'and 3+3?',\n"
        "   verify: [{check: computed, value: 6}]}\n"
    )

    call_command("evaluate", "--suite", "arith")

    out = capsys.readouterr().out
    assert "  first-contact: 50.0% (95% CI 9.5%-90.5%) (1/2)" in out
    assert "  paraphrase: 100.0% (95% CI 20.7%-100.0%) (1/1)" in out
    assert "  seen: 100.0%" in out
    stored = EvaluationRun.objects.get().by_set
    assert stored["first-contact"]["passed"] == 1 and stored["first-contact"]["judged"] == 2
    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    page = client.get("/evaluations/").content.decode()
    assert "first-contact 1/2" in page and "paraphrase 1/1" in page
