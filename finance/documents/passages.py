"""Sentences and passages of a page's text, for search and for the snippets it shows.

Page text from a PDF is broken into lines at the page's layout, not at sentences. Here it is
flattened to one line, cut into sentences (after ".", "!" or "?" and before a capital, a digit
or an opening quote/bracket, not after common abbreviations such as "Inc." or "U.S."), and the
sentences are grouped into overlapping passages of a few hundred characters. Number tables have
no sentences at all; a run of text longer than `MAX_SENTENCE` is cut at word boundaries so that
a table becomes several passages, not one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SENTENCE = 400  # characters; longer runs (tables) are cut at words
PASSAGE_CHARS = 450  # a passage grows sentence by sentence up to about this

_BOUNDARY = re.compile(r"(?<=[.!?])[\"\u201d\u2019)]*\s+(?=[\"\u201c(\[A-Z0-9$\u2022])")
_ABBREVIATIONS = re.compile(
    r"(?:\b(?:inc|corp|co|ltd|no|nos|mr|mrs|ms|dr|st|vs|approx|jan|feb|mar|apr|jun|jul|aug|sep|"
    r"sept|oct|nov|dec|u\.s|u\.k|e\.g|i\.e|p\.m|a\.m)|\b[a-z])\.$",
    re.I,
)


def flatten(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    """The sentences of `text`, whitespace flattened; over-long runs cut at word boundaries."""
    flat = flatten(text)
    if not flat:
        return []
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(flat):
        candidate = flat[start : match.start()]
        if _ABBREVIATIONS.search(candidate[-8:]):
            continue
        out.extend(_cut(candidate.strip()))
        start = match.end()
    out.extend(_cut(flat[start:].strip()))
    return [s for s in out if s]


def _cut(run: str) -> list[str]:
    if len(run) <= MAX_SENTENCE:
        return [run]
    pieces, current = [], ""
    for word in run.split(" "):
        if current and len(current) + 1 + len(word) > MAX_SENTENCE:
            pieces.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        pieces.append(current)
    return pieces


@dataclass(frozen=True)
class Passage:
    page: int
    first: int  # index of its first sentence on the page
    text: str


def page_passages(page: int, text: str, size: int | None = None) -> list[Passage]:
    """Overlapping windows of whole sentences: each starts halfway through the previous one."""
    size = size or PASSAGE_CHARS
    sents = sentences(text)
    out: list[Passage] = []
    i = 0
    while i < len(sents):
        j, length = i, 0
        while j < len(sents) and (j == i or length + len(sents[j]) <= size):
            length += len(sents[j]) + 1
            j += 1
        out.append(Passage(page, i, " ".join(sents[i:j])))
        if j >= len(sents):
            break
        i = max(i + 1, (i + j) // 2)
    return out


def best_window(sents: list[str], weights: list[float], width: int) -> tuple[int, int]:
    """The run of whole sentences [i, j) of at most `width` characters (at least one sentence)
    with the highest total weight; ties go to the earliest."""
    best = (0, 1)
    best_weight = -1.0
    for i in range(len(sents)):
        j, length, weight = i, 0, 0.0
        while j < len(sents) and (j == i or length + len(sents[j]) + 1 <= width):
            length += len(sents[j]) + 1
            weight += weights[j]
            j += 1
        if weight > best_weight:
            best, best_weight = (i, j), weight
    return best
