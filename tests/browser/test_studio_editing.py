"""Editing the scene by hand in the studio viewer, with the mouse and the keyboard: select in the
canvas or the outliner, change a size in the properties panel, delete, duplicate; each change is a
checked user revision in the history strip. The page never grows sideways."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import problems, save_screenshot, sign_up_and_open_workspace
from tests.browser.test_studio_viewer import SCENE, api, post_scene, wait_for_revision
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser


def revision(page, workspace: int, number: int) -> dict[str, Any]:
    found = api(page, "GET", f"/api/v1/studio/workspaces/{workspace}/revisions/{number}")
    assert found["status"] == 200, found
    return found["body"]


def objects_of(page, workspace: int, number: int) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in revision(page, workspace, number)["scene"]["objects"]}


def click_object(page, name: str) -> None:
    """Click the object where it is drawn on the canvas, as a person would."""
    where = page.evaluate("(name) => window.studioViewer.screenPosition(name)", name)
    assert where, f"{name} is not on the canvas"
    page.mouse.click(where["x"], where["y"])


def wait_for_history(page, count: int) -> None:
    page.wait_for_function(
        "(n) => document.querySelectorAll('#sv-history button.sv-rev').length === n"
        " && window.studioViewer.revision === n && !window.studioViewer.busy",
        arg=count,
        timeout=60_000,
    )


def open_scene(page, name: str) -> int:
    workspace = sign_up_and_open_workspace(page, name, "studio")
    assert post_scene(page, workspace, SCENE) == 1
    page.reload()
    wait_for_revision(page, 1)
    return workspace


def test_select_resize_delete_and_duplicate_by_hand(page, app: Stack, tmp_path: Path) -> None:
    workspace = open_scene(page, "Editing")

    click_object(page, "crate")
    page.wait_for_function("window.studioViewer.selected === 'crate'")
    assert page.is_visible("#sv-props-fields") and page.is_visible("#sv-tools")
    assert page.input_value("#sv-props [name=name]") == "crate"
    assert page.input_value("#sv-props [name=size-x]") == "0.600"
    assert page.get_attribute("#sv-outliner button[data-name='crate']", "aria-current") == "true"
    save_screenshot(page, tmp_path, "studio-edit-selected")

    page.click("#sv-outliner button[data-name='red ball']")
    assert page.evaluate("window.studioViewer.selected") == "red ball"
    assert page.input_value("#sv-props [name=size-y]") == "0.600"  # a 0.3 m radius
    page.click("#sv-outliner button[data-name='crate']")

    page.fill("#sv-props [name=size-y]", "1.2")
    page.press("#sv-props [name=size-y]", "Enter")
    page.locator("#sv-props [name=size-y]").blur()
    wait_for_history(page, 2)
    resized = revision(page, workspace, 2)
    assert resized["source"] == "edit: resized crate"
    assert resized["checks_total"] >= 4 and resized["passed"] is not None  # checked like a round
    crate = {item["name"]: item for item in resized["scene"]["objects"]}["crate"]
    assert crate["shape"]["params"]["size"] == [0.6, 1.2, 0.6]
    assert crate["size_stated"] is True  # the person's size: checks warn, never change it
    assert crate["transform"]["translation"][1] == pytest.approx(0.6)  # still on the ground
    assert page.evaluate("window.studioViewer.selected") == "crate"  # still selected
    badge = "#sv-history button.sv-rev[data-number='2'] .sv-badge"
    assert page.inner_text(badge) in ("pass", "fail")

    page.locator("#sv-canvas").focus()
    page.keyboard.press("Control+d")
    wait_for_history(page, 3)
    assert revision(page, workspace, 3)["source"] == "edit: duplicated crate"
    copies = objects_of(page, workspace, 3)
    assert set(copies) == {"crate", "crate 2", "red ball"}
    assert copies["crate 2"]["transform"]["translation"][1] == pytest.approx(0.6)  # on the ground
    assert page.evaluate("window.studioViewer.selected") == "crate 2"

    page.click("#sv-outliner button[data-name='red ball']")
    page.locator("#sv-canvas").focus()
    page.keyboard.press("Delete")
    wait_for_history(page, 4)
    assert revision(page, workspace, 4)["source"] == "edit: deleted red ball"
    assert set(objects_of(page, workspace, 4)) == {"crate", "crate 2"}
    assert sorted(page.evaluate("window.studioViewer.objectNames()")) == ["crate", "crate 2"]
    assert page.evaluate("window.studioViewer.selected") is None
    assert page.is_hidden("#sv-props-fields")

    click_object(page, "crate 2")
    page.wait_for_function("window.studioViewer.selected === 'crate 2'")
    page.click("#sv-duplicate")
    wait_for_history(page, 5)
    assert revision(page, workspace, 5)["source"] == "edit: duplicated crate 2"
    page.click("#sv-delete")
    wait_for_history(page, 6)
    assert revision(page, workspace, 6)["source"].startswith("edit: deleted crate")
    save_screenshot(page, tmp_path, "studio-edit-history")
    assert not problems(page), problems(page)


def test_a_refused_edit_shows_the_reason(page, app: Stack) -> None:
    open_scene(page, "Refused")
    page.click("#sv-outliner button[data-name='crate']")

    page.fill("#sv-props [name=rot-x]", "1e9")
    page.locator("#sv-props [name=rot-x]").blur()

    page.wait_for_selector("#sv-edit-result.error")
    assert "rotation must be between" in page.inner_text("#sv-edit-result")
    # the stored scene is shown again first (its status says "loading…" meanwhile), then why
    page.wait_for_function(
        "document.querySelector('#sv-status').textContent.includes('rotation must be between')"
    )
    assert page.locator("#sv-history button.sv-rev").count() == 1
    assert not problems(page, allowed=("400 ",)), problems(page)


@pytest.mark.parametrize("width", [1280, 800])
def test_a_long_history_never_widens_the_page(page, app: Stack, tmp_path: Path, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    workspace = sign_up_and_open_workspace(page, f"Long history {width}", "studio")
    for _ in range(14):
        post_scene(page, workspace, SCENE)
    page.reload()
    wait_for_revision(page, 14)
    page.wait_for_timeout(300)

    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page is {scroll_width} px wide in a {width} px window"
    strip = page.evaluate(
        "(() => { const s = document.getElementById('sv-history');"
        " return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert strip[0] > strip[1], "the strip scrolls instead"
    if width >= 1280:  # the conversation sits beside the viewer, in view
        viewer = page.locator("#studio-viewer").bounding_box()
        ask = page.locator("#ask-form").bounding_box()
        assert viewer and ask and ask["x"] > viewer["x"] + viewer["width"] - 1
        assert ask["y"] < 900
    save_screenshot(page, tmp_path, f"studio-history-{width}")
    assert not problems(page), problems(page)


GOLD_AND_GLASS: dict[str, Any] = {
    **SCENE,
    "objects": [
        {
            "name": "gold ball",
            "shape": {"kind": "sphere", "params": {"radius": 0.3}},
            "transform": {"translation": [-0.4, 0.3, 0.0]},
            "material": {
                "name": "gold",
                "base_color": [1.0, 0.77, 0.34],
                "metallic": 1.0,
                "roughness": 0.25,
            },
        },
        {
            "name": "vase",
            "shape": {"kind": "cylinder", "params": {"radius": 0.2, "height": 0.6}},
            "transform": {"translation": [0.5, 0.3, 0.0]},
            "material": {
                "name": "glass",
                "base_color": [0.9, 0.95, 1.0],
                "roughness": 0.05,
                "opacity": 0.25,
            },
        },
    ],
}


def test_drag_the_gizmo_then_metal_and_glass(page, app: Stack, tmp_path: Path) -> None:
    workspace = open_scene(page, "Gizmo")
    click_object(page, "crate")
    page.wait_for_function("window.studioViewer.selected === 'crate'")
    start = page.evaluate("window.studioViewer.screenPosition('crate')")

    # The gizmo's centre handle moves the object in the view plane; it then drops to the ground.
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(start["x"] - 8 * step, start["y"] - 6 * step)
    page.mouse.up()
    wait_for_history(page, 2)
    moved = revision(page, workspace, 2)
    assert moved["source"] == "edit: moved crate"
    crate = {item["name"]: item for item in moved["scene"]["objects"]}["crate"]
    x, y, z = crate["transform"]["translation"]
    assert (x, z) != (-0.5, 0.0) and y == pytest.approx(0.3)  # moved, and resting on the ground
    page.keyboard.press("e")
    assert page.get_attribute("#sv-tools button[data-mode=rotate]", "aria-pressed") == "true"

    assert post_scene(page, workspace, GOLD_AND_GLASS) == 3
    page.reload()
    wait_for_revision(page, 3)
    assert page.evaluate("window.studioViewer.hasEnvironment")
    gold = page.evaluate("window.studioViewer.materialOf('gold ball')")
    glass = page.evaluate("window.studioViewer.materialOf('vase')")
    assert gold["metalness"] == 1
    assert glass["type"] == "MeshPhysicalMaterial" and glass["transmission"] == 1
    assert glass["transparent"] is False  # the transmission shows what is behind it
    page.wait_for_timeout(500)
    save_screenshot(page, tmp_path, "studio-gold-and-glass")
    assert not problems(page), problems(page)


def test_compare_reads_plainly(page, app: Stack) -> None:
    workspace = open_scene(page, "Compare")
    assert page.is_visible(".run-list-empty") and page.locator(".run-list li").count() == 0
    nudged = copy.deepcopy(SCENE)
    nudged["objects"][0]["transform"]["translation"] = [0.1 + 0.2, 0.3, 0.0]  # 0.30000000000000004
    assert post_scene(page, workspace, nudged) == 2
    page.reload()
    wait_for_revision(page, 2)

    page.click("#sv-compare")
    assert "pick one more" in page.inner_text("#sv-compare-hint")
    page.click("#sv-history button.sv-rev[data-number='1']")
    page.wait_for_selector("#sv-diff li.sv-changed")

    hint = page.inner_text("#sv-compare-hint")
    assert "pick" not in hint.lower(), hint
    diff = page.inner_text("#sv-diff")
    assert "[-0.5, 0.3, 0] → [0.3, 0.3, 0]" in diff, diff
    assert "0000000" not in diff
    assert not problems(page), problems(page)
