"""Rendering with pyrender (OSMesa on CPU unless PYOPENGL_PLATFORM=egl), checks and their fixes.

The whole module is skipped when no GL context can be made here (e.g. libosmesa6 missing). The
renders are small (320x240) except one at the production size, 1024x768.
"""

from __future__ import annotations

import io
import math
from dataclasses import replace

import numpy as np
import pytest
import trimesh
from PIL import Image

from studio.rendering import renderer
from studio.rendering._gl import choose_platform
from studio.rendering.adjust import fix_exposure, fix_framing, studio_lights
from studio.rendering.checks import exposure, framing
from studio.rendering.renderer import render
from studio.rendering.result import png, thumbnail
from studio.scene.model import Camera, Light, Material, Scene, SceneObject, Shape, Transform
from tests.studio.rendering.shapes import mesh_for

W, H = 320, 240
pytestmark = pytest.mark.usefixtures("gl_context")


CAMERA = Camera(position=(2.6, 1.8, 3.4), target=(0.0, 0.35, 0.0), yfov_deg=50.0)


def box(name, x, z=0.0, size=0.6, material=None, y=None):
    return SceneObject(
        name,
        Shape("box", {"size": [size, size, size]}),
        Transform((x, size / 2 if y is None else y, z)),
        material or Material(base_color=(0.75, 0.75, 0.75)),
    )


def sphere(name, x, z=0.0, radius=0.35, material=None):
    return SceneObject(
        name,
        Shape("sphere", {"radius": radius}),
        Transform((x, radius, z)),
        material or Material(base_color=(0.7, 0.2, 0.2)),
    )


def cylinder(name, x, z=0.0):
    return SceneObject(
        name,
        Shape("cylinder", {"radius": 0.25, "height": 0.8}),
        Transform((x, 0.4, z), rotation=(0.0, 30.0, 0.0)),
        Material(base_color=(0.3, 0.45, 0.7), roughness=0.3),
    )


def trio(**changes):
    scene = Scene(
        objects=(box("box", -0.9), sphere("ball", 0.1, 0.3), cylinder("can", 1.0, -0.3)),
        lights=studio_lights(CAMERA),
        camera=CAMERA,
    )
    return replace(scene, **changes)


def luma_of(result, name):
    pixels = result.color[result.mask(name)].astype(float)
    return float((pixels @ [0.2126, 0.7152, 0.0722]).mean())


def test_render_is_a_non_blank_image_of_the_right_size():
    result = render(trio(), mesh_for=mesh_for, width=W, height=H, depth=True)

    assert result.color.shape == (H, W, 3) and result.color.dtype == np.uint8
    assert result.depth is not None and result.depth.shape == (H, W)
    assert result.color.std() > 10  # not a flat frame
    # Depth is set exactly where the segmentation shows something (but on silhouettes under
    # EGL, whose colour and depth are 4x multisampled and the segmentation is not).
    drawn = result.segmentation > 0
    mismatch = np.mean((result.depth > 0) != drawn)
    assert mismatch == 0 if choose_platform() == "osmesa" else mismatch < 0.02
    assert exposure(result).passed, exposure(result).problems  # the studio rig is calibrated


def test_segmentation_finds_each_object_by_name():
    result = render(trio(), mesh_for=mesh_for, width=W, height=H)

    counts = result.pixel_counts()
    assert set(counts) == {"box", "ball", "can", "ground"}
    assert all(counts[name] > 500 for name in ("box", "ball", "can"))
    columns = {
        name: float(np.nonzero(result.mask(name))[1].mean()) for name in ("box", "ball", "can")
    }
    assert columns["box"] < columns["ball"] < columns["can"]  # left to right, as placed
    # Bounds come from the real meshes: the sphere of radius 0.35 sits on the ground.
    low, high = result.object_bounds["ball"]
    assert low[1] == pytest.approx(0.0, abs=1e-6) and high[1] == pytest.approx(0.7, abs=1e-6)


def test_full_size_render_and_images():
    scene = trio()
    result = render(scene, mesh_for=mesh_for)  # 1024x768, the production size

    assert result.color.shape == (768, 1024, 3)
    assert exposure(result).passed and framing(result, scene).passed
    assert Image.open(io.BytesIO(png(result))).size == (1024, 768)
    assert Image.open(io.BytesIO(thumbnail(result))).size == (256, 192)


def test_far_too_dark_fails_exposure_and_is_fixed():
    scene = trio(lights=tuple(replace(x, intensity=x.intensity / 100) for x in trio().lights))
    report = exposure(render(scene, mesh_for=mesh_for, width=W, height=H))
    assert not report.passed and report.problems[0].startswith("too dark")

    for _ in range(3):
        scene = fix_exposure(scene, report)
        report = exposure(render(scene, mesh_for=mesh_for, width=W, height=H))
        if report.passed:
            break
    assert report.passed, report.problems


def test_overexposed_fails_and_is_fixed():
    scene = trio(lights=tuple(replace(x, intensity=x.intensity * 30) for x in trio().lights))
    report = exposure(render(scene, mesh_for=mesh_for, width=W, height=H))
    assert not report.passed
    assert not report.clipped.passed and report.mean_luma.value > 0.75

    for _ in range(3):
        scene = fix_exposure(scene, report)
        report = exposure(render(scene, mesh_for=mesh_for, width=W, height=H))
        if report.passed:
            break
    assert report.passed, report.problems


def test_no_lights_gets_the_studio_rig():
    scene = trio(lights=())
    report = exposure(render(scene, mesh_for=mesh_for, width=W, height=H))
    assert not report.passed and report.crushed.value > 0.9

    scene = fix_exposure(scene, report)
    assert [light.name for light in scene.lights] == ["key", "fill", "rim"]
    assert exposure(render(scene, mesh_for=mesh_for, width=W, height=H)).passed


def test_camera_too_close_cuts_an_object_and_is_fixed():
    scene = trio(camera=replace(CAMERA, position=(-0.9, 0.5, 0.9), target=(-0.9, 0.3, 0.0)))
    result = render(scene, mesh_for=mesh_for, width=W, height=H)
    report = framing(result, scene)
    assert not report.passed
    assert report.object("box").problem == "cut_by_frame"
    assert report.object("box").edges and "cut by the frame" in report.object("box").reason

    scene = fix_framing(scene, report, result.object_bounds)
    fixed = framing(render(scene, mesh_for=mesh_for, width=W, height=H), scene)
    assert fixed.passed, fixed.problems


def test_object_behind_the_camera_is_not_visible_and_is_fixed():
    scene = trio().with_object(box("crate", 4.5, 6.0))  # behind the camera at (2.6, 1.8, 3.4)
    result = render(scene, mesh_for=mesh_for, width=W, height=H)
    report = framing(result, scene)
    assert report.failed == ("crate",)
    assert report.object("crate").problem == "not_visible"
    assert report.object("crate").reason == "it is behind the camera"

    # Stepped back far enough to see it, the crate stands between the camera and the rest;
    # the next round sees over it from higher up, as a refinement run would.
    for _ in range(2):
        scene = fix_framing(scene, report, result.object_bounds)
        result = render(scene, mesh_for=mesh_for, width=W, height=H)
        report = framing(result, scene)
    assert report.passed, report.problems


def test_a_cushion_hidden_behind_a_low_table_is_seen_from_higher_up():
    # From a camera 20° above the horizon, a 15 cm cushion just behind a 45 cm table is hidden;
    # looking further down from the same side shows it over the table top.
    table = SceneObject(
        "table", Shape("box", {"size": [1.1, 0.45, 0.6]}), Transform((0.0, 0.225, 0.0))
    )
    cushion = SceneObject(
        "cushion", Shape("box", {"size": [0.45, 0.15, 0.45]}), Transform((0.0, 0.075, -0.6))
    )
    low = Camera(position=(0.0, 1.0, 2.6), target=(0.0, 0.2, 0.0), yfov_deg=50.0)
    scene = Scene(objects=(table, cushion), lights=studio_lights(low), camera=low)
    rounds = []
    for _ in range(3):
        result = render(scene, mesh_for=mesh_for, width=W, height=H)
        report = framing(result, scene)
        rounds.append(report)
        if report.passed:
            break
        scene = fix_framing(scene, report, result.object_bounds)
    assert rounds[0].object("cushion").reason == "it is hidden behind 'table'"
    assert rounds[-1].passed, rounds[-1].problems
    direction = np.subtract(scene.camera.target, scene.camera.position)
    assert direction[2] < 0  # still looking from the front, now from higher up
    assert -direction[1] / np.linalg.norm(direction) > math.sin(math.radians(35))


def test_hidden_object_names_what_hides_it():
    scene = trio().with_object(box("tiny", -0.9, -0.05, size=0.2))  # inside the big box
    report = framing(render(scene, mesh_for=mesh_for, width=W, height=H), scene)
    assert report.object("tiny").reason == "it is hidden behind 'box'"


def test_shadows_on_off_and_mixed_light_kinds():
    def ground_luma(lights):
        result = render(trio(lights=lights), mesh_for=mesh_for, width=W, height=H)
        return luma_of(result, "ground"), result

    key = Light("key", "directional", intensity=6.0, position=(2.0, 4.0, 1.0))
    fill = Light("fill", "directional", intensity=2.0, position=(-3.0, 2.0, 2.0))
    shadowed, _ = ground_luma((key, fill))
    unshadowed, _ = ground_luma(
        (replace(key, cast_shadows=False), replace(fill, cast_shadows=False))
    )
    mixed, _ = ground_luma((key, replace(fill, cast_shadows=False)))
    assert shadowed < mixed < unshadowed  # shadows darken the ground; the fill's are skipped

    spot = Light("spot", "spot", intensity=40.0, position=(0.0, 3.0, 1.0), outer_cone_deg=90.0)
    point = Light("bulb", "point", intensity=10.0, position=(1.0, 2.0, 1.5))
    _, result = ground_luma((spot, point, replace(key, cast_shadows=False)))
    assert result.color.std() > 10
    assert any("point light 'bulb' casts no shadow" in note for note in result.notes)


def test_an_open_surface_casts_a_shadow():
    # Shadow passes keep back faces only, except for open (double-sided) meshes: a lone
    # square facing the light must still shade the ground under it.
    square = trimesh.Trimesh(
        vertices=[[-0.5, 0, -0.5], [0.5, 0, -0.5], [0.5, 0, 0.5], [-0.5, 0, 0.5]],
        faces=[[0, 2, 1], [0, 3, 2]],  # normal +Y, toward the light
    )
    assert not square.is_watertight and square.face_normals[0][1] > 0

    def square_for(obj):
        return square, mesh_for(obj)[1]

    sheet = SceneObject("sheet", Shape("box", {"size": [1, 1, 1]}), Transform((0.0, 1.0, 0.0)))
    camera = Camera(position=(2.5, 0.6, 2.5), target=(0.0, 0.0, 0.0))
    sun = Light("sun", "directional", intensity=6.0, position=(0.0, 5.0, 0.0))

    def ground(cast_shadows):
        scene = Scene(
            objects=(sheet,), lights=(replace(sun, cast_shadows=cast_shadows),), camera=camera
        )
        result = render(scene, mesh_for=square_for, width=W, height=H)
        return np.where(result.mask("ground"), result.color.astype(float).mean(axis=2), np.nan)

    darker = ground(False) - ground(True)
    assert np.count_nonzero(darker > 30) > 300  # the 1 m square's shadow (about 900 px)


def test_opaque_transparent_and_emissive_materials():
    red = box("back", 0.0, -0.6, size=0.9, material=Material(base_color=(0.9, 0.1, 0.1)))

    def front(opacity, emissive=(0.0, 0.0, 0.0)):
        material = Material(base_color=(0.2, 0.4, 0.9), opacity=opacity, emissive=emissive)
        scene = trio(objects=(red, sphere("front", 0.0, 0.4, 0.3, material)))
        result = render(scene, mesh_for=mesh_for, width=W, height=H)
        return result.color[result.mask("front")].astype(float).mean(axis=0), result

    opaque, _ = front(1.0)
    glass, result = front(0.3)
    assert result.pixel_counts()["front"] > 500  # glass is still segmented as itself
    assert glass[0] > opaque[0] + 20  # the red box shows through
    glowing, _ = front(1.0, emissive=(0.0, 0.0, 1.0))
    assert glowing[2] > opaque[2] + 20


def test_repeated_renders_are_identical_and_reuse_shader_programs():
    scene = trio()
    first = render(scene, mesh_for=mesh_for, width=W, height=H)
    cache = renderer._RENDERERS[(W, H)].offscreen._renderer._program_cache
    programs = len(cache._programs)
    second = render(scene, mesh_for=mesh_for, width=W, height=H)

    assert first.segmentation is not None and second.segmentation is not None
    assert np.array_equal(first.color, second.color)
    assert np.array_equal(first.segmentation, second.segmentation)
    assert len(cache._programs) == programs  # pyrender's own cache compiled one per draw call


def test_the_framebuffer_passes_give_the_same_frame(monkeypatch):
    # Under EGL the passes draw into framebuffers (OSMesa has none, so pyrender draws into the
    # context's own buffer); forced here on OSMesa, whose GL has them too, the colour pass and
    # the segmentation (single-sample, read as one 32-bit word a pixel) must give the frame the
    # context's own buffer gives.
    if choose_platform() != "osmesa":
        pytest.skip("compares against OSMesa's own buffer")
    pyrender = renderer.load()
    scene = trio()
    own = render(scene, mesh_for=mesh_for, width=W + 2, height=H + 2)
    forced = renderer._Renderer(pyrender, W + 2, H + 2)
    try:
        monkeypatch.setattr(forced.offscreen._platform, "supports_framebuffers", lambda: True)
        framed = forced.render(scene, mesh_for, segmentation=True)
        with_depth = forced.render(scene, mesh_for, segmentation=False, depth=True)
    finally:
        forced.close()
    assert framed.depth is None and with_depth.depth is not None
    assert with_depth.segmentation is None
    counts, framed_counts = own.pixel_counts(), framed.pixel_counts()
    assert set(counts) == set(framed_counts)
    for name, pixels in counts.items():
        assert framed_counts[name] == pytest.approx(pixels, rel=0.02), name
    assert np.mean(own.segmentation != framed.segmentation) < 0.002
    assert np.abs(own.color.astype(int) - framed.color.astype(int)).mean() < 2.0


def test_a_frame_is_the_same_whatever_was_drawn_before_it():
    # A program keeps the uniforms it was given, and they are set only when they change: a
    # frame drawn after others (other materials, camera, lights, sky) must be the frame a
    # fresh renderer draws, pixel for pixel.
    pyrender = renderer.load()
    gold = Material(base_color=(1.0, 0.77, 0.34), metallic=1.0, roughness=0.2)
    glass = Material(base_color=(0.9, 0.95, 1.0), roughness=0.05, opacity=0.3)
    glow = Material(base_color=(0.2, 0.2, 0.2), emissive=(1.0, 0.5, 0.1))
    before = [
        trio(objects=(box("box", -0.9, material=gold), sphere("ball", 0.1, 0.3, material=glass))),
        trio(
            camera=Camera(position=(-2.0, 2.5, 2.0), target=(0.0, 0.2, 0.0)),
            objects=(sphere("lamp", 0.0, material=glow), cylinder("can", 0.8, -0.3)),
            lights=(Light("sun", intensity=5.0, position=(1.0, 6.0, 2.0)),),
        ),
    ]
    scene = trio(
        objects=(box("box", -0.9), sphere("ball", 0.1, 0.3), sphere("glass", 0.9, material=glass))
    )
    used, fresh = (renderer._Renderer(pyrender, W + 4, H + 4) for _ in range(2))
    try:
        for earlier in before:
            used.render(earlier, mesh_for, segmentation=True, sky=earlier is before[0])
        after = used.render(scene, mesh_for, segmentation=True)
        alone = fresh.render(scene, mesh_for, segmentation=True)
    finally:
        used.close()
        fresh.close()
    assert np.array_equal(after.color, alone.color)
    assert after.segmentation is not None and alone.segmentation is not None
    assert np.array_equal(after.segmentation, alone.segmentation)


def test_lights_are_bound_in_the_order_of_their_names():
    # pyrender keeps light nodes in sets, whose order changes from run to run; bound in that
    # order, a frame's lights were summed differently each time.
    pyrender = renderer.load()
    prs = pyrender.Scene()
    for name in ("rim", "key", "fill", "bulb"):
        light = (
            pyrender.PointLight(name=name)
            if name == "bulb"
            else pyrender.DirectionalLight(name=name)
        )
        prs.add(light)
    assert [node.light.name for node in prs.light_nodes] == ["bulb", "fill", "key", "rim"]
