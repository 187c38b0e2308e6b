"""Where the shared test data lives (`SHARED_DATA`, else `../shared/data` beside the project)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Where FinanceBench documents live under SHARED_DATA, in the order they are looked for.
DOCUMENT_FOLDERS = ("finance/filings", "finance/devset/docs")


def shared_data_root() -> Path:
    return Path(os.environ.get("SHARED_DATA") or PROJECT_ROOT.parent / "shared" / "data")


def document_path(doc_name: str, root: Path | None = None) -> str | None:
    """The PDF of a FinanceBench document, relative to the shared data root (None if absent)."""
    base = root or shared_data_root()
    for folder in DOCUMENT_FOLDERS:
        relative = f"{folder}/{doc_name}.pdf"
        if (base / relative).is_file():
            return relative
    return None
