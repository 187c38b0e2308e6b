"""The secret values this deployment holds, so exports, events and logs can redact them."""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings

from agents.trajectories.scrub import Scrubber

SECRET_SETTINGS = (
    "MODEL_API_KEY",
    "FRED_API_KEY",
    "SECRET_KEY",
    "STORAGE_SECRET_KEY",
    "STORAGE_ACCESS_KEY",
)


def known_secrets() -> list[str]:
    """Secret settings, old secret keys, storage credentials and the database password."""
    values: list[Any] = [getattr(settings, name, None) for name in SECRET_SETTINGS]
    values += list(getattr(settings, "SECRET_KEY_FALLBACKS", []) or [])
    for storage in (getattr(settings, "STORAGES", {}) or {}).values():
        options = storage.get("OPTIONS") or {}
        values += [options.get("access_key"), options.get("secret_key")]
    values += [database.get("PASSWORD") for database in settings.DATABASES.values()]
    return [value for value in values if isinstance(value, str) and value]


def workspace_model_keys() -> list[str]:
    """The model server keys workspaces hold (`Workspace.model_api_key`): one query."""
    from agents.models import Workspace

    keys = Workspace.objects.exclude(model_api_key="").values_list("model_api_key", flat=True)
    return [key for key in keys if key]


def settings_scrubber(*, workspace_keys: bool = True) -> Scrubber:
    """A scrubber for the current settings (read each time: settings may change in tests) and,
    unless `workspace_keys` is False (no database at hand: a log filter), workspaces' model keys."""
    values = known_secrets() + (workspace_model_keys() if workspace_keys else [])
    return _scrubber(tuple(values))


@functools.lru_cache(maxsize=8)
def _scrubber(values: tuple[str, ...]) -> Scrubber:
    """Built once per set of secrets: every event of every run is scrubbed with it."""
    return Scrubber.for_values(values)
