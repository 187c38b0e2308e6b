"""Row label -> canonical key, as ordered regex rules (lower rank wins; ties: first row wins)."""

from __future__ import annotations

import re
import unicodedata

# How a key's printed value becomes canonical: "as_printed", or "abs" (a flow whose sign the
# contract fixes, e.g. capital expenditure is positive when cash is spent).
SIGN: dict[str, str] = {
    "capital_expenditure": "abs",
    "dividends_paid": "abs",
    "share_repurchases": "abs",
    "interest_expense": "abs",
    "research_and_development": "abs",
    "selling_general_administrative": "abs",
}

UNSCALED = frozenset({"eps_basic", "eps_diluted"})
"""Per-share amounts: printed as they are, whatever unit the statement's other lines are in."""

_R = list[tuple[str, int]]
# "Net income", "Net loss", "Net (loss)/earnings", "Net income (loss)" ...
_NET = r"^net (income|earnings|loss|\(loss\)[/ ]?(income|earnings)|(income|earnings)[/ ]?\(loss\))"
# "Net cash provided by", "Cash flows from", "Net cash (used in) provided by", "Net cash used for"
_CASH = r"^(net |total )?cash( flows?)?\b(?!.*\bnon-?cash)(?!.*\b(paid|received)\b)"
_ACTIVITIES = r"( activities)?( - total| total)?$"
_CHANGE = r"(\(?(increase|decrease)\)?[ /,]*(and |or )?(\(?(increase|decrease)\)?)?|change)"

RULES: dict[str, dict[str, _R]] = {
    "income_statement": {
        "revenue": [
            (r"^total (net )?(revenues?|net sales|sales)( and other income)?$", 0),
            (r"^total (net |operating )?revenues?,? net of interest expense", 0),
            (r"^total (operating )?revenues?$", 0),
            (r"^(net )?(revenues?|sales)$", 1),
            (r"^(net )?(revenues?|sales)(, net)?$", 1),
            (r"^(total )?operating revenues?$", 1),
            (r"^(total )?net revenues?$", 1),
            (r"^revenues?,? net of interest expense", 1),
            (r"^(total )?(net )?sales and (other )?(operating )?revenues?$", 1),
            (r"^(total )?(net )?sales to (customers|clients)$", 1),
        ],
        "cost_of_revenue": [
            (r"^total cost of (revenues?|sales|goods sold)$", 0),
            (r"^cost of (revenues?|sales|goods sold|products sold|merchandise sold)\b", 1),
            (r"^merchandise costs$", 1),
        ],
        "gross_profit": [(r"^gross (profit|margin)$", 0)],
        # Operating expense lines, as printed between gross profit and operating income.
        "research_and_development": [
            (r"^(total )?research and development( expenses?| costs?)?$", 0),
            (r"^(total )?research(,| and) development\b(?!.*\b(acquired|in-process)\b)", 1),
        ],
        "selling_general_administrative": [
            (r"^(total )?selling, general,? and administrative( expenses?| costs?)?$", 0),
            (r"^(total )?(selling|marketing|sales)(,| and) general,? and administrative\b", 1),
            # "Selling, informational and administrative expenses": the filer's own middle word.
            (r"^(total )?selling, [a-z]+,? and administrative( expenses?| costs?)?$", 2),
        ],
        "operating_income": [
            (r"^(total )?operating (income|profit)( \(loss\))?$", 0),
            (r"^operating (income|profit) \(loss\)$", 0),
            (
                r"^(\(loss\) income|income \(loss\)|income|earnings|\(loss\)/earnings|loss)"
                r" from operations$",
                0,
            ),
        ],
        # The total as printed ("Total operating expenses", "Total operating costs and
        # expenses"): with or without the cost of sales, as the filer sums it; never a lone
        # "Operating expenses" line (one expense among others in some filings).
        "total_operating_expenses": [
            (r"^total operating (costs and )?expenses$", 0),
            (r"^total (costs and )?operating expenses$", 0),
            (r"^total operating costs$", 0),
        ],
        "interest_expense": [
            (r"^interest expense$", 0),
            (r"^total interest expense$", 0),
            (r"^interest expense, net$", 1),
            # "Interest expense-net of capitalized interest of $9.5 ...": still the expense
            (r"^interest expense[\s,-]+net of (amounts |interest )?capitali[sz]ed\b", 1),
            (r"^interest and debt expense$", 1),
        ],
        "net_interest_income": [(r"^net interest income$", 0)],
        # A bank's operating costs: "Total noninterest expense" (its lines above it are parts).
        "noninterest_expense": [
            (r"^total non-?interest expenses?$", 0),
            (r"^non-?interest expenses?$", 1),
        ],
        "provision_for_credit_losses": [
            (r"^(total )?provisions? for (credit|loan|loan and lease) losses$", 0),
            (r"^provisions? for (credit|loan) losses\b", 1),
        ],
        "income_before_tax": [
            (r"before (provision for |\(provision\) benefit for )?(income )?tax", 0),
            (r"^pre-?tax (income|earnings)", 1),
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
            (r"^(provision for|\(provision\) benefit for) (income )?taxes?\b", 1),
        ],
        "net_income": [
            (
                _NET + r"( \(loss\))? attributable to (?!non.?controlling|participating)",
                0,
            ),
            (r"^net (income|earnings)( \(loss\))?$", 1),
            (_NET + "$", 1),
            (r"^net (income|earnings)( \(loss\))? including non.?controlling", 2),
        ],
        # Internal: net income before non-controlling interests, to read the tax line's sign.
        "_net_income_total": [
            (r"^net (income|earnings)( \(loss\))? including non.?controlling", 0),
            (_NET + "$", 1),
        ],
        "eps_basic": [(r"^(net (income|earnings) per share[-,: ]*)?basic\b", 0)],
        "eps_diluted": [(r"^(net (income|earnings) per share[-,: ]*)?diluted\b", 0)],
    },
    "balance_sheet": {
        "cash_and_equivalents": [
            (r"^cash and (cash )?equivalents$", 0),
            (r"^cash and cash equivalents", 1),
            (r"^cash and due from banks$", 1),
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
            (r"^(total )?property,? plant,? (and|&) equipment\b(?!.*\bgross\b)", 2),
        ],
        "total_assets": [(r"^total assets$", 0)],
        "accounts_payable": [
            (r"^(trade )?accounts payable$", 0),
            (r"^trade (accounts )?payables?$", 0),
            (r"^accounts payable\b", 1),
        ],
        "total_current_liabilities": [(r"^total current liabilities$", 0)],
        "long_term_debt": [
            (r"^long-term debt$", 0),
            (r"^long-term (debt|borrowings)(?!.*current)", 1),
            (
                r"^long-term (debt|borrowings),? (excluding|less|net of)"
                r" current (portion|maturities)",
                1,
            ),
            (r"^(non-?current )?term debt$", 2),
        ],
        # Debt due within a year: borrowings that are short-term by nature, and the part of
        # the long-term debt that falls due (a filing prints either, both, or one line for both).
        "short_term_debt": [
            (r"^(short-term|current) (debt|borrowings)\b", 0),
            (r"^(loans|notes|loans and notes|bank loans) payable$", 1),
            (r"^commercial paper$", 1),
        ],
        "current_debt": [
            (
                r"^current (portion|maturities|installments) of (long-term |term )?"
                r"(debt|borrowings)",
                0,
            ),
            (r"^long-term (debt|borrowings),? (classified as current|due within one year)", 0),
            # "Debt maturing within one year": borrowings and current maturities in one line.
            (r"^(long-term )?(debt|borrowings) (maturing|due|payable) within one year$", 0),
        ],
        "total_liabilities": [(r"^total liabilities$", 0)],
        "shareholders_equity": [
            (
                r"^total (?!liabilities).*(share|stock)holders['\u2019]?"
                r" (equity|deficit|investment)$",
                0,
            ),
            (r"^total (share|stock)holders['\u2019]? (equity|deficit)", 1),
            (r"^total (share ?owners|shareholders|stockholders)['\u2019]? equity\b", 1),
            (r"^total equity$", 2),
        ],
        # "Total shareholders' equity" under "Total Amcor plc shareholders' equity" and the
        # non-controlling interests: the whole equity, as "Total equity" is elsewhere.
        "total_equity": [
            (r"^total (equity|capital)$", 0),
            (r"^total (share|stock)holders['\u2019]? equity( \(deficit\))?$", 1),
            (r"^total shareowners['\u2019]? equity$", 1),
        ],
        "noncontrolling_interests": [
            (r"^(non-?controlling|minority) interests?( in (consolidated )?subsidiaries)?$", 0),
        ],
        "temporary_equity": [
            (r"^redeemable (non-?controlling|preferred|convertible)", 0),
            (r"^(total )?temporary equity$", 0),
        ],
        "total_liabilities_and_equity": [
            (r"^total liabilities,? (and|&) .{0,40}(equity|deficit|capital)$", 0),
            (r"^total equities$", 1),
        ],
    },
    "cash_flow": {
        "net_income": [
            (_NET + r"( \(loss\))?( including non.?controlling interests?)?$", 0),
            (_NET + r"( \(loss\))? attributable to", 1),
        ],
        "operating_cash_flow": [
            (_CASH + r"(?!.*continu).*\boperat(ing|ions)" + _ACTIVITIES, 0),
            (_CASH + r"(?!.*discontinu).*\boperat(ing|ions) activities\b", 2),
        ],
        "depreciation_amortization": [(r"^depreciation\b", 0)],
        "stock_based_compensation": [
            (r"^(stock|share|equity)[- ]based (compensation|payment)( expenses?| costs?)?$", 0),
            (r"^(stock|share|equity)[- ]based (compensation|payment)\b(?!.*\b(tax|excess)\b)", 1),
        ],
        "capital_expenditure": [
            (r"^capital (expenditures?|spending)", 0),
            (
                r"^(purchases?|acquisitions?|additions?|payments?|investments?|expenditures?)"
                r" (of|to|for|in|on)\b.{0,30}\b(property|plant|equipment|premises|fixed assets"
                r"|capital assets|productive assets)",
                0,
            ),
            (r"^property(, plant)? and equipment (additions|expenditures|purchases)", 0),
            (r"^payments? to acquire (property|plant|productive)", 0),
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
            (_CASH + r"(?!.*continu).*\binvesting" + _ACTIVITIES, 0),
            (_CASH + r"(?!.*discontinu).*\binvesting activities\b", 2),
        ],
        "financing_cash_flow": [
            (_CASH + r"(?!.*continu).*\bfinancing" + _ACTIVITIES, 0),
            (_CASH + r"(?!.*discontinu).*\bfinancing activities\b", 2),
        ],
        "fx_effect_on_cash": [
            (r"^effects? of (foreign )?(currency )?exchange rates?( changes)?\b", 0),
            (r"^(foreign )?(currency|exchange.rate) effects? on cash\b", 0),
            (r"^(foreign )?(currency )?exchange rate (effect|changes)\b.*\bcash\b", 1),
        ],
        "net_change_in_cash": [
            (r"^(total |net )" + _CHANGE + r" in cash\b(?!.*\b(held.for.sale|discontinued)\b)", 0),
            (r"^" + _CHANGE + r" in cash\b(?!.*\b(held.for.sale|discontinued)\b)", 1),
        ],
    },
}


def accepts(key: str, cells: list[str]) -> bool:
    """Whether a row's printed cells can be `key`: a per-share amount has decimals and is small
    ("Diluted" also heads a row of share counts)."""
    if key in UNSCALED:
        return bool(cells) and all(
            "." in text or text.strip("$()") in {"-", "\u2014"} for text in cells
        )
    return True


COMPILED: dict[str, dict[str, list[tuple[re.Pattern[str], int]]]] = {
    statement: {key: [(re.compile(p), rank) for p, rank in rules] for key, rules in keys.items()}
    for statement, keys in RULES.items()
}


def normalise_label(label: str) -> str:
    # Some fonts map the "ti" ligature to NUL ("ac\x00vi\x00es"); NFKC splits "ﬁ" and "ﬂ".
    text = unicodedata.normalize("NFKC", label.replace("\x00", "ti")).lower()
    text = text.replace("\u2019", "'").replace("\u2014", "-").replace("\u2013", "-")
    # Footnote markers: "(1)", "(a)", "(a)(b)", "(Note 5)", "(see Note 13)".
    text = re.sub(r"(\s*\((\d{1,2}|[a-z])\))+$|\((\d|see )?\s*notes? [\d, and]+\)", "", text)
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


_PER_SHARE_HEADING = re.compile(r"\b(earnings|income|loss|eps)\b.*\bper\b.*\bshare\b|\beps\b")
_BASIS = re.compile(r"\b(basic|diluted)\b")


_BARE_DEBT = re.compile(r"^(term )?(debt|borrowings)$")
_CURRENT_LIABILITIES = re.compile(r"(?<!non-)(?<!non)\bcurrent liabilities\b")


def _current_debt_row(statement: str, label: str, section: str) -> bool:
    """A bare "Term debt" printed under "Current liabilities": the part of the debt due within
    a year (the same words under "Non-current liabilities" are the long-term debt)."""
    return (
        statement == "balance_sheet"
        and _BARE_DEBT.match(normalise_label(label)) is not None
        and _CURRENT_LIABILITIES.search(normalise_label(section)) is not None
    )


def match_row(statement: str, label: str, section: str = "") -> list[tuple[str, int]]:
    """All (key, rank) a row could stand for, given the heading it is printed under.

    Under a per-share heading ("Earnings per common share - diluted:", "Net income per share:")
    the rows are amounts per share: the net income line there is EPS (basic or diluted, as the
    label or else the heading says), and no row is a line of the statement in millions."""
    if _current_debt_row(statement, label, section):
        return [("current_debt", 0)]
    matches = match_label(statement, label)
    heading = normalise_label(section)
    if statement != "income_statement" or not _PER_SHARE_HEADING.search(heading):
        return matches
    per_share = [(key, rank) for key, rank in matches if key in UNSCALED]
    if per_share or not any(key == "net_income" for key, _ in matches):
        return per_share
    basis = _BASIS.findall(normalise_label(label)) or _BASIS.findall(heading)
    return [(f"eps_{basis[-1]}", 0)] if basis else []
