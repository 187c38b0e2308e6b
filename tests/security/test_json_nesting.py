"""JSON nested 1,000 levels deep was a RecursionError (a 500 with a traceback) on every JSON
endpoint; past JSON_MAX_DEPTH it is now a 400 with a JSON body, refused before parsing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings

from config.json_parser import nesting_depth_exceeds

pytestmark = pytest.mark.django_db


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [65, 1_000, 100_000])
def test_deep_json_is_a_400_with_a_json_body(
    alice_api: Any, make_workspace: Any, alice: Any, levels: int
) -> None:
    workspace = make_workspace(alice)
    body = f'{{"workspace": {workspace.pk}, "prompt": {nested(levels)}}}'

    response = alice_api.post("/api/v1/runs/", body, content_type="application/json")

    assert response.status_code == 400
    assert "nested deeper than 64 levels" in response.json()["detail"]


def test_json_within_the_depth_is_parsed_as_before(alice_api: Any) -> None:
    response = alice_api.post("/api/v1/runs/", nested(64), content_type="application/json")

    assert response.status_code == 400
    assert "nested" not in json.dumps(response.json())  # validated, not refused as too deep


@override_settings(JSON_MAX_DEPTH=3)
def test_the_depth_is_a_setting(alice_api: Any) -> None:
    response = alice_api.post(
        "/api/v1/runs/", '{"a": [[{"b": 1}]]}', content_type="application/json"
    )

    assert response.status_code == 400
    assert "nested deeper than 3 levels" in response.json()["detail"]


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"prompt": "[[[[{{{{" * 50, "quoted": 'say \\"[[[[\\"'})
    assert not nesting_depth_exceeds(text, 1)
    assert nesting_depth_exceeds('[[{"a": "]]]]"}]]', 2)
