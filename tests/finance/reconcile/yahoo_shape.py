"""yfinance annual statement frames for Apple FY2024/FY2023: a SHAPE FIXTURE, not recorded data.

No recorded yfinance statement response exists in the shared data. These frames have yfinance's
exact shape (rows named as yfinance names them, one ``Timestamp`` column per fiscal period end,
most recent first, values in dollars, capital expenditure negative) and the numbers Apple reported
in its FY2024 10-K. yfinance dates Apple's years at month end (2024-09-30), not the 52/53-week
end the filing uses (2024-09-28).
"""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]

FY2024 = pd.Timestamp("2024-09-30")
FY2023 = pd.Timestamp("2023-09-30")
B = 1_000_000  # the figures below are in $M; yfinance reports dollars

INCOME = {
    "Total Revenue": (391_035, 383_285),
    "Cost Of Revenue": (210_352, 214_137),
    "Gross Profit": (180_683, 169_148),
    "Research And Development": (31_370, 29_915),
    "Operating Income": (123_216, 114_301),
    "Pretax Income": (123_485, 113_736),
    "Tax Provision": (29_749, 16_741),
    "Net Income Common Stockholders": (93_736, 96_995),
    "Net Income": (93_736, 96_995),
}
BALANCE = {
    "Total Assets": (364_980, 352_583),
    "Total Liabilities Net Minority Interest": (308_030, 290_437),
    "Stockholders Equity": (56_950, 62_146),
    "Cash And Cash Equivalents": (29_943, 29_965),
}
CASHFLOW = {
    "Operating Cash Flow": (118_254, 110_543),
    "Capital Expenditure": (-9_447, -10_959),
    "Free Cash Flow": (108_807, 99_584),
}


def _frame(rows: dict[str, tuple[float, float]]) -> pd.DataFrame:
    return pd.DataFrame(
        {FY2024: [v[0] * B for v in rows.values()], FY2023: [v[1] * B for v in rows.values()]},
        index=list(rows),
    )


def apple_frames(**changes: tuple[float, float]) -> dict[str, pd.DataFrame]:
    """The three frames, with ``changes`` (row name with spaces as underscores -> values)."""
    edited = [
        {k: changes.get(k.replace(" ", "_"), v) for k, v in rows.items()}
        for rows in (INCOME, BALANCE, CASHFLOW)
    ]
    return {
        "income_stmt": _frame(edited[0]),
        "balance_sheet": _frame(edited[1]),
        "cashflow": _frame(edited[2]),
    }
