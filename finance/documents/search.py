"""BM25 search over a document's passages (bm25s): `PageIndex(pages).search(query, k)`.

Results are `(page, score, snippet)` with 0-indexed pages, best first, one hit per page: a
page scores as its best passage (overlapping runs of whole sentences, `passages.py`) plus a
share of the whole page's score, and the snippet is the run of whole sentences around the
query's words in that passage.

Tokens are lower-case words and numbers ("1,577" -> "1577"), English stop words and the
boilerplate of analyst questions ("please explain ...") removed, stemmed with the Snowball
English stemmer (PyStemmer), so "acquired" finds "acquire" and "expenditures" finds
"expenditure".

Section-aware ranking: a question also means what it does not say (`query_terms.py`): "capex"
is read from the cash flow statement, a "quick ratio" from the balance sheet, "legal battles"
are in Item 3. Those words join the query at a lower weight; a statement the question names
("... in the cash flow statement") is put first, statements it implies are put among the top
hits, and pages of an implied 10-K Item are favoured.

Table-aware ranking: a question that asks for figures ("which segment had the highest net
income?", "how much has the effective tax rate changed?") is answered by a table, which BM25
ranks below the prose that names the metric. For such questions a page gains with its share of
table rows, and a table page gains again when it names the breakdown the question compares
across (segment, region, category ...); `figures.py` reads the pages and the question.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import bm25s  # type: ignore[import-untyped,unused-ignore]
import numpy as np
import Stemmer  # type: ignore[import-not-found,unused-ignore]

from finance.documents.figures import TABLE_PAGE, asks_for_figures, breakdown_words, table_share
from finance.documents.ingest import ParsedDocument
from finance.documents.passages import best_window, page_passages, sentences
from finance.documents.query_terms import expand

_TOKEN = re.compile(r"[a-z0-9]+(?:[,.][0-9]{3})*")
_FISCAL = re.compile(r"\b(?:fy|q[1-4])\s?(\d{2}(?:\d{2})?)\b")  # "FY2022", "Q2 2023" -> the year
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours give answer question response based using shown relying details information
    primarily please state explain useful metric like company whether roughly much many""".split()  # noqa: SIM905
)
EXPANSION_WEIGHT = 0.7  # implied words count this much of a word the question says
PAGE_WEIGHT = 0.3  # share of the whole page's score added to its best passage's
ITEM_BOOST = 0.25  # pages of a 10-K Item the question implies: score x (1 + this)
TABLE_BOOST = 0.75  # figure questions: score x (1 + this x the page's table share)
BREAKDOWN_BOOST = 0.5  # ... and x (1 + this) on a table page that names the breakdown asked
IMPLIED_SLOTS = (0, 1, 2)  # ranks (0-based) where implied statement pages go
# Title words of a statement, for a query that needs a statement the index could not locate.
STATEMENT_WORDS = {
    "income_statement": "consolidated statements of income operations earnings",
    "balance_sheet": "consolidated balance sheets total assets liabilities",
    "cash_flow": "consolidated statements of cash flows",
}
BM25_PARAMS = {"k1": 1.2, "b": 0.75}  # the classic Robertson values
_STEMMER = Stemmer.Stemmer("english")
# Words the stemmer leaves apart although a reader takes them for one.
_SAME = {"acquisit": "acquir", "expend": "expenditur"}


@lru_cache(maxsize=65536)
def _norm(token: str) -> str:
    token = token.replace(",", "")
    if token[0].isdigit():
        return token
    stem = str(_STEMMER.stemWord(token))
    return _SAME.get(stem, stem)


def tokenize(text: str) -> list[str]:
    text = _FISCAL.sub(r" \1", text.lower())
    return [_norm(t) for t in _TOKEN.findall(text) if t not in STOP_WORDS]


_STATEMENT_MENTIONS = {
    "cash_flow": re.compile(r"cash[\s-]*flows?\s+statement|statements?\s+of\s+cash\s+flows?", re.I),
    "balance_sheet": re.compile(
        r"balance\s+sheets?|statements?\s+of\s+financial\s+(position|condition)", re.I
    ),
    "income_statement": re.compile(
        r"income\s+statements?|statements?\s+of\s+(income|operations|earnings)|\bP&L\b", re.I
    ),
}


def statements_named(query: str) -> list[str]:
    """Which primary statements a query names ("... shown in the cash flow statement")."""
    return [name for name, pattern in _STATEMENT_MENTIONS.items() if pattern.search(query)]


def _bm25(corpus: list[list[str]]) -> Any:
    index = bm25s.BM25(**BM25_PARAMS)
    index.index([doc or ["\u2205"] for doc in corpus], show_progress=False)  # no empty docs
    return index


class PageIndex:
    """A BM25 index over the passages of page texts, optionally aware of the document's
    statements (`{"cash_flow": page, ...}`) and 10-K Items (`[{"item", "start_page",
    "end_page"}, ...]`, as `finance.documents.sections` stores them)."""

    def __init__(
        self,
        pages: list[str],
        statements: Mapping[str, int | None] | None = None,
        items: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        self.pages = pages
        self.statements = {k: v for k, v in (statements or {}).items() if v is not None}
        self.items = {
            str(s["item"]).upper(): range(int(s["start_page"]), int(s["end_page"]) + 1)
            for s in items
        }
        self.passages = [p for page, text in enumerate(pages) for p in page_passages(page, text)]
        self._passage_page = np.array([p.page for p in self.passages], dtype=np.int64)
        passage_tokens = [tokenize(p.text) for p in self.passages]
        page_tokens = [tokenize(text) for text in pages]
        self.vocab = {t for doc in page_tokens for t in doc}
        self._page_vocab = [frozenset(doc) for doc in page_tokens]
        self._tables = np.array([table_share(text) for text in pages])
        self._pages_bm25 = _bm25(page_tokens) if pages else None
        self._passages_bm25 = _bm25(passage_tokens) if self.passages else None

    @classmethod
    def for_document(cls, doc: ParsedDocument) -> PageIndex:
        return cls(doc.pages, doc.statement_pages, doc.sections.get("items", []))

    def _scores(self, terms: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(page scores, best passage per page) for known terms."""
        n = len(self.pages)
        best = np.zeros(n)
        which = np.full(n, -1, dtype=np.int64)
        if not terms or self._passages_bm25 is None or self._pages_bm25 is None:
            return best, which
        passage_scores = self._passages_bm25.get_scores(terms)
        order = np.argsort(passage_scores, kind="stable")  # ascending: the best write last
        best[self._passage_page[order]] = passage_scores[order]
        which[self._passage_page[order]] = order
        return best + PAGE_WEIGHT * self._pages_bm25.get_scores(terms), which

    def _favour_tables(self, scores: np.ndarray, query: str) -> None:
        """For a question that asks for figures (`figures.py`): pages gain with their table
        share, and a table page gains again when it names the breakdown the question compares
        across ("which segment ...": the segment results table, not the segment prose)."""
        scores *= 1 + TABLE_BOOST * self._tables
        breakdown = {t for word in breakdown_words(query) for t in tokenize(word)}
        if not breakdown:
            return
        for page in np.flatnonzero((self._tables >= TABLE_PAGE) & (scores > 0)):
            if breakdown & self._page_vocab[page]:
                scores[page] *= 1 + BREAKDOWN_BOOST

    def search(
        self, query: str, k: int = 5, within: Container[int] | None = None
    ) -> list[tuple[int, float, str]]:
        """The k best pages for `query` (only pages in `within`, when given), best first."""
        if not self.pages or k <= 0:
            return []
        words = [t for t in dict.fromkeys(tokenize(query)) if t in self.vocab]
        extra_text, implied, items = expand(query)
        missing = [s for s in [*statements_named(query), *implied] if s not in self.statements]
        extra_text = " ".join([extra_text, *(STATEMENT_WORDS[s] for s in missing)])
        extra = [t for t in dict.fromkeys(tokenize(extra_text)) if t in self.vocab]
        extra = [t for t in extra if t not in words]
        scores, which = self._scores(words)
        if extra:
            more, more_which = self._scores(extra)
            which = np.where(which < 0, more_which, which)
            scores = scores + EXPANSION_WEIGHT * more
        for item in items:
            for page in self.items.get(item, range(0)):
                if page < len(scores):
                    scores[page] *= 1 + ITEM_BOOST
        figures = asks_for_figures(query)
        if figures:
            self._favour_tables(scores, query)
        by_breakdown = figures and bool(breakdown_words(query))
        terms = words + extra
        ranked = [int(p) for p in np.argsort(-scores, kind="stable") if scores[p] > 0]
        named = [self.statements[s] for s in statements_named(query) if s in self.statements]
        also = [self.statements[s] for s in implied if s in self.statements]
        order = _place(ranked, named, also, after=1 if by_breakdown else 0)
        if within is not None:
            order = [page for page in order if page in within]
        top = float(scores[ranked[0]]) if ranked else 0.0
        out = []
        for page in order[:k]:
            score = float(scores[page]) if page not in named else top + 1.0
            passage = self.passages[which[page]].text if which[page] >= 0 else self.pages[page]
            out.append((page, score, snippet(passage, terms)))
        return _monotone(out)  # scores stay best first whatever the placement did


def _place(
    ranked: list[int], named: Iterable[int], implied: Iterable[int], after: int = 0
) -> list[int]:
    """Named statement pages first, implied ones at `IMPLIED_SLOTS` unless already higher; `after`
    slots later for a question that compares figures across a breakdown ("which segment had the
    highest net income?"): the table by that breakdown answers it, the consolidated statement
    it implies only totals it."""
    order = list(dict.fromkeys([*named, *ranked]))
    for slot, page in zip((s + after for s in IMPLIED_SLOTS), dict.fromkeys(implied), strict=False):
        if page in order[: slot + 1]:
            continue
        if page in order:
            order.remove(page)
        order.insert(min(slot, len(order)), page)
    return order


def _monotone(hits: list[tuple[int, float, str]]) -> list[tuple[int, float, str]]:
    """Scores made non-increasing down the list (a placed page takes its place's score)."""
    out: list[tuple[int, float, str]] = []
    for page, score, text in hits:
        if out and score > out[-1][1]:
            score = out[-1][1]
        out.append((page, score, text))
    return out


def snippet(text: str, terms: list[str], width: int = 300) -> str:
    """The run of whole sentences of `text` holding the most query terms, within `width`
    characters where a sentence allows (a longer single sentence is cut at a word, with "…")."""
    sents = sentences(text)
    if not sents:
        return ""
    wanted = set(terms)
    weights = [float(len(wanted & set(tokenize(s)))) for s in sents]
    i, j = best_window(sents, weights, width)
    out = " ".join(sents[i:j])
    if len(out) > width:  # one long run (a table): cut at words around the first query word
        at = next(
            (m.start() for m in _TOKEN.finditer(out.lower()) if _norm(m.group()) in wanted), 0
        )
        start = out.rfind(" ", 0, max(0, at - width // 6)) + 1 if at > width // 2 else 0
        cut = out[start : start + width].rsplit(" ", 1)[0].rstrip()
        out = ("… " if start else "") + cut + " …"
    return out
