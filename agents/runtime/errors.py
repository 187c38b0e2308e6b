"""The runtime's error hierarchy: what a tool or policy raises, and the limits that end a run."""

from __future__ import annotations


class RuntimeErrorBase(Exception):
    """Base of every error the agent runtime raises on purpose."""


class ToolError(RuntimeErrorBase):
    """A tool could not do what was asked; the message goes back to the policy as an observation."""


class ToolArgumentsError(ToolError):
    """The arguments of a call do not match the tool's JSON schema."""


class PolicyError(RuntimeErrorBase):
    """The policy could not produce a decision (model server down, unparseable output...)."""


class RunEnded(RuntimeErrorBase):
    """Base of the limits that end a run; each carries the final status and a clear reason."""

    status = "failed"
    reason = "error"


class BudgetExceeded(RunEnded):
    """A budget (steps, tokens, wall time) is spent."""

    reason = "budget"

    def __init__(self, budget: str, message: str) -> None:
        super().__init__(message)
        self.budget = budget


class Cancelled(RunEnded):
    """Somebody asked the run to stop."""

    status = "cancelled"
    reason = "cancelled"


class Stuck(RunEnded):
    """The policy keeps repeating itself after being told so."""

    status = "stuck"
    reason = "stuck"
