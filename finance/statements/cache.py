"""Canonical statements kept by content hash, so the same filing is never extracted twice."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from finance.documents.json_cache import read_json, write_json
from finance.statements.extract import extract_statements

# 5: debt due within a year; period end dates; split amounts; quarter and year-to-date pages
# 6: stock-based compensation, noninterest expense, "selling, <word> and administrative",
#    "Total shareholders' equity" as the total equity, "Debt maturing within one year"
CACHE_VERSION = 6


def cached_statements(
    data: bytes,
    *,
    name: str,
    cache_dir: Path | None,
    extract: Callable[[bytes, str], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The statements of a PDF (`extract_statements(...).to_dict()`), from the cache when the
    same bytes were extracted before; `document` is always this upload's name."""
    sha = hashlib.sha256(data).hexdigest()
    stored = stored_statements(sha, name=name, cache_dir=cache_dir)
    if stored is not None:
        return stored
    path = cache_dir / f"{sha}.json" if cache_dir is not None else None
    run = extract or (lambda raw, label: extract_statements(raw, name=label).to_dict())
    statements = run(data, name)
    if path is not None:
        write_json(path, {"version": CACHE_VERSION, "statements": statements})
    return statements


def stored_statements(sha: str, *, name: str, cache_dir: Path | None) -> dict[str, Any] | None:
    """The cached statements of the bytes whose sha256 is `sha`, named `name`; None if none."""
    if cache_dir is None:
        return None
    stored = read_json(cache_dir / f"{sha}.json")
    if isinstance(stored, dict) and stored.get("version") == CACHE_VERSION:
        return {**stored["statements"], "document": name}
    return None
