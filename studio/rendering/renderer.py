"""Render a `Scene` headless with pyrender: colour, depth and a per-object segmentation.

`render(scene, mesh_for=...)` takes the meshes from a callable, `mesh_for(obj) -> (trimesh,
4x4 world matrix)`, so this module knows nothing about how shapes become triangles.

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
* the emissive factor is multiplied in twice (`emissive * emissive_factor`), so we pass its
  square root;
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

**Colours** in the scene are linear; the background is encoded with the shader's 1/2.2 gamma so
that it matches an emissive surface of the same colour.

**Speed.** One OffscreenRenderer (one GL context) per (width, height) per process, created on
first use (process-wide, under a lock: GL contexts are not thread-safe). Smooth-shaded vertex
data is cached by geometry hash (process-wide), and pyrender meshes, which hold the uploaded GL
buffers, by (geometry, material) per renderer, so an unchanged object is not re-uploaded.
Surfaces are shaded smoothly across edges under 30 degrees and split at sharper ones.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray
from PIL import Image

from studio.rendering._gl import RenderUnavailable, load
from studio.rendering.lights import EXPOSURE, Matrix, add_lights, look_at, sky_light
from studio.rendering.pyrender_fixes import CULL as _CULL
from studio.rendering.pyrender_fixes import ProgramCache as _ProgramCache
from studio.rendering.pyrender_fixes import (
    install_front_face_culling as _install_front_face_culling,
)
from studio.scene.model import Color, Material, Scene, SceneObject, Vec3

__all__ = [
    "EXPOSURE",
    "GROUND_NAME",
    "MeshFor",
    "RenderResult",
    "RenderUnavailable",
    "close_renderers",
    "look_at",
    "png",
    "render",
    "thumbnail",
]

Bounds = tuple[Vec3, Vec3]
MeshFor = Callable[[SceneObject], tuple[trimesh.Trimesh, Any]]
"""`mesh_for(obj) -> (mesh in the object's local frame, 4x4 local-to-world matrix)`."""

"""pyrender intensity per scene lux (directional) or candela (point, spot); see the docstring."""
GAMMA = 2.2
SMOOTH_ANGLE_DEG = 30.0
GROUND_NAME = "ground"
GROUND_MATERIAL = Material("ground", (0.5, 0.5, 0.5), 0.0, 0.9)
GROUND_THICKNESS = 0.1
Z_NEAR = 0.02
BEYOND_FAR_PLANE = np.array(
    [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 1.0]]
)
"""A light projection taking every point to z/w = 2: beyond the far plane, so never shadowed."""
MAX_SIDE = 8192
_MESH_CACHE_SIZE = 1024
_GEOMETRY_CACHE_SIZE = 512


@dataclass(eq=False)
class RenderResult:
    """One rendered frame. Arrays are (height, width, ...), row 0 at the top."""

    color: NDArray[np.uint8]
    """(H, W, 3) display-encoded RGB (gamma 1/2.2)."""
    depth: NDArray[np.float32]
    """(H, W) distance along the view axis in metres; 0 where nothing was drawn."""
    segmentation: NDArray[np.int32] | None
    """(H, W) label ids: 0 is background, id i is `labels[i - 1]`; None when not asked for."""
    labels: tuple[str, ...]
    """Object names in scene order, then `ground` when the scene has a ground."""
    object_bounds: dict[str, Bounds]
    """World axis-aligned bounds of every drawn object (not the ground)."""
    view: Matrix
    """World-to-camera matrix (the camera looks down -Z with +Y up)."""
    yfov: float
    """Vertical field of view, radians; the horizontal one follows from width / height."""
    znear: float
    zfar: float
    timings: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def height(self) -> int:
        return int(self.color.shape[0])

    @property
    def width(self) -> int:
        return int(self.color.shape[1])

    @property
    def aspect(self) -> float:
        return self.width / self.height

    def label_id(self, name: str) -> int:
        """The segmentation id of an object (or `ground`); KeyError if it was not rendered."""
        try:
            return self.labels.index(name) + 1
        except ValueError:
            raise KeyError(name) from None

    def mask(self, name: str) -> NDArray[np.bool_]:
        """Where the object is the front-most surface."""
        return np.asarray(self._segmentation() == self.label_id(name))

    def pixel_counts(self) -> dict[str, int]:
        """Visible pixels per label (objects hidden or out of frame have 0)."""
        counts = np.bincount(self._segmentation().ravel(), minlength=len(self.labels) + 1)
        return {name: int(counts[i + 1]) for i, name in enumerate(self.labels)}

    def _segmentation(self) -> NDArray[np.int32]:
        if self.segmentation is None:
            raise ValueError("this frame was rendered without segmentation=True")
        return self.segmentation


def render(
    scene: Scene,
    *,
    mesh_for: MeshFor,
    width: int = 1024,
    height: int = 768,
    segmentation: bool = True,
    sky: bool = True,
) -> RenderResult:
    """Render the scene from its camera; RenderUnavailable where no GL context can be made.

    `sky=False` leaves out the procedural sky's reflections (see `lights.py`), for comparisons.
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
        return renderer.render(scene, mesh_for, segmentation, sky)


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


def png(result: RenderResult) -> bytes:
    """The colour image as PNG."""
    return _encode(Image.fromarray(result.color, "RGB"))


def thumbnail(result: RenderResult, size: int = 256) -> bytes:
    """The colour image scaled to fit a size x size box (aspect kept), as PNG."""
    if size < 1:
        raise ValueError("size must be at least 1 pixel")
    image = Image.fromarray(result.color, "RGB")
    image.thumbnail((size, size), Image.Resampling.LANCZOS)
    return _encode(image)


# --- internals -----------------------------------------------------------------------------------

_LOCK = threading.RLock()
_RENDERERS: dict[tuple[int, int], _Renderer] = {}
_GEOMETRY_LOCK = threading.Lock()
_GEOMETRIES: OrderedDict[bytes, _Geometry] = OrderedDict()


@dataclass(frozen=True, eq=False)
class _Geometry:
    key: bytes
    vertices: NDArray[np.float64]
    positions: NDArray[np.float32]
    normals: NDArray[np.float32]
    indices: NDArray[np.uint32]
    double_sided: bool


def _geometry(mesh: trimesh.Trimesh) -> _Geometry:
    vertices = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
    faces = np.ascontiguousarray(mesh.faces, dtype=np.int64)
    digest = hashlib.blake2b(vertices.tobytes(), digest_size=16)
    digest.update(faces.tobytes())
    key = digest.digest()
    with _GEOMETRY_LOCK:
        cached = _GEOMETRIES.get(key)
        if cached is not None:
            _GEOMETRIES.move_to_end(key)
            return cached
    if len(faces) == 0:
        empty = np.zeros((0, 3), dtype=np.float32)
        geometry = _Geometry(key, vertices, empty, empty, np.zeros((0, 3), np.uint32), False)
    else:
        plain = trimesh.Trimesh(vertices=vertices, faces=faces, process=False)
        shaded = trimesh.graph.smooth_shade(plain, angle=math.radians(SMOOTH_ANGLE_DEG))
        geometry = _Geometry(
            key=key,
            vertices=vertices,
            positions=np.ascontiguousarray(shaded.vertices, dtype=np.float32),
            normals=np.ascontiguousarray(shaded.vertex_normals, dtype=np.float32),
            indices=np.ascontiguousarray(shaded.faces, dtype=np.uint32),
            double_sided=not plain.is_watertight,
        )
    with _GEOMETRY_LOCK:
        _GEOMETRIES[key] = geometry
        while len(_GEOMETRIES) > _GEOMETRY_CACHE_SIZE:
            _GEOMETRIES.popitem(last=False)
    return geometry


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
        inner._program_cache = _ProgramCache(pyrender)
        _install_front_face_culling(pyrender)
        self.skip_shadows: set[Any] = set()
        shadow_pass = inner._shadow_mapping_pass

        def shadow_pass_unless_skipped(scene: Any, light_node: Any, flags: int) -> None:
            if light_node in self.skip_shadows:
                # Bind and clear this light's shadow map: depth 1 everywhere, nothing occludes.
                inner._configure_shadow_mapping_viewport(light_node.light, flags)
                return
            _CULL.shadow_pass = True
            try:
                shadow_pass(scene, light_node, flags)
            finally:
                _CULL.shadow_pass = False

        inner._shadow_mapping_pass = shadow_pass_unless_skipped
        draw = inner._bind_and_draw_primitive

        self.sky_light = np.zeros(3, dtype=np.float32)

        def draw_noting_sides(primitive: Any, pose: Any, program: Any, flags: int) -> None:
            _CULL.double_sided = bool(primitive.material.doubleSided)
            if not _CULL.shadow_pass and not flags & pyrender.RenderFlags.SEG:
                # Ignored by programs without the uniform (pyrender's set_uniform skips them).
                program.set_uniform("sky_light", self.sky_light)
            draw(primitive=primitive, pose=pose, program=program, flags=flags)

        inner._bind_and_draw_primitive = draw_noting_sides
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
        self.meshes: OrderedDict[tuple[bytes, Material, bool], Any] = OrderedDict()

    def close(self) -> None:
        self.meshes.clear()
        self.offscreen.delete()

    def render(
        self, scene: Scene, mesh_for: MeshFor, segmentation: bool, sky: bool = True
    ) -> RenderResult:
        pr = self.pr
        started = time.perf_counter()
        notes: list[str] = []
        width, height = self.offscreen.viewport_width, self.offscreen.viewport_height
        background = _display(scene.background)
        prs = pr.Scene(bg_color=[*background, 1.0], ambient_light=[0.0, 0.0, 0.0])
        labels: list[str] = []
        seg_colors: dict[Any, tuple[int, int, int]] = {}
        bounds: dict[str, Bounds] = {}
        used: set[tuple[bytes, Material, bool]] = set()

        for item in scene.objects:
            try:
                mesh, matrix = mesh_for(item)
            except Exception as exc:
                exc.add_note(f"while making the mesh of object {item.name!r} for rendering")
                raise
            pose = np.asarray(matrix, dtype=np.float64).reshape(4, 4)
            geometry = _geometry(mesh)
            labels.append(item.name)
            if len(geometry.indices) == 0:
                notes.append(f"object {item.name!r} has no triangles; nothing was drawn")
                continue
            world = geometry.vertices @ pose[:3, :3].T + pose[:3, 3]
            bounds[item.name] = (_vec(world.min(axis=0)), _vec(world.max(axis=0)))
            node = prs.add(self._mesh(geometry, item.material, used), name=item.name, pose=pose)
            seg_colors[node] = _id_color(len(labels))

        corners = [corner for low, high in bounds.values() for corner in _corners(low, high)]
        if scene.ground:
            half = scene.ground_size / 2
            ground = trimesh.creation.box(extents=(scene.ground_size, GROUND_THICKNESS, half * 2))
            pose = np.eye(4)
            pose[1, 3] = -GROUND_THICKNESS / 2
            geometry = _geometry(ground)
            labels.append(GROUND_NAME)
            node = prs.add(self._mesh(geometry, GROUND_MATERIAL, used), name=GROUND_NAME, pose=pose)
            seg_colors[node] = _id_color(len(labels))
            corners += _corners((-half, -GROUND_THICKNESS, -half), (half, 0.0, half))
        self._evict(used)

        camera = scene.camera
        camera_pose = look_at(camera.position, camera.target)
        view = np.asarray(np.linalg.inv(camera_pose), dtype=np.float64)
        if corners:
            points = np.array(corners)
            depths = -(points @ view[:3, :3].T + view[:3, 3])[:, 2]
            zfar = max(float(depths.max()) * 1.05 + 1.0, 10.0)
        else:
            zfar = 100.0
        yfov = math.radians(camera.yfov_deg)
        prs.add(
            pr.PerspectiveCamera(yfov=yfov, aspectRatio=width / height, znear=Z_NEAR, zfar=zfar),
            pose=camera_pose,
        )
        if abs(camera.aspect - width / height) > 0.01 * camera.aspect:
            notes.append(
                f"camera aspect {camera.aspect:.3f} differs from the image's {width / height:.3f}: "
                "kept the vertical field of view and square pixels"
            )

        centre, radius = _sphere(bounds)
        self.shadow_box = (centre, radius * 1.02 + 0.05, zfar) if bounds else None
        flags, self.skip_shadows = add_lights(self.pr, prs, scene.lights, centre, notes)
        self.sky_light = sky_light(prs.ambient_light) if sky else np.zeros(3, dtype=np.float32)
        prepared = time.perf_counter()
        color, depth = self.offscreen.render(prs, flags=flags)
        drawn = time.perf_counter()
        ids: NDArray[np.int32] | None = None
        if segmentation:
            seg, _ = self.offscreen.render(prs, flags=pr.RenderFlags.SEG, seg_node_map=seg_colors)
            seg = seg.astype(np.int32)
            ids = np.ascontiguousarray(seg[..., 0] | (seg[..., 1] << 8) | (seg[..., 2] << 16))
        finished = time.perf_counter()
        return RenderResult(
            color=np.array(color[..., :3], dtype=np.uint8, copy=True),
            depth=np.array(depth, dtype=np.float32, copy=True),
            segmentation=ids,
            labels=tuple(labels),
            object_bounds=bounds,
            view=view,
            yfov=yfov,
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

    def _mesh(
        self, geometry: _Geometry, material: Material, used: set[tuple[bytes, Material, bool]]
    ) -> Any:
        key = (geometry.key, material, geometry.double_sided)
        used.add(key)
        mesh = self.meshes.get(key)
        if mesh is not None:
            self.meshes.move_to_end(key)
            return mesh
        pr = self.pr
        transparent = material.opacity < 1.0
        primitive = pr.Primitive(
            positions=geometry.positions,
            normals=geometry.normals,
            indices=geometry.indices,
            material=pr.MetallicRoughnessMaterial(
                name=material.name,
                baseColorFactor=[*material.base_color, material.opacity],
                metallicFactor=material.metallic,
                roughnessFactor=material.roughness,
                # pyrender multiplies the emissive factor in twice: pass its square root.
                emissiveFactor=np.sqrt(np.asarray(material.emissive, dtype=np.float64)),
                alphaMode="BLEND" if transparent else "OPAQUE",
                doubleSided=geometry.double_sided,
            ),
            mode=pr.constants.GLTF.TRIANGLES,
        )
        mesh = self.meshes[key] = pr.Mesh(primitives=[primitive])
        return mesh

    def _evict(self, used: set[tuple[bytes, Material, bool]]) -> None:
        # Meshes left out of the cache are freed from the GL context by pyrender at the next
        # render that does not use them; the ones this frame uses are never evicted.
        for key in list(self.meshes):
            if len(self.meshes) <= _MESH_CACHE_SIZE:
                break
            if key not in used:
                del self.meshes[key]


def _sphere(bounds: dict[str, Bounds]) -> tuple[NDArray[np.float64], float]:
    """Centre and radius of the sphere around the union of the boxes (its half diagonal)."""
    if not bounds:
        return np.zeros(3), 0.0
    low = np.min([low for low, _ in bounds.values()], axis=0)
    high = np.max([high for _, high in bounds.values()], axis=0)
    centre: NDArray[np.float64] = (low + high) / 2
    return centre, float(np.linalg.norm(high - low)) / 2


def _corners(low: Vec3, high: Vec3) -> list[NDArray[np.float64]]:
    return [
        np.array([x, y, z])
        for x in (low[0], high[0])
        for y in (low[1], high[1])
        for z in (low[2], high[2])
    ]


def _display(color: Color) -> tuple[float, float, float]:
    r, g, b = (float(min(max(part, 0.0), 1.0)) ** (1 / GAMMA) for part in color)
    return (r, g, b)


def _id_color(label_id: int) -> tuple[int, int, int]:
    return (label_id & 0xFF, (label_id >> 8) & 0xFF, (label_id >> 16) & 0xFF)


def _vec(values: NDArray[np.float64]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))


def _encode(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
