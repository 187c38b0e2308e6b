"""Write the `finance` suite from FinanceBench: `python -m finance.evaluation.build_suite`.

Reads, under SHARED_DATA: finance/financebench_dev.jsonl, finance/devset/questions.jsonl and
finance/devset/documents.jsonl. Writes finance/evaluation/suite/{numeric,statements,retrieval}.json.

* A question appears once, by `financebench_id` (the two question files share some).
* A **numeric question** is one whose reference answer is a single number: every
  `metrics-generated` question (computed from the statements), plus any other whose answer is a
  bare number ("77.78", "$1577.00", "4.2%", optionally ending in a full stop), nothing else in
  it. Each becomes a `numeric-*` task: the question as the user asked it, checked with
  `numeric_answer` (the reference and its unit: "%" when the answer prints one; else the USD
  scale the question names, "USD millions" for a dollar amount that names none, FinanceBench's
  convention; else "ratio") and `cited_page_prints_value`.
* Every document of the three files gets a `statements-*` task (doc type and period from
  documents.jsonl, else from the file name), checked with `statements_years`,
  `accounting_identities` and, for 10-Ks, `core_lines`.
* Every question with evidence pages gets a `retrieval-*` task: the question as asked, checked
  with `evidence_retrieved` (an evidence page among the top 5 passages the run retrieved).

Hand-kept marks survive regeneration: `suite/known_failures.json` (task id -> reason) is merged
into the tasks, and QUICK below names the CI subset. Hand-written task files in the folder
(`suite/holdout.json`: analysts' questions the planner was not developed on, tagged `holdout`,
each with its own `known_failure`) are loaded with the rest and never written by the build.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agents.evaluation.inputs import shared_data_root
from finance.evaluation.figures import read_reference
from finance.evaluation.shared_data import DOCUMENT_FOLDERS, document_path

SUITE = Path(__file__).resolve().parent / "suite"
KNOWN_FAILURES = SUITE / "known_failures.json"
CARRIES_FILE = SUITE / "statement_carries.json"
QUESTION_FILES = (
    ("dev", "finance/financebench_dev.jsonl"),
    ("devset", "finance/devset/questions.jsonl"),
)
DOCUMENTS_FILE = "finance/devset/documents.jsonl"
STATEMENTS_PROMPT = (
    "Read the income statement, balance sheet and cash flow statement of this filing."
)
RETRIEVAL_TOP_K = 5
# The CI subset: fast tasks that pass today (three small filings), one or two of each check.
QUICK = (
    "numeric-03029-3M_2018_10K",
    "numeric-03282-NETFLIX_2017_10K",  # printed in thousands
    "statements-3M_2018_10K",
    "statements-NETFLIX_2017_10K",
    "retrieval-03029-3M_2018_10K",
    "retrieval-00822-FOOTLOCKER_2022_8K_dated-2022-05-20",  # an analyst's question on an 8-K
)
_NAME = re.compile(r"_(\d{4})(Q\d)?_(10K|10Q|8K|EARNINGS)", re.IGNORECASE)
_USD_SCALE = re.compile(
    r"\bUSD\s+(thousands?|millions?|billions?)\b|\bin\s+(thousands|millions|billions)\b", re.I
)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def questions(root: Path) -> list[dict[str, Any]]:
    """Each question once (first file wins), with the file it came from as `origin`."""
    seen: dict[str, dict[str, Any]] = {}
    for origin, relative in QUESTION_FILES:
        for record in read_jsonl(root / relative):
            qid = record["financebench_id"]
            if qid in seen:
                if (
                    seen[qid]["question"] != record["question"]
                    or seen[qid]["answer"] != record["answer"]
                ):
                    raise SystemExit(f"{qid} differs between the question files")
                continue
            seen[qid] = {**record, "origin": origin}
    return sorted(seen.values(), key=lambda q: (q["doc_name"], q["financebench_id"]))


def is_numeric(question: dict[str, Any]) -> bool:
    if question.get("question_type") == "metrics-generated":
        return True
    try:
        read_reference(str(question["answer"]))
    except ValueError:
        return False
    return True


def reference_unit(question: str, answer: str) -> str:
    if answer.strip().rstrip(".").endswith("%"):
        return "%"
    scale = _USD_SCALE.search(question)
    if scale:
        word = (scale.group(1) or scale.group(2)).lower().rstrip("s")
        return f"USD {word}s"
    if answer.strip().startswith("$"):
        return "USD millions"
    return "ratio"


def short_id(question: dict[str, Any]) -> str:
    return str(question["financebench_id"]).rsplit("_", 1)[-1]


def document_input(root: Path, doc_name: str) -> dict[str, Any]:
    relative = document_path(doc_name, root)
    if relative is None:
        raise SystemExit(f"no PDF for {doc_name} under {root}")
    return {"documents": [relative]}


def numeric_task(root: Path, q: dict[str, Any]) -> dict[str, Any]:
    doc = q["doc_name"]
    return {
        "id": f"numeric-{short_id(q)}-{doc}",
        "prompt": q["question"],
        "inputs": document_input(root, doc),
        "tags": ["numeric", q["question_type"], q["origin"], doc],
        "verify": [
            {
                "check": "numeric_answer",
                "document": doc,
                "reference": q["answer"].strip(),
                "unit": reference_unit(q["question"], q["answer"]),
            },
            {"check": "cited_page_prints_value", "document": doc},
        ],
    }


def retrieval_task(root: Path, q: dict[str, Any]) -> dict[str, Any]:
    doc = q["doc_name"]
    pages = sorted({int(e["evidence_page_num"]) for e in q["evidence"]})
    return {
        "id": f"retrieval-{short_id(q)}-{doc}",
        "prompt": q["question"],
        "inputs": document_input(root, doc),
        "tags": ["retrieval", q["question_type"], q["origin"], doc],
        "verify": [
            {"check": "evidence_retrieved", "document": doc, "pages": pages, "k": RETRIEVAL_TOP_K}
        ],
    }


def document_facts(root: Path, doc_names: Iterable[str]) -> dict[str, tuple[str, int]]:
    """doc name -> (doc type, period): from documents.jsonl, else read off the file name."""
    listed = {
        d["doc_name"]: (str(d["doc_type"]).lower(), int(d["doc_period"]))
        for d in read_jsonl(root / DOCUMENTS_FILE)
    }
    facts = {}
    for name in doc_names:
        if name in listed:
            facts[name] = listed[name]
            continue
        match = _NAME.search(name)
        if match is None:
            raise SystemExit(f"cannot tell the type and period of {name}")
        kind = match.group(3).lower()
        facts[name] = (kind if kind != "earnings" else "earnings", int(match.group(1)))
    return facts


def statements_task(
    root: Path, doc: str, doc_type: str, period: int, carries: list[str] | None = None
) -> dict[str, Any]:
    said = {} if carries is None else {"carries": carries}
    checks: list[dict[str, Any]] = [
        {
            "check": "statements_years",
            "document": doc,
            "doc_type": doc_type,
            "period": period,
            **said,
        },
        {"check": "accounting_identities", "document": doc, "doc_type": doc_type, **said},
    ]
    if doc_type == "10k":
        checks.append({"check": "core_lines", "document": doc, "period": period})
    elif carries is None or carries:  # what a quarter, a release or an 8-K carries, checked
        checks.append(
            {"check": "core_lines", "document": doc, "doc_type": doc_type, "period": period, **said}
        )
    return {
        "id": f"statements-{doc}",
        "prompt": STATEMENTS_PROMPT,
        "inputs": document_input(root, doc),
        "tags": ["statements", doc_type, doc],
        "verify": checks,
    }


def build(root: Path) -> dict[str, list[dict[str, Any]]]:
    """The three task lists, deterministic for the same input files."""
    found = questions(root)
    listed = [d["doc_name"] for d in read_jsonl(root / DOCUMENTS_FILE)]
    # Every PDF in the folders counts, also one that no question or listing names.
    on_disk = [p.stem for folder in DOCUMENT_FOLDERS for p in sorted((root / folder).glob("*.pdf"))]
    doc_names = sorted({*listed, *(q["doc_name"] for q in found), *on_disk})
    facts = document_facts(root, doc_names)
    carries = read_carries()
    return {
        "numeric": [numeric_task(root, q) for q in found if is_numeric(q)],
        "statements": [
            statements_task(root, doc, *facts[doc], carries.get(doc)) for doc in doc_names
        ],
        "retrieval": [retrieval_task(root, q) for q in found if q.get("evidence")],
    }


def mark(files: dict[str, list[dict[str, Any]]], known: dict[str, str]) -> list[str]:
    """Merge known failures and the quick subset in; return the marks that match no task."""
    ids = {task["id"] for tasks in files.values() for task in tasks}
    for tasks in files.values():
        for task in tasks:
            if task["id"] in known:
                task["known_failure"] = known[task["id"]]
            if task["id"] in QUICK:
                task["quick"] = True
    return sorted((set(known) | set(QUICK)) - ids)


def hand_written_ids() -> set[str]:
    """Ids of the tasks in the hand-written files (hold-outs), which carry their own marks."""
    built = {"numeric", "statements", "retrieval"}
    ids = set()
    for path in sorted(SUITE.glob("*.json")):
        if path.stem in built or path.name in ("floors.json", KNOWN_FAILURES.name):
            continue
        tasks = json.loads(path.read_text(encoding="utf-8")).get("tasks") or []
        ids |= {str(task["id"]) for task in tasks if isinstance(task, dict) and "id" in task}
    return ids


def read_carries() -> dict[str, list[str]]:
    """The hand-kept statements of documents that differ from their kind's (`carries`)."""
    if not CARRIES_FILE.exists():
        return {}
    data = json.loads(CARRIES_FILE.read_text(encoding="utf-8"))
    return {str(doc): list(entry["carries"]) for doc, entry in data["carries"].items()}


def read_known_failures() -> dict[str, str]:
    if not KNOWN_FAILURES.exists():
        return {}
    data = json.loads(KNOWN_FAILURES.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in (data.get("known_failures") or {}).items()}


def main() -> int:
    root = shared_data_root()
    if not (root / QUESTION_FILES[0][1]).exists():
        print(f"the shared data is not at {root} (set SHARED_DATA)", file=sys.stderr)
        return 1
    files = build(root)
    stale = mark(files, read_known_failures())
    for name, tasks in files.items():
        document = {"tasks": tasks}
        (SUITE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        known = sum("known_failure" in task for task in tasks)
        print(f"{name}.json: {len(tasks)} tasks, {known} known failures")
    for task_id in sorted(set(stale) - hand_written_ids()):
        print(f"warning: {task_id} is marked but no task has that id", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
