"""Rows of a printed statement read from its page text, lined up with the canonical years.

The canonical statements keep the lines the product needs (total assets, the three cash-flow
sections); the identities also need lines it does not keep (non-controlling interests, the
effect of exchange rates, the net change in cash). Those are read here from the page text the
ingestion already holds, one text line a row ("Total equity $ 9,848 $ 11,622").

Which column is which year is not read from the header: a canonical line whose values the page
prints (the anchor, e.g. total assets) fixes each year's column and the page's scale (millions,
thousands or billions), so years printed oldest-first or newest-first need no special case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from finance.evaluation.figures import PRINTED_SCALES, agrees

_NUMBER = re.compile(r"^\(?-?\$?\(?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?$")
# Em dash, en dash and hyphen stand for zero in a statement's column.
_DASHES = {"\u2014", "\u2013", "-", "\u2014-", "$\u2014", "$-", "$\u2013"}


@dataclass(frozen=True)
class PrintedRow:
    page: int
    label: str
    values: tuple[float, ...]
    step: float  # the unit of the last printed digit, as printed (1 for "1,577")


@dataclass(frozen=True)
class Columns:
    """Where each year's value sits in a row of `width` values, and the page's scale."""

    width: int
    by_year: dict[str, int]
    scale: float  # printed value * scale = USD millions
    step: float  # one unit of the printed rounding, in USD millions

    def value(self, row: PrintedRow, year: str) -> float | None:
        index = self.by_year.get(year)
        if index is None or len(row.values) != self.width:
            return None
        return row.values[index] * self.scale


def parse_value(token: str) -> tuple[float, int] | None:
    """("(1,577)" -> (-1577.0, 0 decimals)); a dash is zero; None if not a number."""
    if token in _DASHES:
        return 0.0, 0
    match = _NUMBER.match(token)
    if match is None:
        return None
    whole, fraction = match.group(1), match.group(2) or ""
    value = float(whole.replace(",", "") + fraction)
    negative = token.startswith(("(", "-", "$(")) and (")" in token or token.startswith("-"))
    return (-value if negative else value), max(0, len(fraction) - 1)


def page_rows(page: int, text: str) -> list[PrintedRow]:
    """Every line of a page that ends in numbers, with its label (a wrapped label is joined)."""
    rows: list[PrintedRow] = []
    pending = ""
    for line in text.splitlines():
        # "(41 )" and "$ (28)" as some filings print them: one token per number
        tokens = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", line)).split()
        values: list[float] = []
        decimals = 0
        cut = len(tokens)
        while cut > 0:
            token = tokens[cut - 1]
            if token == "$":
                cut -= 1
                continue
            parsed = parse_value(token)
            if parsed is None:
                break
            values.insert(0, parsed[0])
            decimals = max(decimals, parsed[1])
            cut -= 1
        label = " ".join(tokens[:cut]).strip()
        if not values:
            pending = label
            continue
        if not label or label[0].islower():
            label = f"{pending} {label}".strip()
        pending = ""
        rows.append(PrintedRow(page, label, tuple(values), 10.0**-decimals))
    return rows


def find_columns(rows: Iterable[PrintedRow], anchor: Mapping[str, float]) -> Columns | None:
    """Columns from the first row printing every anchor value (year -> USD millions)."""
    wanted = {year: value for year, value in anchor.items()}
    if not wanted:
        return None
    for row in rows:
        for scale in PRINTED_SCALES:
            by_year: dict[str, int] = {}
            for year, value in wanted.items():
                for index, printed in enumerate(row.values):
                    if index in by_year.values():
                        continue
                    if printed != 0 and agrees(printed * scale, row.step * scale, value, 0.0):
                        by_year[year] = index
                        break
            if len(by_year) == len(wanted):
                return Columns(len(row.values), by_year, scale, row.step * scale)
    return None


def matching(rows: Iterable[PrintedRow], pattern: re.Pattern[str]) -> list[PrintedRow]:
    return [row for row in rows if pattern.search(normalise(row.label))]


def row_index(rows: list[PrintedRow], columns: Columns, values: Mapping[str, float]) -> int | None:
    """The position of the first row that prints `values` (year -> USD millions) in its columns."""
    years = [year for year in values if year in columns.by_year]
    if not years:
        return None
    for index, row in enumerate(rows):
        found = [columns.value(row, year) for year in years]
        if all(
            value is not None and agrees(value, columns.step, values[year], 0.0)
            for value, year in zip(found, years, strict=True)
        ):
            return index
    return None


def normalise(label: str) -> str:
    text = label.lower().replace("\u2019", "'").replace("\u2014", "-").replace("\u2013", "-")
    return re.sub(r"\s+", " ", text).strip(" :")
