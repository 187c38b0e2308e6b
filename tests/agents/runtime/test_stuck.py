"""Loop detection: repeated calls, A/B ping-pong, repeated messages; a warning, then "stuck"."""

from agents.runtime import Decision, PolicyInput
from agents.runtime.stuck import StuckDetector

from .helpers import act, call, final, of_type, run, types


def loop_warnings(events) -> list[str]:
    return [p["message"] for p in of_type(events, "run.status") if "loop detected" in p["message"]]


# --- the detector on its own ----------------------------------------------------------------


def test_same_call_same_result_three_times():
    detector = StuckDetector()
    a = call("echo", text="x")
    assert detector.observe_call(a, "same") is None
    assert detector.observe_call(a, "same") is None
    found = detector.observe_call(a, "same")
    assert found is not None
    assert 'echo({"text": "x"})' in found
    assert "3 times with the same result" in found


def test_same_call_with_different_results_is_progress():
    detector = StuckDetector()
    a = call("count")
    assert [detector.observe_call(a, str(n)) for n in range(10)] == [None] * 10


def test_different_arguments_are_different_calls():
    detector = StuckDetector()
    found = [detector.observe_call(call("echo", text=str(n)), "ok") for n in range(10)]
    assert found == [None] * 10


def test_ping_pong_is_detected_on_the_sixth_call():
    detector = StuckDetector()
    a, b = call("echo", text="a"), call("echo", text="b")
    found = [detector.observe_call(c, f"result of {c.arguments['text']}") for c in [a, b] * 3]
    assert found[:5] == [None] * 5
    assert found[5] is not None
    assert "alternate between" in found[5]
    assert 'echo({"text": "a"})' in found[5] and 'echo({"text": "b"})' in found[5]


def test_a_b_c_rotation_is_not_ping_pong():
    detector = StuckDetector()
    calls = [call("echo", text=t) for t in "abc"] * 3
    assert [detector.observe_call(c, "r") for c in calls] == [None] * 9


def test_identical_messages_three_times():
    detector = StuckDetector()
    assert detector.observe_message("Let me check.") is None
    assert detector.observe_message("Let me check.") is None
    assert "same message was written 3 times" in detector.observe_message("Let me check.")


def test_blank_or_varied_messages_do_not_count():
    detector = StuckDetector()
    assert [detector.observe_message(t) for t in ["", "  ", "", "\n"]] == [None] * 4
    assert [detector.observe_message(t) for t in ["a", "b", "a", "b", "a"]] == [None] * 5


def test_reset_forgets_history():
    detector = StuckDetector()
    a = call("echo", text="x")
    detector.observe_call(a, "r")
    detector.observe_call(a, "r")
    detector.reset()
    assert detector.observe_call(a, "r") is None
    assert detector.observe_call(a, "r") is None
    assert detector.observe_call(a, "r") is not None


def test_history_is_bounded_and_round_trips():
    detector = StuckDetector(repeats=2)
    for n in range(20):
        detector.observe_call(call("echo", text=str(n)), "r")
        detector.observe_message(f"message {n}")
    assert len(detector.calls) == 4
    assert len(detector.messages) == 2
    copy = StuckDetector.from_dict(detector.to_dict())
    assert copy == detector
    assert copy.repeats == 2


def test_repeats_is_configurable():
    detector = StuckDetector(repeats=2)
    a = call("echo", text="x")
    assert detector.observe_call(a, "r") is None
    assert "2 times" in detector.observe_call(a, "r")


# --- through the loop -----------------------------------------------------------------------


def same_echo(context: PolicyInput) -> Decision:
    return act(call("echo", f"e{context.step}", text="again"))


def test_repeated_call_gets_a_warning_injected_before_the_next_decision():
    seen = []

    def look(context: PolicyInput) -> Decision:
        seen.append(list(context.messages))
        return final("I will stop repeating myself.")

    outcome, state, events, _ = run([same_echo, same_echo, same_echo, look])

    (warning,) = loop_warnings(events)
    assert 'echo({"text": "again"}) was called 3 times with the same result' in warning
    notice = seen[0][-1]
    assert notice["role"] == "user"
    assert notice["content"].startswith("Loop detected:")
    assert "was called 3 times with the same result" in notice["content"]
    assert "different approach" in notice["content"]
    # the warning came right after the 3rd result and before the 4th decision
    kinds = types(events)
    status_at = kinds.index("run.status")
    assert kinds[status_at - 1] == "tool.result"
    assert kinds[status_at + 1] == "model.message"
    assert outcome.status == "succeeded"
    assert state.recoveries == 1


def test_going_on_after_the_warning_ends_the_run_as_stuck():
    outcome, state, events, _ = run([same_echo] * 10)

    assert outcome.status == "stuck"
    assert outcome.reason == "stuck"
    assert "was called 3 times with the same result" in outcome.message
    assert "went on after a warning" in outcome.message
    assert len(loop_warnings(events)) == 1
    assert len(of_type(events, "tool.result")) == 6
    assert state.steps == 6
    assert events[-1][0] == "run.finished"
    assert events[-1][1]["status"] == "stuck"
    assert "run.failed" not in types(events)


def test_three_identical_calls_in_one_decision_are_a_loop():
    calls = [call("echo", f"same-{n}", text="x") for n in range(3)]
    seen = []

    def look(context):
        seen.append(context.messages[-1])
        return final()

    _, _, events, _ = run([act(*calls), look])
    assert len(loop_warnings(events)) == 1
    assert seen[0]["content"].startswith("Loop detected:")


def test_ping_pong_through_the_loop():
    def ping_pong(context: PolicyInput) -> Decision:
        text = "ping" if context.step % 2 else "pong"
        return act(call("echo", f"p{context.step}", text=text))

    outcome, _, events, _ = run([ping_pong] * 20)

    (warning,) = loop_warnings(events)
    assert "alternate between" in warning
    assert outcome.status == "stuck"
    assert "alternate between" in outcome.message
    # warned after 6 calls, and stuck after 6 more
    assert len(of_type(events, "tool.result")) == 12


def test_identical_assistant_messages_are_a_loop_even_with_progress():
    def chatter(context: PolicyInput) -> Decision:
        return act(call("count", f"c{context.step}"), message="Checking once more.")

    outcome, _, events, _ = run([chatter] * 10)

    (warning,) = loop_warnings(events)
    assert "same message was written 3 times in a row" in warning
    assert outcome.status == "stuck"
    assert "same message" in outcome.message
    assert events[-1][0] == "run.finished"


def test_same_call_with_different_results_does_not_trigger():
    def counting(context: PolicyInput) -> Decision:
        if context.step > 8:
            return final("counted")
        return act(call("count", f"c{context.step}"))

    outcome, _, events, _ = run([counting] * 9)
    assert loop_warnings(events) == []
    assert outcome.status == "succeeded"
    assert len(of_type(events, "tool.result")) == 8


def test_more_recoveries_allow_more_warnings():
    outcome, state, events, _ = run([same_echo] * 20, max_recoveries=2)
    assert len(loop_warnings(events)) == 2
    assert state.recoveries == 2
    assert outcome.status == "stuck"
    assert len(of_type(events, "tool.result")) == 9
