"""BM25 search over a document's pages (bm25s): `PageIndex(pages).search(query, k)`.

Results are `(page, score, snippet)` with 0-indexed pages, best first. Statement pages are
number tables with few words, so plain BM25 rarely ranks them for a question like "what is
capex ... in the cash flow statement"; when the index knows where the statements are
(`finance.documents.sections`) and the query names one, that page is put first.

Tokenisation is plain: lower-case words and numbers, English stop words removed, a light
plural strip so "expenditures" finds "expenditure". Numbers keep their digits ("1,577" -> "1577").
"""

from __future__ import annotations

import re

import bm25s  # type: ignore[import-untyped,unused-ignore]

from finance.documents.ingest import ParsedDocument

_TOKEN = re.compile(r"[a-z0-9]+(?:[,.][0-9]{3})*")
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours give answer question response based using shown relying details information
    primarily""".split()  # noqa: SIM905
)


def _norm(token: str) -> str:
    token = token.replace(",", "")
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def tokenize(text: str) -> list[str]:
    return [_norm(t) for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


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


class PageIndex:
    """A BM25 index over page texts, optionally aware of where the statements are."""

    def __init__(self, pages: list[str], statements: dict[str, int | None] | None = None) -> None:
        self.pages = pages
        self.statements = {k: v for k, v in (statements or {}).items() if v is not None}
        corpus = [tokenize(p) or ["\u2205"] for p in pages]  # bm25s dislikes empty documents
        self.vocab = {t for doc in corpus for t in doc}
        self._bm25 = bm25s.BM25()
        if pages:
            self._bm25.index(corpus, show_progress=False)

    @classmethod
    def for_document(cls, doc: ParsedDocument) -> PageIndex:
        return cls(doc.pages, doc.statement_pages)

    def search(self, query: str, k: int = 5) -> list[tuple[int, float, str]]:
        terms = [t for t in tokenize(query) if t in self.vocab]
        out: list[tuple[int, float, str]] = []
        if terms and self.pages:
            n = min(k, len(self.pages))
            docs, scores = self._bm25.retrieve([terms], k=n, show_progress=False)
            for page, score in zip(docs[0].tolist(), scores[0].tolist(), strict=True):
                if score > 0:
                    out.append((int(page), float(score), snippet(self.pages[int(page)], terms)))
        named = [self.statements[s] for s in statements_named(query) if s in self.statements]
        if named:
            top = (out[0][1] if out else 0.0) + 1.0
            boosted = [(p, top, snippet(self.pages[p], terms)) for p in dict.fromkeys(named)]
            out = boosted + [r for r in out if r[0] not in named]
        return out[:k]


def snippet(text: str, terms: list[str], width: int = 240) -> str:
    """The window of `text` holding the most query terms, on one line."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= width:
        return flat
    wanted = set(terms)
    positions = [m.start() for m in _TOKEN.finditer(flat.lower()) if _norm(m.group()) in wanted]
    if not positions:
        return flat[:width].rstrip() + " …"
    best_start, best_hits = positions[0], 0
    for i, start in enumerate(positions):
        hits = sum(1 for p in positions[i:] if p < start + width)
        if hits > best_hits:
            best_start, best_hits = start, hits
    start = max(0, best_start - width // 6)
    end = min(len(flat), start + width)
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(flat) else ""
    return prefix + flat[start:end].strip() + suffix
