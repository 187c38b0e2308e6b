"""extract_statements(): locate the statement pages, rebuild rows, map them to canonical keys."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from finance.documents.profile import read_profile
from finance.statements.blocks import parse_tables
from finance.statements.locate import locate_statements, page_texts, titled_below
from finance.statements.model import STATEMENTS, CellValue, FinancialStatements
from finance.statements.periods import label_periods, period_order
from finance.statements.synonyms import SIGN, UNSCALED, accepts, match_row
from finance.statements.table import Cell, Row, Table
from finance.statements.validate import validate

NO_STATEMENTS = ("8-K", "other")
"""Document types that are not expected to carry statements (an earnings release may)."""


def _chosen_rows(statement: str, tables: list[Table]) -> dict[str, list[tuple[Table, Row]]]:
    """Each canonical key's rows, best first: the lowest rank, then the first printed. After the
    best come the best of each other table (another column group of the statement, printed
    below it: the full year's under the quarter's), for the periods the best row lacks."""
    best: dict[tuple[str, int], tuple[int, int]] = {}  # (key, table) -> (rank, order)
    chosen: dict[tuple[str, int], tuple[Table, Row]] = {}
    order = 0
    for number, table in enumerate(tables):
        for row in table.rows:
            order += 1
            for key, rank in match_row(statement, row.label, row.section):
                if not accepts(key, [cell.text for cell in row.cells.values()]):
                    continue
                if (key, number) not in best or (rank, order) < best[(key, number)]:
                    best[(key, number)] = (rank, order)
                    chosen[(key, number)] = (table, row)
    rows: dict[str, list[tuple[Table, Row]]] = {key: [] for key, _ in best}  # as first seen
    for key, number in sorted(best, key=lambda k: best[k]):
        rows[key].append(chosen[(key, number)])
    if statement == "cash_flow":
        _reconciling(tables, rows)
    return rows


def _reconciling(tables: list[Table], chosen: dict[str, list[tuple[Table, Row]]]) -> None:
    """The lines printed between the financing total and the change in cash other than the
    exchange-rate effect (cash of businesses held for sale, of discontinued operations...), as
    one synthetic row `other_changes_in_cash`, so that the sections add up to the change."""
    if "financing_cash_flow" not in chosen or "net_change_in_cash" not in chosen:
        return
    rows = [(table, row) for table in tables for row in table.rows]
    positions = {id(row): n for n, (_, row) in enumerate(rows)}
    start = positions[id(chosen["financing_cash_flow"][0][1])]
    end = positions[id(chosen["net_change_in_cash"][0][1])]
    fx = chosen.get("fx_effect_on_cash")
    between = [
        (table, row) for table, row in rows[start + 1 : end] if fx is None or row is not fx[0][1]
    ]
    if not between or end - start > 6:
        return
    table = between[-1][0]
    if any(t is not table for t, _ in between):
        return
    cells = {}
    for index in range(len(table.columns)):
        values = [row.cells[index] for _, row in between if index in row.cells]
        if values:
            cells[index] = Cell(
                value=sum(c.value for c in values),
                text=" + ".join(c.text for c in values),
                bbox=values[-1].bbox,
            )
    label = "; ".join(row.label for _, row in between)
    chosen["other_changes_in_cash"] = [
        (table, Row(label=label, cells=cells, top=between[-1][1].top))
    ]


def _canonical(
    statement: str, tables: list[Table], labels: dict[tuple[int, int], str]
) -> dict[str, dict[str, CellValue]]:
    """Each canonical key's value per period, from its best row (and, for periods it does not
    print, from the best rows of the statement's other tables: see `_chosen_rows`)."""
    out: dict[str, dict[str, CellValue]] = {}
    for key, rows in _chosen_rows(statement, tables).items():
        periods: dict[str, CellValue] = {}
        for table, row in rows:
            here = {labels[(id(table), index)] for index in row.cells}
            if periods and here & set(periods):
                continue  # the same periods again (a page carried on, a re-headed half)
            periods.update(_cells(key, table, row, labels))
        out[key] = dict(sorted(periods.items(), key=lambda item: period_order(item[0])))
    return out


def _cells(
    key: str, table: Table, row: Row, labels: dict[tuple[int, int], str]
) -> dict[str, CellValue]:
    """A row's values by period label, canonical (USD millions, sign as the contract says)."""
    periods: dict[str, CellValue] = {}
    for index, cell in row.cells.items():
        label = labels[(id(table), index)]
        if label in periods:
            continue
        value = cell.value if key in UNSCALED else cell.value * table.scale
        if SIGN.get(key) == "abs":
            value = abs(value)
        periods[label] = CellValue(
            value=round(value, 6) + 0.0,
            page=table.page,
            bbox=cell.bbox,
            text=cell.text,
            label=row.label,
        )
    return periods


def _printed_rows(
    tables: list[Table], labels: dict[tuple[int, int], str]
) -> list[dict[str, object]]:
    """Every row as printed (label, the heading above it, USD millions by period, page), for
    the lines no canonical key stands for: a segment's revenue, a product line's sales."""
    rows: list[dict[str, object]] = []
    for table in tables:
        for row in table.rows:
            cells = {
                labels[(id(table), index)]: round(cell.value * table.scale, 6) + 0.0
                for index, cell in row.cells.items()
            }
            if row.label and cells:
                rows.append(
                    {"label": row.label, "section": row.section, "page": table.page, "cells": cells}
                )
    return rows


def _fix_tax_sign(income: dict[str, dict[str, CellValue]]) -> None:
    """Make income_tax positive for an expense: some filings print it as a deduction "(2,374)".

    The sign is read off the statement itself: pre-tax income minus tax should be net income.
    """
    total = income.get("_net_income_total") or income.get("net_income", {})
    taxes = income.get("income_tax", {})
    pretax = income.get("income_before_tax", {})
    for year, cell in list(taxes.items()):
        if year not in pretax or year not in total:
            continue
        ibt, net = pretax[year].value, total[year].value
        if abs(ibt + cell.value - net) < abs(ibt - cell.value - net):
            taxes[year] = replace(cell, value=-cell.value + 0.0)


def extract_statements(source: str | Path | bytes, name: str | None = None) -> FinancialStatements:
    """Canonical statements of one filing PDF (a path or its bytes); `name` is the document name.

    Values are USD millions whatever unit a statement prints (`units` says what each printed);
    per-share amounts are as printed. Periods are labelled from the column headers
    (`periods.py`: "FY2022", "Q2 2023", "6M 2023")."""
    if isinstance(source, Path):
        source = str(source)
    document = name or (Path(source).name if isinstance(source, str) else "document.pdf")
    texts = page_texts(source)
    pages = locate_statements(texts).as_dict()
    profile = read_profile(texts)
    result = FinancialStatements(
        document=document,
        company=profile.company,
        pages=pages,
        doc_type=profile.doc_type,
        ticker=profile.ticker,
    )
    # pdfplumber loads where tables are read, not when the statements package is imported.
    import pdfplumber  # type: ignore[import-untyped,unused-ignore]

    opened = source if isinstance(source, str) else io.BytesIO(source)
    found: dict[str, list[Table]] = {}
    with pdfplumber.open(opened) as pdf:
        for statement in STATEMENTS:
            tables: list[Table] = []
            for index in pages[statement]:
                page = pdf.pages[index]
                carried = tables[-1] if tables else None
                words, width = page.extract_words(), float(page.width)
                below = titled_below(texts[index], statement)
                tables += parse_tables(words, index, width, statement, carried, below)
            found[statement] = tables
    columns = [
        (table, i)
        for tables in found.values()
        for table in tables
        for i in range(len(table.columns))
    ]
    names = label_periods([table.columns[i].period for table, i in columns])
    labels = {(id(table), i): name for (table, i), name in zip(columns, names, strict=True)}
    for (table, i), name in zip(columns, names, strict=True):
        end = table.columns[i].period.end
        if end is not None:
            result.period_ends.setdefault(name, end.isoformat())
    for statement, tables in found.items():
        result.rows[statement] = _printed_rows(tables, labels)
        canonical = _canonical(statement, tables, labels)
        if statement == "income_statement":
            _fix_tax_sign(canonical)
        setattr(result, statement, canonical)
        if tables:
            result.units[statement] = tables[0].unit
    periods = {
        label
        for rows in (result.statement(s) for s in STATEMENTS)
        for cells in rows.values()
        for label in cells
    }
    result.fiscal_years = sorted(periods, key=period_order)
    checks = validate(result)
    result.validation = {}
    for check in checks:
        result.validation.setdefault(check.statement, {})[check.period] = check.to_dict()
    result.income_statement.pop("_net_income_total", None)
    if not result.fiscal_years:
        result.note = (
            f"this {profile.doc_type} carries no financial statements"
            if profile.doc_type in NO_STATEMENTS
            else "no income statement, balance sheet or cash flow statement was found"
        )
    return result
