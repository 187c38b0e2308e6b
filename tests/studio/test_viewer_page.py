"""The workspace page of a studio workspace carries the 3D viewer, loaded only from this server."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _offline(settings):
    settings.MODEL_BASE_URL = ""  # the page never probes a model server
    settings.MODEL_NAME = ""


def page_of(user, workspace) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/workspaces/{workspace.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def importmap(html: str) -> dict[str, str]:
    match = re.search(r'<script type="importmap">(.*?)</script>', html, re.S)
    assert match, "the page has an importmap"
    imports: dict[str, str] = json.loads(match.group(1))["imports"]
    return imports


def test_a_studio_workspace_page_has_the_viewer(alice, make_workspace):
    workspace = make_workspace(alice, name="Toys", kind="studio")

    html = page_of(alice, workspace)

    assert 'id="studio-viewer"' in html and 'id="sv-canvas"' in html
    assert f'data-api="/api/v1/studio/workspaces/{workspace.pk}/"' in html
    assert importmap(html) == {
        "three": "/static/vendor/three/build/three.module.js",
        "three/addons/": "/static/vendor/three/examples/jsm/",
    }
    assert '<script type="module" src="/static/studio/viewer.js">' in html
    assert 'id="sv-upload"' in html and 'name="file"' in html
    # the importmap comes before the module that uses it
    assert html.index('type="importmap"') < html.index('type="module"')


def test_the_viewer_loads_nothing_from_other_hosts(alice, make_workspace):
    html = page_of(alice, make_workspace(alice, name="Toys", kind="studio"))

    sources = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="([^"]+)"', html)
    sources += list(importmap(html).values())
    assert "/static/studio/viewer.js" in sources and "/static/studio/viewer.css" in sources
    assert not [source for source in sources if re.match(r"(https?:)?//", source)], sources
    assert "cdn" not in html.lower()
    client = Client()
    for source in sources:
        if source.startswith("/static/") and not source.endswith("/"):
            response = client.get(source)
            assert response.status_code == 200, source
            if hasattr(response, "close"):
                response.close()


def test_the_vendored_modules_the_viewer_imports_are_served(client):
    for path in (
        "/static/vendor/three/build/three.module.js",
        "/static/vendor/three/build/three.core.js",
        "/static/vendor/three/examples/jsm/controls/OrbitControls.js",
        "/static/vendor/three/examples/jsm/loaders/GLTFLoader.js",
        "/static/vendor/three/examples/jsm/utils/BufferGeometryUtils.js",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        response.close()


def test_every_module_the_viewer_pulls_in_is_served(alice, make_workspace):
    """Follow the imports from viewer.js through the importmap, as the browser does."""
    from posixpath import dirname, normpath

    client = Client()
    client.force_login(alice)
    html = client.get(f"/workspaces/{make_workspace(alice, kind='studio').pk}/").content.decode()
    imports = importmap(html)

    def resolve(specifier: str, importer: str) -> str:
        url = normpath(f"{dirname(importer)}/{specifier}") if specifier[0] == "." else specifier
        if url in imports:
            return imports[url]
        prefixes = [key for key in imports if key.endswith("/") and url.startswith(key)]
        if prefixes:
            key = max(prefixes, key=len)
            return imports[key] + url[len(key) :]
        assert url.startswith("/static/"), f"{specifier} from {importer} is not mapped"
        return url

    seen: set[str] = set()
    pending = ["/static/studio/viewer.js"]
    while pending:
        url = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        source = b"".join(response.streaming_content).decode()
        response.close()
        for specifier in re.findall(
            r"""^(?:import|export)\b[^;]*?from\s*['"]([^'"]+)['"]""", source, re.M | re.S
        ):
            pending.append(resolve(specifier, url))
    assert "/static/vendor/three/build/three.core.js" in seen
    assert "/static/vendor/three/examples/jsm/utils/SkeletonUtils.js" in seen
    assert "/static/vendor/three/examples/jsm/controls/TransformControls.js" in seen
    assert "/static/vendor/three/examples/jsm/environments/RoomEnvironment.js" in seen


def test_the_viewer_script_imports_only_mapped_or_relative_modules():
    from django.conf import settings

    folder = settings.BASE_DIR / "static" / "studio"
    script = (folder / "viewer.js").read_text()
    imported = re.findall(r'^import .*? from "([^"]+)";', script, re.M)
    assert imported == [
        "three",
        "three/addons/controls/OrbitControls.js",
        "three/addons/loaders/GLTFLoader.js",
        "three/addons/environments/RoomEnvironment.js",
        "./editor.js",
    ]
    editor = (folder / "editor.js").read_text()
    assert re.findall(r'^import .*? from "([^"]+)";', editor, re.M) == [
        "three",
        "three/addons/controls/TransformControls.js",
    ]
    for source in (script, editor):
        assert "http://" not in source and "https://" not in source


def test_a_finance_workspace_page_has_no_viewer(alice, make_workspace):
    html = page_of(alice, make_workspace(alice, name="Ledger", kind="finance"))

    assert "studio-viewer" not in html
    assert "importmap" not in html and "three.module.js" not in html
