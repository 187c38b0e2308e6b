"""Rebuild statement rows (label + one numeric cell per year column) from pdfplumber words."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

_YEAR = re.compile(r"^(?:fiscal)?((?:19|20)\d\d)[,)]?$", re.IGNORECASE)
_CELL = re.compile(r"^\$?\(?\$?-?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?$")
_DASHES = {"-", "\u2014", "\u2013", "\u2212", "$-", "$\u2014", "$\u2013"}
_LINE_TOL = 3.0


@dataclass(frozen=True)
class Cell:
    value: float  # as printed, in the statement's own unit, sign applied
    text: str
    bbox: tuple[float, float, float, float]
    is_dash: bool = False


@dataclass
class Row:
    label: str
    cells: dict[str, Cell]  # year ("2018") -> cell
    top: float


@dataclass
class Table:
    page: int
    years: list[str]  # in column order, left to right
    scale: float  # multiply printed numbers by this to get millions
    rows: list[Row] = field(default_factory=list)
    fiscal_labels: dict[str, str] = field(default_factory=dict)  # "2018" -> "FY2018"


Word = dict[str, Any]


def group_lines(words: list[Word]) -> list[list[Word]]:
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (round(float(w["bottom"]), 1), float(w["x0"]))):
        if lines and abs(float(lines[-1][0]["bottom"]) - float(word["bottom"])) <= _LINE_TOL:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: float(w["x0"])) for line in lines]


def _merge_tokens(line: list[Word]) -> list[Word]:
    """Join "$", "(" and ")" tokens with the number beside them."""
    out: list[Word] = []
    for word in line:
        text = str(word["text"])
        if out and (str(out[-1]["text"]) in {"$", "(", "$(", "($"} or text == ")"):
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
    if m is None:
        return None
    value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
    negative = "(" in t or t.lstrip("$(").startswith("-")
    return -value if negative else value


def _scale(head_text: str) -> float:
    low = head_text.lower()
    if "thousand" in low:
        return 0.001
    if "billion" in low:
        return 1000.0
    return 1.0


def _find_header(lines: list[list[Word]], page_width: float) -> tuple[int, list[Word]] | None:
    for idx, line in enumerate(lines[:40]):
        years = [
            w for w in line if _YEAR.match(str(w["text"])) and float(w["x0"]) > page_width * 0.3
        ]
        if len(years) >= 2 or (len(years) == 1 and len(line) <= 3):
            # A header row has no amounts of its own.
            others = [
                w for w in line if w not in years and parse_number(str(w["text"])) is not None
            ]
            if len(others) <= len(years):
                return idx, years
    return None


def parse_table(words: list[Word], page: int, page_width: float) -> Table | None:
    lines = group_lines(words)
    header = _find_header(lines, page_width)
    if header is None:
        return None
    header_idx, year_words = header
    years = [_YEAR.match(str(w["text"])).group(1) for w in year_words]  # type: ignore[union-attr]
    head_text = " ".join(str(w["text"]) for line in lines[: header_idx + 3] for w in line)
    table = Table(page=page, years=years, scale=_scale(head_text))
    if "fiscal" in head_text.lower() and re.search(r"fiscal\s*(19|20)\d\d", head_text, re.I):
        table.fiscal_labels = {y: f"FY{y}" for y in years}
    centers = [(float(w["x0"]) + float(w["x1"])) / 2 for w in year_words]
    rights = [float(w["x1"]) for w in year_words]
    spacing = min((abs(b - a) for a, b in itertools.pairwise(centers)), default=80.0) or 80.0
    zone_left = min(float(w["x0"]) for w in year_words) - spacing * 0.6
    pending = ""
    for line in lines[header_idx + 1 :]:
        merged = _merge_tokens(line)
        cells: dict[str, Cell] = {}
        label_words: list[str] = []
        for word in merged:
            text = str(word["text"])
            x0, x1 = float(word["x0"]), float(word["x1"])
            value = parse_number(text) if x1 >= zone_left else None
            if value is None:
                if x1 < zone_left:
                    label_words.append(text)
                continue
            if _YEAR.match(text) and not cells and not label_words:
                continue  # a repeated header
            center = (x0 + x1) / 2
            dists = [
                min(abs(center - c), abs(x1 - r)) for c, r in zip(centers, rights, strict=True)
            ]
            col = min(range(len(dists)), key=dists.__getitem__)
            if dists[col] > spacing * 0.75 or years[col] in cells:
                continue
            bbox = (x0, float(word["top"]), x1, float(word["bottom"]))
            cells[years[col]] = Cell(
                value=value, text=text.lstrip("$"), bbox=bbox, is_dash=text.strip("$") in _DASHES
            )
        label = " ".join(label_words).strip()
        if not cells:
            pending = label if label and not label.endswith(":") else ""
            continue
        if pending and (
            not label
            or label[:1].islower()
            or re.search(r"(,|\band|\bof|\bin|\bfor|\bto|-|\()$", pending)
        ):
            label = f"{pending} {label}".strip()
        pending = ""
        table.rows.append(Row(label=label, cells=cells, top=float(line[0]["top"])))
    return table
