"""The research note, written from what a run found: sections, tables, charts, linked numbers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from finance.modeling import Derived
from finance.research.analysis import StatementAnalysis, Valuation
from finance.research.citations import UNVERIFIED_MARK, Citer
from finance.research.compose_blocks import MARGINS, Block, Inline, bullets, paragraph, section
from finance.research.compose_company import CompanySections
from finance.research.compose_sources import SourceSections
from finance.research.findings import Findings


class NoteWriter(CompanySections, SourceSections):
    def __init__(self, findings: Findings, *, now: dt.datetime | None = None) -> None:
        self.findings = findings
        self.citer = Citer(findings.documents)
        self.now = now or dt.datetime.now(dt.UTC)

    # --- the whole note ----------------------------------------------------------------------

    def note(self) -> dict[str, Any]:
        f = self.findings
        companies = f.companies or list(dict.fromkeys(a.company or a.document for a in f.analyses))
        if not companies and f.prices is not None:
            companies = [f"prices in {f.prices.ticker}"]
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
        sections.append(section("limits", "What this note could not do", self.limits()))
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
        unverified = self.unverified()
        if unverified:
            items.append(
                [
                    f"{len(unverified)} statement period(s) failed an accounting identity; "
                    f"figures from them are marked {UNVERIFIED_MARK} (see the last section)."
                ]
            )
        if not items:
            return [paragraph("Nothing could be analysed; see the last section.")]
        return [bullets(items)]

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

    # --- what could not be done --------------------------------------------------------------

    def unverified(self) -> list[str]:
        """The unverified statement periods the note's years use (their own or, for averages
        and growth, the prior period), each once."""
        out: list[str] = []
        for a in self.findings.analyses:
            used = set(a.years) | {p for y in a.years if (p := a.statements.prior(y))}
            for statement, periods in a.statements.unverified.items():
                for period in periods:
                    why = a.statements.unverified_reason(statement, period)
                    if period in used and why:
                        out.append(f"{a.company}: {why}")
        return list(dict.fromkeys(out))

    def limits(self) -> list[Block]:
        """Always present: what could not be done and why, the documents left out, and the
        unverified statement periods; "nothing" said plainly when all was done."""
        items: list[list[Inline]] = [[limit] for limit in dict.fromkeys(self.findings.limits)]
        items += [
            [f"Used but flagged ({UNVERIFIED_MARK}): {why}; figures from it are not verified."]
            for why in self.unverified()
        ]
        if not items:
            return [
                paragraph(
                    "Nothing: every part of the request was done, no document was left out, "
                    "and no figure comes from a statement period that failed its accounting "
                    "identity."
                )
            ]
        return [bullets(items)]

    # --- per company -------------------------------------------------------------------------


def write_note(findings: Findings, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The note for these findings, as `finance.note.model.Note`'s dict form."""
    return NoteWriter(findings, now=now).note()
