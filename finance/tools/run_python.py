"""`run_python`: the model's own pandas code over the workspace's statements and prices, run in
the sandbox with the data exported read-only to /input."""

from __future__ import annotations

import csv
import json
import tempfile
from pathlib import Path
from typing import Any

from agents.models import Workspace
from agents.runtime import Tool, ToolContext
from agents.sandbox.configured import CODE, run_configured, tool_timeout_s
from finance.models import Document
from finance.research.sources import ResearchError, document_bytes
from finance.statements.model import STATEMENTS
from finance.tools.workspace import workspace_of

STATEMENT_COLUMNS = ("statement", "line", "year", "value", "page")


def run_python(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """Run the code in the sandbox; the observation is how it ended, its output and its files."""
    with tempfile.TemporaryDirectory(prefix="finance-input-") as folder:
        inputs = Path(folder)
        inputs.chmod(0o755)  # read by the sandbox's unprivileged user
        export_workspace_data(workspace_of(context), inputs)
        return run_configured(arguments["code"], inputs=inputs).to_dict()


def export_workspace_data(workspace: Workspace, folder: Path) -> None:
    """documents.json, statements/<id>.json and .csv (one row per value, USD millions), and each
    CSV data file as prices/<id>.csv."""
    listed = []
    for subfolder in ("statements", "prices"):
        (folder / subfolder).mkdir(mode=0o755)
    documents = Document.objects.filter(workspace=workspace, status=Document.Status.READY)
    for document in documents.order_by("pk"):
        files = []
        if document.statements:
            (folder / "statements" / f"{document.pk}.json").write_text(
                json.dumps(document.statements, indent=1)
            )
            _statement_rows(document.statements, folder / "statements" / f"{document.pk}.csv")
            files += [f"statements/{document.pk}.json", f"statements/{document.pk}.csv"]
        if document.kind == "csv":
            try:
                (folder / "prices" / f"{document.pk}.csv").write_bytes(document_bytes(document))
                files.append(f"prices/{document.pk}.csv")
            except ResearchError:
                pass  # listed without files: the model sees there is nothing to read
        listed.append(
            {
                "id": document.pk,
                "name": document.name,
                "kind": document.kind,
                "company": document.company,
                "title": document.title,
                "files": files,
            }
        )
    (folder / "documents.json").write_text(json.dumps(listed, indent=1))


def _statement_rows(statements: dict[str, Any], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(STATEMENT_COLUMNS)
        for statement in STATEMENTS:
            for line, years in (statements.get(statement) or {}).items():
                for year, cell in years.items():
                    writer.writerow([statement, line, year, cell.get("value"), cell.get("page")])


RUN_PYTHON = Tool(
    "run_python",
    "Run Python 3 (pandas, numpy) in a sandbox without network. The workspace's data is "
    "read-only in /input: documents.json lists the documents; statements/<id>.csv has columns "
    "statement, line, year, value (USD millions), page; statements/<id>.json the whole "
    "statements; prices/<id>.csv each uploaded CSV of prices. Print what you need; files go "
    "in out/. Returns exit_reason (ok, error, timeout, memory, killed), stdout, stderr, files.",
    {
        "type": "object",
        "properties": {"code": CODE},
        "required": ["code"],
        "additionalProperties": False,
    },
    run_python,
    timeout_s=tool_timeout_s(),
)
