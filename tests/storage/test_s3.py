"""Artifacts, uploads and exports on S3-compatible storage: written to the bucket, read back by
the code that needs them, downloaded through presigned URLs by their owner only."""

from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import urlparse

import pytest
import requests
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from agents.models import Run
from agents.services.file_janitor import orphan_files_remove
from agents.services.runs import run_create
from studio.services import revision_create
from tests.agents.helpers import stage_artifact
from tests.conftest import SHARED_DATA
from tests.finance.uploads import upload  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

PEPSICO = SHARED_DATA / "finance" / "devset" / "docs" / "PEPSICO_2023_8K_dated-2023-05-05.pdf"
needs_pdf = pytest.mark.skipif(not PEPSICO.exists(), reason=f"shared data not found at {PEPSICO}")


@pytest.fixture
def media_root(s3_storage):
    """Stands in for the finance upload fixture's local folder: here the bucket holds the files."""
    return s3_storage


@pytest.fixture
def run(alice, make_workspace):
    return run_create(workspace=make_workspace(alice, kind="studio"), prompt="what is 1+1")


def follow_presigned(response, endpoint: str) -> requests.Response:
    """The 302's presigned URL, fetched as a browser would: straight from the bucket."""
    assert response.status_code == 302, response.content
    location = response["Location"]
    assert location.startswith(endpoint + "/"), location
    assert "X-Amz-Signature=" in location and "X-Amz-Expires=60" in location
    return requests.get(location, timeout=10)


def test_a_runs_artifact_lands_in_the_bucket_and_only_its_owner_downloads_it(
    s3_storage, s3_endpoint, run, alice_api, bob_api
):
    artifact = stage_artifact(run, name="scene.json", content=b'{"cube": 1.5}')

    assert s3_storage.keys("runs/") == [artifact.file.name]
    assert s3_storage.read(artifact.file.name) == b'{"cube": 1.5}'
    url = f"/api/v1/runs/{run.pk}/artifacts/{artifact.pk}/download"
    fetched = follow_presigned(alice_api.get(url), s3_endpoint)
    assert fetched.status_code == 200
    assert fetched.content == b'{"cube": 1.5}'
    assert fetched.headers["Content-Type"] == "application/json"
    assert fetched.headers["Content-Disposition"] == 'attachment; filename="scene.json"'
    assert bob_api.get(url).status_code == 404


def test_a_presigned_url_is_refused_once_tampered_with(s3_storage, s3_endpoint, run, alice_api):
    artifact = stage_artifact(run, name="scene.json", content=b"{}")
    location = alice_api.get(f"/api/v1/runs/{run.pk}/artifacts/{artifact.pk}/download")["Location"]
    parsed = urlparse(location)
    other = parsed._replace(path=parsed.path.replace("scene.json", "other.json")).geturl()

    assert requests.get(other, timeout=10).status_code == 403


def test_the_janitor_removes_orphans_from_the_bucket_and_keeps_recorded_files(s3_storage, run):
    recorded = stage_artifact(run, name="note.md", content=b"# note").file.name
    orphan = default_storage.save(f"runs/{run.pk}/art_killedmidcommit/a.png", ContentFile(b"x"))
    deleted_run = default_storage.save("runs/999999/art_of_a_deleted_run/b.png", ContentFile(b"y"))

    young = orphan_files_remove(older_than=timedelta(hours=1))
    assert young.removed == [] and young.kept_young == 2
    time.sleep(1.1)  # S3 keeps modification times to the second
    report = orphan_files_remove(older_than=timedelta(0))

    assert sorted(report.removed) == sorted([orphan, deleted_run])
    assert s3_storage.keys("runs/") == [recorded]


@needs_pdf
def test_an_uploaded_filing_is_stored_in_the_bucket_ingested_and_served(
    s3_storage,
    s3_endpoint,
    alice,
    alice_api,
    bob_api,
    make_workspace,
    upload,  # noqa: F811
):
    data = PEPSICO.read_bytes()
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, PEPSICO.name, data)

    assert response.status_code == 202, response.json()
    document = response.after
    assert document["status"] == "ready", document
    assert document["pages"] == 5
    (key,) = s3_storage.keys("finance/documents/")
    assert s3_storage.read(key) == data
    base = f"/api/v1/finance/documents/{document['id']}"
    page = alice_api.get(f"{base}/pages/0")  # pdfium reads a temporary copy of the object
    assert page.status_code == 200, page.content
    assert page.json()["width"] > 0 and "PepsiCo" in page.json()["text"]
    image = alice_api.get(f"{base}/pages/0.png", {"scale": "0.5"})
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    fetched = follow_presigned(alice_api.get(f"{base}/file"), s3_endpoint)
    assert fetched.content == data
    assert fetched.headers["Content-Type"] == "application/pdf"
    assert bob_api.get(f"{base}/file").status_code == 404
    assert bob_api.get(f"{base}/pages/0").status_code == 404


def test_a_revision_export_is_kept_in_the_bucket_and_downloaded_from_it(
    s3_storage, s3_endpoint, alice, alice_api, bob_api, make_workspace
):
    studio = make_workspace(alice, name="Toy Room", kind="studio")
    crate = {"name": "crate", "shape": {"kind": "box", "params": {"size": [0.5, 0.5, 0.5]}}}
    revision_create(workspace=studio, scene={"objects": [crate]}, source="round 1")
    url = f"/api/v1/studio/workspaces/{studio.pk}/revisions/1/export.stl"

    fetched = follow_presigned(alice_api.get(url), s3_endpoint)

    (key,) = s3_storage.keys("studio/exports/")
    assert fetched.content == s3_storage.read(key) and len(fetched.content) > 84
    assert fetched.headers["Content-Disposition"] == 'attachment; filename="toy-room-r1.stl"'
    assert "Cache-Control" not in alice_api.get(url)  # the redirect outlives no signature
    assert bob_api.get(url).status_code == 404


def test_local_storage_still_streams_the_file(settings, tmp_path, run, alice_api):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    artifact = stage_artifact(run, name="scene.json", content=b'{"cube": 1.5}')

    response = alice_api.get(f"/api/v1/runs/{run.pk}/artifacts/{artifact.pk}/download")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b'{"cube": 1.5}'
    assert Run.objects.filter(pk=run.pk).exists()
