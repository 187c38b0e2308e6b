"""Document profiles (type, company, ticker, period) of the shared PDFs against the devset key.

    .venv/bin/python -m bench.document_profiles [--pages 60] [--verbose]

The key (`devset/documents.jsonl`) is used only here, to score `read_profile`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from rapidfuzz import fuzz

from finance.documents.matching import match_documents, normalize_company
from finance.documents.profile import DocumentProfile, read_profile
from finance.statements.locate import page_texts

SHARED = Path(
    os.environ.get("SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
FINANCE = SHARED / "finance"
KEY_TYPES = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "earnings": "earnings release"}


def first_pages(path: Path, n: int) -> list[str]:
    return page_texts(str(path), limit=n)


def company_ok(prof: DocumentProfile, expected: str) -> bool:
    """The key's name ("AMD", "JPMorgan") names the profile, as a request would."""
    a, b = normalize_company(prof.company), normalize_company(expected)
    if not a:
        return False
    return fuzz.token_set_ratio(a, b) >= 85 or bool(match_documents(expected, {0: prof}))


def ticker_printed(pages: list[str], doc_type: str) -> bool:
    head = " ".join(pages[:3])
    if doc_type == "earnings release":
        return bool(re.search(r"\((NYSE|NASDAQ|Nasdaq)[^:)]{0,12}:", head))
    return bool(re.search(r"trading\s+symbol", head, re.IGNORECASE))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=60)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    key_path = FINANCE / "devset" / "documents.jsonl"
    if not key_path.exists():
        print(f"no key at {key_path}", file=sys.stderr)
        return 1
    key = {r["doc_name"]: r for r in map(json.loads, key_path.read_text().splitlines()) if r}
    pdfs = sorted((FINANCE / "devset" / "docs").glob("*.pdf")) + sorted(
        (FINANCE / "filings").glob("*.pdf")
    )
    tallies: dict[str, list[int]] = {
        "doc_type": [0, 0],
        "company": [0, 0],
        "ticker": [0, 0],
        "year": [0, 0],
    }
    for path in pdfs:
        row = key.get(path.stem)
        if row is None:
            continue
        pages = first_pages(path, args.pages)
        prof: DocumentProfile = read_profile(pages)
        want_type = KEY_TYPES.get(str(row["doc_type"]).lower(), "other")
        checks: dict[str, bool] = {
            "doc_type": prof.doc_type == want_type,
            "company": company_ok(prof, row["company"]),
            "year": prof.fiscal_year == int(row["doc_period"])
            or (prof.period_end or "")[:4] == str(row["doc_period"]),
        }
        if ticker_printed(pages, want_type):
            checks["ticker"] = prof.ticker is not None
        for name, ok in checks.items():
            tallies[name][0] += int(ok)
            tallies[name][1] += 1
        bad = [k for k, ok in checks.items() if not ok]
        print(
            f"{'ok ' if not bad else 'BAD'} {path.stem:40s} {prof.doc_type:16s} "
            f"{prof.company[:32]:32s} {prof.ticker or '-':6s} {prof.period_end or '-':10s} "
            f"FY{prof.fiscal_year or '?'} Q{prof.fiscal_quarter or '-'} "
            f"| key {row['company']} {row['doc_period']}"
            + (f"  missed: {','.join(bad)}" if bad else "")
        )
        if args.verbose:
            for reason in prof.reasons:
                print(f"      {reason}")
    print()
    for field_name, (good, n) in tallies.items():
        print(f"{field_name:9s} {good}/{n} = {100 * good / max(n, 1):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
