"""Render a `Scene` headless with pyrender: colour, per-object segmentation, depth if asked.

`render(scene, mesh_for=...)` takes the meshes from a callable, `mesh_for(obj) -> (trimesh,
4x4 world matrix)`, so this module knows nothing about how shapes become triangles. Turning the
scene into a pyrender scene (meshes, materials, ground, camera; colours, caches) is
`pyrender_scene.py`; the frame and its images are `result.py`. This module owns the GL contexts
and draws: the colour pass and the segmentation pass.

**Lights** (units, exposure, the ambient term, the sky) are in `lights.py`. Glossy surfaces
reflect a procedural sky (`pyrender_fixes.sky_shader_source`); `render(..., sky=False)` turns
it off and gives pyrender's plain ambient term.

**pyrender 0.1.45 quirks handled here** (the NumPy 2 `np.infty` shim and the platform choice
live in `_gl.py`):

* its shader-program cache is keyed on the GL context object, which PyOpenGL's OSMesa platform
  returns as a fresh ctypes pointer on every call (pointers compare by identity): every draw
  call compiled and leaked a new shader program (2 016 per frame at 100 objects, 1.5 s instead of
  0.4 s, and GL memory grew without end). `_ProgramCache` replaces it, keyed without the context
  (one cache belongs to one renderer, which owns one context);
* the emissive factor is multiplied in twice (`emissive * emissive_factor`), so materials pass
  its square root (`pyrender_scene.MeshCache`);
* point lights cannot cast shadows (pyrender refuses them), so they never do, and
  the result carries a note; shadow flags are per light *type*, so a directional or spot light
  with `cast_shadows=False` next to one that casts gets an empty (cleared) shadow map instead of
  a shadow pass;
* its shadow passes draw front faces, so lit curved surfaces shade themselves in a speckled
  pattern ("shadow acne") wherever the light grazes them more than its fixed depth bias allows.
  Shadow passes cull front faces instead and store the back faces of closed meshes, the usual
  cure: a lit surface is then always in front of its own stored depth. Open (non-watertight)
  meshes, which are drawn double-sided, keep both faces in the shadow map;
* a spot's shadow camera has a field of view of 2 * outer cone + 11.25 degrees, which must stay
  under 180 degrees: outer cones are capped at `lights.SPOT_MAX_OUTER_DEG` (80 degrees);
* its directional shadow map (2048^2) covers the whole scene's bounding box, ground included,
  and repeats outside it: on the default 20 m ground a texel was about 3 cm, with visible acne.
  The shadow camera is fitted to the objects' bounding sphere instead (texel = its diameter /
  2048: 1-4 mm from a table top to a room) and lookups outside it clamp to the border, whose
  depth pyrender sets to 1, i.e. unshadowed. Seen along the light, a receiver and whatever
  shades it share texels, so nothing the objects cast falls outside the fitted map.

**Speed.** One OffscreenRenderer (one GL context) per (width, height) per process, created on
first use (process-wide, under a lock: GL contexts are not thread-safe), each with its own cache
of uploaded meshes (see `pyrender_scene.py`). pyrender draws opaque meshes back to front, so
every hidden layer is shaded and then painted over; they are drawn front to back instead, the
ground last, and the software rasteriser's depth test drops hidden fragments before shading
them: at 100 stacked crates the colour pass takes about half the time. Only surfaces that meet
exactly at the same depth (touching faces seen edge-on) can come out differently, a few pixels.
That and each program's lights bound once per pass are `pyrender_passes.py`; uniforms set only
when their value changes, and lights in a fixed order (frames the same from run to run), are
`pyrender_state.py`.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from studio.rendering._gl import RenderUnavailable, load
from studio.rendering.lights import add_lights, sky_light
from studio.rendering.pyrender_fixes import ProgramCache as _ProgramCache
from studio.rendering.pyrender_fixes import compare_filtered
from studio.rendering.pyrender_passes import (
    bind_lights_once,
    colour_pass,
    draw_near_to_far,
    read_colour_only,
    segmentation_pass,
    shadow_pass,
)
from studio.rendering.pyrender_scene import (
    GROUND_NAME,
    Z_NEAR,
    MeshCache,
    MeshFor,
    bounding_sphere,
    to_pyrender,
)
from studio.rendering.pyrender_state import install_ordered_lights, install_uniform_memory
from studio.rendering.result import RenderResult
from studio.scene.model import Scene

__all__ = ["MeshFor", "RenderUnavailable", "close_renderers", "render"]

BEYOND_FAR_PLANE = np.array(
    [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 1.0]]
)
"""A light projection taking every point to z/w = 2: beyond the far plane, so never shadowed."""
MAX_SIDE = 8192


def render(
    scene: Scene,
    *,
    mesh_for: MeshFor,
    width: int = 1024,
    height: int = 768,
    segmentation: bool = True,
    sky: bool = True,
    depth: bool = False,
) -> RenderResult:
    """Render the scene from its camera; RenderUnavailable where no GL context can be made.

    `sky=False` leaves out the procedural sky's reflections (see `lights.py`), for comparisons;
    `depth=True` reads the depth buffer back too (the checks do not use it).
    """
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise ValueError(f"image size must be 1..{MAX_SIDE} pixels a side, not {width}x{height}")
    names = [item.name for item in scene.objects]
    if len(set(names)) != len(names):
        raise ValueError("object names must be unique")
    if scene.ground and GROUND_NAME in names:
        raise ValueError(f"{GROUND_NAME!r} is reserved for the ground plane")
    pyrender = load()
    with _LOCK:
        renderer = _RENDERERS.get((width, height))
        if renderer is None:
            if not _RENDERERS:
                # Free the contexts while the interpreter still works: pyrender's own __del__
                # at shutdown fails noisily under EGL.
                atexit.register(close_renderers)
            renderer = _RENDERERS[(width, height)] = _Renderer(pyrender, width, height)
        return renderer.render(scene, mesh_for, segmentation, sky, depth)


def gl_renderer_name() -> str:
    """What draws this process's frames (GL_RENDERER), once a frame was rendered; else ""."""
    with _LOCK:
        for renderer in _RENDERERS.values():
            return renderer.gl_renderer()
    return ""


def close_renderers() -> None:
    """Free every cached GL context (they are otherwise kept for the life of the process)."""
    with _LOCK:
        while _RENDERERS:
            _, renderer = _RENDERERS.popitem()
            # Under EGL every context shares the device's display, and pyrender terminates the
            # display when it deletes one: that frees the others too, whose own delete then
            # fails. Nothing is left to free.
            with contextlib.suppress(Exception):
                renderer.close()


# --- internals -----------------------------------------------------------------------------------

_LOCK = threading.RLock()
_RENDERERS: dict[tuple[int, int], _Renderer] = {}


class _Renderer:
    """One pyrender OffscreenRenderer (one GL context), its patches and its mesh cache."""

    def __init__(self, pyrender: ModuleType, width: int, height: int) -> None:
        self.pr = pyrender
        try:
            self.offscreen = pyrender.OffscreenRenderer(width, height)
        except Exception as exc:
            raise RenderUnavailable(
                f"cannot create a {width}x{height} GL context: {exc!r}"
            ) from exc
        inner = self.offscreen._renderer
        inner._program_cache = programs = _ProgramCache(pyrender)
        install_ordered_lights(pyrender)
        install_uniform_memory(pyrender)
        self.skip_shadows: set[Any] = set()

        def shadow_pass_unless_skipped(scene: Any, light_node: Any, flags: int) -> None:
            if programs.compares_shadows:
                compare_filtered(light_node.light.shadow_texture)
            if light_node in self.skip_shadows:
                # Bind and clear this light's shadow map: depth 1 everywhere, nothing occludes.
                inner._configure_shadow_mapping_viewport(light_node.light, flags)
                return
            shadow_pass(pyrender, inner, scene, light_node, flags)

        inner._shadow_mapping_pass = shadow_pass_unless_skipped
        draw = inner._bind_and_draw_primitive

        self.sky_light = np.zeros(3, dtype=np.float32)

        def draw_under_the_sky(primitive: Any, pose: Any, program: Any, flags: int) -> None:
            # Only the colour pass draws through pyrender (the shadow and id passes draw
            # themselves, `pyrender_passes`); programs without the uniform ignore it.
            program.set_uniform("sky_light", self.sky_light)
            draw(primitive=primitive, pose=pose, program=program, flags=flags)

        inner._bind_and_draw_primitive = draw_under_the_sky
        self.shadow_box: tuple[NDArray[np.float64], float, float] | None = None
        light_matrices = inner._get_light_cam_matrices

        def fitted_light_matrices(scene: Any, light_node: Any, flags: int) -> tuple[Any, Any]:
            if light_node in self.skip_shadows:
                # No shadow: a projection that puts every point beyond the far plane (z/w = 2),
                # where the shader skips the shadow lookup (pyrender_fixes.shadow_shader_source).
                return np.eye(4), BEYOND_FAR_PLANE
            if self.shadow_box is None or not isinstance(
                light_node.light, pyrender.DirectionalLight
            ):
                default: tuple[Any, Any] = light_matrices(scene, light_node, flags)
                return default
            # An orthographic shadow camera around the objects only (not the ground): looking
            # along the light, a receiver and the objects that shade it share texels, so this
            # covers every shadow the objects cast, at a texel of (2 * radius) / 2048.
            centre, radius, reach = self.shadow_box
            pose = np.array(scene.get_pose(light_node), dtype=np.float64)
            pose[:3, 3] = centre + pose[:3, 2] * (radius + 1.0)  # +Z points at the light
            camera = pyrender.OrthographicCamera(
                xmag=radius, ymag=radius, znear=0.05, zfar=radius + 1.0 + reach
            )
            return np.linalg.inv(pose), camera.get_projection_matrix()

        inner._get_light_cam_matrices = fitted_light_matrices

        draw_near_to_far(inner, GROUND_NAME)
        bind_lights_once(inner)
        read_colour_only(inner)
        self.meshes = MeshCache(pyrender)
        # Made current on this thread by pyrender; the next render may come from another.
        self.offscreen._platform.make_uncurrent()

    def gl_renderer(self) -> str:
        """GL_RENDERER of this context: "llvmpipe (LLVM 15.0.6, 256 bits)", a GPU's name..."""
        from OpenGL.GL import GL_RENDERER, glGetString  # type: ignore[import-untyped]

        platform = self.offscreen._platform
        platform.make_current()
        try:
            name = glGetString(GL_RENDERER)
        finally:
            platform.make_uncurrent()
        return name.decode(errors="replace") if isinstance(name, bytes) else ""

    def close(self) -> None:
        self.meshes.clear()
        self.offscreen.delete()

    def render(
        self,
        scene: Scene,
        mesh_for: MeshFor,
        segmentation: bool,
        sky: bool = True,
        depth: bool = False,
    ) -> RenderResult:
        pr = self.pr
        started = time.perf_counter()
        width, height = self.offscreen.viewport_width, self.offscreen.viewport_height
        converted = to_pyrender(pr, scene, mesh_for, self.meshes, width, height)
        prs, notes, bounds, zfar = (
            converted.scene,
            converted.notes,
            converted.bounds,
            converted.zfar,
        )

        centre, radius = bounding_sphere(bounds)
        self.shadow_box = (centre, radius * 1.02 + 0.05, zfar) if bounds else None
        flags, self.skip_shadows = add_lights(self.pr, prs, scene.lights, centre, notes)
        self.sky_light = sky_light(prs.ambient_light) if sky else np.zeros(3, dtype=np.float32)
        prepared = time.perf_counter()
        color, distances = colour_pass(pr, self.offscreen, prs, flags, depth)
        drawn = time.perf_counter()
        ids: NDArray[np.int32] | None = None
        if segmentation:
            ids = segmentation_pass(pr, self.offscreen, prs, converted.seg_colors)
        finished = time.perf_counter()
        return RenderResult(
            color=np.array(color[..., :3], dtype=np.uint8, copy=True),
            depth=None if distances is None else np.array(distances, dtype=np.float32, copy=True),
            segmentation=ids,
            labels=tuple(converted.labels),
            object_bounds=bounds,
            view=converted.view,
            yfov=converted.yfov,
            znear=Z_NEAR,
            zfar=zfar,
            timings={
                "prepare": prepared - started,
                "color": drawn - prepared,
                "segmentation": finished - drawn,
                "total": finished - started,
            },
            notes=tuple(notes),
        )
