"""Where task inputs come from: the shared data folder beside the project (`SHARED_DATA`)."""

from __future__ import annotations

import os
from pathlib import Path

from agents.evaluation.kinds import InputUnavailable

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def shared_data_root() -> Path:
    """`$SHARED_DATA`, else `../shared/data` beside the project."""
    configured = os.environ.get("SHARED_DATA")
    if configured:
        return Path(configured)
    return PROJECT_ROOT.parent / "shared" / "data"


def shared_input(relative: str) -> Path:
    """A task input file by its path under the shared data folder; absent means skip the task."""
    root = shared_data_root()
    path = root / relative
    if not path.is_file():
        raise InputUnavailable(f"{relative} is not under the shared data folder ({root})")
    return path
