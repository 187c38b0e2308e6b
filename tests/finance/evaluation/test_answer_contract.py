"""One answer contract for every policy: a model and the offline planner both state a metric
answer with `submit_answer`, and the verifiers judge only that submission. A model's numeric task
passes through the model path; the right number said only in words does not."""

from __future__ import annotations

import dataclasses

import pytest

from agents.evaluation.spec import Task, Turn
from agents.evaluation.verdicts import VerifierContext
from agents.models import Run
from agents.services import execution
from agents.services.runs import run_create
from finance.evaluation.answer_checks import cited_page_prints_value, declined, numeric_answer
from tests.fakes.openai_server import FakeOpenAI, Reply

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.fakes.fixtures"]

QUESTION = "What were total assets in FY2020?"
CHECKS = {"document": "SYNTH_2020_10K", "reference": "$1000.00", "unit": "USD millions"}


@pytest.fixture(autouse=True)
def quick_model(settings, monkeypatch):
    settings.MODEL_BASE_URL, settings.MODEL_NAME, settings.MODEL_TOOL_MODE = "", "", "native"
    configured = execution.model_config

    def quick(workspace=None):
        config = configured(workspace)
        return config and dataclasses.replace(config, backoff_base=0.001, backoff_max=0.01)

    monkeypatch.setattr(execution, "model_config", quick)


@pytest.fixture
def modelled(workspace, fake_openai: FakeOpenAI):
    workspace.model_base_url, workspace.model_name = fake_openai.base_url, fake_openai.model
    workspace.save()
    return workspace


def judged(run: Run, document) -> dict[str, object]:
    task = Task(id="t", suite="finance", kind="finance", turns=(Turn(prompt=QUESTION),))
    inputs = {"documents": {"SYNTH_2020_10K": document.pk}}
    context = VerifierContext(task=task, workspace=run.workspace, runs=[run], turn=1, inputs=inputs)
    return {
        "numeric_answer": numeric_answer(context, CHECKS),
        "cited_page_prints_value": cited_page_prints_value(context, CHECKS),
    }


def total_assets(document, **changes):
    answer = {
        "question": QUESTION,
        "metric": "total assets",
        "value": 1000.0,
        "unit": "USD millions",
        "period": "FY2020",
        "formula": "as printed",
        "document_id": document.pk,
        "page": 1,
        "label": "Total assets",
        **changes,
    }
    return {"answers": [answer]}


def test_a_models_numeric_task_passes_through_the_model_path(
    modelled, document, fake_openai, finish_run
):
    fake_openai.script(
        Reply.call("list_documents", {}),
        Reply.call("submit_answer", total_assets(document)),
        Reply.say("Total assets were $1,000 million at the end of FY2020 (p. 2)."),
    )
    run = finish_run(run_create(workspace=modelled, prompt=QUESTION, options={"planner": "model"}))

    assert run.status == Run.Status.SUCCEEDED, run.message
    verdicts = judged(run, document)
    assert all(verdict.passed for verdict in verdicts.values()), verdicts


def test_a_model_corrects_a_submission_the_tool_refused(
    modelled, document, fake_openai, finish_run
):
    fake_openai.script(
        Reply.call("submit_answer", total_assets(document, page=40)),
        Reply.call("submit_answer", total_assets(document)),
        Reply.say("Total assets: $1,000 million."),
    )
    run = finish_run(run_create(workspace=modelled, prompt=QUESTION, options={"planner": "model"}))

    refusal = fake_openai.chat_requests[1].messages[-1]
    assert (
        refusal["role"] == "tool" and "page 40 is not in SYNTH_2020_10K.pdf" in refusal["content"]
    )
    assert all(verdict.passed for verdict in judged(run, document).values())


def test_the_right_number_said_only_in_words_fails(modelled, document, fake_openai, finish_run):
    fake_openai.script(Reply.say("Total assets were $1,000 million at the end of FY2020 (p. 2)."))
    run = finish_run(run_create(workspace=modelled, prompt=QUESTION, options={"planner": "model"}))

    verdict = judged(run, document)["numeric_answer"]
    assert not verdict.passed and "submitted no answer" in verdict.reason


def test_the_offline_planner_answers_through_the_same_tool(workspace, document, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt=QUESTION, options={}))

    calls = [e.payload for e in run.events.filter(type="tool.call")]
    submitted = [call for call in calls if call["name"] == "submit_answer"]
    assert len(submitted) == 1 and submitted[0]["arguments"]["answers"][0]["value"] == 1000.0
    assert all(verdict.passed for verdict in judged(run, document).values())


def test_the_offline_planners_could_not_is_a_submission_too(workspace, document, finish_run):
    asked = "What was the current ratio in FY2020?"  # no current assets in this filing
    run = finish_run(run_create(workspace=workspace, prompt=asked, options={}))

    task = Task(id="t", suite="finance", kind="finance", turns=(Turn(prompt=asked),))
    context = VerifierContext(task=task, workspace=workspace, runs=[run], turn=1, inputs={})
    verdict = declined(context, {})
    assert verdict.passed, verdict.reason
    assert "could not compute" in run.message.lower()
