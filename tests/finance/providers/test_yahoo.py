from __future__ import annotations

import datetime as dt

import pandas as pd  # type: ignore[import-untyped]
import pytest

from finance.providers import InMemoryCache, PriceQuery, UnknownSymbolError, YahooFinance
from finance.providers.yahoo import PRICE_COLUMNS, ProfileQuery, StatementQuery, read_price_csv
from tests.finance.providers.conftest import PRICES

# file -> (rows, first date, last date)
RECORDED = {
    "CALM-1d-no-bad-divs.csv": (662, "2022-01-03", "2024-08-21"),
    "EWG-1d-no-bad-divs.csv": (662, "2022-01-03", "2024-08-21"),
    "EA-15m-no-bad-divs.csv": (319, "2026-05-26 04:00", "2026-06-03 14:15"),
    "nvda-1999-2014.csv": (4012, "1999-01-22", "2014-12-31"),
    "orcl-1995-2014.csv": (5036, "1995-01-03", "2014-12-31"),
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_parses_every_recorded_price_file(name):
    path = PRICES / name
    if not path.is_file():
        pytest.skip(f"recorded price file not found: {path}")
    frame = read_price_csv(path)
    rows, first, last = RECORDED[name]
    assert len(frame) == rows
    assert isinstance(frame.index, pd.DatetimeIndex)
    assert frame.index.name == "date"
    assert frame.index.tz is None
    assert frame.index.is_monotonic_increasing
    assert frame.index[0] == pd.Timestamp(first)
    assert frame.index[-1] == pd.Timestamp(last)
    assert list(frame.columns[: len(PRICE_COLUMNS)]) == list(PRICE_COLUMNS)
    assert frame["adj_close"].notna().all()
    assert (frame["adj_close"] > 0).all()
    assert (frame["high"] >= frame["low"]).all()


def test_classic_format_gets_zero_actions():
    path = PRICES / "nvda-1999-2014.csv"
    if not path.is_file():
        pytest.skip(f"recorded price file not found: {path}")
    frame = read_price_csv(path)
    assert (frame["dividends"] == 0).all()
    assert frame.loc["1999-01-22", "adj_close"].item() == pytest.approx(1.518424)


class FakeTicker:
    def __init__(self, history: pd.DataFrame, info=None):
        self._history = history
        self.calls = 0
        self.info = info or {}
        self.income_stmt = pd.DataFrame(
            {pd.Timestamp("2024-09-30"): {"Total Revenue": 391_035_000_000.0}}
        )

    def history(self, **kwargs):
        self.calls += 1
        assert kwargs["auto_adjust"] is False
        return self._history


def _yf_frame():
    index = pd.DatetimeIndex(
        ["2024-08-20 00:00:00-04:00", "2024-08-21 00:00:00-04:00"], name="Date"
    )
    return pd.DataFrame(
        {
            "Open": [1.0, 2.0],
            "High": [1.5, 2.5],
            "Low": [0.5, 1.5],
            "Close": [1.2, 2.2],
            "Adj Close": [1.1, 2.1],
            "Volume": [100, 200],
            "Dividends": [0.0, 0.0],
            "Stock Splits": [0.0, 0.0],
        },
        index=pd.to_datetime(index, utc=True).tz_convert("America/New_York"),
    )


def test_live_path_normalises_and_caches():
    ticker = FakeTicker(_yf_frame(), info={"longName": "Example Corp"})
    yahoo = YahooFinance(cache=InMemoryCache(), ticker_factory=lambda symbol: ticker)
    query = PriceQuery("exmp", start=dt.date(2024, 8, 1))
    first = yahoo.get_prices(query)
    second = yahoo.get_prices(query)
    assert ticker.calls == 1 and second.from_cache
    assert first.data.index[-1] == pd.Timestamp("2024-08-21")
    assert first.data["adj_close"].tolist() == [1.1, 2.1]
    assert first.source.provider == "yahoo_finance"
    assert "EXMP" in first.source.location
    assert yahoo.get_profile(ProfileQuery("EXMP")).data["longName"] == "Example Corp"
    statement = yahoo.get_statement(StatementQuery("EXMP", "income")).data
    assert statement.iloc[0, 0] == 391_035_000_000.0


def test_unknown_ticker_is_a_clear_error():
    yahoo = YahooFinance(ticker_factory=lambda symbol: FakeTicker(pd.DataFrame()))
    with pytest.raises(UnknownSymbolError, match="NOSUCH"):
        yahoo.get_prices(PriceQuery("NOSUCH"))
    with pytest.raises(UnknownSymbolError, match="NOSUCH"):
        yahoo.get_profile(ProfileQuery("NOSUCH"))
