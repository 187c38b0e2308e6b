"""How the offline planner ends a run: the status never claims more than the answer says."""

import json

from agents.runtime import PolicyInput
from studio.planner.outcome import final_decision

CONTEXT = PolicyInput(messages=[{"role": "user", "content": "a red ball"}], tools=[], step=3)
BUILT = json.dumps(
    {
        "objects": [{"name": "ball", "size_m": [0.22, 0.22, 0.22], "material": "plastic red"}],
        "notes": ["I did not understand: florp"],
        "unparsed": ["florp"],
    }
)


def _round(**checks):
    return json.dumps({"passed": all(c["passed"] for c in checks.values()), "checks": checks})


def _ok(**extra):
    return {"passed": True, "value": 0, "reasons": [], **extra}


def test_a_request_that_builds_nothing_fails_and_says_so():
    decision = final_decision(CONTEXT, "error: no object I know in 'qwzxv'", [])
    assert decision.is_final
    assert (decision.status, decision.reason) == ("failed", "nothing_built")
    assert decision.message.startswith("I could not build a scene: no object I know in 'qwzxv'")
    assert decision.message.endswith("Nothing was built.")
    assert decision.result["built"] == []

    empty = json.dumps({"objects": [], "notes": ["I did not understand: qwzxv"]})
    decision = final_decision(CONTEXT, empty, [])
    assert (decision.status, decision.reason) == ("failed", "nothing_built")
    assert "I did not understand: qwzxv." in decision.message


def test_a_last_round_that_still_fails_a_check_fails_the_run_and_names_it():
    failing = {"passed": False, "value": 1, "reasons": ["ball falls 0.5 m when nudged"]}
    rounds = [_round(stability=failing, support=_ok()), _round(stability=failing, support=_ok())]
    decision = final_decision(CONTEXT, BUILT, rounds)
    assert (decision.status, decision.reason) == ("failed", "checks_failed")
    assert "Not done: after 2 round(s) these checks still fail: stability" in decision.message
    assert "(ball falls 0.5 m when nudged)" in decision.message
    assert decision.result["failing_checks"] == {"stability": ["ball falls 0.5 m when nudged"]}
    assert decision.result["not_understood"] == ["florp"]


def test_a_broken_round_fails_the_run():
    decision = final_decision(CONTEXT, BUILT, [_round(support=_ok()), "error: renderer died"])
    assert (decision.status, decision.reason) == ("failed", "round_failed")
    assert "A refinement round failed: renderer died." in decision.message


def test_a_passing_run_succeeds_and_still_says_what_it_did_not_understand_and_doubts():
    warning = "cup is 3.00 m tall; a cup is usually 0.04-0.2 m tall; kept at the size you asked"
    decision = final_decision(
        CONTEXT, BUILT, [_round(support=_ok(), scale_sanity=_ok(warnings=[warning]))]
    )
    assert decision.status is None  # the loop's default: succeeded
    assert decision.message.startswith("Built ball (0.22 x 0.22 x 0.22 m, plastic red).")
    assert "All checks pass after 1 round(s): support, scale_sanity." in decision.message
    assert f"Kept as you asked: {warning}." in decision.message
    assert decision.message.endswith("I did not understand: florp.")
    assert decision.result["warnings"] == [warning]
