"""Plain data exchanged inside the agent loop: tool calls, policy decisions, outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Message = dict[str, Any]
"""A chat message in the OpenAI chat-completions shape (role, content, tool_calls, tool_call_id)."""

FinalStatus = Literal["succeeded", "failed", "cancelled", "stuck"]


@dataclass(frozen=True)
class ToolCall:
    """One call the policy asks for: a tool name and its (not yet validated) arguments."""

    id: str
    name: str
    arguments: dict[str, Any]
    error: str = ""
    """Set when the policy could not even parse the arguments; the call then fails visibly."""

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "name": self.name, "arguments": self.arguments}
        return {**data, "error": self.error} if self.error else data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolCall:
        return cls(
            id=data["id"],
            name=data["name"],
            arguments=dict(data["arguments"]),
            error=data.get("error", ""),
        )


@dataclass(frozen=True)
class Usage:
    """Tokens a policy call consumed (estimated by offline policies)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class Decision:
    """What the policy wants next: tool calls to run, or (with none) a final answer."""

    message: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    metrics: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    """A final decision's structured result (answers with their sources); the text if unset."""
    status: FinalStatus | None = None
    """A final decision's own verdict on the run: None is `succeeded`. A planner that answers
    but knows the work is not done (nothing built, checks still failing) says `failed` here, so
    the run's status never claims more than its answer does."""
    reason: str = ""
    """Why a final decision carries its status, as a short code (`nothing_built`...)."""

    @property
    def is_final(self) -> bool:
        return not self.tool_calls


@dataclass(frozen=True)
class Outcome:
    """How a run ended: a final status, a message a person can read, and the result if any."""

    status: FinalStatus
    message: str
    reason: str = ""
    result: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "reason": self.reason,
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            status=data["status"],
            message=data["message"],
            reason=data.get("reason", ""),
            result=data.get("result"),
        )
