"""The research note, written from what a run found: sections, tables, charts, linked numbers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from finance.modeling import Derived
from finance.research.analysis import StatementAnalysis, Valuation
from finance.research.citations import Citer, Number, assumption, display, number
from finance.research.findings import Findings, MacroView, PriceView, ReconView

Block = dict[str, Any]
Inline = str | dict[str, Any]

KEY_FIGURES = (
    ("Revenue", "income_statement", "revenue"),
    ("Gross profit", "income_statement", "gross_profit"),
    ("Operating income", "income_statement", "operating_income"),
    ("Net income", "income_statement", "net_income"),
    ("Operating cash flow", "cash_flow", "operating_cash_flow"),
    ("Capital expenditure", "cash_flow", "capital_expenditure"),
    ("Total assets", "balance_sheet", "total_assets"),
    ("Shareholders' equity", "balance_sheet", "shareholders_equity"),
)
MARGINS = (
    ("Gross margin", "gross_margin"),
    ("Operating margin", "operating_margin"),
    ("Net margin", "net_margin"),
)
CASH = (
    ("Free cash flow", "free_cash_flow"),
    ("FCF / net income", "fcf_conversion"),
    ("Working capital", "working_capital"),
    ("Days sales outstanding", "dso"),
    ("Days inventory outstanding", "dio"),
    ("Days payables outstanding", "dpo"),
    ("Cash conversion cycle", "cash_conversion_cycle"),
)
RETURNS = (
    ("Revenue growth", "revenue_growth"),
    ("Return on assets", "roa"),
    ("Return on equity", "roe"),
    ("Asset turnover", "asset_turnover"),
    ("Inventory turnover", "inventory_turnover"),
    ("Debt / equity", "debt_to_equity"),
    ("Liabilities / assets", "liabilities_to_assets"),
)


def paragraph(*content: Inline) -> Block:
    return {"type": "paragraph", "content": list(content)}


def section(slug: str, heading: str, blocks: list[Block]) -> dict[str, Any]:
    return {"id": slug, "heading": heading, "blocks": blocks}


class NoteWriter:
    def __init__(self, findings: Findings, *, now: dt.datetime | None = None) -> None:
        self.findings = findings
        self.citer = Citer(findings.documents)
        self.now = now or dt.datetime.now(dt.UTC)

    # --- the whole note ----------------------------------------------------------------------

    def note(self) -> dict[str, Any]:
        f = self.findings
        companies = f.companies or list(dict.fromkeys(a.company or a.document for a in f.analyses))
        title = "Research note: " + (", ".join(companies) if companies else "filings")
        sections = [section("summary", "Summary", self.summary())]
        if len(f.analyses) > 1:
            sections.append(section("comparison", "Margins compared", self.comparison()))
        for analysis in f.analyses:
            sections.extend(self.company_sections(analysis))
        for view in f.reconciliations:
            sections.append(
                section(
                    f"cross-check-{view.document_id}",
                    "Cross-check: " + view.document,
                    self.reconciliation(view),
                )
            )
        for analysis in f.analyses:
            found = f.valuations.get(analysis.document_id)
            if isinstance(found, Valuation):
                sections.append(
                    section(
                        f"dcf-{analysis.document_id}",
                        f"Valuation sketch: {analysis.company}",
                        self.valuation(analysis, found),
                    )
                )
        if f.prices is not None:
            sections.append(
                section("market", f"Market data: {f.prices.ticker}", self.market(f.prices))
            )
        if f.macro:
            sections.append(
                section("macro", "Company growth against the economy", self.macro(f.macro))
            )
        if f.passages:
            sections.append(section("filing", "From the filing", self.passages()))
        if f.limits:
            sections.append(
                section(
                    "limits",
                    "What this note could not do",
                    [{"type": "bullets", "items": [[limit] for limit in dict.fromkeys(f.limits)]}],
                )
            )
        subtitle = f"Request: {f.request.strip()}" if f.request.strip() else ""
        return {
            "title": title,
            "subtitle": subtitle,
            "created_at": self.now.isoformat(timespec="seconds"),
            "sections": sections,
        }

    # --- summary -----------------------------------------------------------------------------

    def summary(self) -> list[Block]:
        items: list[list[Inline]] = []
        for a in self.findings.analyses:
            items.extend(self.company_summary(a))
        for view in self.findings.reconciliations:
            bad = view.discrepancies()
            agree = sum(1 for row in view.rows if row.status == "agree")
            line: list[Inline] = [
                f"{view.document}: {agree} of {len(view.rows)} figures agree across "
                f"{', '.join(view.sources)} (tolerance {view.tolerance:.1%})"
            ]
            if bad:
                line.append(
                    "; discrepancies: "
                    + ", ".join(f"{row.metric} FY{row.fiscal_year}" for row in bad)
                    + " (see the cross-check)"
                )
            items.append([*line, "."])
        if self.findings.prices is not None:
            p = self.findings.prices
            items.append(
                [
                    f"{p.ticker}: total return ",
                    self.citer.derived(p.metrics.total_return),
                    ", annualised volatility ",
                    self.citer.derived(p.metrics.annualised_volatility),
                    ", maximum drawdown ",
                    self.citer.derived(p.metrics.max_drawdown),
                    f" ({p.metrics.total_return.period}).",
                ]
            )
        if self.findings.limits:
            items.append(
                [
                    f"{len(set(self.findings.limits))} part(s) of the request could not be "
                    "done; see the last section."
                ]
            )
        if not items:
            return [paragraph("Nothing could be analysed; see the last section.")]
        return [{"type": "bullets", "items": items}]

    def company_summary(self, a: StatementAnalysis) -> list[list[Inline]]:
        if not a.years:
            return [[a.out_of_range or f"{a.document}: no fiscal years to analyse."]]
        latest, earliest = a.years[0], a.years[-1]
        out: list[list[Inline]] = []
        revenue = a.statements.cell("income_statement", "revenue", latest)
        growth = a.value("revenue_growth", latest)
        if revenue is not None:
            line: list[Inline] = [
                f"{a.company} {latest}: revenue of ",
                self.citer.input(revenue),
                " USD millions",
            ]
            if isinstance(growth, Derived):
                line += [", ", self.citer.derived(growth), " over the prior year"]
            out.append([*line, "."])
        for label, key in MARGINS:
            end = a.value(key, latest)
            start = a.value(key, earliest)
            if not isinstance(end, Derived):
                continue
            line = [f"{label} {latest}: ", self.citer.derived(end)]
            if latest != earliest and isinstance(start, Derived):
                change = (end.value - start.value) * 100
                direction = "up" if change > 0 else "down" if change < 0 else "flat"
                line += [
                    f" ({direction} {abs(change):.1f} pp from ",
                    self.citer.derived(start),
                    f" in {earliest})",
                ]
            out.append([*line, "."])
        conversion = a.value("fcf_conversion", latest)
        fcf = a.value("free_cash_flow", latest)
        if isinstance(fcf, Derived):
            line = [
                f"Free cash flow {latest}: ",
                self.citer.derived(fcf, "USD millions"),
                " USD millions",
            ]
            if isinstance(conversion, Derived):
                line += [", ", self.citer.derived(conversion), " of net income"]
            out.append([*line, "."])
        return out

    # --- per company -------------------------------------------------------------------------

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

    def reconciliation(self, view: ReconView) -> list[Block]:
        rows: list[list[Any]] = []
        for row in view.rows:
            cells: list[Any] = [row.metric, f"FY{row.fiscal_year}"]
            for source in view.sources:
                value = row.values.get(source)
                cells.append({"number": value} if value else "missing")
            differences = [
                f"{name}: {diff:+.2%}" for name, diff in row.differences.items() if diff is not None
            ]
            cells.append("; ".join(differences) or "—")
            cells.append(row.status + (f" ({row.explanation})" if row.explanation else ""))
            rows.append(cells)
        blocks: list[Block] = [
            paragraph(
                f"Each figure as reported by {', '.join(view.sources)}, in USD millions. "
                f"Differences are relative to {view.reference}; figures within "
                f"{view.tolerance:.1%} (or the printed rounding) agree."
            ),
            {
                "type": "table",
                "caption": "Reconciliation",
                "columns": ["Metric", "Year", *view.sources, "Difference", "Status"],
                "rows": rows,
            },
        ]
        bad = view.discrepancies()
        if bad:
            blocks.append(
                {
                    "type": "bullets",
                    "items": [
                        [
                            f"Discrepancy: {row.metric} FY{row.fiscal_year} — "
                            + (
                                row.explanation
                                or "cause unknown; check both sources before relying on it"
                            )
                            + "."
                        ]
                        for row in bad
                    ],
                }
            )
        return blocks

    # --- valuation ---------------------------------------------------------------------------

    def valuation(self, a: StatementAnalysis, v: Valuation) -> list[Block]:
        growth_label = (
            f"FCF growth {v.growth:.1%} a year for {v.years} years: the revenue CAGR"
            + (
                " (bounded to -5%..15%)"
                if v.growth_basis and v.growth != v.growth_basis.value
                else ""
            )
            if v.growth_basis
            else f"FCF growth {v.growth:.1%} a year for {v.years} years"
        )
        items: list[list[Inline]] = [
            ["Base: free cash flow ", self.base_fcf(v), f" USD millions in {v.base_year}."],
            [
                "Growth: ",
                number(v.growth, "ratio", assumption(growth_label)),
                *self.growth_basis(v),
                ".",
            ],
            [
                "Discount rate ",
                number(
                    v.discount_rate,
                    "ratio",
                    assumption(
                        "Discount rate: a generic cost of capital, not estimated for this company"
                    ),
                ),
                ", terminal growth ",
                number(
                    v.terminal_growth,
                    "ratio",
                    assumption("Terminal growth: long-run nominal growth"),
                ),
                ".",
            ],
        ]
        if v.net_debt is not None:
            items.append(
                [
                    "Net debt ",
                    self.citer.derived(v.net_debt, "USD millions"),
                    " USD millions (long-term debt less cash).",
                ]
            )
        else:
            items.append(["Net debt not shown in the statements; taken as zero."])
        result: list[Block] = [
            paragraph(
                "A sketch under stated assumptions, not a price target. Enterprise value ",
                self.citer.derived(v.result.enterprise_value),
                " and equity value ",
                self.citer.derived(v.result.equity_value),
                " USD millions.",
            ),
            {"type": "bullets", "items": items},
        ]
        s = v.sensitivity
        rows = []
        for rate, values in zip(s.discount_rates, s.values, strict=True):
            rows.append(
                [
                    f"{rate:.1%}",
                    *[
                        display(value, "USD millions") if value is not None else "—"
                        for value in values
                    ],
                ]
            )
        result.append(
            {
                "type": "table",
                "caption": "Equity value (USD millions): discount rate (rows) by terminal growth",
                "columns": ["Discount rate", *[f"g = {g:.1%}" for g in s.terminal_growths]],
                "rows": rows,
            }
        )
        return result

    def growth_basis(self, v: Valuation) -> list[Inline]:
        if v.growth_basis is None:
            return []
        return [" (revenue CAGR ", self.citer.derived(v.growth_basis), ")"]

    def base_fcf(self, v: Valuation) -> Number:
        base = v.result.enterprise_value.inputs[0]
        return self.citer.input(base)

    # --- market and macro --------------------------------------------------------------------

    def market(self, p: PriceView) -> list[Block]:
        m = p.metrics
        self.citer.apis[f"{p.ticker} prices"] = p.source
        blocks: list[Block] = [
            {
                "type": "bullets",
                "items": [
                    [
                        "Total return ",
                        self.citer.derived(m.total_return),
                        f" ({m.total_return.period}).",
                    ],
                    ["Annualised return ", self.citer.derived(m.annualised_return), "."],
                    ["Annualised volatility ", self.citer.derived(m.annualised_volatility), "."],
                    [
                        "Maximum drawdown ",
                        self.citer.derived(m.max_drawdown),
                        f" (peak {m.peak_date.date()}, trough {m.trough_date.date()}).",
                    ],
                ],
            }
        ]
        if len(p.closes) >= 2:
            blocks.append(
                {
                    "type": "chart",
                    "title": f"{p.ticker} adjusted close (month end)",
                    "kind": "line",
                    "unit": "USD",
                    "x": [d for d, _ in p.closes],
                    "series": [{"name": p.ticker, "values": [round(v, 4) for _, v in p.closes]}],
                    "caption": [{"link": {"text": "Price history source", "source": p.source}}],
                }
            )
        return blocks

    def macro(self, views: list[MacroView]) -> list[Block]:
        blocks: list[Block] = []
        for view in views:
            rows = [
                [
                    str(pair.year),
                    number(
                        pair.company_growth,
                        "%",
                        assumption(
                            f"{view.company} revenue growth {pair.year}, from the statements"
                        ),
                    ),
                    number(
                        pair.macro_growth,
                        "%",
                        {**view.source, "label": f"{view.series_name} {pair.year}"},
                    ),
                    number(
                        pair.spread,
                        "pp",
                        assumption(f"spread {pair.year}: company growth minus {view.series_name}"),
                    ),
                ]
                for pair in view.pairs
            ]
            blocks.append(
                {
                    "type": "table",
                    "caption": f"{view.company} revenue growth against {view.series_name}",
                    "columns": ["Year", "Company growth", view.series_name, "Spread"],
                    "rows": [[r[0], *[{"number": n} for n in r[1:]]] for r in rows],
                }
            )
            if view.mean_spread is not None:
                blocks.append(
                    paragraph(
                        f"On average {view.company} grew {abs(view.mean_spread):.1f} "
                        f"percentage points {'faster' if view.mean_spread >= 0 else 'slower'} "
                        f"than {view.series_name} "
                        f"over {len(view.pairs)} year(s)."
                    )
                )
        return blocks

    # --- passages ----------------------------------------------------------------------------

    def passages(self) -> list[Block]:
        blocks: list[Block] = []
        for passage in self.findings.passages:
            source = {
                "kind": "document",
                "document_id": passage.document_id,
                "document": passage.document,
                "page": passage.page,
                "bbox": None,
                "label": f"{passage.document} p. {passage.page + 1} ({passage.query})",
            }
            blocks.append({"type": "quote", "content": [passage.text], "source": source})
        return blocks


def _wrap(items: list[Any]) -> list[Any]:
    """Inline numbers as the note contract wants them: {"number": {...}}."""
    return [
        {"number": item} if isinstance(item, dict) and "display" in item else item for item in items
    ]


def _inline_numbers(note: dict[str, Any]) -> dict[str, Any]:
    for sec in note["sections"]:
        for block in sec["blocks"]:
            kind = block["type"]
            if kind in ("paragraph", "quote"):
                block["content"] = _wrap(block["content"])
            elif kind == "bullets":
                block["items"] = [_wrap(item) for item in block["items"]]
            for key in ("notes", "caption"):
                if isinstance(block.get(key), list):
                    block[key] = _wrap(block[key])
    return note


def write_note(findings: Findings, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The note for these findings, as `finance.note.model.Note`'s dict form."""
    return _inline_numbers(NoteWriter(findings, now=now).note())
