"""Throwaway PostgreSQL databases for the benchmarks."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit, urlunsplit


def create_database(server_url: str, prefix: str) -> tuple[str, str]:
    """Create a throwaway database on the server of server_url; return (its URL, its name)."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path=f"/{name}")), name


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
