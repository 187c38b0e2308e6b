"""Rebuild statement rows (label + one numeric cell per period column) from pdfplumber words.

Columns come from the numbers themselves: the right edges of the amounts printed in the body
cluster into columns, whatever the header looks like. Each column's header is then read from the
lines above the body: the words over the column (a year, a date, "Fiscal 2022") and the phrases
spanning it ("Three Months Ended", "Six Months Ended", "52 Weeks Ended"). What a header means as
a period is `periods.py`'s business; a column whose header names no year (a "% change" column,
a note reference) is left out.

The unit is the first of "thousands", "millions" or "billions" in the heading ("In millions,
except number of shares, which are reflected in thousands" is millions).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from finance.statements.periods import ColumnPeriod, read_column_header

_YEAR = re.compile(r"^\(?(?:fiscal|fy)?((?:19|20)\d\d)[,)*]?$", re.IGNORECASE)
_CELL = re.compile(r"^\$?\(?\$?-?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?%?$")
_DASHES = {"-", "\u2014", "\u2013", "\u2212", "$-", "$\u2014", "$\u2013", "--"}
_UNIT = re.compile(r"(thousand|million|billion)s?", re.IGNORECASE)
_SCALE = {"thousand": 0.001, "million": 1.0, "billion": 1000.0}
_LINE_TOL = 3.0
_COLUMN_GAP = 18.0
_HEADER_LINES = 12


@dataclass(frozen=True)
class Cell:
    value: float  # as printed, in the statement's own unit, sign applied
    text: str
    bbox: tuple[float, float, float, float]
    is_dash: bool = False


@dataclass
class Row:
    label: str
    cells: dict[int, Cell]  # column index -> cell
    top: float
    section: str = ""  # the heading printed above: the label-only lines before its block


@dataclass
class Column:
    x0: float
    x1: float
    header: str  # the header words over the column, top to bottom
    period: ColumnPeriod


@dataclass
class Table:
    page: int
    columns: list[Column]  # left to right, only those whose header names a year
    scale: float  # multiply printed numbers by this to get millions
    unit: str  # "thousands" | "millions" | "billions" (as the heading states; millions if silent)
    rows: list[Row] = field(default_factory=list)
    heading: str = ""


Word = dict[str, Any]


def group_lines(words: list[Word]) -> list[list[Word]]:
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (round(float(w["bottom"]), 1), float(w["x0"]))):
        if lines and abs(float(lines[-1][0]["bottom"]) - float(word["bottom"])) <= _LINE_TOL:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: float(w["x0"])) for line in lines]


_FRAGMENT = re.compile(r"^\$?\(?\$?\d{1,3}$")
_FRAGMENT_REST = re.compile(r"^[\d,.]")
_FRAGMENT_GAP = 1.0
"""Some releases print an amount as two words that touch ("2" "4,020", "6" "7.8"): joined when
the gap is under a point and the two make one well-formed number."""


def _split_number(prev: Word, word: Word) -> bool:
    if float(word["x0"]) - float(prev["x1"]) >= _FRAGMENT_GAP:
        return False
    first, rest = str(prev["text"]), str(word["text"])
    if not (_FRAGMENT.match(first) and _FRAGMENT_REST.match(rest)):
        return False
    return _CELL.match(first + rest) is not None


def _merge_tokens(line: list[Word]) -> list[Word]:
    """Join "$", "(" and ")" tokens with the number beside them, and a number printed as two
    touching words."""
    out: list[Word] = []
    for word in line:
        text = str(word["text"])
        joins = out and (str(out[-1]["text"]) in {"$", "(", "$(", "($"} or text in {")", "%", ")%"})
        if out and (joins or _split_number(out[-1], word)):
            prev = out[-1]
            if float(word["x0"]) - float(prev["x1"]) < 12:
                out[-1] = {
                    "text": str(prev["text"]) + text,
                    "x0": float(prev["x0"]),
                    "x1": float(word["x1"]),
                    "top": min(float(prev["top"]), float(word["top"])),
                    "bottom": max(float(prev["bottom"]), float(word["bottom"])),
                }
                continue
        out.append(dict(word))
    return out


def parse_number(text: str) -> float | None:
    t = text.strip().replace(" ", "")
    if t in _DASHES:
        return 0.0
    m = _CELL.match(t)
    if m is None or t.endswith("%"):
        return None
    value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
    negative = "(" in t or t.lstrip("$(").startswith("-")
    return -value if negative else value


def names_unit(heading: str) -> bool:
    """Whether a heading says which unit its amounts are in."""
    return _UNIT.search(heading) is not None


def unit_of(heading: str) -> tuple[str, float]:
    """(unit, scale to millions) from a statement's heading; millions when it names none."""
    match = _UNIT.search(heading)
    word = match.group(1).lower() if match else "million"
    return f"{word}s", _SCALE[word]


def is_year(word: Word) -> bool:
    return _YEAR.match(str(word["text"])) is not None


_MONTH = re.compile(
    r"^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$", re.IGNORECASE
)


_REFERENCE = re.compile(r"^\(?(see )?(note|notes|item|page|part)s?$", re.IGNORECASE)


def _amounts(line: list[Word], label_edge: float) -> list[Word]:
    """The amounts of a line: numbers (or dashes) right of the label zone, except the days of
    dates ("June 30") and years when the line holds nothing else (a header line)."""
    numbers = [
        w
        for i, w in enumerate(line)
        if float(w["x0"]) >= label_edge
        and _amount(w)
        and not (i and _MONTH.match(str(line[i - 1]["text"])))
        and not (i and _REFERENCE.match(str(line[i - 1]["text"])))
    ]
    if numbers and all(is_year(w) for w in numbers):
        return []
    return numbers


def _amount(word: Word) -> bool:
    return parse_number(str(word["text"])) is not None


def column_spans(lines: list[list[Word]], page_width: float) -> list[tuple[float, float]]:
    """Clusters of the amounts' right edges: one (x0, x1) span per printed column."""
    label_edge = page_width * 0.3
    edges: list[tuple[float, float]] = []
    body = 0
    for line in lines:
        numbers = _amounts(line, label_edge)
        if numbers:
            body += 1
            edges += [(float(w["x1"]), float(w["x0"])) for w in numbers]
    if not edges:
        return []
    edges.sort()
    clusters: list[list[tuple[float, float]]] = [[edges[0]]]
    for edge in edges[1:]:
        if edge[0] - clusters[-1][-1][0] > _COLUMN_GAP:
            clusters.append([edge])
        else:
            clusters[-1].append(edge)
    least = max(2, round(0.2 * body))
    return [
        (min(x0 for _, x0 in cluster), max(x1 for x1, _ in cluster))
        for cluster in clusters
        if len(cluster) >= least
    ]


def is_body(line: list[Word], spans: list[tuple[float, float]], page_width: float) -> bool:
    """A line of the table's body: amounts in the columns, and a label (or several amounts)."""
    inside = [
        w
        for w in _amounts(line, page_width * 0.3)
        if any(x0 - 4.0 <= float(w["x1"]) <= x1 + 4.0 for x0, x1 in spans)
    ]
    labelled = any(float(w["x1"]) < spans[0][0] - 4.0 for w in line)
    return bool(inside) and (labelled or len(inside) >= 2)


def _phrases(line: list[Word]) -> list[tuple[float, float, str]]:
    """A line's words grouped into phrases (x0, x1, text) where the gap is under two spaces."""
    out: list[tuple[float, float, str]] = []
    for word in line:
        x0, x1, text = float(word["x0"]), float(word["x1"]), str(word["text"])
        if out and x0 - out[-1][1] < 7.0:
            out[-1] = (out[-1][0], x1, f"{out[-1][2]} {text}")
        else:
            out.append((x0, x1, text))
    return out


_DURATION = re.compile(r"months|weeks|quarter|yearended|yearsended|fiscalyear|twelvemonths")


def _headers(
    lines: list[list[Word]], spans: list[tuple[float, float]], first_body: int
) -> list[str]:
    """Each column's header text: the phrases over it in the lines above the body, top first.

    A phrase naming a length ("Three Months Ended", "52 Weeks Ended") usually sits centred over a
    group of columns: each column takes the nearest such phrase of its line. A year printed as
    its own word is taken only when it lies over the column (not from a sentence such as "Years
    ended December 31, 2022, 2021 and 2020" that spans them all)."""
    texts = [[] for _ in spans]  # type: list[list[str]]
    # Headers are centred over their column while amounts are right-aligned: a column's band
    # reaches half-way to its neighbours.
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(spans)]
    reach = min(40.0, max(8.0, min(gaps, default=40.0) / 2.0))
    band = [(x0 - reach, x1 + reach) for x0, x1 in spans]

    def columns_of(word: Word) -> list[int]:
        centre = (float(word["x0"]) + float(word["x1"])) / 2.0
        return [i for i, (b0, b1) in enumerate(band) if b0 <= centre <= b1]

    for line in lines[max(0, first_body - _HEADER_LINES) : first_body]:
        phrases = _phrases(line)
        lengths = [p for p in phrases if _DURATION.search(re.sub(r"\s+", "", p[2].lower()))]
        lengths = [p for p in lengths if p[1] >= band[0][0]]
        for i, (b0, b1) in enumerate(band):
            if lengths:
                nearest = min(lengths, key=lambda p: max(0.0, p[0] - b1, b0 - p[1]))
                texts[i].append(_years_removed(nearest[2]))
        for x0, x1, _ in lengths:
            # A year printed at the end of such a phrase ("Years ended December 31, 2022")
            # still belongs to the column under it.
            for word in line:
                if x0 <= float(word["x0"]) and float(word["x1"]) <= x1 and is_year(word):
                    for i in columns_of(word):
                        texts[i].append(str(word["text"]))
        for x0, x1, phrase in phrases:
            if (x0, x1, phrase) in lengths:
                continue
            words = [w for w in line if x0 <= float(w["x0"]) and float(w["x1"]) <= x1]
            over = sorted({i for w in words for i in columns_of(w)})
            if len(over) == 1:
                texts[over[0]].append(phrase)
                continue
            # A phrase over several columns: its years go to the columns they lie over.
            plain = " ".join(str(w["text"]) for w in words if not is_year(w))
            for i in over:
                years = [str(w["text"]) for w in words if is_year(w) and i in columns_of(w)]
                texts[i].append(" ".join([plain, *years]).strip())
    return [" ".join(parts) for parts in texts]


_MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d{1,2}\b,?", re.IGNORECASE
)


def _years_removed(phrase: str) -> str:
    """A spanning phrase without its years ("Years Ended December 31, 2022, 2021" says the
    length; each column says its own year), and without its dates when it names several
    ("December 31, 2022, December 25, 2021 and December 26, 2020": whose is whose is unsaid)."""
    if len(_MONTH_DAY.findall(phrase)) > 1:
        phrase = _MONTH_DAY.sub(" ", phrase)
    return re.sub(r"(?<!\d)(19|20)\d\d(?!\d)", " ", phrase)


def parse_table(
    words: list[Word], page: int, page_width: float, carried: Table | None = None
) -> Table | None:
    """The statement table of one page; None when it has no columns with a period header.

    `carried` is the table of the page before when this page carries the statement on: a page
    that prints no header of its own takes its columns (same layout) and unit."""
    return parse_lines(page_lines(words), page, page_width, carried)


def page_lines(words: list[Word]) -> list[list[Word]]:
    """A page's words as lines, top to bottom, with "$", "(" and ")" joined to their numbers."""
    return [_merge_tokens(line) for line in group_lines(words)]


def parse_lines(
    lines: list[list[Word]], page: int, page_width: float, carried: Table | None = None
) -> Table | None:
    """The statement table printed on `lines` (a page, or one block of it): see `parse_table`."""
    spans = column_spans(lines, page_width)
    if not spans:
        return None
    label_edge = spans[0][0] - 4.0
    first_body = next(
        (i for i, line in enumerate(lines) if is_body(line, spans, page_width)), len(lines)
    )
    headers = _headers(lines, spans, first_body)
    heading = " ".join(str(w["text"]) for line in lines[:first_body] for w in line)
    unit, scale = unit_of(heading)
    columns = []
    for (x0, x1), header in zip(spans, headers, strict=True):
        period = read_column_header(header)
        if period is not None:
            columns.append(Column(x0, x1, header, period))
    if not columns and carried is not None and not any(headers):
        columns = list(carried.columns)
        unit, scale, first_body = carried.unit, carried.scale, 0
    if not columns:
        return None
    table = Table(page=page, columns=columns, scale=scale, unit=unit, heading=heading[:400])
    pending, section, in_heading = "", "", False
    for line in lines[first_body:]:
        cells: dict[int, Cell] = {}
        label_words: list[str] = []
        for word in line:
            text = str(word["text"])
            x0, x1 = float(word["x0"]), float(word["x1"])
            if x1 < label_edge:
                if text not in {"$", "€", "£"}:
                    label_words.append(text)
                continue
            value = parse_number(text)
            if value is None:
                if x0 < label_edge:
                    label_words.append(text)
                continue
            index = _column_at(columns, x0, x1)
            if index is None or index in cells:
                continue
            bbox = (x0, float(word["top"]), x1, float(word["bottom"]))
            cells[index] = Cell(
                value=value, text=text.lstrip("$"), bbox=bbox, is_dash=text.strip("$") in _DASHES
            )
        label = " ".join(label_words).strip()
        if not cells:
            pending = label if label and not label.endswith(":") else ""
            if label:
                section = f"{section} {label}" if in_heading else label
                in_heading = True
            continue
        in_heading = False
        if pending and (
            not label
            or label[:1].islower()
            or re.search(r"(,|\band|\bof|\bin|\bfor|\bto|-|\()$", pending)
        ):
            label = f"{pending} {label}".strip()
        pending = ""
        row = Row(label=label, cells=cells, top=float(line[0]["top"]), section=section)
        table.rows.append(row)
    return table


def _column_at(columns: list[Column], x0: float, x1: float) -> int | None:
    """The column a number printed at x0..x1 belongs to: the one it overlaps, else the one whose
    right edge is nearest (within a column gap)."""
    best: tuple[float, int] | None = None
    for index, column in enumerate(columns):
        if x0 <= column.x1 + 2.0 and x1 >= column.x0 - 2.0:
            distance = abs(x1 - column.x1)
        else:
            distance = min(abs(x1 - column.x1), abs(x0 - column.x0)) + _COLUMN_GAP
        if distance <= 2 * _COLUMN_GAP and (best is None or distance < best[0]):
            best = (distance, index)
    return None if best is None else best[1]
