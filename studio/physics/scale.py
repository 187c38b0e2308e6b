"""Is each object about the size its everyday noun suggests (a cup is not 3 m tall)?

An object's height is its vertical extent; its width is the long side of the smallest rectangle
around its footprint (so a turned table is not wider than it is). The category (`category`, the
everyday noun) is looked up lower-cased, as a phrase ("coffee table"), then singular ("crates"),
then through aliases ("mug" is a cup) and finally by its last word ("floor lamp" is a lamp). The
ranges are deliberately generous (a lamp is 0.15-2.2 m tall: desk to floor lamps). An object also
passes lying on its side (its height in the width range and its width in the height range: a
bottle on its side). Unknown or missing categories pass with a note.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import trimesh

from studio.physics.common import Report, WorldMesh, bounds, cached
from studio.scene.geometry import shape_key
from studio.scene.model import Scene, SceneObject

Range = tuple[float, float]

# category: (height range, width range) in metres.
TYPICAL_SIZES: dict[str, tuple[Range, Range]] = {
    "table": ((0.3, 1.2), (0.4, 4.0)),
    "coffee table": ((0.25, 0.6), (0.4, 1.8)),
    "desk": ((0.55, 1.3), (0.6, 2.5)),
    "chair": ((0.6, 1.3), (0.35, 1.0)),
    "stool": ((0.3, 1.0), (0.25, 0.6)),
    "bench": ((0.35, 1.0), (0.8, 3.5)),
    "sofa": ((0.55, 1.2), (1.2, 3.8)),
    "bed": ((0.3, 1.6), (1.7, 2.8)),
    "shelf": ((0.02, 2.5), (0.3, 3.0)),
    "bookshelf": ((0.8, 2.6), (0.4, 3.0)),
    "cabinet": ((0.4, 2.4), (0.3, 3.0)),
    "wardrobe": ((1.5, 2.6), (0.6, 3.0)),
    "crate": ((0.15, 1.3), (0.2, 1.6)),
    "box": ((0.02, 1.5), (0.05, 2.0)),
    "barrel": ((0.4, 1.4), (0.3, 1.0)),
    "ball": ((0.015, 1.0), (0.015, 1.0)),
    "pillar": ((1.5, 15.0), (0.1, 3.0)),
    "vase": ((0.08, 1.2), (0.05, 0.7)),
    "lamp": ((0.15, 2.2), (0.08, 0.9)),
    "cup": ((0.04, 0.2), (0.04, 0.16)),
    "glass": ((0.05, 0.25), (0.04, 0.12)),
    "bottle": ((0.08, 0.5), (0.03, 0.16)),
    "plate": ((0.008, 0.06), (0.12, 0.4)),
    "bowl": ((0.03, 0.25), (0.08, 0.45)),
    "teapot": ((0.1, 0.35), (0.12, 0.4)),
    "candle": ((0.03, 0.4), (0.01, 0.15)),
    "book": ((0.01, 0.5), (0.1, 0.5)),
    "laptop": ((0.01, 0.4), (0.25, 0.45)),
    "phone": ((0.005, 0.2), (0.05, 0.2)),
    "television": ((0.3, 1.6), (0.5, 2.4)),
    "car": ((1.1, 2.3), (3.0, 6.0)),
    "bicycle": ((0.7, 1.3), (1.3, 2.0)),
    "person": ((0.9, 2.2), (0.25, 1.0)),
    "dog": ((0.2, 1.0), (0.3, 1.4)),
    "cat": ((0.15, 0.5), (0.25, 0.9)),
    "door": ((1.8, 2.7), (0.6, 1.8)),
    "window": ((0.3, 2.8), (0.3, 3.5)),
    "wall": ((1.0, 8.0), (0.3, 100.0)),
    "house": ((2.5, 20.0), (4.0, 40.0)),
    "tree": ((1.0, 40.0), (0.3, 25.0)),
    "plant": ((0.05, 3.0), (0.05, 2.0)),
    "rock": ((0.01, 2.0), (0.01, 3.0)),
    "boulder": ((0.4, 5.0), (0.5, 8.0)),
    "apple": ((0.04, 0.12), (0.04, 0.12)),
    "traffic cone": ((0.25, 1.0), (0.15, 0.55)),
    "tire": ((0.1, 1.5), (0.3, 1.5)),
    "ladder": ((1.0, 6.0), (0.3, 1.0)),
    "fence": ((0.5, 2.5), (0.5, 50.0)),
}
ALIASES = {
    "mug": "cup",
    "teacup": "cup",
    "couch": "sofa",
    "settee": "sofa",
    "armchair": "chair",
    "column": "pillar",
    "post": "pillar",
    "human": "person",
    "man": "person",
    "woman": "person",
    "figure": "person",
    "people": "person",
    "automobile": "car",
    "sedan": "car",
    "bike": "bicycle",
    "cask": "barrel",
    "keg": "barrel",
    "carton": "box",
    "chest": "crate",
    "football": "ball",
    "basketball": "ball",
    "soccerball": "ball",
    "sphere": "ball",
    "bookcase": "bookshelf",
    "cupboard": "cabinet",
    "dresser": "cabinet",
    "tv": "television",
    "lantern": "lamp",
    "flowerpot": "vase",
    "pot plant": "plant",
    "houseplant": "plant",
    "stone": "rock",
    "tyre": "tire",
    "wheel": "tire",
    "dish": "plate",
    "smartphone": "phone",
    "notebook": "laptop",
}


@dataclass
class ObjectScale:
    name: str
    category: str
    matched: str | None
    """The table entry used, None when the category is unknown."""
    height_m: float
    width_m: float
    typical_height_m: list[float] | None
    typical_width_m: list[float] | None
    status: str
    """ok | too large | too small | unknown | stated (out of range, but the size the person
    gave: a warning, never a fix)"""
    factor: float
    """How many times outside its range (1 when inside)."""
    reason: str


@dataclass(kw_only=True)
class ScaleReport(Report):
    check: str = "scale_sanity"
    unit: str = "x"
    objects: list[ObjectScale] = field(default_factory=list)

    def item(self, name: str) -> ObjectScale:
        """The result for the object called `name` (KeyError when it was not checked)."""
        for entry in self.objects:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def flagged(self) -> list[ObjectScale]:
        return [item for item in self.objects if item.status in ("too large", "too small")]


def match_category(category: str) -> str | None:
    """The `TYPICAL_SIZES` entry for an everyday noun, or None."""
    words = re.sub(r"[^a-z ]+", " ", category.lower().replace("-", " ").replace("_", " ")).split()
    if not words:
        return None
    for phrase in (" ".join(words), words[-1]):
        for candidate in (phrase, *_singulars(phrase)):
            found = TYPICAL_SIZES.get(ALIASES.get(candidate, candidate))
            if found is not None:
                return ALIASES.get(candidate, candidate)
    return None


def _singulars(word: str) -> list[str]:
    out = []
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith("s"):
        out.append(word[:-1])
    return out


def measure(mesh: trimesh.Trimesh) -> tuple[float, float]:
    """(height, width): vertical extent and the long side of the footprint's smallest rectangle."""
    box = bounds(mesh)
    height = float(box[1, 1] - box[0, 1])
    footprint = np.asarray(mesh.vertices, dtype=np.float64)[:, [0, 2]]
    try:
        _, extents = trimesh.bounds.oriented_bounds_2D(footprint)  # type: ignore[no-untyped-call]
        width = float(max(extents))
    except Exception:  # a footprint that is a point or a line: fall back to the AABB
        width = float(max(box[1, 0] - box[0, 0], box[1, 2] - box[0, 2]))
    return height, width


def _outside(value: float, limits: Range) -> float:
    low, high = limits
    if value > high:
        return value / high
    if value < low:
        return -(low / max(value, 1e-9))
    return 1.0


def judge(name: str, category: str, height: float, width: float) -> ObjectScale:
    matched = match_category(category)
    if matched is None:
        note = (
            f"{name} has no category: its size is not checked"
            if not category.strip()
            else f"{name}: no typical size known for {category!r}; not checked"
        )
        return ObjectScale(name, category, None, height, width, None, None, "unknown", 1.0, note)
    heights, widths = TYPICAL_SIZES[matched]
    upright = (_outside(height, heights), _outside(width, widths))
    lying = (_outside(width, heights), _outside(height, widths))
    if upright == (1.0, 1.0) or lying == (1.0, 1.0):
        status, factor = "ok", 1.0
        reason = f"{name} ({matched}) is {height:.2f} m tall and {width:.2f} m wide: typical"
    else:
        # Explain the upright reading; the factor is the worse of its two dimensions.
        what, value, limits, off = max(
            ("tall", height, heights, upright[0]),
            ("wide", width, widths, upright[1]),
            key=lambda item: abs(item[3]),
        )
        factor = abs(off)
        status = "too large" if off > 0 else "too small"
        size = "big" if off > 0 else "small"
        reason = (
            f"{name} is {value:.2f} m {what}; a {matched} is usually "
            f"{limits[0]:g}-{limits[1]:g} m {what} ({factor:.1f}x too {size})"
        )
    return ObjectScale(
        name, category, matched, height, width, list(heights), list(widths), status, factor, reason
    )


def scale_sanity(scene: Scene, world_mesh: WorldMesh) -> ScaleReport:
    """Flag objects whose size is outside the typical range for their category."""
    started = time.perf_counter()
    world_mesh = cached(world_mesh)
    # A size does not depend on where the object stands: copies of one shape, turned and scaled
    # alike (a row of crates), are measured once.
    sizes: dict[tuple[str, Any, Any], tuple[float, float]] = {}

    def size_of(obj: SceneObject) -> tuple[float, float]:
        key = shape_key(obj.shape)
        if key is None:
            return measure(world_mesh(obj))
        alike = (key, obj.transform.rotation, obj.transform.scale)
        if alike not in sizes:
            sizes[alike] = measure(world_mesh(obj))
        return sizes[alike]

    results = [_judged(o, size_of(o)) for o in scene.objects]
    flagged = [r for r in results if r.status in ("too large", "too small")]
    stated = [r for r in results if r.status == "stated"]
    return ScaleReport(
        passed=not flagged,
        value=max((r.factor for r in results), default=1.0),
        summary=(
            f"{len(flagged)} of {len(results)} objects are out of scale"
            if flagged
            else f"{sum(r.status == 'ok' for r in results)} of {len(results)} objects checked, "
            "all in scale"
        ),
        reasons=[r.reason for r in flagged],
        notes=[r.reason for r in results if r.status == "unknown"],
        warnings=[r.reason for r in stated],
        objects=results,
        elapsed_s=time.perf_counter() - started,
    )


def _judged(obj: SceneObject, size: tuple[float, float]) -> ObjectScale:
    """`judge`, except that a size the person stated is never out of scale, only unusual."""
    result = judge(obj.name, obj.category, *size)
    if obj.size_stated and result.status in ("too large", "too small"):
        result.status = "stated"
        result.reason = f"{result.reason}; kept at the size you asked for"
    return result
