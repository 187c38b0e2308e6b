"""Checks and adjustments on synthetic frames: no OpenGL needed, so these run everywhere."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from studio.rendering._gl import choose_platform
from studio.rendering.adjust import fix_exposure, fix_framing, studio_lights
from studio.rendering.checks import exposure, framing
from studio.rendering.lights import look_at
from studio.rendering.result import RenderResult
from studio.scene.model import Camera, Light, Scene, SceneObject, Shape

W, H = 200, 150
CAMERA = Camera(position=(0.0, 1.0, 5.0), target=(0.0, 1.0, 0.0), yfov_deg=50.0, aspect=W / H)


def frame(color, seg=None, labels=("a",), bounds=None, camera=CAMERA):
    color = np.broadcast_to(np.asarray(color, dtype=np.uint8), (H, W, 3)).copy()
    return RenderResult(
        color=color,
        depth=np.zeros((H, W), np.float32),
        segmentation=None if seg is None else np.asarray(seg, dtype=np.int32),
        labels=tuple(labels),
        object_bounds=bounds or {},
        view=np.linalg.inv(look_at(camera.position, camera.target)).astype(np.float64),
        yfov=math.radians(camera.yfov_deg),
        znear=0.02,
        zfar=100.0,
    )


def uniform(value):
    seg = np.ones((H, W), np.int32)
    return frame((value, value, value), seg)


def scene_with(*names, lights=(), camera=CAMERA):
    objects = tuple(SceneObject(name, Shape("box", {"size": [1, 1, 1]})) for name in names)
    return Scene(objects=objects, lights=lights, camera=camera)


# --- exposure ------------------------------------------------------------------------------------


def test_exposure_measures_only_what_is_not_background():
    seg = np.zeros((H, W), np.int32)
    seg[:, : W // 2] = 1
    color = np.zeros((H, W, 3), np.uint8)
    color[:, : W // 2] = 128  # grey object, black background
    report = exposure(frame(color, seg))
    assert report.passed and report.background_excluded
    assert report.mean_luma.value == pytest.approx(128 / 255, abs=1e-3)
    assert report.crushed.value == 0.0 and report.pixels == H * W // 2

    without = exposure(frame(color, None))  # no segmentation: every pixel counts
    assert not without.passed and without.crushed.value == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("value", "passed", "problem"),
    [(10, False, "too dark"), (128, True, None), (240, False, "too bright"), (255, False, "too")],
)
def test_exposure_bounds(value, passed, problem):
    report = exposure(uniform(value))
    assert report.passed is passed
    if problem:
        assert report.problems[0].startswith(problem)
    data = json.loads(report.to_json())
    assert data["check"] == "exposure" and data["mean_luma"]["low"] == 0.25


def test_exposure_reports_blown_out_objects_as_advisories():
    seg = np.ones((H, W), np.int32)
    seg[:20, :20] = 2
    color = np.full((H, W, 3), 120, np.uint8)
    color[:20, :20] = 255
    report = exposure(frame(color, seg, labels=("a", "lamp")))
    assert report.passed  # 1.3 % clipped is within the 2 % bound
    assert [(a.name, a.problem) for a in report.advisories] == [("lamp", "100% of it is blown out")]


def test_exposure_with_nothing_visible():
    report = exposure(frame((0, 0, 0), np.zeros((H, W), np.int32)))
    assert not report.passed and report.mean_luma.value is None
    json.loads(report.to_json())


# --- framing -------------------------------------------------------------------------------------


def test_framing_explains_each_failure():
    seg = np.zeros((H, W), np.int32)
    seg[40:100, 0:30] = 1  # touches the left edge
    seg[60:65, 100:104] = 2  # 20 px: too small
    seg[50:90, 120:160] = 5  # fine
    bounds = {
        "behind": ((-0.5, 0.5, 6.0), (0.5, 1.5, 7.0)),
        "left": ((-40.0, 0.5, -1.0), (-39.0, 1.5, 0.0)),
    }
    labels = ("cut", "small", "behind", "left", "fine")
    report = framing(frame((90, 90, 90), seg, labels, bounds), scene_with(*labels))

    assert not report.passed and report.failed == ("cut", "small", "behind", "left")
    cut = report.object("cut")
    assert cut.problem == "cut_by_frame" and cut.edges == ("left",) and cut.border_pixels == 60
    assert report.object("small").problem == "too_small"
    assert report.object("behind").reason == "it is behind the camera"
    assert report.object("left").reason == "it is outside the frame, to the left"
    assert report.object("fine").passed and report.min_pixels == math.ceil(0.002 * W * H)
    assert json.loads(report.to_json())["failed"] == ["cut", "small", "behind", "left"]


def test_framing_needs_segmentation():
    with pytest.raises(ValueError, match="segmentation"):
        framing(frame((90, 90, 90), None), scene_with("a"))


# --- fix_exposure --------------------------------------------------------------------------------


def lit(*intensities):
    return scene_with(
        "a", lights=tuple(Light(f"l{i}", intensity=v) for i, v in enumerate(intensities))
    )


def test_fix_exposure_takes_a_clamped_proportional_step():
    too_dark = exposure(uniform(60))  # mean 0.235
    scene = fix_exposure(lit(2.0, 1.0), too_dark)
    factor = (0.45 / too_dark.mean_luma.value) ** 2.2
    assert [light.intensity for light in scene.lights] == pytest.approx([2 * factor, factor])

    far_too_dark = exposure(uniform(2))
    assert [x.intensity for x in fix_exposure(lit(1.0), far_too_dark).lights] == [16.0]
    too_bright = exposure(uniform(250))
    expected = (0.45 / too_bright.mean_luma.value) ** 2.2  # about 0.2: within the clamp
    assert fix_exposure(lit(1.0), too_bright).lights[0].intensity == pytest.approx(expected)


def test_fix_exposure_special_cases():
    fine = exposure(uniform(128))
    scene = lit(1.0)
    assert fix_exposure(scene, fine) is scene

    dark = exposure(uniform(10))
    assert [x.name for x in fix_exposure(lit(), dark).lights] == ["key", "fill", "rim"]
    assert [x.name for x in fix_exposure(lit(0.0), dark).lights] == ["l0", "key", "fill", "rim"]

    # Mean in range but high contrast: too much clipped and crushed; a fill light is added.
    color = np.full((H, W, 3), 128, np.uint8)
    color[:20] = 255
    color[-30:] = 0
    contrast = exposure(frame(color, np.ones((H, W), np.int32)))
    assert contrast.mean_luma.passed and not contrast.clipped.passed
    assert not contrast.crushed.passed
    assert [x.name for x in fix_exposure(lit(3.0), contrast).lights] == ["l0", "fill-auto"]


def test_studio_lights_surround_the_target():
    key, fill, rim = studio_lights(CAMERA)
    assert (key.intensity, fill.intensity, rim.intensity) == pytest.approx((3.0, 1.2, 2.0))
    assert key.cast_shadows and not fill.cast_shadows
    assert all(light.target == CAMERA.target for light in (key, fill, rim))
    assert key.position[0] > 0 > fill.position[0]  # key from the camera's right, fill from left
    assert rim.position[2] < 0 < key.position[2]  # rim from behind the objects


# --- fix_framing ---------------------------------------------------------------------------------


def corners(bounds):
    (x0, y0, z0), (x1, y1, z1) = bounds
    return np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)])


def assert_all_in_view(camera, boxes, aspect, margin=0.1):
    view = np.linalg.inv(look_at(camera.position, camera.target))
    points = np.vstack([corners(box) for box in boxes])
    local = points @ view[:3, :3].T + view[:3, 3]
    depth = -local[:, 2]
    assert (depth > 0.05).all()
    tan_v = math.tan(math.radians(camera.yfov_deg) / 2)
    assert np.abs(local[:, 1] / depth).max() <= tan_v / (1 + margin) + 1e-9
    assert np.abs(local[:, 0] / depth).max() <= tan_v * aspect / (1 + margin) + 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_fix_framing_fits_every_box_with_a_margin(seed):
    rng = np.random.default_rng(seed)
    bounds = {}
    for index in range(6):
        low = rng.uniform(-3, 3, 3) * (1, 0, 1)
        bounds[f"o{index}"] = (tuple(low), tuple(low + rng.uniform(0.2, 1.5, 3)))
    scene = scene_with(*bounds, camera=replace(CAMERA, position=(1.0, 1.5, 1.0)))
    report = framing(frame((90, 90, 90), np.zeros((H, W), np.int32), tuple(bounds)), scene)

    fixed = fix_framing(scene, report, bounds).camera
    assert_all_in_view(fixed, bounds.values(), W / H)
    before = np.subtract(CAMERA.target, (1.0, 1.5, 1.0))
    after = np.subtract(fixed.target, fixed.position)
    assert np.allclose(before / np.linalg.norm(before), after / np.linalg.norm(after))


def test_fix_framing_centres_what_it_frames_and_fills_the_frame():
    # A 1.8 x 1.4 m blanket seen from above at an angle: its near edge fills more of the view
    # than its far edge, so the aim moves to the middle of where it lands in the frame.
    bounds = {"blanket": ((-0.9, 0.0, -0.7), (0.9, 0.01, 0.7))}
    high = replace(CAMERA, position=(2.0, 2.2, 2.5), target=(0.0, 0.0, 0.0))
    scene = scene_with("blanket", camera=high)
    report = framing(frame((90, 90, 90), np.zeros((H, W), np.int32)), scene)
    fixed = fix_framing(scene, report, bounds).camera
    assert_all_in_view(fixed, bounds.values(), W / H)

    view = np.linalg.inv(look_at(fixed.position, fixed.target))
    local = corners(bounds["blanket"]) @ view[:3, :3].T + view[:3, 3]
    tan_v = math.tan(math.radians(fixed.yfov_deg) / 2)
    across = local[:, 0] / -local[:, 2] / (tan_v * W / H)
    down = local[:, 1] / -local[:, 2] / tan_v
    assert abs(across.max() + across.min()) < 0.02 and abs(down.max() + down.min()) < 0.02
    assert max(across.max(), down.max()) > 0.85  # margin 0.1: it fills the frame


def test_fix_framing_zooms_in_on_a_tiny_object_and_stays_above_ground():
    bounds = {"a": ((-0.05, 0.0, -0.05), (0.05, 0.1, 0.05))}
    below = replace(CAMERA, position=(0.0, -2.0, 8.0), target=(0.0, 0.0, 0.0))
    scene = scene_with("a", camera=below)
    report = framing(frame((90, 90, 90), np.zeros((H, W), np.int32)), scene)
    fixed = fix_framing(scene, report, bounds).camera
    assert fixed.position[1] > 0  # it would have looked up from under the ground
    assert np.linalg.norm(np.subtract(fixed.position, fixed.target)) < 1.0
    assert_all_in_view(fixed, bounds.values(), W / H)


# --- platform and camera -------------------------------------------------------------------------


def test_choose_platform_follows_the_environment_before_the_installed_libraries():
    both = {"OSMesa": "libOSMesa.so.8", "EGL": "libEGL.so.1"}.get
    assert choose_platform({}, find_library=both) == "osmesa"
    assert choose_platform({"DISPLAY": ":0"}, find_library=both) == "osmesa"
    assert choose_platform({"PYOPENGL_PLATFORM": "egl"}, find_library=both) == "egl"
    assert choose_platform({"MUJOCO_GL": "egl"}, find_library=both) == "egl"
    assert choose_platform({"MUJOCO_GL": "glfw"}, find_library=both) == "osmesa"
    assert choose_platform({"PYOPENGL_PLATFORM": "osmesa", "MUJOCO_GL": "egl"}) == "osmesa"


def test_look_at():
    pose = look_at((0, 0, 5), (0, 0, 0))
    assert np.allclose(pose[:3, 2], (0, 0, 1)) and np.allclose(pose[:3, 1], (0, 1, 0))
    down = look_at((0, 5, 0), (0, 0, 0))
    assert np.allclose(-down[:3, 2], (0, -1, 0)) and np.isclose(np.linalg.det(down[:3, :3]), 1)
