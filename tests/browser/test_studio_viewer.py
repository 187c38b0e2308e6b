"""The studio viewer in a real browser: it draws the scene with WebGL (SwiftShader, on the CPU),
follows the agent's rounds, browses, compares and reverts revisions, and reports upload errors."""

from __future__ import annotations

import base64
import copy
import io
import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import problems, save_screenshot, sign_up_and_open_workspace
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser

# WebGL without a GPU: ANGLE on SwiftShader. Chromium still falls back to it by itself today, but
# is phasing that out unless asked, so ask.

CRATE: dict[str, Any] = {
    "name": "crate",
    "shape": {"kind": "box", "params": {"size": [0.6, 0.6, 0.6]}},
    "transform": {"translation": [-0.5, 0.3, 0.0]},
    "material": {"name": "wood", "base_color": [0.75, 0.45, 0.15], "roughness": 0.6},
}
BALL: dict[str, Any] = {
    "name": "red ball",
    "shape": {"kind": "sphere", "params": {"radius": 0.3}},
    "transform": {"translation": [0.6, 0.3, 0.2]},
    "material": {"name": "paint", "base_color": [0.8, 0.08, 0.06], "roughness": 0.3},
}
SCENE: dict[str, Any] = {
    "objects": [CRATE, BALL],
    "lights": [
        {"name": "sun", "kind": "directional", "intensity": 3.0, "position": [2, 5, 3]},
        {"name": "bulb", "kind": "point", "intensity": 8.0, "position": [-1.5, 2, 1.5]},
    ],
    "camera": {"position": [2.6, 1.8, 3.0], "target": [0, 0.3, 0]},
    "ground_size": 8,
    "background": [0.05, 0.06, 0.08],
}


def with_crate_at(translation: list[float]) -> dict[str, Any]:
    scene = copy.deepcopy(SCENE)
    scene["objects"][0]["transform"]["translation"] = translation
    return scene


def api(page, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """Call the studio API with the browser's session and CSRF token, as the page's script does."""
    return dict(
        page.evaluate(
            """async ([method, path, body]) => {
                const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
                const response = await fetch(path, {
                    method, credentials: "same-origin",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                    body: body === null ? undefined : JSON.stringify(body),
                });
                return {status: response.status, body: await response.json()};
            }""",
            [method, path, body],
        )
    )


def post_scene(page, workspace: int, scene: dict[str, Any]) -> int:
    created = api(
        page, "POST", f"/api/v1/studio/workspaces/{workspace}/revisions", {"scene": scene}
    )
    assert created["status"] == 201, created
    return int(created["body"]["number"])


def add_rendered_round(app: Stack, workspace: int, scene: dict[str, Any]) -> None:
    """Store a round as the agent does: with a failing check and a rendered thumbnail."""
    app.manage(
        "shell",
        "-c",
        "import io, json\n"
        "from PIL import Image\n"
        "from agents.models import Workspace\n"
        "from studio.services import revision_create\n"
        "image = io.BytesIO()\n"
        "Image.new('RGB', (64, 48), (200, 60, 40)).save(image, 'PNG')\n"
        f"revision_create(workspace=Workspace.objects.get(pk={workspace}),"
        f" scene=json.loads({json.dumps(json.dumps(scene))}), source='round 1',"
        " report={'passed': False, 'checks': {'support': {'passed': False, 'value': 0.1}}},"
        " thumbnail_png=image.getvalue())\n",
    )


def round_completed(page, revision: int) -> None:
    """Dispatch the DOM event the run timeline sends for a round.completed event."""
    page.evaluate(
        """(revision) => document.dispatchEvent(new CustomEvent("run-event", {detail: {
            seq: 100 + revision, type: "round.completed", ts: new Date().toISOString(),
            payload: {round: revision, revision, passed: true, checks: {}, changes: ["moved"]},
        }}))""",
        revision,
    )


def wait_for_revision(page, number: int) -> None:
    page.wait_for_function(
        "(n) => window.studioViewer && window.studioViewer.revision === n"
        " && window.studioViewer.frames > 0",
        arg=number,
        timeout=30_000,
    )


def canvas_pixels(page, selector: str = "#sv-canvas"):
    """The canvas as the page drew it (it keeps its drawing buffer), as a Pillow RGB image."""
    from PIL import Image

    url = page.eval_on_selector(selector, "canvas => canvas.toDataURL('image/png')")
    data = base64.b64decode(url.split(",", 1)[1])
    return Image.open(io.BytesIO(data)).convert("RGB")


def assert_drawn(image, background=(0.05, 0.06, 0.08)) -> None:
    """More than a handful of colours, and most pixels not the clear colour."""
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, f"{len(colours or [])} colours"
    count, commonest = max(colours)
    assert count < 0.8 * image.width * image.height, f"{commonest} covers the canvas"
    assert max(max(pixel) for _, pixel in colours) > 60, "everything is near black"


def changed_fraction(before, after) -> float:
    from PIL import ImageChops

    difference = ImageChops.difference(before, after).convert("L").point(lambda v: v > 24)
    histogram = difference.histogram()
    return sum(histogram[1:]) / (before.width * before.height)


def test_viewer_draws_the_scene_and_follows_a_round(page, app: Stack, tmp_path: Path) -> None:
    workspace = sign_up_and_open_workspace(page, "Toy room", "studio")
    assert post_scene(page, workspace, SCENE) == 1

    page.reload()
    wait_for_revision(page, 1)

    assert page.evaluate("window.studioViewer.objectNames().sort()") == ["crate", "red ball"]
    before = canvas_pixels(page)
    assert_drawn(before)
    assert page.inner_text("#sv-status").startswith("revision 1 · edit")
    assert page.get_attribute("#sv-downloads a[data-fmt=glb]", "href") == (
        f"/api/v1/studio/workspaces/{workspace}/revisions/1/export.glb"
    )
    assert page.is_visible("#sv-downloads a[data-fmt=png]")  # an edit is rendered too
    save_screenshot(page, tmp_path, "studio-viewer-r1")

    assert post_scene(page, workspace, with_crate_at([-0.2, 0.3, -1.0])) == 2
    round_completed(page, 2)
    wait_for_revision(page, 2)

    assert page.evaluate("window.studioViewer.lastUpdate") == "patched"  # same objects: in place
    after = canvas_pixels(page)
    assert_drawn(after)
    assert changed_fraction(before, after) > 0.01, "the crate moved on the canvas"
    round_completed(page, 1)  # a replayed, older round changes nothing
    page.wait_for_timeout(300)
    assert page.evaluate("window.studioViewer.revision") == 2
    assert page.locator("#sv-history button.sv-rev").count() == 2
    save_screenshot(page, tmp_path, "studio-viewer-r2")
    assert not problems(page), problems(page)


def test_the_timeline_passes_each_event_to_the_page(page, app: Stack) -> None:
    """timeline.js dispatches a "run-event" DOM event for every run event it shows."""
    page.add_init_script(
        """window.__runEvents = [];
        document.addEventListener("run-event", (e) => window.__runEvents.push(e.detail));"""
    )
    sign_up_and_open_workspace(page, "Sums", "studio")
    page.fill("#id_prompt", "what is 17*23+4 and 2**10")
    page.click("#ask-form button[type=submit]")
    # Not a scene request: the run ends (an honest failure: nothing was built), either way.
    page.wait_for_selector("#run:is([data-status=succeeded], [data-status=failed])")

    events = page.evaluate("window.__runEvents")
    seqs = [event["seq"] for event in events]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1, seqs
    assert len(events) == int(page.get_attribute("#run", "data-last-seq") or 0)
    types = [event["type"] for event in events]
    assert types[0] == "run.started" and types[-1] in ("run.finished", "run.failed")
    assert "tool.call" in types
    assert all(isinstance(event["payload"], dict) for event in events)
    assert page.inner_text("#sv-status") == "no scene yet"  # the viewer took them in its stride
    assert not problems(page), problems(page)


def test_history_compare_revert_and_uploads(page, app: Stack, tmp_path: Path) -> None:
    workspace = sign_up_and_open_workspace(page, "Shelf", "studio")
    post_scene(page, workspace, {**SCENE, "objects": [CRATE]})
    add_rendered_round(app, workspace, SCENE)
    page.reload()
    wait_for_revision(page, 2)
    assert page.is_disabled("#sv-revert")  # the current revision
    thumbnail = "#sv-history button.sv-rev[data-number='2'] img"
    page.wait_for_function(
        "(s) => document.querySelector(s) && document.querySelector(s).naturalWidth === 64",
        arg=thumbnail,
    )
    assert page.inner_text("#sv-history button.sv-rev[data-number='2'] .sv-badge.sv-fail") == "fail"
    assert page.is_visible("#sv-history button.sv-rev[data-number='1'] img")  # edits render too
    assert "0/1 checks passed" in page.inner_text("#sv-status")
    png = page.request.get(page.get_attribute("#sv-downloads a[data-fmt=png]", "href"))
    assert png.status == 200 and png.headers["content-type"] == "image/png"

    page.click("#sv-history button.sv-rev[data-number='1']")
    wait_for_revision(page, 1)
    assert page.evaluate("window.studioViewer.objectNames()") == ["crate"]
    assert page.evaluate("window.studioViewer.lastUpdate") == "replaced"  # the ball went away
    glb = page.request.get(page.get_attribute("#sv-downloads a[data-fmt=glb]", "href"))
    assert glb.status == 200 and glb.headers["content-type"] == "model/gltf-binary"
    assert glb.body()[:4] == b"glTF"

    page.click("#sv-compare")
    page.click("#sv-history button.sv-rev[data-number='2']")
    page.wait_for_selector("#sv-diff li.sv-added")
    assert page.inner_text("#sv-diff li.sv-added") == "+ red ball added"
    assert page.inner_text("#sv-label-a").startswith("#1")
    assert page.inner_text("#sv-label-b").startswith("#2")
    page.wait_for_timeout(300)
    assert_drawn(canvas_pixels(page, "#sv-canvas-a"))
    assert_drawn(canvas_pixels(page, "#sv-canvas-b"))
    save_screenshot(page, tmp_path, "studio-viewer-compare")
    page.click("#sv-compare")
    assert page.is_hidden("#sv-compare-panel")

    assert page.is_enabled("#sv-revert")
    page.click("#sv-revert")
    wait_for_revision(page, 3)
    assert page.locator("#sv-history button.sv-rev").count() == 3
    assert page.evaluate("window.studioViewer.objectNames()") == ["crate"]
    assert "revert to 1" in page.inner_text("#sv-status")

    page.set_input_files(
        "#sv-file",
        {"name": "noise.stl", "mimeType": "model/stl", "buffer": bytes(range(256)) * 4},
    )
    page.click("#sv-upload button[type=submit]")
    page.wait_for_selector("#sv-upload-result.error")
    assert "noise.stl is not a valid STL file" in page.inner_text("#sv-upload-result")

    triangle = struct.pack("<12fH", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)
    stl = b"\0" * 80 + struct.pack("<I", 1) + triangle
    page.set_input_files("#sv-file", {"name": "tri.stl", "mimeType": "model/stl", "buffer": stl})
    page.click("#sv-upload button[type=submit]")
    page.wait_for_selector("#sv-upload-result.ok")
    assert re.search(
        r"tri\.stl uploaded as mesh:\d+: 1 triangles", page.inner_text("#sv-upload-result")
    )
    save_screenshot(page, tmp_path, "studio-viewer-upload")
    assert not problems(page, allowed=("400 ",)), problems(page)
