"""A real S3-compatible server (moto's server mode) on 127.0.0.1, and storage pointed at it."""

from __future__ import annotations

import logging
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

moto_server = pytest.importorskip("moto.server", reason="moto[server] is not installed")

KEYS = {"access_key": "testing", "secret_key": "testing", "region_name": "us-east-1"}


@dataclass
class Bucket:
    name: str
    client: Any  # a boto3 S3 client that talks to the same server

    def keys(self, prefix: str = "") -> list[str]:
        listed = self.client.list_objects_v2(Bucket=self.name, Prefix=prefix)
        return sorted(item["Key"] for item in listed.get("Contents", []))

    def read(self, key: str) -> bytes:
        body: bytes = self.client.get_object(Bucket=self.name, Key=key)["Body"].read()
        return body


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """moto's S3 over real HTTP for the whole session: the endpoint URL."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    port = _free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@pytest.fixture
def s3_storage(settings, s3_endpoint) -> Bucket:
    """A fresh bucket of this test's own, and the default storage switched to it (as
    STORAGE_BUCKET does in production)."""
    import boto3

    name = f"test-{uuid.uuid4().hex[:12]}"
    client = boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
        region_name=KEYS["region_name"],
    )
    client.create_bucket(Bucket=name)
    options = {
        "bucket_name": name,
        "endpoint_url": s3_endpoint,
        **KEYS,
        "default_acl": None,
        "querystring_auth": True,
        "signature_version": "s3v4",
    }
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options},
    }
    settings.STORAGE_PRESIGNED_SECONDS = 60
    return Bucket(name, client)
