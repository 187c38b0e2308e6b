"""Which model endpoint a workspace's runs use: the workspace's override, else the settings."""

from __future__ import annotations

from django.conf import settings

from agents.models import Workspace
from agents.runtime.model.config import ModelConfig, ToolMode

MODEL_PLANNER = "model"


def model_config(workspace: Workspace | None = None) -> ModelConfig | None:
    """The endpoint for a workspace, or None when no model server is configured."""
    base_url = (workspace.model_base_url if workspace else "") or settings.MODEL_BASE_URL
    name = (workspace.model_name if workspace else "") or settings.MODEL_NAME
    if not base_url or not name:
        return None
    mode: ToolMode = "prompt" if settings.MODEL_TOOL_MODE == "prompt" else "native"
    return ModelConfig(
        base_url=base_url,
        model=name,
        api_key=_api_key(workspace, base_url),
        connect_timeout=settings.MODEL_CONNECT_TIMEOUT,
        read_timeout=settings.MODEL_READ_TIMEOUT,
        max_retries=settings.MODEL_MAX_RETRIES,
        tool_mode=mode,
        max_completion_tokens=settings.MODEL_MAX_TOKENS,
    )


def _api_key(workspace: Workspace | None, base_url: str) -> str:
    """The workspace's own key when it has one; the global MODEL_API_KEY only for the global
    server, never for a server a workspace named (its owner chose it, and may run it); else none."""
    if workspace is not None and workspace.model_base_url and workspace.model_api_key:
        return workspace.model_api_key
    if base_url.rstrip("/") == settings.MODEL_BASE_URL.rstrip("/"):
        return settings.MODEL_API_KEY or "EMPTY"
    return "EMPTY"


def default_planner(workspace: Workspace) -> str:
    """The model when one is configured for the workspace, else the offline planner."""
    return MODEL_PLANNER if model_config(workspace) else "offline"
