"""Pytest fixtures for the fakes; register with `pytest_plugins = ["tests.fakes.fixtures"]`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.broker import FlakyBroker
from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake OpenAI-compatible server (one per test), stopped afterwards."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> FlakyBroker:
    """Tasks sent as a web process sends them (not run in place), through a broker that refuses
    the first send (set `failures = 0` for one that takes every send); no sweeper holds the lock."""
    from django.core.cache import cache

    from agents.services.sweeper import SWEEP_LOCK
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    flaky = FlakyBroker(failures=1)
    monkeypatch.setattr(app, "send_task", flaky)
    cache.delete(SWEEP_LOCK)
    return flaky
