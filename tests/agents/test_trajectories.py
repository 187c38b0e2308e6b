"""Trajectories for post-training: OpenAI chat JSONL with tools, rewards, signals, no secrets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from agents.models import EvaluationRun, Event, Run, RunFeedback, RunMessage, TaskResult
from agents.services.runs import run_create
from agents.trajectories.messages import NO_RESULT, pair_messages, unpaired_ids
from agents.trajectories.scrub import REDACTED, Scrubber
from agents.trajectories.signals import step_signals
from tests.agents.helpers import TWO_SUMS
from tests.agents.trajectory_checks import assert_openai_chat
from tests.fakes.openai_server import arithmetic_model

pytestmark = pytest.mark.django_db

API = "/api/v1"
MODEL_KEY = "sentinel-model-key-7f3a9c"
FRED_KEY = "sentinelfredkey0123456789abcdef"
PROJECT_TOKEN = "aw_" + "Q" * 43
OPENAI_KEY = "sk-proj-" + "Z" * 40


@pytest.fixture(autouse=True)
def known_secrets(settings):
    """Secrets the export must never let out (and no model server: the offline planner runs)."""
    settings.MODEL_API_KEY = MODEL_KEY
    settings.FRED_API_KEY = FRED_KEY
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
    return settings


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, name="Sums", kind="finance")


@pytest.fixture
def finished(workspace, finish_run):
    """A real run of the offline planner: two calculate calls, then the answer."""
    return finish_run(run_create(workspace=workspace, prompt=TWO_SUMS))


def export_lines(*args: str, tmp_path) -> list[str]:
    out = tmp_path / "trajectories.jsonl"
    call_command("export_trajectories", "--out", str(out), *args)
    return out.read_text(encoding="utf-8").splitlines()


def export(*args: str, tmp_path) -> list[dict]:
    return [json.loads(line) for line in export_lines(*args, tmp_path=tmp_path)]


# --- the record of a real run -------------------------------------------------------------------


def test_a_finished_run_is_one_openai_chat_record_with_tools_signals_and_metadata(
    finished, alice_api
):
    response = alice_api.get(f"{API}/runs/{finished.pk}/trajectory")

    assert response.status_code == 200
    record = response.json()
    assert set(record) == {"messages", "tools", "reward", "signals", "metadata"}
    assert_openai_chat(record)
    roles = [m["role"] for m in record["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert record["messages"][1]["content"] == TWO_SUMS
    final = record["messages"][-1]["content"]
    assert "395" in final and "1024" in final
    first_call = record["messages"][2]["tool_calls"][0]
    assert first_call["function"]["name"] == "calculate"
    assert json.loads(first_call["function"]["arguments"]) == {"expression": "17*23+4"}
    assert "calculate" in [tool["function"]["name"] for tool in record["tools"]]
    calls = [s for s in record["signals"] if s["type"] == "tool_call"]
    assert [(s["tool"], s["ok"], s["error"]) for s in calls] == [("calculate", True, None)] * 2
    assert [s["call_id"] for s in calls] == [m["tool_call_id"] for m in record["messages"][3::2]]
    assert all(s["duration_ms"] >= 0 for s in calls)
    assert record["reward"] == {"verifiers": None, "user": None, "feedback": []}
    meta = record["metadata"]
    assert meta["run_id"] == finished.pk and meta["workspace_kind"] == "finance"
    assert (meta["policy"], meta["model"], meta["status"]) == ("offline", None, "succeeded")
    assert meta["steps"] == 3 and meta["tokens"] > 0 and meta["turn"] == 1
    assert meta["timings"]["wall_s"] >= 0 and meta["timings"]["finished_at"]
    assert meta["timings"]["tools"]["calculate"]["calls"] == 2
    assert meta["evaluation"] is None and meta["repairs"] == []


def test_jsonl_is_one_line_to_download(finished, alice_api):
    by_format = alice_api.get(f"{API}/runs/{finished.pk}/trajectory?format=jsonl")
    by_accept = alice_api.get(
        f"{API}/runs/{finished.pk}/trajectory", HTTP_ACCEPT="application/x-ndjson"
    )

    for response in (by_format, by_accept):
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/x-ndjson")
        assert "attachment" in response["Content-Disposition"]
        assert f"run-{finished.pk}-trajectory.jsonl" in response["Content-Disposition"]
        lines = response.content.decode().splitlines()
        assert len(lines) == 1
        assert_openai_chat(json.loads(lines[0]))


def test_each_turn_of_a_conversation_is_its_own_record(workspace, finish_run, alice_api):
    first = finish_run(run_create(workspace=workspace, prompt="what is 6*7"))
    second = finish_run(run_create(workspace=workspace, prompt="and 2**8"))

    records = [alice_api.get(f"{API}/runs/{run.pk}/trajectory").json() for run in (first, second)]
    assert [r["metadata"]["turn"] for r in records] == [1, 2]
    assert [r["messages"][1]["content"] for r in records] == ["what is 6*7", "and 2**8"]


def test_a_failing_tool_call_is_a_signal_with_its_error(workspace, finish_run, alice_api):
    run = finish_run(run_create(workspace=workspace, prompt="what is 1/0"))

    record = alice_api.get(f"{API}/runs/{run.pk}/trajectory").json()
    (signal,) = [s for s in record["signals"] if s["type"] == "tool_call"]
    assert signal["ok"] is False and "error" in signal["error"]
    assert_openai_chat(record)


def test_a_model_run_names_its_model_and_never_its_key(
    alice, make_workspace, fake_openai, finish_run, alice_api
):
    fake_openai.responder = arithmetic_model
    space = make_workspace(alice, name="Model")
    space.model_base_url, space.model_name = fake_openai.base_url, fake_openai.model
    space.save()
    run = finish_run(run_create(workspace=space, prompt=TWO_SUMS, options={"planner": "model"}))
    assert run.status == "succeeded", run.message

    line = alice_api.get(f"{API}/runs/{run.pk}/trajectory?format=jsonl").content.decode()

    assert MODEL_KEY not in line
    record = json.loads(line)
    assert_openai_chat(record)
    assert (record["metadata"]["policy"], record["metadata"]["model"]) == (
        "model",
        fake_openai.model,
    )
    names = [c["function"]["name"] for m in record["messages"] for c in m.get("tool_calls") or ()]
    assert names == ["calculate", "calculate"]


# --- access -------------------------------------------------------------------------------------


def test_another_users_run_has_no_trajectory(finished, bob_api):
    response = bob_api.get(f"{API}/runs/{finished.pk}/trajectory")
    assert response.status_code == 404
    assert bob_api.get(f"{API}/runs/{finished.pk}/trajectory?format=jsonl").status_code == 404


def test_an_active_run_has_no_trajectory_yet(workspace, alice_api):
    run = run_create(workspace=workspace, prompt=TWO_SUMS)

    response = alice_api.get(f"{API}/runs/{run.pk}/trajectory")
    assert response.status_code == 409
    assert "queued" in response.json()["detail"]


def test_the_schema_describes_trajectory_and_feedback(alice_api):
    schema = alice_api.get("/api/schema/?format=json").json()
    trajectory = schema["paths"]["/api/v1/runs/{id}/trajectory/"]["get"]
    assert "application/x-ndjson" in trajectory["responses"]["200"]["content"]
    feedback = schema["paths"]["/api/v1/runs/{id}/feedback/"]
    assert {"get", "post"} <= set(feedback)
    assert "409" in feedback["post"]["responses"]


# --- secrets ------------------------------------------------------------------------------------


def test_no_secret_appears_in_any_exported_line(finished, settings, tmp_path, alice_api):
    fred_url = (
        f"https://api.stlouisfed.org/fred/series/observations?series_id=GDP&api_key={FRED_KEY}"
    )
    leaky = (
        f"fetched {fred_url} with Authorization: Bearer {PROJECT_TOKEN}; model key {MODEL_KEY}; "
        f"openai {OPENAI_KEY}; django {settings.SECRET_KEY}; "
        "db postgres://app:hunter2secret@db/app; "
        f"url https://example.com/x?token=abc123456&other=1"
    )
    rows = RunMessage.objects.filter(run=finished).order_by("position")
    call, result = rows[2], rows[3]
    result.body["content"] = leaky
    call.body["tool_calls"][0]["function"]["arguments"] = json.dumps(
        {"expression": "1+1", "api_key": FRED_KEY}
    )
    call.save()
    result.save()
    event = Event.objects.filter(run=finished, type="tool.result").first()
    event.payload = {**event.payload, "ok": False, "content": leaky}
    event.save()
    RunFeedback.objects.create(run=finished, user=finished.workspace.owner, rating=1, comment=leaky)

    lines = export_lines(tmp_path=tmp_path)
    lines.append(
        alice_api.get(f"{API}/runs/{finished.pk}/trajectory?format=jsonl").content.decode()
    )
    lines.append(alice_api.get(f"{API}/runs/{finished.pk}/trajectory").content.decode())

    secrets = [MODEL_KEY, FRED_KEY, PROJECT_TOKEN, OPENAI_KEY, settings.SECRET_KEY, "hunter2secret"]
    secrets.append("abc123456")
    for line in lines:
        for secret in secrets:
            assert secret not in line
        assert REDACTED in line
    record = json.loads(lines[-2])
    assert_openai_chat(record)
    tool = record["messages"][3]["content"]
    assert "series_id=GDP&api_key=[redacted]" in tool and "Bearer [redacted]" in tool
    arguments = json.loads(record["messages"][2]["tool_calls"][0]["function"]["arguments"])
    assert arguments == {"expression": "1+1", "api_key": REDACTED}


def test_the_scrubber_keeps_ordinary_text():
    scrubber = Scrubber.for_values(["EMPTY", "", None, "short", "a-long-secret-value"])
    text = "tokens_used 120, keyword=growth, risk-adjusted returns; EMPTY stays; short stays"
    assert scrubber.text(text) == text
    assert scrubber.text("x a-long-secret-value y") == f"x {REDACTED} y"
    assert scrubber.data({"api_key": "zzz", "tokens": 5, "k": ["a-long-secret-value"]}) == {
        "api_key": REDACTED,
        "tokens": 5,
        "k": [REDACTED],
    }


# --- pairing calls with results (plain Python) ---------------------------------------------------


def test_the_record_shaping_modules_need_no_django():
    modules = "agents.trajectories.record, agents.trajectories.scrub, agents.trajectories.kinds"
    code = f"import {modules}, sys; assert not any(m.startswith('django') for m in sys.modules)"
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr


def call(id: str, name: str = "calculate") -> dict:
    return {"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def test_pairing_repairs_missing_orphaned_and_reused_call_ids():
    raw: list[dict] = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": "", "tool_calls": [call("a"), call("b")]},
        {"role": "tool", "tool_call_id": "a", "name": "calculate", "content": "1"},
        {"role": "tool", "tool_call_id": "zzz", "content": "orphan"},
        {"role": "assistant", "content": None, "tool_calls": [call("a")]},  # reused id
        {"role": "tool", "tool_call_id": "a", "content": "2"},
        {"role": "assistant", "content": "done"},
    ]

    paired = pair_messages(raw)

    assert unpaired_ids(paired.messages) == []
    ids = [c["id"] for m in paired.messages for c in m.get("tool_calls") or ()]
    assert ids == ["a", "b", "a-2"]
    results = {m["tool_call_id"]: m["content"] for m in paired.messages if m["role"] == "tool"}
    assert results == {"a": "1", "b": NO_RESULT, "a-2": "2"}
    assert paired.messages[2]["content"] is None
    assert len(paired.repairs) == 3
    assert [m["role"] for m in paired.messages] == [
        "system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
    ]  # fmt: skip


def test_the_workspace_context_a_run_started_with_keeps_its_name():
    raw: list[dict] = [
        {"role": "system", "content": "s"},
        {"role": "user", "name": "context-turn", "content": "a wooden table"},
        {"role": "assistant", "name": "context-turn", "content": "Built table."},
        {"role": "user", "name": "context-state", "content": '{"objects": ["table"]}'},
        {"role": "user", "content": "make it 1 m tall"},
        {"role": "assistant", "content": "resized table"},
    ]

    messages = pair_messages(raw).messages

    assert [m.get("name") for m in messages] == [
        None, "context-turn", "context-turn", "context-state", None, None,
    ]  # fmt: skip
    assert messages[4] == {"role": "user", "content": "make it 1 m tall"}


def test_round_signals_carry_the_checks_before_and_after():
    checks_1 = {"exposure": {"passed": False}, "physics": {"passed": True}}
    checks_2 = {"exposure": {"passed": True}, "physics": {"passed": True}}
    events = [
        {
            "seq": n,
            "type": "round.completed",
            "payload": {"round": n, "passed": n == 2, "checks": c},
        }
        for n, c in ((1, checks_1), (2, checks_2))
    ]

    rounds = step_signals(events)

    assert [(s["round"], s["checks_before"], s["checks_after"], s["passed"]) for s in rounds] == [
        (1, None, checks_1, False),
        (2, checks_1, checks_2, True),
    ]


# --- rewards and the evaluation it belongs to ---------------------------------------------------


def test_verifier_and_user_rewards_and_the_evaluation_task(finished, alice, bob, alice_api):
    Run.objects.filter(pk=finished.pk).update(reward=0.75)
    evaluation = EvaluationRun.objects.create(suite="arithmetic-smoke", policy="offline")
    task = TaskResult.objects.create(evaluation=evaluation, task_id="two-sums", status="passed")
    task.runs.add(finished)
    RunFeedback.objects.create(run=finished, user=alice, rating=1, comment="right")
    RunFeedback.objects.create(run=finished, user=bob, rating=-1, comment="")

    record = alice_api.get(f"{API}/runs/{finished.pk}/trajectory").json()

    assert record["reward"]["verifiers"] == 0.75
    assert record["reward"]["user"] == 0.0
    assert record["reward"]["feedback"] == [
        {"rating": 1, "comment": "right"},
        {"rating": -1, "comment": ""},
    ]
    evaluation_meta = record["metadata"]["evaluation"]
    assert (
        evaluation_meta["suite"] == "arithmetic-smoke" and evaluation_meta["task_id"] == "two-sums"
    )


# --- the export command --------------------------------------------------------------------------


@pytest.fixture
def many_runs(alice, bob, make_workspace, finish_run):
    """Finished runs in two workspaces with different rewards, plus one still queued."""
    mine = make_workspace(alice, name="Mine")
    other = make_workspace(bob, name="Other")
    runs = {
        name: finish_run(run_create(workspace=space, prompt=f"what is {n}*3"))
        for n, (name, space) in enumerate(
            [("good", mine), ("bad", mine), ("liked", mine), ("plain", other)], start=1
        )
    }
    Run.objects.filter(pk=runs["good"].pk).update(reward=0.9)
    Run.objects.filter(pk=runs["bad"].pk).update(reward=0.2)
    RunFeedback.objects.create(run=runs["bad"], user=alice, rating=1)  # the verifiers decide
    RunFeedback.objects.create(run=runs["liked"], user=alice, rating=1)
    evaluation = EvaluationRun.objects.create(suite="smoke", policy="offline")
    task = TaskResult.objects.create(evaluation=evaluation, task_id="t", status="passed")
    task.runs.add(runs["good"], runs["bad"])
    run_create(workspace=mine, prompt="what is 9*9")  # queued: never exported
    return {"mine": mine, "other": other, **runs}


def run_ids(records: list[dict]) -> list[int]:
    return [record["metadata"]["run_id"] for record in records]


def test_export_writes_every_finished_run_and_filters(many_runs, tmp_path, capsys):
    ids = {name: run.pk for name, run in many_runs.items() if isinstance(run, Run)}

    everything = export(tmp_path=tmp_path)
    assert run_ids(everything) == sorted(ids.values())
    assert "wrote 4 trajectories" in capsys.readouterr().out
    for record in everything:
        assert_openai_chat(record)

    mine = export("--workspace", str(many_runs["mine"].pk), tmp_path=tmp_path)
    assert run_ids(mine) == [ids["good"], ids["bad"], ids["liked"]]
    assert run_ids(export("--suite", "smoke", tmp_path=tmp_path)) == [ids["good"], ids["bad"]]
    assert run_ids(export("--suite", "nothing", tmp_path=tmp_path)) == []
    rewarded = export("--min-reward", "0.5", tmp_path=tmp_path)
    assert run_ids(rewarded) == [ids["good"], ids["liked"]]
    both = export("--suite", "smoke", "--min-reward", "0.5", tmp_path=tmp_path)
    assert run_ids(both) == [ids["good"]]
    assert run_ids(export("--status", "failed", tmp_path=tmp_path)) == []


def test_export_refuses_a_bad_workspace_or_an_unwritable_path(tmp_path):
    with pytest.raises(CommandError, match="no workspace with id 999"):
        call_command("export_trajectories", "--workspace", "999", "--out", str(tmp_path / "x"))
    with pytest.raises(CommandError, match="cannot write"):
        call_command("export_trajectories", "--out", str(tmp_path / "missing" / "x.jsonl"))


def test_the_run_detail_carries_its_verifier_reward_and_trajectory_link(
    alice, alice_api, make_workspace
):
    from agents.models import Run

    workspace = make_workspace(alice)
    run = Run.objects.create(workspace=workspace, prompt="x", status="succeeded", reward=0.75)
    body = alice_api.get(f"/api/v1/runs/{run.pk}").json()
    assert body["reward"] == 0.75
    assert body["trajectory_url"] == f"/api/v1/runs/{run.pk}/trajectory"
