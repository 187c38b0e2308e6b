"""The model-server policy: any OpenAI-compatible chat-completions server (vLLM, SGLang, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.runtime.model.config import ModelConfig

if TYPE_CHECKING:
    from agents.runtime.model.policy import ModelPolicy

__all__ = ["ModelConfig", "ModelPolicy"]


def __getattr__(name: str) -> Any:
    # The openai client takes about a second to import: load it only where a model is used.
    if name == "ModelPolicy":
        from agents.runtime.model.policy import ModelPolicy

        return ModelPolicy
    raise AttributeError(name)
