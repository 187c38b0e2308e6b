"""Fixtures for the agent app tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def offline_planner(settings):
    """Runs use the embedded offline planner even where a model server is configured."""
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
