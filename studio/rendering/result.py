"""One rendered frame (`RenderResult`: colour, depth, segmentation, camera) and its images."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from studio.rendering.lights import Matrix
from studio.scene.model import Vec3

Bounds = tuple[Vec3, Vec3]


@dataclass(eq=False)
class RenderResult:
    """One rendered frame. Arrays are (height, width, ...), row 0 at the top."""

    color: NDArray[np.uint8]
    """(H, W, 3) display-encoded RGB (gamma 1/2.2)."""
    depth: NDArray[np.float32] | None
    """(H, W) distance along the view axis in metres, 0 where nothing was drawn; None unless
    asked for (`render(..., depth=True)`)."""
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


def _encode(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
