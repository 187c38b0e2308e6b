"""A logging filter that keeps secrets out of log lines (installed on every handler in LOGGING).

It replaces the deployment's secret values (the settings `agents.trajectories.known_secrets`
names) and secret-shaped text (`api_key=` query parameters, bearer tokens, passwords in
connection URLs) in the message, its arguments and any traceback, before a handler formats them.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.trajectories.scrub import Scrubber


def _scrubber() -> Scrubber:
    # Imported late: LOGGING is configured while Django starts, before the apps are loaded.
    from agents.trajectories.scrub import Scrubber

    try:
        from agents.trajectories.known_secrets import known_secrets

        return _scrubber_for(tuple(known_secrets()))  # settings only: logging must not query
    except Exception:  # settings not configured yet: the secret shapes are still caught
        return Scrubber()


@functools.lru_cache(maxsize=8)
def _scrubber_for(secrets: tuple[str, ...]) -> Scrubber:
    from agents.trajectories.scrub import Scrubber

    return Scrubber.for_values(secrets)


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and traceback without secrets; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        scrubber = _scrubber()
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: let the handler report it as it would
            return True
        record.msg, record.args = scrubber.text(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrubber.text(record.exc_text)
        if record.stack_info:
            record.stack_info = scrubber.text(record.stack_info)
        return True
