from __future__ import annotations

from pathlib import Path

import pytest

from finance.providers import CsvQuery, InMemoryCache, ProviderError, UserCsv


def test_reads_user_csv_and_caches(tmp_path: Path):
    (tmp_path / "figures.csv").write_text("date,revenue\n2024-09-28,391035\n2023-09-30,383285\n")
    provider = UserCsv(root=tmp_path, cache=InMemoryCache())
    result = provider.get(CsvQuery(Path("figures.csv"), parse_dates=("date",)))
    assert result.data["revenue"].tolist() == [391035, 383285]
    assert str(result.data["date"].dtype).startswith("datetime64")
    assert result.source.provider == "user_file"
    assert result.source.location.endswith("figures.csv")
    assert provider.get(CsvQuery(Path("figures.csv"), parse_dates=("date",))).from_cache


def test_rejects_paths_outside_root_and_missing_files(tmp_path: Path):
    provider = UserCsv(root=tmp_path)
    with pytest.raises(ProviderError, match="outside"):
        provider.get(CsvQuery(Path("../etc/passwd")))
    with pytest.raises(ProviderError, match="No such file"):
        provider.get(CsvQuery(Path("missing.csv")))
