"""The note's per-company sections: key figures, margins, cash, returns; and a comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finance.modeling import Derived
from finance.modeling.core import year_number
from finance.research.analysis import StatementAnalysis
from finance.research.citations import UNVERIFIED_MARK, Citer
from finance.research.compose_blocks import (
    CASH,
    KEY_FIGURES,
    MARGINS,
    RETURNS,
    Block,
    Inline,
    section,
)
from finance.research.findings import Findings


class CompanySections:
    findings: Findings
    citer: Citer

    def company_sections(self, a: StatementAnalysis) -> list[dict[str, Any]]:
        slug = f"doc-{a.document_id}"
        if not a.years:
            return []
        blocks: list[Block] = [self.figures_table(a)]
        out = [section(f"{slug}-figures", f"{a.company}: key figures (USD millions)", blocks)]
        margin_blocks = [self.metric_table(a, MARGINS, "Margins by fiscal year")]
        chart = self.metric_chart(a, MARGINS, f"{a.company}: margins")
        if chart:
            margin_blocks.append(chart)
        out.append(section(f"{slug}-margins", f"{a.company}: margins", margin_blocks))
        out.append(
            section(
                f"{slug}-cash",
                f"{a.company}: cash conversion and working capital",
                [self.metric_table(a, CASH, "Cash conversion")],
            )
        )
        out.append(
            section(
                f"{slug}-returns",
                f"{a.company}: growth, returns and leverage",
                [self.metric_table(a, RETURNS, "Growth, returns and leverage")],
            )
        )
        return out

    def figures_table(self, a: StatementAnalysis) -> Block:
        rows = []
        unverified: list[str] = []
        for label, statement, key in KEY_FIGURES:
            cells: list[Any] = [label]
            seen = False
            for year in a.years:
                cited = a.statements.cell(statement, key, year)
                seen = seen or cited is not None
                cells.append({"number": self.citer.input(cited)} if cited else "—")
                why = a.statements.unverified_reason(statement, year) if cited else None
                if why:
                    unverified.append(why)
            if seen:
                rows.append(cells)
        block: Block = {
            "type": "table",
            "caption": (
                f"As printed in {a.document}, in {a.statements.unit}; each value links to its page"
            ),
            "columns": ["Line item", *a.years],
            "rows": rows,
        }
        notes = unverified_note(unverified)
        if notes:
            block["notes"] = notes
        return block

    def metric_table(
        self, a: StatementAnalysis, metrics: Sequence[tuple[str, str]], caption: str
    ) -> Block:
        rows: list[list[Any]] = []
        missing: list[Inline] = []
        unverified: list[str] = []
        bases: list[tuple[str, dict[str, str]]] = []  # (metric label, year -> basis)
        for label, key in metrics:
            cells: list[Any] = [label]
            basis: dict[str, str] = {}
            for year in a.years:
                found = a.value(key, year)
                if isinstance(found, Derived):
                    cells.append({"number": self.citer.derived(found)})
                    unverified.extend(found.unverified())
                    if found.basis:
                        basis[year] = found.basis
                else:
                    cells.append("—")
            if any(isinstance(c, dict) for c in cells[1:]):
                rows.append(cells)
                bases.append((label, basis))
            latest = a.value(key, a.years[0])
            if latest is not None and not isinstance(latest, Derived):
                missing.append(f"{label} {a.years[0]}: {latest.reason}. ")
        columns = ["Metric", *a.years]
        notes: list[Inline] = ["Not computed — ", *missing] if missing else []
        if any(basis for _, basis in bases):
            # Which balances each ratio divides by: said in the table, mixed bases flagged.
            columns.append("Balances")
            for row, (_, basis) in zip(rows, bases, strict=True):
                row.append(basis_cell(basis))
            notes.extend(basis_note(bases))
        notes.extend(unverified_note(unverified))
        block: Block = {"type": "table", "caption": caption, "columns": columns, "rows": rows}
        if notes:
            block["notes"] = notes
        return block

    def metric_chart(
        self, a: StatementAnalysis, metrics: Sequence[tuple[str, str]], title: str
    ) -> Block | None:
        years = list(reversed(a.years))
        series = []
        for label, key in metrics:
            values = [
                round(found.value * 100, 4)
                if isinstance(found := a.value(key, y), Derived)
                else None
                for y in years
            ]
            if any(v is not None for v in values):
                series.append({"name": label, "values": values})
        if not series or len(years) < 2:
            return None
        return {
            "type": "chart",
            "title": title,
            "kind": "line",
            "unit": "%",
            "x": years,
            "series": series,
            "caption": ["Computed from the statements; see the table."],
        }

    def comparison(self) -> list[Block]:
        # The statements' own labels ("FY2017", "Q2 2023"), ordered by year, never re-derived.
        labels = [y for a in self.findings.analyses for y in reversed(a.years)]
        years = sorted(dict.fromkeys(labels), key=lambda y: year_number(y) or 0)
        rows: list[list[Any]] = []
        series = []
        for a in self.findings.analyses:
            for label, key in MARGINS:
                cells: list[Any] = [f"{a.company}: {label.lower()}"]
                values: list[float | None] = []
                for year in years:
                    found = a.value(key, year)
                    if isinstance(found, Derived):
                        cells.append({"number": self.citer.derived(found)})
                        values.append(round(found.value * 100, 4))
                    else:
                        cells.append("—")
                        values.append(None)
                if any(v is not None for v in values):
                    rows.append(cells)
                    if key != "gross_margin" or len(self.findings.analyses) <= 3:
                        series.append({"name": f"{a.company} {label.lower()}", "values": values})
        table: Block = {
            "type": "table",
            "caption": "Margins by fiscal year",
            "columns": ["Company and metric", *years],
            "rows": rows,
        }
        notes = unverified_note(
            [
                reason
                for a in self.findings.analyses
                for _, key in MARGINS
                for year in years
                if isinstance(found := a.value(key, year), Derived)
                for reason in found.unverified()
            ]
        )
        if notes:
            table["notes"] = notes
        blocks: list[Block] = [table]
        if len(years) >= 2 and series:
            blocks.append(
                {
                    "type": "chart",
                    "title": "Margins compared",
                    "kind": "line",
                    "unit": "%",
                    "x": years,
                    "series": series,
                }
            )
        return blocks

    # --- cross-check -------------------------------------------------------------------------


def unverified_note(reasons: Sequence[str]) -> list[Inline]:
    """The table note that explains its daggers: each unverified statement period, once."""
    unique = list(dict.fromkeys(reasons))
    if not unique:
        return []
    return [
        f"{UNVERIFIED_MARK} Unverified figure, or computed from one (flagged, not silently used): "
        + "; ".join(unique)
        + ". "
    ]


def basis_cell(basis: dict[str, str]) -> str:
    """How a ratio row's balances were taken: average, year-end, or which years differ."""
    kinds = set(basis.values())
    if not kinds:
        return ""
    if len(kinds) == 1:
        return kinds.pop()
    year_end = [year for year, kind in basis.items() if kind != "average"]
    return "mixed: year-end in " + ", ".join(year_end)


def basis_note(bases: Sequence[tuple[str, dict[str, str]]]) -> list[Inline]:
    """The note under a table of ratios on balances; flags rows whose years mix bases."""
    if not any(basis for _, basis in bases):
        return []
    out: list[Inline] = [
        'Balances: "average" is (opening + closing balance) / 2; "year-end" is the '
        "closing balance alone, used when the statements show no opening balance. "
    ]
    mixed = [label for label, basis in bases if len(set(basis.values())) > 1]
    if mixed:
        out.append(
            "Mixed bases: "
            + ", ".join(mixed)
            + " use average balances in some years and year-end balances in others; "
            "those years are not strictly comparable. "
        )
    return out
