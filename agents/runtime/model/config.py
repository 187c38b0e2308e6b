"""Settings of one model endpoint, with explicit timeouts and retry limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ToolMode = Literal["native", "prompt"]


@dataclass(frozen=True)
class ModelConfig:
    base_url: str
    model: str
    api_key: str = "EMPTY"
    connect_timeout: float = 5.0
    read_timeout: float = 120.0
    max_retries: int = 5
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    tool_mode: ToolMode = "native"
    temperature: float = 0.0
    max_completion_tokens: int = 2048
    delta_interval: float = 0.075
    max_malformed: int = 3
