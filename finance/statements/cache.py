"""Canonical statements kept by content hash, so the same filing is never extracted twice."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from finance.statements.extract import extract_statements

CACHE_VERSION = 1


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
    path = cache_dir / f"{sha}.json" if cache_dir is not None else None
    if path is not None:
        try:
            stored = json.loads(path.read_bytes())
        except (OSError, ValueError):
            stored = None
        if isinstance(stored, dict) and stored.get("version") == CACHE_VERSION:
            return {**stored["statements"], "document": name}
    run = extract or (lambda raw, label: extract_statements(raw, name=label).to_dict())
    statements = run(data, name)
    if path is not None:
        _store(path, {"version": CACHE_VERSION, "statements": statements})
    return statements


def _store(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(payload, handle)
        os.replace(tmp, path)  # atomic: readers see the old file or the new one
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
