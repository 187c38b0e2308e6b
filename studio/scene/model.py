"""Scenes as plain data: objects with exact shapes, PBR materials, physics, lights and a camera.

Units are metres, angles degrees, colours linear RGB in [0, 1]; +Y is up and the ground's top is
y = 0 (glTF conventions). A scene round-trips through `to_dict` / `scene_from_dict`, which
validates every value and raises `SceneError` with a message a person can act on.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, get_args

Vec3 = tuple[float, float, float]
Color = tuple[float, float, float]

ShapeKind = Literal[
    "box",
    "sphere",
    "cylinder",
    "cone",
    "capsule",
    "torus",
    "plane",
    "extrusion",
    "revolve",
    "boolean",
    "mesh",
]
SHAPES: tuple[str, ...] = get_args(ShapeKind)
CollisionShape = Literal["box", "convex", "mesh"]
LightKind = Literal["directional", "point", "spot"]
MAX_SIZE_M = 1000.0
MIN_SIZE_M = 1e-4


class SceneError(ValueError):
    """A scene value that cannot be built; the message names the object and the field."""


@dataclass(frozen=True)
class Shape:
    """What an object is made of. `params` by kind (all lengths in metres):

    box: size [x, y, z]; sphere: radius; cylinder, cone, capsule: radius, height (along Y);
    torus: major_radius, minor_radius; plane: size [x, z]; extrusion: profile [[x, z], ...],
    height (extruded along Y); revolve: profile [[r, y], ...] (turned about Y), sections;
    boolean: op (union | difference | intersection), a, b (Shapes, as dicts); mesh: ref (an
    uploaded artifact), scale.
    """

    kind: ShapeKind
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Material:
    """glTF metallic-roughness PBR material."""

    name: str = "default"
    base_color: Color = (0.8, 0.8, 0.8)
    metallic: float = 0.0
    roughness: float = 0.5
    emissive: Color = (0.0, 0.0, 0.0)
    opacity: float = 1.0


@dataclass(frozen=True)
class Physics:
    """Rigid-body settings: a static body never moves; a dynamic one has mass (or density)."""

    dynamic: bool = False
    mass: float | None = None
    density: float = 500.0
    friction: float = 0.6
    restitution: float = 0.1
    collision: CollisionShape = "convex"


@dataclass(frozen=True)
class Transform:
    translation: Vec3 = (0.0, 0.0, 0.0)
    rotation: Vec3 = (0.0, 0.0, 0.0)
    """Euler angles in degrees, applied in X, then Y, then Z order (extrinsic)."""
    scale: Vec3 = (1.0, 1.0, 1.0)


@dataclass(frozen=True)
class SceneObject:
    name: str
    shape: Shape
    transform: Transform = field(default_factory=Transform)
    material: Material = field(default_factory=Material)
    physics: Physics = field(default_factory=Physics)
    category: str = ""
    """The everyday noun it stands for ("table", "ball"...), for scale sanity checks."""
    size_stated: bool = False
    """The person gave its size: checks may doubt it (a warning), fixes never change it."""


@dataclass(frozen=True)
class Light:
    name: str
    kind: LightKind = "directional"
    color: Color = (1.0, 1.0, 1.0)
    intensity: float = 3.0
    """lux for directional lights, candela for point and spot (glTF KHR_lights_punctual)."""
    position: Vec3 = (0.0, 5.0, 0.0)
    target: Vec3 = (0.0, 0.0, 0.0)
    cast_shadows: bool = True
    inner_cone_deg: float = 15.0
    outer_cone_deg: float = 30.0


@dataclass(frozen=True)
class Camera:
    position: Vec3 = (3.0, 2.0, 3.0)
    target: Vec3 = (0.0, 0.5, 0.0)
    yfov_deg: float = 50.0
    aspect: float = 4 / 3


@dataclass(frozen=True)
class Scene:
    objects: tuple[SceneObject, ...] = ()
    lights: tuple[Light, ...] = ()
    camera: Camera = field(default_factory=Camera)
    ground: bool = True
    """A static ground plane named `ground`, top at y = 0."""
    ground_size: float = 20.0
    background: Color = (0.05, 0.05, 0.06)

    def object(self, name: str) -> SceneObject:
        for item in self.objects:
            if item.name == name:
                return item
        raise SceneError(f"no object named {name!r}")

    def with_object(self, item: SceneObject) -> Scene:
        """The scene with `item` added, or replacing the object of the same name in place."""
        if any(existing.name == item.name for existing in self.objects):
            objects = tuple(item if e.name == item.name else e for e in self.objects)
            return replace(self, objects=objects)
        return replace(self, objects=(*self.objects, item))

    def without_object(self, name: str) -> Scene:
        self.object(name)
        return replace(self, objects=tuple(item for item in self.objects if item.name != name))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def free_name(taken: Collection[str], base: str) -> str:
    """The name a new `base` object gets among `taken`: `base`, then base-2, base-3...; after
    base-1..N, base-(N+1). The tools name objects so, and the planner predicts their names."""
    copies = [int(n.rsplit("-", 1)[1]) for n in taken if re.fullmatch(rf"{re.escape(base)}-\d+", n)]
    if base not in taken and not copies:
        return base
    number = max(copies, default=1) + 1
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def scene_from_dict(data: dict[str, Any]) -> Scene:
    """Build and validate a scene from plain data (as stored, or as a model proposed it)."""
    if not isinstance(data, dict):
        raise SceneError("a scene must be a JSON object")
    objects = tuple(_object(item, index) for index, item in enumerate(data.get("objects", [])))
    names = [item.name for item in objects]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise SceneError(f"object names must be unique: {', '.join(duplicates)}")
    if "ground" in names:
        raise SceneError("'ground' is reserved for the ground plane")
    lights = tuple(_light(item, index) for index, item in enumerate(data.get("lights", [])))
    camera_data = data.get("camera") or {}
    camera = Camera(
        position=_vec3(camera_data.get("position", Camera.position), "camera.position"),
        target=_vec3(camera_data.get("target", Camera.target), "camera.target"),
        yfov_deg=_number(camera_data.get("yfov_deg", 50.0), "camera.yfov_deg", 5.0, 150.0),
        aspect=_number(camera_data.get("aspect", 4 / 3), "camera.aspect", 0.2, 5.0),
    )
    return Scene(
        objects=objects,
        lights=lights,
        camera=camera,
        ground=bool(data.get("ground", True)),
        ground_size=_number(data.get("ground_size", 20.0), "ground_size", 1.0, 10_000.0),
        background=_color(data.get("background", Scene.background), "background"),
    )


def _object(data: Any, index: int) -> SceneObject:
    if not isinstance(data, dict):
        raise SceneError(f"objects[{index}] must be an object")
    name = str(data.get("name") or "").strip()
    if not name or len(name) > 100:
        raise SceneError(f"objects[{index}] needs a name of 1 to 100 characters")
    where = f"object {name!r}"
    shape = _shape(data.get("shape"), where)
    transform_data = data.get("transform") or {}
    transform = Transform(
        translation=_vec3(transform_data.get("translation", (0, 0, 0)), f"{where} translation"),
        rotation=_vec3(transform_data.get("rotation", (0, 0, 0)), f"{where} rotation"),
        scale=_positive_vec3(transform_data.get("scale", (1, 1, 1)), f"{where} scale"),
    )
    material = _material(data.get("material") or {}, where)
    physics = _physics(data.get("physics") or {}, where)
    return SceneObject(
        name,
        shape,
        transform,
        material,
        physics,
        str(data.get("category", "")),
        size_stated=bool(data.get("size_stated", False)),
    )


def _shape(data: Any, where: str) -> Shape:
    if not isinstance(data, dict) or data.get("kind") not in SHAPES:
        raise SceneError(f"{where}: shape.kind must be one of {', '.join(SHAPES)}")
    params = data.get("params") or {}
    if not isinstance(params, dict):
        raise SceneError(f"{where}: shape.params must be an object")
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise SceneError(f"{where}: {key} must be a finite number")
    return Shape(kind=data["kind"], params=dict(params))


def _material(data: dict[str, Any], where: str) -> Material:
    return Material(
        name=str(data.get("name", "default"))[:100],
        base_color=_color(data.get("base_color", Material.base_color), f"{where} base_color"),
        metallic=_number(data.get("metallic", 0.0), f"{where} metallic", 0.0, 1.0),
        roughness=_number(data.get("roughness", 0.5), f"{where} roughness", 0.0, 1.0),
        emissive=_color(data.get("emissive", (0, 0, 0)), f"{where} emissive"),
        opacity=_number(data.get("opacity", 1.0), f"{where} opacity", 0.0, 1.0),
    )


def _physics(data: dict[str, Any], where: str) -> Physics:
    collision = data.get("collision", "convex")
    if collision not in ("box", "convex", "mesh"):
        raise SceneError(f"{where}: collision must be box, convex or mesh")
    mass = data.get("mass")
    return Physics(
        dynamic=bool(data.get("dynamic", False)),
        mass=None if mass is None else _number(mass, f"{where} mass", 1e-6, 1e7),
        density=_number(data.get("density", 500.0), f"{where} density", 1e-3, 1e5),
        friction=_number(data.get("friction", 0.6), f"{where} friction", 0.0, 10.0),
        restitution=_number(data.get("restitution", 0.1), f"{where} restitution", 0.0, 1.0),
        collision=collision,
    )


def _light(data: Any, index: int) -> Light:
    if not isinstance(data, dict):
        raise SceneError(f"lights[{index}] must be an object")
    name = str(data.get("name") or f"light-{index + 1}")
    kind = data.get("kind", "directional")
    if kind not in ("directional", "point", "spot"):
        raise SceneError(f"light {name!r}: kind must be directional, point or spot")
    where = f"light {name!r}"
    return Light(
        name=name,
        kind=kind,
        color=_color(data.get("color", (1, 1, 1)), f"{where} color"),
        intensity=_number(data.get("intensity", 3.0), f"{where} intensity", 0.0, 1e6),
        position=_vec3(data.get("position", (0, 5, 0)), f"{where} position"),
        target=_vec3(data.get("target", (0, 0, 0)), f"{where} target"),
        cast_shadows=bool(data.get("cast_shadows", True)),
        inner_cone_deg=_number(data.get("inner_cone_deg", 15.0), f"{where} inner cone", 0, 90),
        outer_cone_deg=_number(data.get("outer_cone_deg", 30.0), f"{where} outer cone", 0, 90),
    )


def _number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SceneError(f"{what} must be a finite number, not {value!r}")
    if not low <= value <= high:
        raise SceneError(f"{what} must be between {low:g} and {high:g}, not {value:g}")
    return float(value)


def _vec3(value: Any, what: str) -> Vec3:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise SceneError(f"{what} must be three numbers [x, y, z]")
    x, y, z = (_number(part, what, -MAX_SIZE_M * 10, MAX_SIZE_M * 10) for part in value)
    return (x, y, z)


def _positive_vec3(value: Any, what: str) -> Vec3:
    x, y, z = _vec3(value, what)
    if min(x, y, z) <= 0:
        raise SceneError(f"{what} must be positive")
    return (x, y, z)


def _color(value: Any, what: str) -> Color:
    if not isinstance(value, list | tuple) or len(value) not in (3, 4):
        raise SceneError(f"{what} must be [r, g, b] in 0..1")
    r, g, b = (_number(part, what, 0.0, 1.0) for part in list(value)[:3])
    return (r, g, b)
