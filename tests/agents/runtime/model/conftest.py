"""Fixtures for the model-policy tests: the fake OpenAI server, a recording sleep, builders.

The fake server's `fake_openai` fixture comes from tests/fakes/fixtures.py (the root conftest
registers it).
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.runtime.model import ModelPolicy
from tests.fakes.openai_server import FakeOpenAI


class Waits(list[float]):
    """A `sleep` that only records how long it was asked to wait."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def waits() -> Waits:
    return Waits()


@pytest.fixture
def make_policy(fake_openai: FakeOpenAI, waits: Waits):
    """ModelPolicy(config of the fake server, **overrides) whose sleeps are recorded, not slept."""

    def make(**overrides: Any) -> ModelPolicy:
        return ModelPolicy(fake_openai.config(**overrides), sleep=waits)

    return make


@pytest.fixture(params=["native", "prompt"])
def tool_mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)
