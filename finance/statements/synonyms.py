"""Row label -> canonical key, as ordered regex rules (lower rank wins; ties: first row wins)."""

from __future__ import annotations

import re

# How a key's printed value becomes canonical: "as_printed", or "abs" (a flow whose sign the
# contract fixes, e.g. capital expenditure is positive when cash is spent).
SIGN: dict[str, str] = {
    "capital_expenditure": "abs",
    "dividends_paid": "abs",
    "share_repurchases": "abs",
    "interest_expense": "abs",
}

_R = list[tuple[str, int]]
# "Net income", "Net loss", "Net (loss)/earnings", "Net income (loss)" ...
_NET = r"^net (income|earnings|loss|\(loss\)[/ ]?(income|earnings)|(income|earnings)[/ ]?\(loss\))"
_CASH = r"^(net |total )?cash (provided|generated|from|used|\(used\))"

RULES: dict[str, dict[str, _R]] = {
    "income_statement": {
        "revenue": [
            (r"^total (net )?(revenues?|net sales|sales)$", 0),
            (r"^(net )?(revenues?|sales)$", 1),
            (r"^(net )?(revenues?|sales)(, net)?$", 1),
        ],
        "cost_of_revenue": [
            (r"^total cost of (revenues?|sales|goods sold)$", 0),
            (r"^cost of (revenues?|sales|goods sold|products sold|merchandise sold)\b", 1),
            (r"^merchandise costs$", 1),
        ],
        "gross_profit": [(r"^gross (profit|margin)$", 0)],
        "operating_income": [
            (r"^(total )?operating (income|profit)( \(loss\))?$", 0),
            (r"^operating (income|profit) \(loss\)$", 0),
            (
                r"^(\(loss\) income|income \(loss\)|income|earnings|\(loss\)/earnings|loss)"
                r" from operations$",
                0,
            ),
        ],
        "interest_expense": [
            (r"^interest expense$", 0),
            (r"^interest expense, net$", 1),
            (r"^interest and debt expense$", 1),
        ],
        "income_before_tax": [
            (r"before (provision for |\(provision\) benefit for )?(income )?tax", 0),
        ],
        "income_tax": [
            (
                r"^(provision for|\(provision\) benefit for|benefit from|\(benefit\) provision for)"
                r" income taxes?$",
                0,
            ),
            (r"^income tax(es)? (expense|provision|\(expense\)|\(provision\))", 0),
            (r"^provision for \(benefit from\) income taxes?$", 0),
            (r"^income tax(es)?$", 1),
        ],
        "net_income": [
            (
                _NET + r"( \(loss\))? attributable to (?!non.?controlling)",
                0,
            ),
            (r"^net (income|earnings)( \(loss\))?$", 1),
            (_NET + "$", 1),
            (r"^net (income|earnings)( \(loss\))? including non.?controlling", 2),
        ],
        # Internal: net income before non-controlling interests, to read the tax line's sign.
        "_net_income_total": [
            (r"^net (income|earnings)( \(loss\))? including non.?controlling", 0),
            (
                _NET + "$",
                1,
            ),
        ],
    },
    "balance_sheet": {
        "cash_and_equivalents": [
            (r"^cash and (cash )?equivalents$", 0),
            (r"^cash and cash equivalents", 1),
        ],
        "accounts_receivable": [
            (r"^(trade )?accounts receivable", 0),
            (r"^receivables?, net", 1),
            (r"^(trade )?receivables?\b", 2),
        ],
        "inventories": [
            (r"^total inventor(y|ies)$", 0),
            (r"^(merchandise )?inventor(y|ies)(, net)?$", 1),
            (r"^inventor(y|ies)\b", 2),
        ],
        "total_current_assets": [(r"^total current assets$", 0)],
        "ppe_net": [
            (r"^(net )?property,? (plant,? )?(and|&) equipment.*\bnet\b", 0),
            (r"^net property", 0),
        ],
        "total_assets": [(r"^total assets$", 0)],
        "accounts_payable": [(r"^(trade )?accounts payable$", 0), (r"^accounts payable\b", 1)],
        "total_current_liabilities": [(r"^total current liabilities$", 0)],
        "long_term_debt": [
            (r"^long-term debt$", 0),
            (r"^long-term (debt|borrowings)(?!.*current)", 1),
            (
                r"^long-term (debt|borrowings),? (excluding|less|net of)"
                r" current (portion|maturities)",
                1,
            ),
        ],
        "total_liabilities": [(r"^total liabilities$", 0)],
        "shareholders_equity": [
            (
                r"^total (?!liabilities).*(share|stock)holders['\u2019]?"
                r" (equity|deficit|investment)$",
                0,
            ),
            (r"^total (share|stock)holders['\u2019]? (equity|deficit)", 1),
            (r"^total equity$", 2),
        ],
    },
    "cash_flow": {
        "operating_cash_flow": [
            (
                r"^(net |total )?cash (provided|generated|from|used|\(used\)).*operat(ing|ions)"
                r"( activities)?$",
                0,
            ),
        ],
        "depreciation_amortization": [(r"^depreciation\b", 0)],
        "capital_expenditure": [
            (r"^capital expenditures?", 0),
            (
                r"^(purchases?|acquisitions?|additions?|payments?) (of|to|for)"
                r" (property|plant|capital)",
                0,
            ),
            (r"^property(, plant)? and equipment additions", 0),
            (r"^payments? to acquire (property|plant)", 0),
        ],
        "dividends_paid": [
            (r"^(cash )?dividends( paid)?( to (share|stock)holders)?$", 0),
            (r"^(common stock |cash )?dividends (paid|to)(?!.*non.?controlling)", 0),
            (r"^payments? (of|for) (cash )?dividends(?!.*non.?controlling)", 0),
            (r"^(common stock )?cash dividends? (paid|payments?)", 0),
            (r"^dividends\b(?!.*(declared|per share|non.?controlling|received))", 1),
        ],
        "share_repurchases": [
            (r"^(repurchases?|purchases?) of (common |treasury |capital )?(stock|shares)", 0),
            (r"^common stock repurchased", 0),
            (r"^(share|stock) repurchases?", 0),
            (r"^(repurchases?|purchases?) of common stock", 0),
        ],
        "investing_cash_flow": [
            (
                _CASH + r".*investing( activities)?$",
                0,
            ),
        ],
        "financing_cash_flow": [
            (
                _CASH + r".*financing( activities)?$",
                0,
            ),
        ],
    },
}

COMPILED: dict[str, dict[str, list[tuple[re.Pattern[str], int]]]] = {
    statement: {key: [(re.compile(p), rank) for p, rank in rules] for key, rules in keys.items()}
    for statement, keys in RULES.items()
}


def normalise_label(label: str) -> str:
    text = label.lower().replace("\u2019", "'").replace("\u2014", "-").replace("\u2013", "-")
    text = re.sub(r"\(\d\)|\(note \d+\)", "", text)  # footnote markers
    text = re.sub(r"^less:?\s*", "", text)
    text = re.sub(r"\s+", " ", text).strip(" :")
    text = re.sub(r"\s*-\s*net$", ", net", text)
    return text


def match_label(statement: str, label: str) -> list[tuple[str, int]]:
    """All (key, rank) a label could stand for in a statement."""
    norm = normalise_label(label)
    out: list[tuple[str, int]] = []
    for key, rules in COMPILED[statement].items():
        ranks = [rank for pattern, rank in rules if pattern.search(norm)]
        if ranks:
            out.append((key, min(ranks)))
    return out
