"""Pytest fixtures for the fakes; register with `pytest_plugins = ["tests.fakes.fixtures"]`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake OpenAI-compatible server (one per test), stopped afterwards."""
    with FakeOpenAI() as server:
        yield server
