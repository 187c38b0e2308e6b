"""The cheaper ways the renderer draws the same frame: opaque meshes front to back (the depth
test then skips hidden fragments before shading them), a shadow filter that compares its 16
texels in four filtered lookups instead of 36 reads, and each program's lights bound once per
pass instead of once per draw. Each must leave the image as pyrender's own way draws it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.rendering import pyrender_fixes, renderer
from studio.rendering._gl import load
from studio.rendering.adjust import studio_lights
from studio.rendering.pyrender_scene import MeshCache, to_pyrender
from studio.rendering.renderer import close_renderers, render
from studio.scene.model import Camera, Light, Material, Scene, SceneObject, Shape, Transform
from tests.studio.rendering.shapes import mesh_for

W, H = 320, 240
pytestmark = pytest.mark.usefixtures("gl_context")
CAMERA = Camera(position=(0.0, 1.6, 4.0), target=(0.0, 0.4, 0.0), yfov_deg=50.0)


def crate(name: str, z: float, x: float = 0.0) -> SceneObject:
    return SceneObject(
        name,
        Shape("box", {"size": [0.5, 0.5, 0.5]}),
        Transform((x, 0.25, z)),
        Material(base_color=(0.6, 0.45, 0.3)),
    )


def row_scene() -> Scene:
    """Crates one behind another along the view, and a glass ball in front of them."""
    glass = SceneObject(
        "glass",
        Shape("sphere", {"radius": 0.2}),
        Transform((0.35, 0.2, 1.2)),
        Material(base_color=(0.7, 0.8, 0.9), opacity=0.3),
    )
    crates = tuple(crate(f"crate-{i}", z=1.0 - 0.6 * i, x=0.15 * i) for i in range(4))
    return Scene(objects=(*crates, glass), lights=studio_lights(CAMERA), camera=CAMERA)


def test_opaque_meshes_are_drawn_near_to_far_and_the_frame_is_unchanged(monkeypatch):
    scene = row_scene()
    ours = render(scene, mesh_for=mesh_for, width=W, height=H)
    inner = renderer._RENDERERS[(W, H)].offscreen._renderer
    converted = to_pyrender(load(), scene, mesh_for, MeshCache(load()), W, H)
    order = [node.name for node in inner._sorted_mesh_nodes(converted.scene)]
    assert order == ["crate-0", "crate-1", "crate-2", "crate-3", "ground", "glass"]

    monkeypatch.delattr(inner, "_sorted_mesh_nodes")  # pyrender's own order: far to near
    theirs = render(scene, mesh_for=mesh_for, width=W, height=H)
    assert ours.segmentation is not None and theirs.segmentation is not None
    assert np.array_equal(ours.segmentation, theirs.segmentation)
    changed = np.any(np.abs(ours.color.astype(int) - theirs.color.astype(int)) > 1, axis=2)
    assert np.count_nonzero(changed) <= 0.001 * W * H
    assert ours.pixel_counts()["crate-3"] > 200  # the far crate shows beside the near ones


def test_the_comparing_shadow_filter_casts_the_same_shadow(monkeypatch):
    source = (
        pyrender_fixes.Path(pyrender_fixes.ProgramCache(load()).shader_dir) / "mesh.frag"
    ).read_text()
    patched = pyrender_fixes.shadow_shader_source(source)
    assert pyrender_fixes.PCF_LOOP in source and pyrender_fixes.PCF_LOOP not in patched
    assert pyrender_fixes.PCF_TEXELS in patched and "sampler2DShadow shadow_map;" in patched

    scene = row_scene()
    close_renderers()
    ours = render(scene, mesh_for=mesh_for, width=W, height=H)
    close_renderers()  # shaders are compiled once per renderer: a new one, with the old filter
    monkeypatch.setattr(pyrender_fixes, "compares_in_filter", lambda source: False)
    theirs = render(scene, mesh_for=mesh_for, width=W, height=H)
    close_renderers()

    difference = np.abs(ours.color.astype(int) - theirs.color.astype(int))
    assert difference.max() <= 1
    lights = tuple(replace(light, cast_shadows=False) for light in scene.lights)
    unshadowed = render(replace(scene, lights=lights), mesh_for=mesh_for, width=W, height=H)
    darker = unshadowed.color.astype(float).mean(axis=2) - ours.color.astype(float).mean(axis=2)
    assert np.count_nonzero(darker[ours.mask("ground")] > 10) > 500  # the crates' shadows


@pytest.mark.parametrize("bulbs", [1, 5])  # 5: more point lights than pyrender draws at once
def test_lights_bound_once_per_pass_light_every_object_as_before(monkeypatch, bulbs):
    spot = Light("spot", "spot", intensity=30.0, position=(0.5, 2.5, 2.0), outer_cone_deg=50.0)
    points = tuple(
        Light(f"bulb-{i}", "point", intensity=4.0, position=(-1.5 + 0.8 * i, 1.5, 1.5))
        for i in range(bulbs)
    )
    scene = replace(row_scene(), lights=(*row_scene().lights, spot, *points))
    ours = render(scene, mesh_for=mesh_for, width=W, height=H)
    inner = renderer._RENDERERS[(W, H)].offscreen._renderer
    monkeypatch.delattr(inner, "_forward_pass")  # pyrender's own: every draw binds its lights
    monkeypatch.delattr(inner, "_bind_lighting")
    theirs = render(scene, mesh_for=mesh_for, width=W, height=H)
    assert np.array_equal(ours.color, theirs.color)
    assert ours.color.std() > 10


def test_shared_shape_meshes_are_read_once_and_a_changed_mesh_is_drawn_changed():
    from studio.scene.geometry import is_shared, object_mesh

    item = crate("crate", z=0.0)
    shared = object_mesh(item, shared=True)
    assert shared is object_mesh(item, shared=True) and is_shared(shared)
    own = object_mesh(item)
    assert own is not shared and not is_shared(own)

    # A mesh of the caller's own, changed between two frames, is drawn as it is now.
    scene = Scene(objects=(item,), lights=studio_lights(CAMERA), camera=CAMERA)
    first = render(scene, mesh_for=lambda obj: (own, np.eye(4)), width=W, height=H)
    own.apply_scale(2.0)
    second = render(scene, mesh_for=lambda obj: (own, np.eye(4)), width=W, height=H)
    assert np.allclose(first.object_bounds["crate"][1], (0.25, 0.25, 0.25))
    assert np.allclose(second.object_bounds["crate"][1], (0.5, 0.5, 0.5))
