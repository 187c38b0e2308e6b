"""Derived numbers that carry their inputs and citations, and a cited view of statements."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from finance.statements.model import STATEMENTS, FinancialStatements


class Input(NamedTuple):
    """One input of a derived number: its label, value and where it came from."""

    label: str
    value: float
    citation: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "citation": dict(self.citation)}


@dataclass(frozen=True)
class Derived:
    """A computed number with the formula and the cited inputs it was computed from."""

    name: str
    value: float
    unit: str  # "ratio", "days", "x", "USD millions", ...
    formula: str
    inputs: list[Input] = field(default_factory=list)
    period: str = ""
    basis: str = ""
    """For ratios on a balance: "average" ((opening + closing) / 2) or "year-end" (closing only,
    when no opening balance is shown); "" when no balance is involved."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "formula": self.formula,
            "inputs": [i.to_dict() for i in self.inputs],
        }
        if self.period:
            out["period"] = self.period
        if self.basis:
            out["basis"] = self.basis
        unverified = self.unverified()
        if unverified:
            out["unverified"] = unverified
        return out

    def unverified(self) -> list[str]:
        """Why inputs are unverified (an accounting identity failed for their statement period),
        through derived inputs too; each reason once, in input order. Empty when all are fine."""
        return list(dict.fromkeys(reason for i in self.inputs for reason in unverified_reasons(i)))

    def as_input(self, label: str | None = None) -> Input:
        """This number as an input of another, citing its own derivation."""
        return Input(label or self.name, self.value, {"derived": self.to_dict()})


def unverified_reasons(item: Input) -> list[str]:
    """Why an input is unverified: its own statement period, or any input of its derivation."""
    citation = item.citation
    reasons: list[str] = []
    own = citation.get("unverified")
    if isinstance(own, str) and own:
        reasons.append(own)
    nested = citation.get("derived")
    if isinstance(nested, Mapping):
        found = nested.get("unverified")
        if isinstance(found, list):
            reasons.extend(str(r) for r in found)
        for sub in nested.get("inputs") or []:
            if isinstance(sub, Mapping):
                sub_input = Input(str(sub.get("label", "")), 0.0, dict(sub.get("citation") or {}))
                reasons.extend(unverified_reasons(sub_input))
    return list(dict.fromkeys(reasons))


@dataclass(frozen=True)
class Missing:
    """A metric that could not be computed, and why (nothing is guessed)."""

    name: str
    reason: str
    period: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "missing": True, "reason": self.reason}
        if self.period:
            out["period"] = self.period
        return out


_YEAR = re.compile(r"(\d{4})(?!.*\d{4})")


def year_number(label: str | int) -> int | None:
    """2017 for "FY2017", 2017, "2017"; None when there is no four-digit year."""
    if isinstance(label, int):
        return label
    match = _YEAR.search(label)
    return int(match.group(1)) if match else None


def prior_label(label: str) -> str | None:
    """ "FY2016" for "FY2017" (same spelling, year minus one)."""
    match = _YEAR.search(label)
    if match is None:
        return None
    return label[: match.start()] + str(int(match.group(1)) - 1) + label[match.end() :]


class Statements:
    """Cited look-ups into canonical statements (the JSON dict or a FinancialStatements)."""

    def __init__(self, data: Mapping[str, Any] | FinancialStatements) -> None:
        raw: Mapping[str, Any] = data.to_dict() if isinstance(data, FinancialStatements) else data
        self.document: str = str(raw.get("document", ""))
        self.unit: str = "USD " + str(raw.get("unit", "millions"))
        self._data: dict[str, dict[str, dict[str, Any]]] = {
            name: dict(raw.get(name) or {}) for name in STATEMENTS
        }
        years = list(raw.get("fiscal_years") or [])
        if not years:
            seen = {y for items in self._data.values() for cells in items.values() for y in cells}
            years = sorted(seen, reverse=True)
        self.fiscal_years: list[str] = [str(y) for y in years]
        self.unverified: dict[str, dict[str, str]] = {
            str(statement): {str(period): str(why) for period, why in periods.items()}
            for statement, periods in dict(raw.get("unverified") or {}).items()
            if isinstance(periods, Mapping)
        }
        """statement -> period -> why its accounting identity failed (see `validate.py`)."""
        self._identities: dict[tuple[str, str], str] = {
            (str(statement), str(period)): str(check.get("identity") or "")
            for statement, periods in dict(raw.get("validation") or {}).items()
            if isinstance(periods, Mapping)
            for period, check in periods.items()
            if isinstance(check, Mapping)
        }

    def unverified_reasons(self) -> list[str]:
        """Every unverified statement period, as `unverified_reason` words it."""
        return [
            why
            for statement in STATEMENTS
            for period in self.unverified.get(statement, {})
            if (why := self.unverified_reason(statement, period)) is not None
        ]

    def unverified_reason(self, statement: str, year: str) -> str | None:
        """Why this statement's figures for `year` are unverified (one sentence naming the
        statement, the period and the identity that failed), or None when they are not."""
        why = self.unverified.get(statement, {}).get(year)
        if why is None:
            return None
        name = statement.replace("_", " ")
        identity = self._identities.get((statement, year), "")
        check = f"{identity} does not hold" if identity else "its accounting identity fails"
        return f"{name} {year} unverified: {check}" + (f" ({why})" if why else "")

    def cell(self, statement: str, key: str, year: str) -> Input | None:
        cell = self._data[statement].get(key, {}).get(year)
        if cell is None:
            return None
        value = cell.get("value") if isinstance(cell, Mapping) else cell
        if value is None:
            return None
        citation: dict[str, Any] = {"statement": statement, "item": key, "year": year}
        if isinstance(cell, Mapping):
            for extra in ("page", "bbox", "source"):
                if cell.get(extra) is not None:
                    citation[extra] = cell[extra]
        if self.document:
            citation["document"] = self.document
        why = self.unverified_reason(statement, year)
        if why is not None:
            citation["unverified"] = why
        return Input(f"{key} {year}", float(value), citation)

    def prior(self, year: str) -> str | None:
        label = prior_label(year)
        if label is None:
            return None
        has_data = any(label in cells for items in self._data.values() for cells in items.values())
        return label if has_data or label in self.fiscal_years else None

    def series(self, statement: str, key: str) -> dict[str, float]:
        return {
            year: cited.value
            for year in self._data[statement].get(key, {})
            if (cited := self.cell(statement, key, year)) is not None
        }
