"""The note's sections from other sources: cross-checks, valuation, market, macro, quotes."""

from __future__ import annotations

from typing import Any

from finance.research.analysis import StatementAnalysis, Valuation
from finance.research.citations import Citer, Number, assumption, display, number
from finance.research.compose_blocks import Block, Inline, bullets, paragraph
from finance.research.findings import Findings, MacroView, PriceView, ReconView


class SourceSections:
    findings: Findings
    citer: Citer

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
                bullets(
                    [
                        [
                            f"Discrepancy: {row.metric} FY{row.fiscal_year} — "
                            + (
                                row.explanation
                                or "cause unknown; check both sources before relying on it"
                            )
                            + "."
                        ]
                        for row in bad
                    ]
                )
            )
        return blocks

    # --- valuation ---------------------------------------------------------------------------

    def valuation(self, a: StatementAnalysis, v: Valuation) -> list[Block]:
        growth_label = f"FCF growth {v.growth:.1%} a year for {v.years} years"
        if v.growth_basis is not None:
            growth_label += ": the revenue CAGR"
            if v.growth != v.growth_basis.value:
                growth_label += " (bounded to -5%..15%)"
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
            bullets(items),
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
            bullets(
                [
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
                ]
            )
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
