"""The statement tables of one page, where a page prints more than one table.

Two layouts, both common in earnings releases:

* Statements one under another: a condensed balance sheet titled half-way down the page, below
  the cash flow statement. A statement's region starts at its own title line when that is not in
  the page's head, and ends at the title line of another statement below it (`locate.title_of`).
* One statement's column groups stacked: the quarter's income statement, then the full year's,
  each under its own header ("13 Weeks Ended ... 2023 2022", then "52 Weeks Ended ... 2023
  2022"). A line of years over the columns printed after body rows starts a new block, read with
  its own header. A block whose header only repeats the years of the block above (a statement
  re-headed for its second half) keeps the columns and unit of the block above.
"""

from __future__ import annotations

from finance.statements.locate import HEAD_LINES, title_of
from finance.statements.table import (
    Table,
    Word,
    column_spans,
    is_body,
    is_year,
    names_unit,
    page_lines,
    parse_lines,
)

_REACH = 20.0
"""How far from a column's amounts a header year may lie and still be over that column."""


def _text(line: list[Word]) -> str:
    return " ".join(str(w["text"]) for w in line)


def statement_region(
    lines: list[list[Word]], statement: str, below: bool = False
) -> list[list[Word]]:
    """The lines of `statement` on a page that may print another statement above or below;
    `below`: the page was found by a title line below its head (`locate.titled_below`)."""
    titles = [(i, title_of(_text(line))) for i, line in enumerate(lines)]
    titles = [(i, name) for i, name in titles if name is not None]
    own = [i for i, name in titles if name == statement]
    start = own[0] if below and own else 0
    end = next(
        (i for i, name in titles if i > start and i >= HEAD_LINES and name != statement),
        len(lines),
    )
    return lines[start:end]


def _years_header(line: list[Word], spans: list[tuple[float, float]]) -> bool:
    """A line printing years over two or more of the columns, and no amounts."""
    over: set[int] = set()
    for word in line:
        for i, (x0, x1) in enumerate(spans):
            if x0 - _REACH <= float(word["x1"]) and float(word["x0"]) <= x1 + _REACH:
                if not is_year(word):
                    return False
                over.add(i)
    return len(over) >= 2


def stacked_blocks(lines: list[list[Word]], page_width: float) -> list[list[list[Word]]]:
    """The lines split where a new header of years follows body rows (see the module doc)."""
    spans = column_spans(lines, page_width)
    if not spans:
        return [lines]
    blocks: list[list[list[Word]]] = []
    start, last_body = 0, None
    for i, line in enumerate(lines):
        if is_body(line, spans, page_width):
            last_body = i
        elif last_body is not None and _years_header(line, spans):
            blocks.append(lines[start : last_body + 1])
            start, last_body = last_body + 1, None
    blocks.append(lines[start:])
    return blocks


def _repeats(table: Table, above: Table) -> bool:
    """Whether a block's header only repeats the years of the block above."""
    periods = [c.period for c in table.columns]
    return len(periods) == len(above.columns) and all(
        p.months is None and p.end is None and p.year == c.period.year
        for p, c in zip(periods, above.columns, strict=True)
    )


def parse_tables(
    words: list[Word],
    page: int,
    page_width: float,
    statement: str,
    carried: Table | None = None,
    below: bool = False,
) -> list[Table]:
    """The tables of `statement` on one page, top to bottom (`carried`: see `parse_table`;
    `below`: see `statement_region`)."""
    lines = statement_region(page_lines(words), statement, below)
    tables: list[Table] = []
    for n, block in enumerate(stacked_blocks(lines, page_width)):
        above = tables[-1] if tables else None
        table = parse_lines(block, page, page_width, above or carried)
        if table is None or not table.rows:
            continue
        if n and above is not None:
            if _repeats(table, above):
                table.columns = list(above.columns)
            if not names_unit(table.heading):
                table.unit, table.scale = above.unit, above.scale
        tables.append(table)
    return tables
