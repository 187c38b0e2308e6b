"""extract_statements(): locate the statement pages, rebuild rows, map them to canonical keys."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pdfplumber  # type: ignore[import-untyped,unused-ignore]

from finance.statements.locate import locate_statements, page_texts
from finance.statements.model import STATEMENTS, CellValue, FinancialStatements
from finance.statements.synonyms import SIGN, match_label
from finance.statements.table import Table, parse_table


def _company(name: str) -> str:
    stem = Path(name).stem
    head = re.split(r"_\d{4}", stem)[0]
    special = {"3M": "3M", "CVSHEALTH": "CVS Health", "BESTBUY": "Best Buy"}
    return special.get(head.upper(), head.replace("_", " ").title())


def _fy(year: str, table: Table) -> str:
    return table.fiscal_labels.get(year, f"FY{year}")


def _canonical(statement: str, tables: list[Table]) -> dict[str, dict[str, CellValue]]:
    best: dict[str, tuple[int, int]] = {}  # key -> (rank, order)
    chosen: dict[str, tuple[Table, Any]] = {}
    order = 0
    for table in tables:
        for row in table.rows:
            order += 1
            for key, rank in match_label(statement, row.label):
                if key not in best or (rank, order) < best[key]:
                    best[key] = (rank, order)
                    chosen[key] = (table, row)
    out: dict[str, dict[str, CellValue]] = {}
    for key, (table, row) in chosen.items():
        years: dict[str, CellValue] = {}
        for year, cell in row.cells.items():
            value = cell.value * table.scale
            if SIGN.get(key) == "abs":
                value = abs(value)
            years[_fy(year, table)] = CellValue(
                value=round(value, 6) + 0.0,
                page=table.page,
                bbox=cell.bbox,
                text=cell.text,
                label=row.label,
            )
        out[key] = dict(sorted(years.items(), reverse=True))
    return out


def _fix_tax_sign(income: dict[str, dict[str, CellValue]]) -> None:
    """Make income_tax positive for an expense: some filings print it as a deduction "(2,374)".

    The sign is read off the statement itself: pre-tax income minus tax should be net income.
    """
    total = income.pop("_net_income_total", None) or income.get("net_income", {})
    taxes = income.get("income_tax", {})
    pretax = income.get("income_before_tax", {})
    for year, cell in list(taxes.items()):
        if year not in pretax or year not in total:
            continue
        ibt, net = pretax[year].value, total[year].value
        if abs(ibt + cell.value - net) < abs(ibt - cell.value - net):
            taxes[year] = replace(cell, value=-cell.value + 0.0)


def extract_statements(source: str | Path | bytes, name: str | None = None) -> FinancialStatements:
    """Canonical statements of one 10-K PDF (a path or its bytes); `name` is the document name."""
    if isinstance(source, Path):
        source = str(source)
    document = name or (Path(source).name if isinstance(source, str) else "document.pdf")
    pages = locate_statements(page_texts(source)).as_dict()
    result = FinancialStatements(document=document, company=_company(document), pages=pages)
    opened = source if isinstance(source, str) else io.BytesIO(source)
    fiscal: set[str] = set()
    with pdfplumber.open(opened) as pdf:
        for statement in STATEMENTS:
            tables: list[Table] = []
            for index in pages[statement]:
                page = pdf.pages[index]
                table = parse_table(page.extract_words(), index, float(page.width))
                if table is not None and table.rows:
                    tables.append(table)
            canonical = _canonical(statement, tables)
            if statement == "income_statement":
                _fix_tax_sign(canonical)
            setattr(result, statement, canonical)
            for table in tables:
                fiscal.update(_fy(y, table) for y in table.years)
    result.fiscal_years = sorted(fiscal, reverse=True)
    return result
