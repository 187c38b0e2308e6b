"""Budgets end a run with status "failed", reason "budget" and a message naming the limit."""

from agents.runtime import Budget, Decision, PolicyInput, Usage

from .helpers import FakeClock, act, call, final, make_agent, of_type, run, start, types


def forever(context: PolicyInput) -> Decision:
    return act(call("echo", f"e{context.step}", text=f"step {context.step}"))


def endless(n: int = 50) -> list:
    return [forever] * n


def test_max_steps_fails_the_run_with_a_budget_reason():
    outcome, state, events, _ = run(endless(), budget=Budget(max_steps=3))

    assert outcome.status == "failed"
    assert outcome.reason == "budget"
    assert "step budget" in outcome.message
    assert "3 steps" in outcome.message
    assert state.steps == 3
    assert types(events)[-1] == "run.failed"
    assert events[-1][1]["status"] == "failed"
    assert events[-1][1]["reason"] == "budget"
    assert events[-1][1]["steps"] == 3
    # every one of the 3 decisions had its call executed before the budget ended the run
    assert len(of_type(events, "tool.result")) == 3


def test_a_final_answer_on_the_last_allowed_step_succeeds():
    script = [forever, forever, final("made it")]
    outcome, *_ = run(script, budget=Budget(max_steps=3))
    assert outcome.status == "succeeded"
    assert outcome.message == "made it"


def test_max_tokens_counts_decision_usage():
    script = [act(call("echo", text="hi"), tokens=100)] * 10
    outcome, state, events, _ = run(script, budget=Budget(max_tokens=250))

    assert outcome.status == "failed"
    assert outcome.reason == "budget"
    assert "token budget" in outcome.message
    assert "300 of 250" in outcome.message
    assert state.tokens_used == 300
    assert state.steps == 3
    assert types(events)[-1] == "run.failed"
    assert events[-1][1]["tokens_used"] == 300


def test_tokens_sum_prompt_and_completion():
    decision = Decision(
        message="",
        tool_calls=(call("echo", text="hi"),),
        usage=Usage(prompt_tokens=30, completion_tokens=20),
    )
    outcome, state, *_ = run([decision] * 5, budget=Budget(max_tokens=100))
    assert outcome.reason == "budget"
    assert state.tokens_used == 100
    assert state.steps == 2


def test_max_seconds_with_a_fake_clock():
    clock = FakeClock(5000.0)

    def slow(context: PolicyInput) -> Decision:
        clock.advance(4.0)
        return forever(context)

    outcome, state, events, _ = run([slow] * 20, budget=Budget(max_seconds=10), clock=clock)

    assert outcome.status == "failed"
    assert outcome.reason == "budget"
    assert "time budget" in outcome.message
    assert "12.0 s of 10 s" in outcome.message
    assert state.steps == 3
    assert types(events)[-1] == "run.failed"
    assert events[-1][1]["elapsed_s"] == 12.0


def test_max_seconds_when_the_clock_starts_at_zero():
    # A clock reading 0.0 at the start of the run is a legitimate start time.
    clock = FakeClock(0.0)

    def slow(context: PolicyInput) -> Decision:
        clock.advance(4.0)
        return forever(context)

    outcome, state, *_ = run([slow] * 20, budget=Budget(max_seconds=10), clock=clock)
    assert outcome.reason == "budget"
    assert "time budget" in outcome.message
    assert state.steps == 3


def test_time_spent_between_units_counts():
    clock = FakeClock()
    agent = make_agent(endless(), budget=Budget(max_seconds=60), clock=clock)
    state = start()
    assert agent.step(state) is None  # decision 1
    assert agent.step(state) is None  # its tool call
    clock.advance(61)
    outcome = agent.step(state)
    assert outcome is not None
    assert outcome.reason == "budget"
    assert "time budget" in outcome.message


def test_budget_is_reported_in_run_started():
    _, _, events, _ = run([final()], budget=Budget(max_steps=7, max_tokens=99, max_seconds=5))
    kind, payload = events[0]
    assert kind == "run.started"
    assert payload["budget"] == {"max_steps": 7, "max_tokens": 99, "max_seconds": 5}
    assert payload["policy"] == "scripted"
    assert "calculate" in payload["tools"]


def test_budget_round_trips_and_fills_defaults():
    budget = Budget(max_steps=4, max_tokens=10, max_seconds=1.5)
    assert Budget.from_dict(budget.to_dict()) == budget
    assert Budget.from_dict({"max_steps": "9"}) == Budget(max_steps=9)
