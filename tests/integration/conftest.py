"""Fixtures for end-to-end tests against real PostgreSQL, Redis and Celery worker processes.

PostgreSQL and Redis are found at POSTGRES_TEST_URL and REDIS_TEST_URL (defaults: the local
servers); tests that need them are skipped, saying why, when they do not answer within a second.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.integration.failure_logs import (  # noqa: F401 - a hook and a fixture, by name
    _app_logs_on_failure,
    pytest_runtest_makereport,
)
from tests.integration.stack import Stack, embedded

POSTGRES_ADMIN_URL = os.environ.get(
    "POSTGRES_TEST_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
REDIS_SERVER_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379").rstrip("/")
REDIS_DBS = (
    [int(os.environ["INTEGRATION_REDIS_DB"])]
    if os.environ.get("INTEGRATION_REDIS_DB")
    else list(range(15, 7, -1))
)
REDIS_LOCK = "agentworks-e2e:lock"
REDIS_LOCK_SECONDS = 900  # longer than a module takes; a crashed session frees it by itself


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname}" + (
        f":{parts.port}" if parts.port else ""
    )
    return parts._replace(netloc=netloc).geturl()


def _url_with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test module; dropped at the end."""
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=1, autocommit=True)
    except Exception as error:
        pytest.skip(f"PostgreSQL not reachable at {_shown(POSTGRES_ADMIN_URL)}: {error}")
    name = f"agentworks_e2e_{uuid.uuid4().hex[:10]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _url_with_database(POSTGRES_ADMIN_URL, name)
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=5, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A Redis database number of its own, flushed before and after the module.

    The broker queue and the channel layer live in that database, so two test sessions on one
    Redis (two engineers, or CI beside a developer) must never share it: each claims a free
    number with a lock key (INTEGRATION_REDIS_DB pins one).
    """
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_SERVER_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except Exception as error:
        pytest.skip(f"Redis not reachable at {_shown(REDIS_SERVER_URL)}: {error}")
    finally:
        client.close()
    owner = uuid.uuid4().hex
    for number in REDIS_DBS:
        db = redis.Redis.from_url(f"{REDIS_SERVER_URL}/{number}", socket_timeout=5)
        try:
            if db.set(REDIS_LOCK, owner, nx=True, ex=REDIS_LOCK_SECONDS):
                break
        except redis.ResponseError:  # the server has fewer databases
            pass
        db.close()
    else:
        pytest.skip(f"no free Redis database among {REDIS_DBS} (each holds {REDIS_LOCK!r})")
    for key in db.scan_iter(count=1000):
        if key != REDIS_LOCK.encode():
            db.delete(key)
    try:
        yield f"{REDIS_SERVER_URL}/{number}"
    finally:
        db.flushdb()  # the lock goes with the rest
        db.close()


@pytest.fixture(scope="module")
def server_stack(postgres_url: str, redis_url: str, tmp_path_factory) -> Iterator[Stack]:
    """The app on PostgreSQL + Redis (broker and channel layer): a prefork worker and uvicorn.

    EVENTS_POLL_SECONDS is long, so live WebSocket events can only come through the Redis
    channel layer (the consumers' log tail would be far too slow to pass for it).
    """
    folder: Path = tmp_path_factory.mktemp("server-stack")
    stack = Stack.create(
        folder,
        {
            "DATABASE_URL": postgres_url,
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "EVENTS_POLL_SECONDS": "30",
        },
    )
    try:
        stack.start(pool="prefork", concurrency=1, token_for="alice")
        yield stack
    finally:
        stack.stop_all()


@pytest.fixture(scope="module")
def embedded_stack(tmp_path_factory) -> Iterator[Stack]:
    """The app on its embedded default: SQLite, the filesystem broker, a prefork worker (as
    `deploy/dev.py run` starts it)."""
    with embedded(tmp_path_factory.mktemp("embedded-stack"), token_for="alice") as stack:
        yield stack
