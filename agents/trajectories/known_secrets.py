"""The secret values this deployment holds, so exports can redact them wherever they appear."""

from __future__ import annotations

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


def settings_scrubber() -> Scrubber:
    """A scrubber for the current settings (read each time: settings may change in tests)."""
    return Scrubber.for_values(known_secrets())
