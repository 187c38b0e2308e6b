"""Run options a person or program may set, checked before a run is created."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.model_settings import MODEL_PLANNER, default_planner, model_config
from agents.models import Workspace
from agents.registry import planner_names
from agents.runtime import Budget
from agents.services.quotas import QuotaExceeded, max_tokens_per_run

LIMITS = {
    "max_steps": (1, 500),
    "max_tokens": (100, 5_000_000),
    "max_seconds": (1, 24 * 3600),
}
KNOWN = {*LIMITS, "planner", "rounds"}
MAX_ROUNDS = 10


class OptionsError(ValueError):
    """Run options that cannot be accepted; the message says which and why."""


@dataclass(frozen=True)
class RunOptions:
    planner: str
    budget: Budget
    rounds: int | None = None
    """Refinement rounds, for workspaces that refine (the studio)."""

    def to_dict(self) -> dict[str, Any]:
        return {"planner": self.planner, "rounds": self.rounds, **self.budget.to_dict()}


def parse_run_options(kind: str, raw: Any, *, workspace: Workspace | None = None) -> RunOptions:
    """Validate raw options for a workspace kind; raise OptionsError with a clear message."""
    raw = raw or {}
    if not isinstance(raw, dict):
        raise OptionsError("options must be a JSON object")
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        raise OptionsError(f"unknown option(s): {', '.join(unknown)}; known: {sorted(KNOWN)}")
    planner = raw.get("planner") or (default_planner(workspace) if workspace else "offline")
    choices = [*planner_names(kind), MODEL_PLANNER]
    if planner not in choices:
        raise OptionsError(f"planner must be one of {choices}")
    if planner == MODEL_PLANNER and model_config(workspace) is None:
        raise OptionsError(
            "no model server is configured: set MODEL_BASE_URL and MODEL_NAME "
            "(or the workspace's model settings), or use the offline planner"
        )
    defaults = Budget().to_dict()
    token_cap = max_tokens_per_run()
    if token_cap:  # the quota caps the default budget too, so a run without options fits it
        defaults["max_tokens"] = min(defaults["max_tokens"], token_cap)
    values: dict[str, Any] = {}
    for name, (low, high) in LIMITS.items():
        value = raw.get(name, defaults[name])
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionsError(f"{name} must be a number")
        if not low <= value <= high:
            raise OptionsError(f"{name} must be between {low} and {high}")
        values[name] = value
    if token_cap and values["max_tokens"] > token_cap:
        raise QuotaExceeded(
            quota="tokens_per_run",
            limit=token_cap,
            status=403,
            retry_at=None,
            message=f"max_tokens {values['max_tokens']} is over your quota of {token_cap} "
            "tokens per run",
        )
    rounds = raw.get("rounds")
    if rounds is not None and (
        isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS
    ):
        raise OptionsError(f"rounds must be an integer between 1 and {MAX_ROUNDS}")
    return RunOptions(planner=planner, budget=Budget.from_dict(values), rounds=rounds)
