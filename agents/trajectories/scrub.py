"""Redacting secrets from anything about to leave the system (trajectories for training).

Plain Python: the caller passes the secret values it knows (from the settings); patterns catch
the secret shapes nobody listed (bearer tokens, `sk-` keys, this project's `aw_` API tokens,
`api_key=` in URLs, passwords in connection URLs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 6
PLACEHOLDERS = frozenset({"EMPTY", "empty", "none", "None", "changeme", "secret"})

# (pattern, replacement): groups kept around the secret part so the text still reads.
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), rf"\1{REDACTED}"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), REDACTED),
    (re.compile(r"\baw_[A-Za-z0-9_-]{16,}"), REDACTED),  # accounts.services.TOKEN_PREFIX
    (re.compile(r"\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}"), REDACTED),
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), REDACTED),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), REDACTED),
    (
        re.compile(
            r"(?i)([?&;](?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|key|secret"
            r"|password|passwd|signature|sig|x-amz-signature|x-amz-credential)=)[^&#\s\"'<>]+"
        ),
        rf"\1{REDACTED}",
    ),
    (re.compile(r"([a-z][a-z0-9+.-]*://[^/\s:@\"']+:)[^@/\s\"']+(@)"), rf"\1{REDACTED}\2"),
    (
        re.compile(
            r"(?i)(\b(?:api[_-]?key|apikey|access[_-]?token|secret[_-]?key|access[_-]?key"
            r"|client[_-]?secret|password)[\"']?\s*[:=]\s*[\"']?)[^\"'\s,&}]{4,}"
        ),
        rf"\1{REDACTED}",
    ),
)


def _scoped(pattern: str) -> str:
    """A pattern whose leading `(?i)` applies to it alone, so patterns can be joined."""
    return f"(?i:{pattern[4:]})" if pattern.startswith("(?i)") else f"(?:{pattern})"


# Any of PATTERNS: one search tells that a string (most are plain text) needs no substitution.
ANY_PATTERN = re.compile("|".join(_scoped(pattern.pattern) for pattern, _ in PATTERNS))

SENSITIVE_KEYS = re.compile(
    r"(?i)^(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|secret[_-]?key"
    r"|access[_-]?key|client[_-]?secret|password|passwd|authorization)$"
)


@dataclass(frozen=True)
class Scrubber:
    """Replaces known secret values (exactly) and secret-looking strings with `[redacted]`."""

    secrets: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def for_values(cls, values: Iterable[str | None]) -> Scrubber:
        """A scrubber for these secret values, with their JSON- and URL-escaped spellings."""
        spelled: set[str] = set()
        for value in values:
            if not value or len(value) < MIN_SECRET_CHARS or value in PLACEHOLDERS:
                continue
            spelled |= {
                value,
                json.dumps(value)[1:-1],
                json.dumps(value, ensure_ascii=False)[1:-1],
                quote(value, safe=""),
            }
        # Longest first, so a secret that contains another is replaced whole.
        return cls(tuple(sorted(spelled, key=len, reverse=True)))

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        if ANY_PATTERN.search(value) is None:
            return value
        for pattern, replacement in PATTERNS:
            value = pattern.sub(replacement, value)
        return value

    def data(self, value: Any) -> Any:
        """A copy of JSON-like data with every string scrubbed, and values of secret keys hidden."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(key)): self._item(str(key), item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(item) for item in value]
        return value

    def _item(self, key: str, value: Any) -> Any:
        if isinstance(value, str) and value and SENSITIVE_KEYS.match(key):
            return REDACTED
        return self.data(value)

    def leaks(self, text: str) -> list[str]:
        """The known secrets still present in `text` (to check a finished export line)."""
        return [secret for secret in self.secrets if secret in text]
