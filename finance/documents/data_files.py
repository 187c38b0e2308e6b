"""A person's own data files (CSV): read, paged for the viewer, and price series taken out.

Plain Python. Bad files raise `DocumentError` with the reason: binary or non-UTF-8 bytes, no
header, no data rows, too many rows, a price column ('Close', 'Price', ...) that holds no numbers.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

from finance.documents.ingest import DocumentError, ParsedDocument, cache_load, cache_store

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]

MAX_ROWS = 2_000_000
ROWS_PER_PAGE = 50
DATE_COLUMNS = ("date", "datetime", "timestamp", "time", "day", "period")
PRICE_COLUMNS = ("adj close", "adj_close", "adjusted close", "close", "price", "value")
NUMERIC_SHARE = 0.9  # of a price column's non-blank cells that must be numbers


def read_data_csv(data: bytes) -> pd.DataFrame:
    """The CSV as a frame with stripped column names."""
    # pandas loads where a CSV is read, not when the web process imports this module.
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]

    if b"\x00" in data[:65536]:
        raise DocumentError("the file is not a CSV (it holds binary data)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DocumentError(f"the CSV is not UTF-8 text (byte {error.start})") from error
    try:
        frame = pd.read_csv(io.StringIO(text), nrows=MAX_ROWS + 1)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise DocumentError(f"the CSV cannot be read: {str(error).strip()}") from error
    if len(frame.columns) < 1 or frame.empty:
        raise DocumentError("the CSV has a header but no data rows")
    if len(frame) > MAX_ROWS:
        raise DocumentError(f"the CSV has more than {MAX_ROWS:,} rows")
    frame.columns = [str(c).strip() for c in frame.columns]
    check_price_column(frame)
    return frame


def check_price_column(frame: pd.DataFrame) -> None:
    """Refuse a file whose price column (by its name) is not numbers: "the CSV's price column
    'Close' is not numeric: row 2 holds 'n/a'". Blank cells are allowed."""
    column = _column(frame, PRICE_COLUMNS)
    if column is None:
        return
    values = frame[column]
    present = values[values.notna() & (values.astype(str).str.strip() != "")]
    if present.empty:
        raise DocumentError(f"the CSV's price column {column!r} is empty")
    numbers = _numbers(present)
    if numbers.notna().mean() >= NUMERIC_SHARE:
        return
    bad = numbers[numbers.isna()].index[0]
    text = str(present.loc[bad]).strip()
    raise DocumentError(
        f"the CSV's price column {column!r} is not numeric: row {int(bad) + 1} holds "
        f"{text[:40]!r}; prices must be numbers such as 101.25"
    )


def _numbers(values: pd.Series) -> pd.Series:
    """Numbers as printed ("1,234.50", "$99") or NaN."""
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]

    text = values.astype(str).str.strip().str.replace(r"^\$|,", "", regex=True)
    return pd.to_numeric(text, errors="coerce")


def ingest_csv(data: bytes, *, cache_dir: Path | None) -> ParsedDocument:
    """A data file as pages of rows (for the viewer), its columns and size as sections; cached
    under cache_dir by sha256 like the filings."""
    sha = hashlib.sha256(data).hexdigest()
    cached = cache_load(cache_dir, sha)
    if cached is not None:
        return cached
    frame = read_data_csv(data)
    pages = csv_pages(frame)
    doc = ParsedDocument(
        sha256=sha,
        pages=pages,
        page_count=len(pages),
        kind="csv",
        sections={"columns": list(frame.columns), "rows": len(frame)},
    )
    cache_store(cache_dir, doc)
    return doc


def csv_pages(frame: pd.DataFrame, rows_per_page: int = ROWS_PER_PAGE) -> list[str]:
    """The table as text, a page per `rows_per_page` rows, each page with the header."""
    pages = []
    for start in range(0, len(frame), rows_per_page):
        chunk = frame.iloc[start : start + rows_per_page]
        first, last = start + 1, start + len(chunk)
        pages.append(f"rows {first}-{last} of {len(frame)}\n" + chunk.to_csv(index=False))
    return pages


def _column(frame: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    lowered = {re.sub(r"\s+", " ", c.lower()): c for c in frame.columns}
    return next((lowered[name] for name in names if name in lowered), None)


def price_series(frame: pd.DataFrame, label: str) -> pd.Series:
    """Prices by date (adjusted close when the file has it), oldest first."""
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]

    date_column = _column(frame, DATE_COLUMNS) or str(frame.columns[0])
    price_column = _column(frame, PRICE_COLUMNS)
    if price_column is None:
        numeric = [c for c in frame.columns if c != date_column and _numeric(frame[c])]
        if len(numeric) != 1:
            raise DocumentError(
                f"{label}: name the price column 'Adj Close', 'Close' or 'Price' "
                f"(columns: {', '.join(frame.columns)})"
            )
        price_column = numeric[0]
    text = frame[date_column].astype(str).str.strip().str.slice(0, 19)
    dates = pd.to_datetime(text, errors="coerce")
    prices = _numbers(frame[price_column])
    series = pd.Series(prices.to_numpy(), index=pd.DatetimeIndex(dates), name=price_column)
    series = series[series.index.notna()].dropna().sort_index()
    series = series[~series.index.duplicated(keep="last")]
    if len(series) < 2:
        raise DocumentError(f"{label}: fewer than two dated prices in column {price_column!r}")
    return series


def _numeric(column: pd.Series) -> bool:
    return bool(_numbers(column).notna().mean() > NUMERIC_SHARE)
