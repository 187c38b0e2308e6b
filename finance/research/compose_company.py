"""The note's per-company sections: key figures, margins, cash, returns; and a comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finance.modeling import Derived
from finance.research.analysis import StatementAnalysis
from finance.research.citations import Citer
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
        for label, statement, key in KEY_FIGURES:
            cells: list[Any] = [label]
            seen = False
            for year in a.years:
                cited = a.statements.cell(statement, key, year)
                seen = seen or cited is not None
                cells.append({"number": self.citer.input(cited)} if cited else "—")
            if seen:
                rows.append(cells)
        return {
            "type": "table",
            "caption": f"As printed in {a.document}; each value links to its page",
            "columns": ["Line item", *a.years],
            "rows": rows,
        }

    def metric_table(
        self, a: StatementAnalysis, metrics: Sequence[tuple[str, str]], caption: str
    ) -> Block:
        rows: list[list[Any]] = []
        missing: list[Inline] = []
        for label, key in metrics:
            cells: list[Any] = [label]
            for year in a.years:
                found = a.value(key, year)
                if isinstance(found, Derived):
                    cells.append({"number": self.citer.derived(found)})
                else:
                    cells.append("—")
            if any(isinstance(c, dict) for c in cells[1:]):
                rows.append(cells)
            latest = a.value(key, a.years[0])
            if latest is not None and not isinstance(latest, Derived):
                missing.append(f"{label} {a.years[0]}: {latest.reason}. ")
        block: Block = {
            "type": "table",
            "caption": caption,
            "columns": ["Metric", *a.years],
            "rows": rows,
        }
        if missing:
            block["notes"] = ["Not computed — ", *missing]
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
        years = sorted({y for a in self.findings.analyses for y in a.years})
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
        blocks: list[Block] = [
            {
                "type": "table",
                "caption": "Margins by fiscal year",
                "columns": ["Company and metric", *years],
                "rows": rows,
            }
        ]
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
