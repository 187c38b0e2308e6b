"""Meshes people upload to a workspace, as nouns the planner can place by name.

An upload "Duck.glb" is the noun "duck" (and "ducks"); "chair_model.obj" is "chair model". The
request grammar reads them through an extra-nouns mapping (`Uploads.words`), and the builder
places them as `{"kind": "mesh", "params": {"ref": "mesh:<id>", "scale": s}}` shapes, named after
the mesh, scaled to a plausible size unless the request states one.

While a scene is laid out, uploads stand in as boxes of their scaled bounds (layout needs no
file); `as_mesh` then swaps each stand-in for its mesh, lined up on the box. Scenes that already
hold mesh objects (an edit) are measured with the workspace's resolver, given by `resolving`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from studio.physics.scale import TYPICAL_SIZES, match_category
from studio.planner.catalogue import _plurals
from studio.scene.geometry import MeshResolver, object_matrix
from studio.scene.model import SceneObject, Shape

PLAUSIBLE_M = (0.03, 1.0)
"""A mesh whose largest side (in metres, by its units) is within this range keeps its size,
unless its noun has an everyday size range (studio.physics.scale: a teapot), which then rules."""
DEFAULT_M = 0.3
"""The largest side a mesh of implausible size is scaled to when the request states none."""
MARKS = {"my", "uploaded", "upload"}
"""Words that make an upload's name win over a catalogue noun ("my chair", "the uploaded cup")."""
TRAILING = {"model", "mesh", "file", "upload"}
"""Words after an upload's name that belong to it ("the duck model")."""

_RESOLVER: ContextVar[MeshResolver | None] = ContextVar("studio_mesh_resolver", default=None)


def current_resolver() -> MeshResolver | None:
    """The mesh resolver of the workspace being edited, where one is set (see `resolving`)."""
    return _RESOLVER.get()


@contextmanager
def resolving(resolver: MeshResolver | None) -> Iterator[None]:
    """Measure mesh objects with `resolver` while the block runs (layout of an edited scene)."""
    token = _RESOLVER.set(resolver)
    try:
        yield
    finally:
        _RESOLVER.reset(token)


@dataclass(frozen=True)
class Upload:
    """One uploaded mesh: its noun, ref and bounds in metres (at scale 1 in its file's units)."""

    key: str
    ref: str
    filename: str
    low: tuple[float, float, float]
    high: tuple[float, float, float]
    to_metres: float = 1.0

    @property
    def extents(self) -> np.ndarray:
        """Width, height, depth in metres at the file's own size."""
        extents: np.ndarray = (np.array(self.high) - np.array(self.low)) * self.to_metres
        return extents

    def scale(self, sizes: Mapping[str, float]) -> tuple[float, str]:
        """The uniform scale (file units to metres included) for the sizes asked, and a note
        when the mesh's own size was changed without being asked."""
        width, height, depth = (float(v) for v in self.extents)
        largest = max(width, height, depth, 1e-9)
        by_role = {
            "height": height,
            "width": width,
            "depth": depth,
            "thickness": depth,
            "length": max(width, depth),
            "diameter": max(width, depth),
            "radius": max(width, depth) / 2,
            "size": largest,
        }
        for role, value in sizes.items():
            if role in by_role and by_role[role] > 0:
                return self.to_metres * value / by_role[role], ""
        dims = [v for role, v in sizes.items() if role.startswith("dims")]
        if dims:
            return self.to_metres * max(dims) / largest, ""
        factor = _plausible_factor(self.key, height, max(width, depth), largest)
        if factor == 1.0:
            return self.to_metres, ""
        note = (
            f"your {self.key} mesh is {_metres(largest)} across as uploaded, so I scaled it to "
            f"{_metres(largest * factor)}; give a size ('30 cm tall') to choose another"
        )
        return self.to_metres * factor, note


def _plausible_factor(noun: str, height: float, width: float, largest: float) -> float:
    """1 when the size is plausible; else the factor nearest 1 that makes it so: within the
    everyday range of its noun where the scale check knows one (a teapot), else within
    `PLAUSIBLE_M` (the largest side)."""
    known = match_category(noun)
    if known is not None:
        (h_low, h_high), (w_low, w_high) = TYPICAL_SIZES[known]
        low = max(h_low / max(height, 1e-9), w_low / max(width, 1e-9)) * 1.05
        high = min(h_high / max(height, 1e-9), w_high / max(width, 1e-9)) * 0.95
        if low <= high:
            return min(max(1.0, low), high)
        return (h_low + h_high) / 2 / max(height, 1e-9)
    if PLAUSIBLE_M[0] <= largest <= PLAUSIBLE_M[1]:
        return 1.0
    return DEFAULT_M / largest


def _metres(value: float) -> str:
    return f"{value:.3g} m" if value >= 1 else f"{value * 100:.3g} cm"


@dataclass
class Uploads:
    """The workspace's uploads by noun, and the word forms that name them."""

    by_key: dict[str, Upload] = field(default_factory=dict)

    @property
    def words(self) -> dict[str, str]:
        """Word form (singular, plural, file name) -> noun, for `parse_request(extra_nouns=)`."""
        forms: dict[str, str] = {}
        for key, upload in self.by_key.items():
            for form in {key, *_plurals(key)}:
                forms.setdefault(form, key)
            forms.setdefault(upload.filename.lower(), key)
        return forms

    def __bool__(self) -> bool:
        return bool(self.by_key)


def noun_of(filename: str) -> str:
    """The noun an upload goes by: its file stem in lower-case words ("chair_model" -> "chair
    model"); "" when the stem has no letters."""
    stem = PurePosixPath(filename.replace("\\", "/")).stem.lower()
    return " ".join(re.findall(r"[a-z]+", stem))


def uploads_from(rows: Iterable[Any]) -> Uploads:
    """Uploads from UploadedMesh rows (newest first, so the newest wins a shared name)."""
    found = Uploads()
    for row in rows:
        key = noun_of(row.name)
        metadata = row.metadata or {}
        bounds = metadata.get("bounds")
        if not key or key in found.by_key or not bounds:
            continue
        low, high = (tuple(float(v) for v in corner) for corner in bounds)
        found.by_key[key] = Upload(
            key=key,
            ref=row.ref,
            filename=str(row.name),
            low=low,  # type: ignore[arg-type]
            high=high,  # type: ignore[arg-type]
            to_metres=float(metadata.get("scale_to_metres") or 1.0),
        )
    return found


def workspace_uploads(workspace: Any) -> Uploads:
    """The uploads of a workspace (a Django model instance)."""
    from studio.models import UploadedMesh

    return uploads_from(UploadedMesh.objects.filter(workspace=workspace))


def upload_summary(uploads: Uploads) -> list[dict[str, Any]]:
    """The uploads as a planner or a model reads them: noun, file, ref, size in metres."""
    return [
        {
            "noun": key,
            "file": upload.filename,
            "ref": upload.ref,
            "size_m": [round(float(v), 4) for v in upload.extents],
        }
        for key, upload in uploads.by_key.items()
    ]


def stand_in(upload: Upload, scale: float) -> Shape:
    """A box of the mesh's scaled bounds, for laying the scene out."""
    size = (np.array(upload.high) - np.array(upload.low)) * scale
    return Shape("box", {"size": [round(float(v), 6) for v in size]})


def as_mesh(item: SceneObject, upload: Upload, scale: float) -> SceneObject:
    """The stand-in box `item` replaced by the mesh, its bounds exactly where the box stood."""
    centre = (np.array(upload.low) + np.array(upload.high)) / 2 * scale
    rotation = object_matrix(replace(item.transform, translation=(0.0, 0.0, 0.0)))[:3, :3]
    offset = rotation @ centre
    tx, ty, tz = item.transform.translation
    moved = (float(tx - offset[0]), float(ty - offset[1]), float(tz - offset[2]))
    shape = Shape("mesh", {"ref": upload.ref, "scale": round(scale, 9)})
    return replace(item, shape=shape, transform=replace(item.transform, translation=moved))
