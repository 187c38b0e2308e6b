"""Where FinanceBench documents live under the shared data folder."""

from __future__ import annotations

from pathlib import Path

from agents.evaluation.inputs import shared_data_root

# Where FinanceBench documents live under SHARED_DATA, in the order they are looked for.
DOCUMENT_FOLDERS = ("finance/filings", "finance/devset/docs")


def document_path(doc_name: str, root: Path | None = None) -> str | None:
    """The PDF of a FinanceBench document, relative to the shared data root (None if absent)."""
    base = root or shared_data_root()
    for folder in DOCUMENT_FOLDERS:
        relative = f"{folder}/{doc_name}.pdf"
        if (base / relative).is_file():
            return relative
    return None
