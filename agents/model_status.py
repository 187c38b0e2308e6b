"""What the workspace page says about the agent behind it: which policy, and the model's health."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from agents.model_settings import model_config
from agents.models import Workspace

HEALTH_TTL_SECONDS = 30


@dataclass(frozen=True)
class PolicyStatus:
    label: str
    healthy: bool | None
    detail: str


def policy_status(workspace: Workspace) -> PolicyStatus:
    """The active policy; a configured model server is probed at most every 30 s per endpoint."""
    config = model_config(workspace)
    if config is None:
        return PolicyStatus("Offline planner", None, "no model server configured")
    key = f"model-health:{config.base_url}:{config.model}"
    cached = cache.get(key)
    if cached is None:
        from agents.runtime.model.health import probe  # the openai client loads only when needed

        health = probe(config, timeout=2.0)
        cached = (health.ok, health.detail)
        cache.set(key, cached, HEALTH_TTL_SECONDS)
    ok, detail = cached
    return PolicyStatus(f"{config.model} at {config.base_url}", ok, detail)
