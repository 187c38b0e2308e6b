"""Time limits on tool calls: a call past its limit is stopped and becomes an error result."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from typing import Any

import pytest

from agents.runtime import MemoryArtifacts, Tool, ToolContext, ToolRegistry
from agents.runtime.time_limit import TimeLimit, ToolTimeout, can_enforce

from .helpers import BOOM, ECHO, act, call, final, of_type, run

pytestmark = pytest.mark.skipif(not can_enforce(), reason="needs SIGALRM in the main thread")

EMPTY = {"type": "object", "properties": {}, "additionalProperties": False}


def _sleep(arguments: dict[str, Any], context: Any) -> str:
    time.sleep(5)
    return "woke up"


def _busy(arguments: dict[str, Any], context: Any) -> str:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # pure Python: stopped between bytecodes
        pass
    return "done"


def _swallowing(arguments: dict[str, Any], context: Any) -> str:
    try:
        time.sleep(5)
    except Exception:  # a tool's broad handler must not swallow the timeout
        return "swallowed"
    return "woke up"


SLEEPY = Tool("sleepy", "Sleeps for 5 s.", EMPTY, _sleep)
BUSY = Tool("busy", "Spins for 5 s.", EMPTY, _busy)
SWALLOWING = Tool("swallowing", "Sleeps, catching Exception.", EMPTY, _swallowing)


def context(call_key: str = "") -> ToolContext:
    return ToolContext(
        artifacts=MemoryArtifacts(),
        progress=lambda fraction, message="": None,
        call_key=call_key,
    )


class DictMemo:
    def __init__(self) -> None:
        self.stored: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.stored.get(key)

    def put(self, key: str, content: str) -> None:
        self.stored[key] = content

    def atomic(self) -> contextlib.AbstractContextManager[object]:
        return contextlib.nullcontext()


def _sentinel_handler(signum: int, frame: Any) -> None:
    raise AssertionError("the test's own SIGALRM handler must not fire")


@pytest.fixture
def alarm_state():
    """Clear SIGALRM (pytest-timeout may have armed it) for the test; put everything back after."""
    handler = signal.getsignal(signal.SIGALRM)
    delay, interval = signal.getitimer(signal.ITIMER_REAL)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, handler)
        if delay:
            left = max(delay - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, interval)


def timed(function, *args):
    started = time.monotonic()
    result = function(*args)
    return result, time.monotonic() - started


# --- the registry ---------------------------------------------------------------------------


@pytest.mark.parametrize("tool", [SLEEPY, BUSY, SWALLOWING], ids=lambda tool: tool.name)
def test_a_call_past_its_limit_becomes_a_timed_out_error_quickly(alarm_state, tool):
    tools = ToolRegistry([tool], default_timeout_s=0.2)
    result, elapsed = timed(tools.execute, call(tool.name), context())
    assert elapsed < 1
    assert result.ok is False
    assert result.timed_out is True
    assert result.content == f"error: {tool.name} timed out after 0.2 s"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_fast_tool_is_untouched(alarm_state):
    tools = ToolRegistry([ECHO], default_timeout_s=0.2)
    result = tools.execute(call("echo", text="hi"), context())
    assert (result.ok, result.timed_out, result.content) == (True, False, "echo: hi")
    time.sleep(0.3)  # had a timer been left armed, it would fire here
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_the_tools_own_limit_wins_over_the_registry_default(alarm_state):
    own = Tool("sleepy", "Sleeps.", EMPTY, _sleep, timeout_s=0.1)
    tools = ToolRegistry([own], default_timeout_s=60)
    assert tools.timeout_for(own) == 0.1
    assert tools.timeout_for(ECHO) == 60
    result, elapsed = timed(tools.execute, call("sleepy"), context())
    assert result.content == "error: sleepy timed out after 0.1 s"
    assert elapsed < 1


def test_no_limit_by_default():
    assert ToolRegistry([ECHO]).timeout_for(ECHO) is None
    assert TimeLimit(None).call(lambda: "ran") == "ran"
    assert TimeLimit(0).call(lambda: "ran") == "ran"


def test_the_previous_handler_and_timer_are_restored(alarm_state):
    signal.signal(signal.SIGALRM, _sentinel_handler)
    signal.setitimer(signal.ITIMER_REAL, 50)
    tools = ToolRegistry([SLEEPY, ECHO], default_timeout_s=0.2)

    assert tools.execute(call("sleepy"), context()).timed_out
    assert signal.getsignal(signal.SIGALRM) is _sentinel_handler
    left, interval = signal.getitimer(signal.ITIMER_REAL)
    assert 48 < left <= 50 and interval == 0

    assert tools.execute(call("echo", text="hi"), context()).ok
    assert signal.getsignal(signal.SIGALRM) is _sentinel_handler
    assert 48 < signal.getitimer(signal.ITIMER_REAL)[0] <= 50


def test_an_enclosing_limit_that_ends_sooner_is_left_alone_and_passes_through(alarm_state):
    inner = ToolRegistry([SLEEPY], default_timeout_s=30)

    def nested(arguments: dict[str, Any], context: Any) -> str:
        assert signal.getitimer(signal.ITIMER_REAL)[0] <= 0.3  # the outer timer, not ours
        return inner.execute(call("sleepy"), context).content

    outer = ToolRegistry([Tool("nested", "Calls sleepy.", EMPTY, nested, timeout_s=0.3)])
    result, elapsed = timed(outer.execute, call("nested"), context())
    assert elapsed < 1
    assert result.timed_out  # reported by the outer call, whose limit it was
    assert result.content == "error: nested timed out after 0.3 s"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_nested_limit_that_ends_sooner_restores_the_enclosing_one(alarm_state):
    inner = ToolRegistry([SLEEPY], default_timeout_s=0.1)

    def nested(arguments: dict[str, Any], context: Any) -> str:
        content = inner.execute(call("sleepy"), context).content
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 0 < left <= 10
        return f"{content} / {left > 5}"

    outer = ToolRegistry([Tool("nested", "Calls sleepy.", EMPTY, nested, timeout_s=10)])
    result = outer.execute(call("nested"), context())
    assert (result.ok, result.timed_out) == (True, False)
    assert result.content == "error: sleepy timed out after 0.1 s / True"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_exception_inside_a_limited_tool_is_still_an_error_result(alarm_state):
    handler = signal.getsignal(signal.SIGALRM)
    tools = ToolRegistry([BOOM], default_timeout_s=0.2)
    result = tools.execute(call("boom"), context())
    assert (result.ok, result.timed_out) == (False, False)
    assert result.content == "error: boom failed: RuntimeError: kaboom"
    assert signal.getsignal(signal.SIGALRM) is handler
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_timed_out_effect_tool_is_not_memoised(alarm_state):
    memo = DictMemo()
    effect = Tool("write", "Writes slowly.", EMPTY, _sleep, effects=True, timeout_s=0.1)
    quick = Tool("note", "Writes quickly.", EMPTY, lambda a, c: "noted", effects=True)
    tools = ToolRegistry([effect, quick], memo=memo, default_timeout_s=0.1)

    assert tools.execute(call("write"), context("1:call-a")).timed_out
    assert memo.stored == {}
    assert tools.execute(call("note"), context("1:call-b")).ok
    assert memo.stored == {"1:call-b": "noted"}


def test_outside_the_main_thread_the_call_runs_without_a_limit():
    results: list[Any] = []

    def slow() -> str:
        time.sleep(0.1)
        return "finished"

    def worker() -> None:
        results.append(can_enforce())
        results.append(TimeLimit(0.05).call(slow))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(5)
    assert results == [False, "finished"]


def test_tool_timeout_is_not_an_exception_a_tool_would_catch():
    assert not issubclass(ToolTimeout, Exception)


# --- through the agent ------------------------------------------------------------------------


def test_the_tool_result_event_says_timed_out_only_when_it_did(alarm_state):
    tools = ToolRegistry([SLEEPY, ECHO], default_timeout_s=0.2)
    script = [act(call("sleepy", "c1"), call("echo", "c2", text="hi")), final("ok")]
    started = time.monotonic()
    outcome, state, events, _agent = run(script, tools=tools)
    assert time.monotonic() - started < 2
    assert outcome.status == "succeeded"
    slow, fast = of_type(events, "tool.result")
    assert slow["timed_out"] is True
    assert slow["ok"] is False
    assert slow["content"] == "error: sleepy timed out after 0.2 s"
    assert "timed_out" not in fast
    assert fast["ok"] is True
    tool_contents = [m["content"] for m in state.messages if m["role"] == "tool"]
    assert tool_contents == ["error: sleepy timed out after 0.2 s", "echo: hi"]
