"""Return, volatility and drawdown of an adjusted-close series, each with its dated inputs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped,unused-ignore]

from finance.modeling.core import Derived, Input

TRADING_DAYS = 252


@dataclass(frozen=True)
class PriceMetrics:
    total_return: Derived
    annualised_return: Derived
    annualised_volatility: Derived
    max_drawdown: Derived
    peak_date: pd.Timestamp
    trough_date: pd.Timestamp

    def to_dict(self) -> dict[str, Any]:
        return {
            "total_return": self.total_return.to_dict(),
            "annualised_return": self.annualised_return.to_dict(),
            "annualised_volatility": self.annualised_volatility.to_dict(),
            "max_drawdown": self.max_drawdown.to_dict(),
            "peak_date": self.peak_date.date().isoformat(),
            "trough_date": self.trough_date.date().isoformat(),
        }


def _series(prices: Any) -> Any:
    if isinstance(prices, pd.DataFrame):
        if "adj_close" not in prices.columns:
            raise ValueError("price frame has no adj_close column")
        prices = prices["adj_close"]
    if not isinstance(prices, pd.Series):
        raise TypeError("prices must be a pandas Series (or a normalised price frame)")
    series = pd.to_numeric(prices, errors="coerce").dropna().sort_index()
    series.index = pd.DatetimeIndex(series.index)
    if len(series) < 2:
        raise ValueError("at least two prices are needed")
    if (series <= 0).any():
        raise ValueError("prices must be positive")
    return series


def _day(ts: Any) -> str:
    return str(pd.Timestamp(ts).date().isoformat())


def price_metrics(prices: Any, source: str = "price series") -> PriceMetrics:
    """Metrics of a Series of adjusted closes indexed by date (or a frame with adj_close)."""
    series = _series(prices)
    first_date, last_date = series.index[0], series.index[-1]
    first, last = float(series.iloc[0]), float(series.iloc[-1])

    def cite(label: str, when: Any, value: float) -> Input:
        return Input(label, value, {"source": source, "date": _day(when)})

    period = f"{_day(first_date)} to {_day(last_date)}"
    ends = [cite("first adj_close", first_date, first), cite("last adj_close", last_date, last)]
    total = Derived("total_return", last / first - 1, "ratio", "last / first - 1", ends, period)

    days = (last_date - first_date).days
    years = days / 365.25
    annual = (last / first) ** (1 / years) - 1 if years > 0 else math.nan
    annual_formula = f"(last / first) ^ (365.25 / {days} calendar days) - 1"
    annualised = Derived("annualised_return", annual, "ratio", annual_formula, ends, period)

    log_returns = np.log(series / series.shift(1)).dropna()
    std = float(log_returns.std(ddof=1)) if len(log_returns) > 1 else math.nan
    vol_inputs = [
        *ends,
        Input("daily log returns", float(len(log_returns)), {"source": source, "count": True}),
        Input("std of daily log returns", std, {"source": source, "ddof": 1}),
    ]
    volatility = Derived(
        "annualised_volatility",
        std * math.sqrt(TRADING_DAYS),
        "ratio",
        f"std(ln(p_t / p_t-1)) * sqrt({TRADING_DAYS})",
        vol_inputs,
        period,
    )

    running_peak = series.cummax()
    drawdown = series / running_peak - 1
    trough_date = drawdown.idxmin()
    peak_date = series.loc[:trough_date].idxmax()
    peak, trough = float(series.loc[peak_date]), float(series.loc[trough_date])
    max_dd = Derived(
        "max_drawdown",
        float(drawdown.min()),
        "ratio",
        "min over t of (p_t / max(p_s, s <= t) - 1) = trough / peak - 1",
        [cite("peak adj_close", peak_date, peak), cite("trough adj_close", trough_date, trough)],
        period,
    )
    return PriceMetrics(
        total, annualised, volatility, max_dd, pd.Timestamp(peak_date), pd.Timestamp(trough_date)
    )
