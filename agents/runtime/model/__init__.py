"""The model-server policy: any OpenAI-compatible chat-completions server (vLLM, SGLang, ...)."""

from agents.runtime.model.config import ModelConfig
from agents.runtime.model.policy import ModelPolicy

__all__ = ["ModelConfig", "ModelPolicy"]
