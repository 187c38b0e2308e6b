"""The API answers only what its OpenAPI schema says: schemathesis generates requests from the
schema for every operation, sends them as an authenticated user through the WSGI app, and fails
on any 5xx, any status the schema does not list, and any body or content type it does not describe.

Path ids point at the caller's own objects half the time (a workspace of the right kind, a run,
a revision, a document) so the views run past their 404s. Nothing is excluded: run creation and
uploads only queue work on commit, and the test's transaction never commits, so no slow task
starts. Examples are few per operation so the whole test stays well under 90 s.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.django_db


# Loaded at collection: serving the schema needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def owned(alice: Any, make_workspace: Any) -> dict[str, Any]:
    """Ids of alice's objects, by the path parameter names the schema uses."""
    from agents.models import Run
    from finance.models import Document
    from studio.services import revision_create

    finance = make_workspace(alice, kind="finance")
    studio = make_workspace(alice, kind="studio")
    run = Run.objects.create(workspace=finance, prompt="hello", status=Run.Status.SUCCEEDED)
    document = Document.objects.create(
        workspace=finance, name="a.pdf", sha256="0" * 64, status=Document.Status.PROCESSING
    )
    crate = {"name": "crate", "shape": {"kind": "box", "params": {"size": [0.5, 0.5, 0.5]}}}
    revision_create(workspace=studio, scene={"objects": [crate]}, source="round 1")
    return {
        "finance": finance.pk,
        "studio": studio.pk,
        "id": run.pk,
        "document_id": document.pk,
        "number": 1,
    }


def _point_at_owned(case: Any, owned: dict[str, Any]) -> None:
    params = case.path_parameters or {}
    if "workspace_id" in params:
        params["workspace_id"] = owned["studio" if "/studio/" in case.path else "finance"]
    for name in ("id", "document_id", "number"):
        if name in params:
            params[name] = owned[name]


@schema.parametrize()
@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_in_the_schema(case: Any, alice: Any, owned: dict[str, Any]) -> None:
    from accounts.services import api_token_create

    if hash(repr(case.body)) % 2 == 0:  # half the examples keep the generated (unknown) ids
        _point_at_owned(case, owned)
    _, raw = api_token_create(user=alice, name="schemathesis")
    case.call_and_validate(
        headers={"Authorization": f"Bearer {raw}"},
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
