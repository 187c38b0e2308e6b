"""`manage.py extract_statements FILE [--json]`: the canonical statements of a 10-K (PDF or
SEC inline-XBRL HTML)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from finance.documents.ingest import DocumentError, ingest_html, ingest_pdf
from finance.reconcile.ixbrl import parse_inline_xbrl
from finance.statements import extract_statements
from finance.statements.inline_xbrl import statements_from_inline_xbrl


class Command(BaseCommand):
    help = "Extract income statement, balance sheet and cash flow (USD millions, with pages)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A 10-K as PDF, or SEC inline-XBRL HTML.")
        parser.add_argument("--json", action="store_true", help="Print the canonical JSON.")

    def statements(self, data: bytes, path: Path) -> dict[str, Any]:
        if path.suffix.lower() in (".htm", ".html"):
            parsed = ingest_html(data, cache_dir=None)
            found = statements_from_inline_xbrl(
                parse_inline_xbrl(data),
                parsed.pages,
                name=path.name,
                company=parsed.company,
                statement_pages=parsed.statement_pages,
            )
            if found is None:
                raise DocumentError("the HTML has no inline XBRL financial facts")
            return found
        ingest_pdf(data, cache_dir=None)  # refuses empty, truncated, encrypted, scanned files
        return extract_statements(data, name=path.name).to_dict()

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
        try:
            statements = self.statements(data, path)
        except DocumentError as error:
            raise CommandError(f"{path.name}: {error}") from error
        if options["json"]:
            self.stdout.write(json.dumps(statements, indent=2))
            return
        self.stdout.write(
            f"{statements['document']}: {statements['company']}, {statements['currency']} "
            f"{statements['unit']}, {', '.join(statements['fiscal_years'])}"
        )
        for statement in ("income_statement", "balance_sheet", "cash_flow"):
            self.stdout.write(f"\n{statement.replace('_', ' ')}")
            for key, values in statements[statement].items():
                cells = ", ".join(
                    f"{year} {cell['value']:,.1f} (p.{cell.get('page', '?')})"
                    for year, cell in values.items()
                )
                self.stdout.write(f"  {key:<28} {cells}")
