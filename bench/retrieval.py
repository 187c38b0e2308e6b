"""Evidence retrieval: is a FinanceBench question's evidence page among the top k search hits?

For every question with evidence pages (the devset, `devset/questions.jsonl`, and the FinanceBench
open-source questions on `filings/`, `financebench_dev.jsonl`; evidence pages are 0-indexed),
parse the document as an upload does (`finance.documents.ingest.ingest_pdf`: page texts and
sections, cached by content hash under `--cache`, default /tmp/finance-retrieval-cache, so re-runs
take seconds), build `finance.documents.search.PageIndex.for_document`, search with the question
text exactly as asked, and print evidence@1, @5 and @10 overall and per question type
(metrics-generated / domain-relevant / novel-generated), then the misses at 5.

Goal: evidence@5 >= 80 % over the questions that have evidence.

    uv run python bench/retrieval.py
    uv run python bench/retrieval.py --misses 0            # figures only
    uv run python bench/retrieval.py --cache /tmp/other    # another parse cache
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from finance.documents.ingest import ParsedDocument, ingest_pdf  # noqa: E402
from finance.documents.search import PageIndex  # noqa: E402
from finance.documents.sections import locate_sections  # noqa: E402

DATA = Path(os.environ.get("SHARED_DATA", ROOT.parent / "shared" / "data")) / "finance"
QUESTION_FILES = (DATA / "devset" / "questions.jsonl", DATA / "financebench_dev.jsonl")
DOC_DIRS = (DATA / "devset" / "docs", DATA / "filings")
KS = (1, 5, 10)
GOAL_AT_5 = 0.80


def questions() -> list[dict[str, Any]]:
    """Questions with evidence whose PDF is present, each once (by financebench_id)."""
    rows: dict[str, dict[str, Any]] = {}
    for path in QUESTION_FILES:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("evidence") and pdf_path(row["doc_name"]) is not None:
                rows.setdefault(row["financebench_id"], row)
    return list(rows.values())


def pdf_path(name: str) -> Path | None:
    for folder in DOC_DIRS:
        path = folder / f"{name}.pdf"
        if path.exists():
            return path
    return None


def load(name: str, cache: Path) -> ParsedDocument:
    """The parsed document; its sections located again by today's code (the cache may be
    older than `finance.documents.sections`; locating them takes milliseconds)."""
    path = pdf_path(name)
    assert path is not None
    doc = ingest_pdf(path.read_bytes(), cache_dir=cache, workers=2)
    doc.sections = locate_sections(doc.pages).to_dict()
    return doc


def evaluate(rows: list[dict[str, Any]], cache: Path) -> list[dict[str, Any]]:
    indexes: dict[str, PageIndex] = {}
    results = []
    for row in rows:
        name = row["doc_name"]
        if name not in indexes:
            indexes[name] = PageIndex.for_document(load(name, cache))
        hits = indexes[name].search(row["question"], k=max(KS))
        pages = [page for page, _, _ in hits]
        evidence = {int(e["evidence_page_num"]) for e in row["evidence"]}
        rank = next((i + 1 for i, page in enumerate(pages) if page in evidence), None)
        results.append({"row": row, "pages": pages, "evidence": evidence, "rank": rank})
    return results


def rate(results: list[dict[str, Any]], k: int) -> str:
    hit = sum(1 for r in results if r["rank"] is not None and r["rank"] <= k)
    return f"{hit:3d}/{len(results):<3d} {hit / max(1, len(results)):6.1%}"


def report(results: list[dict[str, Any]], misses: int) -> None:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        groups[r["row"]["question_type"]].append(r)
    header = "".join(f"  evidence@{k:<2d}      " for k in KS)
    print(f"{'questions':<20s}{header}")
    for label, group in [("all", results), *sorted(groups.items())]:
        print(f"{label:<20s}" + "".join(f"  {rate(group, k)}   " for k in KS))
    at5 = sum(1 for r in results if r["rank"] is not None and r["rank"] <= 5) / max(1, len(results))
    verdict = "met" if at5 >= GOAL_AT_5 else "NOT met"
    print(f"goal: evidence@5 >= {GOAL_AT_5:.0%}: {verdict} ({at5:.1%})")
    missed = [r for r in results if r["rank"] is None or r["rank"] > 5]
    if misses and missed:
        print(f"\nmisses at 5 ({len(missed)}):")
        for r in missed[:misses]:
            row = r["row"]
            print(
                f"- {row['financebench_id']} {row['doc_name']} [{row['question_type']}] "
                f"evidence {sorted(r['evidence'])} rank {r['rank']} top {r['pages'][:5]}\n"
                f"  {row['question'][:160]}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/finance-retrieval-cache"))
    parser.add_argument("--misses", type=int, default=100, help="misses to list (0: none)")
    args = parser.parse_args()
    rows = questions()
    if not rows:
        sys.exit(f"no questions with documents under {DATA} (set SHARED_DATA)")
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results = evaluate(rows, args.cache)
    seconds = time.perf_counter() - started
    docs = len({r["row"]["doc_name"] for r in results})
    print(f"{len(results)} questions with evidence on {docs} documents ({seconds:.1f} s)")
    print(f"data {DATA}, parse cache {args.cache}\n")
    report(results, args.misses)


if __name__ == "__main__":
    main()
