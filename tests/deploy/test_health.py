"""/healthz and /readyz: what a load balancer or Kubernetes sees when a dependency is down."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings

from config import health


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections (bound, never listening)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield int(holder.getsockname()[1])


def get(path: str, **headers: Any) -> Any:
    # Probes come with the pod's address as Host and over plain http.
    return Client().get(path, HTTP_HOST="10.1.2.3:8000", **headers)


def test_healthz_answers_without_touching_any_dependency(monkeypatch):
    def broken() -> None:
        raise AssertionError("liveness must not check dependencies")

    monkeypatch.setattr(health, "CHECKS", dict.fromkeys(health.CHECKS, broken))
    response = get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_is_200_with_every_check_when_all_answer():
    response = get("/readyz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["checks"] == {
        "database": "ok",
        "broker": "ok",
        "channel_layer": "ok",
        "storage": "ok",
    }
    assert body["failing"] == []


@pytest.mark.django_db
def test_readyz_names_a_database_that_is_down(monkeypatch, closed_port):
    import dj_database_url
    from django.db.utils import ConnectionHandler

    url = f"postgres://agentworks:secret@127.0.0.1:{closed_port}/agentworks"
    monkeypatch.setattr(
        health, "connections", ConnectionHandler({"default": dj_database_url.parse(url)})
    )
    body = _unready()
    assert body["failing"] == ["database"]
    assert "OperationalError" in body["checks"]["database"]


def test_readyz_names_a_broker_that_is_down(closed_port):
    with override_settings(
        CELERY_BROKER_URL=f"redis://127.0.0.1:{closed_port}/0",
        CELERY_BROKER_TRANSPORT_OPTIONS={},
    ):
        body = _unready(checks=["broker"])
    assert body["failing"] == ["broker"]


def test_readyz_names_a_channel_layer_that_is_down(closed_port):
    layers = {
        "default": {
            "BACKEND": "config.channel_layer.FanOutRedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{closed_port}/0"]},
        }
    }
    with override_settings(CHANNEL_LAYERS=layers):
        body = _unready(checks=["channel_layer"])
    assert body["failing"] == ["channel_layer"]
    assert "Connection" in body["checks"]["channel_layer"]


def test_readyz_names_object_storage_that_is_down(closed_port):
    s3 = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "artifacts",
            "endpoint_url": f"http://127.0.0.1:{closed_port}",
            "access_key": "minio",
            "secret_key": "minio-secret",
            "region_name": "us-east-1",
        },
    }
    started = time.monotonic()
    with override_settings(STORAGES={"default": s3, "staticfiles": {"BACKEND": _STATIC}}):
        body = _unready(checks=["storage"])
    assert body["failing"] == ["storage"]
    # a probe must not hang on a dead dependency
    assert time.monotonic() - started < health.CHECK_TIMEOUT_SECONDS + 1.5


def test_readyz_names_a_storage_folder_that_cannot_be_written():
    local = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": "/dev/null/media"},
    }
    with override_settings(STORAGES={"default": local, "staticfiles": {"BACKEND": _STATIC}}):
        body = _unready(checks=["storage"])
    assert body["failing"] == ["storage"]


def test_readyz_reports_a_hung_check_as_timed_out(monkeypatch):
    monkeypatch.setattr(health, "CHECK_TIMEOUT_SECONDS", 0.3)
    monkeypatch.setattr(health, "CHECKS", {"database": lambda: time.sleep(2)})
    started = time.monotonic()
    response = get("/readyz")
    assert time.monotonic() - started < 1.5
    assert response.status_code == 503
    assert response.json()["checks"]["database"].startswith("timed out")


_STATIC = "django.contrib.staticfiles.storage.StaticFilesStorage"


def _unready(checks: list[str] | None = None) -> dict[str, Any]:
    """GET /readyz (only `checks`, when given) and return its 503 body."""
    selected = {name: health.CHECKS[name] for name in checks} if checks else health.CHECKS
    original = health.CHECKS
    health.CHECKS = selected
    try:
        response = get("/readyz")
    finally:
        health.CHECKS = original
    assert response.status_code == 503, response.content
    body: dict[str, Any] = response.json()
    assert body["status"] == "fail"
    return body


def test_readyz_passes_against_a_real_redis_broker_and_channel_layer():
    import redis

    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis on 127.0.0.1:6379 ({error})")
    layers = {
        "default": {
            "BACKEND": "config.channel_layer.FanOutRedisChannelLayer",
            "CONFIG": {"hosts": [url]},
        }
    }
    checks = {name: health.CHECKS[name] for name in ("broker", "channel_layer")}
    with override_settings(
        CELERY_BROKER_URL=url, CELERY_BROKER_TRANSPORT_OPTIONS={}, CHANNEL_LAYERS=layers
    ):
        assert health.run_checks(checks) == {"broker": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_readyz_says_which_gl_backend_the_studio_renders_with(monkeypatch):
    monkeypatch.setenv("RENDERING_CHECKED", "egl (llvmpipe): OSMesa is not installed")
    rendering = get("/readyz").json()["rendering"]
    assert rendering["platform"] in ("osmesa", "egl")
    assert rendering["reason"]  # why this one: a named variable, or the installed libraries
    assert rendering["checked"] == "egl (llvmpipe): OSMesa is not installed"
