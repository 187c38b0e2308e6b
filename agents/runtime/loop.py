"""The agent loop: decide, act, observe, repeat, until an answer, a limit, a cancel or a loop.

The loop advances in *units* (one policy decision, or one tool call) so that the host can
checkpoint the state and persist the unit's events atomically after each one: a worker that dies
mid-run resumes from the last unit and never records a step twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agents.runtime import events
from agents.runtime.builtin_tools import READ_ARTIFACT
from agents.runtime.compression import Compressor
from agents.runtime.condense import fit_context
from agents.runtime.errors import BudgetExceeded, Cancelled, PolicyError, RunEnded, Stuck
from agents.runtime.log_context import log_scope
from agents.runtime.protocols import CancelCheck, Clock, EventSink, Policy, PolicyInput, SystemClock
from agents.runtime.state import Budget, RunState
from agents.runtime.tools import ArtifactStore, ToolContext, ToolRegistry
from agents.runtime.types import Decision, Outcome, ToolCall

EVENT_PREVIEW_CHARS = 2000


def _never_cancelled() -> bool:
    return False


@dataclass
class Agent:
    """Runs a policy with a tool registry under a budget, reporting every unit to a sink."""

    policy: Policy
    tools: ToolRegistry
    sink: EventSink
    artifacts: ArtifactStore
    budget: Budget = field(default_factory=Budget)
    clock: Clock = field(default_factory=SystemClock)
    cancelled: CancelCheck = _never_cancelled
    compressor: Compressor | None = None
    options: dict[str, Any] = field(default_factory=dict)
    max_recoveries: int = 1

    def __post_init__(self) -> None:
        if self.compressor is None:
            self.compressor = Compressor(self.artifacts)

    def run(self, state: RunState) -> Outcome:
        """Advance until the run ends (for tests and command-line use; workers use `step`)."""
        while (outcome := self.step(state)) is None:
            pass
        return outcome

    def step(self, state: RunState) -> Outcome | None:
        """Advance one unit; return the outcome once the run has ended."""
        if state.outcome is not None:
            return state.outcome
        outcome: Outcome | None = None
        try:
            if state.started_at is None:
                state.started_at = self.clock.time()
                self.sink.emit(events.RUN_STARTED, {"policy": self.policy.name, **self._limits()})
            if self.cancelled():
                raise Cancelled("cancelled on request")
            if state.pending:
                with log_scope(step=state.steps, tool=state.pending[0].name):
                    self._act(state)
            else:
                with log_scope(step=state.steps + 1):
                    outcome = self._decide(state)
        except RunEnded as ended:
            outcome = Outcome(status=ended.status, message=str(ended), reason=ended.reason)  # type: ignore[arg-type]
        except PolicyError as error:
            outcome = Outcome(
                status="failed", message=f"the policy failed: {error}", reason="policy"
            )
        state.units += 1
        if outcome is not None:
            self._finish(state, outcome)
        return state.outcome

    def _limits(self) -> dict[str, Any]:
        return {"budget": self.budget.to_dict(), "tools": self.tools.names}

    def _check_budget(self, state: RunState) -> None:
        budget = self.budget
        if state.steps >= budget.max_steps:
            raise BudgetExceeded(
                "steps", f"step budget spent: {state.steps} steps without a final answer"
            )
        if state.tokens_used >= budget.max_tokens:
            raise BudgetExceeded(
                "tokens", f"token budget spent: {state.tokens_used} of {budget.max_tokens} tokens"
            )
        now = self.clock.time()
        elapsed = now - (state.started_at if state.started_at is not None else now)
        if elapsed >= budget.max_seconds:
            raise BudgetExceeded(
                "time", f"time budget spent: {elapsed:.1f} s of {budget.max_seconds:g} s"
            )

    def _decide(self, state: RunState) -> Outcome | None:
        self._check_budget(state)
        if state.notice:
            state.messages.append({"role": "user", "content": state.notice})
            state.notice = ""
        assert self.compressor is not None
        fitting = fit_context(self.compressor, state.messages)
        for compression in fitting.compressions:
            self.sink.emit(events.OBSERVATION_COMPRESSED, compression.to_payload())
        if fitting.condensation is not None:
            self.sink.emit(events.CONTEXT_CONDENSED, fitting.condensation.to_payload())
        if fitting.changed_from is not None:
            state.mark_changed(fitting.changed_from)
        context = PolicyInput(
            messages=state.messages,
            tools=self.tools.specs(),
            step=state.steps + 1,
            on_delta=lambda text: self.sink.emit(events.MODEL_DELTA, {"text": text}),
            on_status=lambda text: self.sink.emit(
                events.RUN_STATUS, {"status": "running", "message": text}
            ),
            cancelled=self.cancelled,
        )
        decision = self.policy.decide(context)
        state.steps += 1
        state.tokens_used += decision.usage.total
        state.messages.append(_assistant_message(decision))
        self._emit_message(state, decision)
        if decision.is_final:
            result = decision.message if decision.result is None else decision.result
            return Outcome(
                status=decision.status or "succeeded",
                message=decision.message,
                reason=decision.reason,
                result=result,
            )
        loop = state.stuck.observe_message(decision.message)
        if loop:
            self._on_loop(state, loop)
        state.pending = list(decision.tool_calls)
        for call in decision.tool_calls:
            self.sink.emit(events.TOOL_CALL, {**call.to_dict(), "step": state.steps})
        return None

    def _emit_message(self, state: RunState, decision: Decision) -> None:
        if not decision.message and not decision.is_final and not decision.metrics:
            return
        payload: dict[str, Any] = {
            "text": decision.message,
            "step": state.steps,
            "final": decision.is_final,
            "usage": {
                "prompt_tokens": decision.usage.prompt_tokens,
                "completion_tokens": decision.usage.completion_tokens,
            },
        }
        if decision.metrics:
            payload["metrics"] = decision.metrics
        if decision.is_final and decision.status is not None:
            payload["status"] = decision.status
            payload["reason"] = decision.reason
        self.sink.emit(events.MODEL_MESSAGE, payload)

    def _act(self, state: RunState) -> None:
        call = state.pending[0]
        context = ToolContext(
            artifacts=self.artifacts,
            progress=lambda fraction, message="": self.sink.emit(
                events.RUN_STATUS,
                {"status": "running", "tool": call.name, "progress": fraction, "message": message},
            ),
            options=self.options,
            emit=self.sink.emit,
            call_key=f"{state.steps}:{call.id}",
        )
        result = self.tools.execute(call, context)
        content = result.content
        payload: dict[str, Any] = {
            "id": call.id,
            "name": call.name,
            "ok": result.ok,
            "chars": len(content),
            "duration_ms": round(result.duration_ms, 2),
            "step": state.steps,
        }
        if result.timed_out:
            payload["timed_out"] = True
        assert self.compressor is not None
        # read_artifact pages are bounded already; compressing them again would hide them for good
        if len(content) > self.compressor.observation_cap and call.name != READ_ARTIFACT.name:
            content, compression = self.compressor.compress_result(
                tool=call.name, call_id=call.id, content=content
            )
            self.sink.emit(events.OBSERVATION_COMPRESSED, compression.to_payload())
            payload["artifact"] = compression.artifact
        payload["content"] = result.content[:EVENT_PREVIEW_CHARS]
        payload["truncated"] = len(result.content) > EVENT_PREVIEW_CHARS
        state.messages.append(
            {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": content}
        )
        state.pending.pop(0)
        self.sink.emit(events.TOOL_RESULT, payload)
        loop = state.stuck.observe_call(call, result.content)
        if loop:
            self._on_loop(state, loop)

    def _on_loop(self, state: RunState, description: str) -> None:
        if state.recoveries >= self.max_recoveries:
            raise Stuck(f"stuck: {description}, and it went on after a warning")
        state.recoveries += 1
        state.stuck.reset()
        state.notice = (
            f"Loop detected: {description}. Repeating it will not change the result. "
            "Use what you already have, try a different approach, or give your final answer."
        )
        self.sink.emit(
            events.RUN_STATUS,
            {
                "status": "running",
                "message": f"loop detected: {description}; asked to change course",
            },
        )

    def _finish(self, state: RunState, outcome: Outcome) -> None:
        state.outcome = outcome
        state.pending = []
        started = state.started_at if state.started_at is not None else self.clock.time()
        payload = {
            **outcome.to_dict(),
            "steps": state.steps,
            "tokens_used": state.tokens_used,
            "elapsed_s": round(self.clock.time() - started, 3),
        }
        kind = events.RUN_FAILED if outcome.status == "failed" else events.RUN_FINISHED
        self.sink.emit(kind, payload)


def _assistant_message(decision: Decision) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": decision.message or None}
    if decision.tool_calls:
        message["tool_calls"] = [_call_message(call) for call in decision.tool_calls]
    return message


def _call_message(call: ToolCall) -> dict[str, Any]:
    arguments = json.dumps(call.arguments, sort_keys=True)
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }
