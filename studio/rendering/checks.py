"""Measurements on a rendered frame, each with a pass/fail and its numbers (JSON-ready).

`exposure(result)`: is the picture neither too dark nor too bright?

* **Mean luma** of the pixels that show something (the background, i.e. segmentation id 0, is
  left out; without a segmentation every pixel counts). Luma is Rec. 709's weighting applied to
  the *encoded* 8-bit values, Y' = 0.2126 R' + 0.7152 G' + 0.0722 B' (not luminance of linearised
  values): the bounds are about how the picture looks, so they are set on the display scale.
  Must lie within 0.25-0.75 of full scale; `fix_exposure` aims at 0.45.
* **Clipped highlights**: share of those pixels with luma >= 250, at most 2 %.
* **Crushed shadows**: share with luma <= 5, at most 10 %.
* Objects whose own pixels are at least half clipped or crushed are listed as advisories; they
  do not fail the check (one global light scale cannot fix them, and a black object is allowed).

`framing(result, scene)`: is every object in the picture, whole and big enough?

* **Visible**: at least `min_share` of the frame (0.2 %: 1 573 px at 1024x768, 154 px at
  320x240; a share, so a thumbnail-sized test render and the full render agree).
* **Not cut**: none of its segmentation pixels lie on the outermost rows or columns (a
  silhouette that reaches the border continues outside the picture).
* An object with no pixels is explained from its projected bounding box: behind the camera,
  outside the frame (which side), too small to cover a pixel, or hidden behind another object
  (the label most seen where it would be).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from studio.rendering.pyrender_scene import GROUND_NAME
from studio.rendering.result import RenderResult
from studio.scene.model import Scene

LUMA_WEIGHTS = (0.2126, 0.7152, 0.0722)
Problem = Literal["not_visible", "cut_by_frame", "too_small"]


@dataclass(frozen=True)
class Measurement:
    """One number with the bounds it was held to."""

    name: str
    value: float | None
    passed: bool
    low: float | None = None
    high: float | None = None
    unit: str = ""


@dataclass(frozen=True)
class ObjectExposure:
    name: str
    pixels: int
    mean_luma: float
    clipped: float
    crushed: float
    problem: str


@dataclass(frozen=True)
class ExposureReport:
    passed: bool
    mean_luma: Measurement
    clipped: Measurement
    crushed: Measurement
    pixels: int
    """How many pixels were measured."""
    background_excluded: bool
    target_luma: float
    problems: tuple[str, ...]
    advisories: tuple[ObjectExposure, ...]
    check: str = "exposure"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), allow_nan=False)


HIDDEN = "it is hidden behind"
"""How the reason of an object that other objects hide from the camera starts."""


@dataclass(frozen=True)
class ObjectFraming:
    name: str
    pixels: int
    share: float
    """Of the whole frame."""
    border_pixels: int
    edges: tuple[str, ...]
    """Frame edges its pixels touch: left, right, top, bottom."""
    passed: bool
    problem: Problem | None
    reason: str | None


@dataclass(frozen=True)
class FramingReport:
    passed: bool
    width: int
    height: int
    min_pixels: int
    objects: tuple[ObjectFraming, ...]
    failed: tuple[str, ...]
    problems: tuple[str, ...]
    check: str = "framing"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), allow_nan=False)

    def object(self, name: str) -> ObjectFraming:
        for item in self.objects:
            if item.name == name:
                return item
        raise KeyError(name)


def luma(color: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Rec. 709 luma of encoded 8-bit RGB, 0..255 (see the module docstring)."""
    weights = np.asarray(LUMA_WEIGHTS, dtype=np.float32)
    result: NDArray[np.float32] = color.astype(np.float32) @ weights
    return result


def exposure(
    result: RenderResult,
    *,
    low: float = 0.25,
    high: float = 0.75,
    target: float = 0.45,
    clip_level: int = 250,
    crush_level: int = 5,
    max_clipped: float = 0.02,
    max_crushed: float = 0.10,
) -> ExposureReport:
    values = luma(result.color)
    seg = result.segmentation
    measured = values[seg > 0] if seg is not None else values.ravel()
    count = int(measured.size)
    if count == 0:
        empty = Measurement("mean_luma", None, False, low, high, "of full scale")
        return ExposureReport(
            passed=False,
            mean_luma=empty,
            clipped=Measurement("clipped", None, False, None, max_clipped, "share of pixels"),
            crushed=Measurement("crushed", None, False, None, max_crushed, "share of pixels"),
            pixels=0,
            background_excluded=seg is not None,
            target_luma=target,
            problems=("nothing but background is visible: nothing to expose",),
            advisories=(),
        )
    mean = float(measured.mean()) / 255.0
    clipped = float(np.count_nonzero(measured >= clip_level)) / count
    crushed = float(np.count_nonzero(measured <= crush_level)) / count
    mean_m = Measurement(
        "mean_luma", round(mean, 4), low <= mean <= high, low, high, "of full scale"
    )
    share = "share of pixels"
    clipped_m = Measurement(
        "clipped", round(clipped, 4), clipped <= max_clipped, None, max_clipped, share
    )
    crushed_m = Measurement(
        "crushed", round(crushed, 4), crushed <= max_crushed, None, max_crushed, share
    )
    problems: list[str] = []
    if mean < low:
        problems.append(f"too dark: mean luma {mean:.2f} is below {low:.2f}")
    elif mean > high:
        problems.append(f"too bright: mean luma {mean:.2f} is above {high:.2f}")
    if not clipped_m.passed:
        problems.append(
            f"{clipped:.1%} of the picture is blown out (luma >= {clip_level}), "
            f"more than {max_clipped:.0%}"
        )
    if not crushed_m.passed:
        problems.append(
            f"{crushed:.1%} of the picture is crushed to black (luma <= {crush_level}), "
            f"more than {max_crushed:.0%}"
        )
    advisories = (
        _object_exposure(result, values, clip_level, crush_level) if seg is not None else ()
    )
    return ExposureReport(
        passed=mean_m.passed and clipped_m.passed and crushed_m.passed,
        mean_luma=mean_m,
        clipped=clipped_m,
        crushed=crushed_m,
        pixels=count,
        background_excluded=seg is not None,
        target_luma=target,
        problems=tuple(problems),
        advisories=advisories,
    )


def _object_exposure(
    result: RenderResult, values: NDArray[np.float32], clip_level: int, crush_level: int
) -> tuple[ObjectExposure, ...]:
    assert result.segmentation is not None
    ids = result.segmentation.ravel()
    flat = values.ravel()
    size = len(result.labels) + 1
    counts = np.bincount(ids, minlength=size)
    sums = np.bincount(ids, weights=flat, minlength=size)
    clipped = np.bincount(ids[flat >= clip_level], minlength=size)
    crushed = np.bincount(ids[flat <= crush_level], minlength=size)
    found: list[ObjectExposure] = []
    for index, name in enumerate(result.labels, start=1):
        pixels = int(counts[index])
        if pixels < 50 or name == GROUND_NAME:
            continue
        clip_share, crush_share = clipped[index] / pixels, crushed[index] / pixels
        problem = ""
        if clip_share >= 0.5:
            problem = f"{clip_share:.0%} of it is blown out"
        elif crush_share >= 0.5:
            problem = f"{crush_share:.0%} of it is crushed to black"
        if problem:
            found.append(
                ObjectExposure(
                    name=name,
                    pixels=pixels,
                    mean_luma=round(float(sums[index]) / pixels / 255.0, 4),
                    clipped=round(float(clip_share), 4),
                    crushed=round(float(crush_share), 4),
                    problem=problem,
                )
            )
    return tuple(found)


def framing(
    result: RenderResult, scene: Scene, *, min_share: float = 0.002, min_pixels: int | None = None
) -> FramingReport:
    """Every object of `scene` visible with at least min_pixels (default min_share of the frame)
    and not cut by the frame. Needs a render made with segmentation=True."""
    seg = result.segmentation
    if seg is None:
        raise ValueError("framing needs a render made with segmentation=True")
    width, height = result.width, result.height
    frame = width * height
    needed = min_pixels if min_pixels is not None else max(1, math.ceil(min_share * frame))
    counts = np.bincount(seg.ravel(), minlength=len(result.labels) + 1)
    edges = {
        "top": np.bincount(seg[0], minlength=len(result.labels) + 1),
        "bottom": np.bincount(seg[-1], minlength=len(result.labels) + 1),
        "left": np.bincount(seg[1:-1, 0], minlength=len(result.labels) + 1),
        "right": np.bincount(seg[1:-1, -1], minlength=len(result.labels) + 1),
    }
    objects: list[ObjectFraming] = []
    for item in scene.objects:
        name = item.name
        index = result.labels.index(name) + 1 if name in result.labels else None
        pixels = int(counts[index]) if index is not None else 0
        touching = {side: int(row[index]) for side, row in edges.items()} if index else {}
        border = sum(touching.values())
        sides = tuple(side for side, n in touching.items() if n > 0)
        problem: Problem | None = None
        reason: str | None = None
        if pixels == 0:
            problem, reason = "not_visible", _why_not_visible(result, name)
        elif border > 0:
            problem = "cut_by_frame"
            reason = (
                f"cut by the frame's {' and '.join(sides)} edge{'s' if len(sides) > 1 else ''}: "
                f"{border} of its {pixels} px lie on the border, so it continues outside"
            )
        elif pixels < needed:
            problem = "too_small"
            reason = (
                f"only {pixels} px visible, needs {needed} ({pixels / frame:.2%} of the frame): "
                "too far away or mostly hidden"
            )
        objects.append(
            ObjectFraming(
                name=name,
                pixels=pixels,
                share=round(pixels / frame, 6),
                border_pixels=border,
                edges=sides,
                passed=problem is None,
                problem=problem,
                reason=reason,
            )
        )
    failed = tuple(item.name for item in objects if not item.passed)
    return FramingReport(
        passed=not failed,
        width=width,
        height=height,
        min_pixels=needed,
        objects=tuple(objects),
        failed=failed,
        problems=tuple(f"{item.name!r}: {item.reason}" for item in objects if not item.passed),
    )


def _why_not_visible(result: RenderResult, name: str) -> str:
    if name not in result.labels:
        return "it is not in this render"
    box = result.object_bounds.get(name)
    if box is None:
        return "it has no geometry to draw"
    low, high = np.asarray(box[0]), np.asarray(box[1])
    corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1])
                        for z in (low[2], high[2])])  # fmt: skip
    camera = corners @ result.view[:3, :3].T + result.view[:3, 3]
    ahead = camera[camera[:, 2] < -result.znear]
    if len(ahead) == 0:
        return "it is behind the camera"
    if float(np.min(-camera[:, 2])) > result.zfar:
        return "it is beyond the far clipping distance"
    tan_v = math.tan(result.yfov / 2)
    tan_h = tan_v * result.aspect
    nx = ahead[:, 0] / -ahead[:, 2] / tan_h
    ny = ahead[:, 1] / -ahead[:, 2] / tan_v
    outside = [
        side
        for side, out in (
            ("to the left", nx.max() < -1),
            ("to the right", nx.min() > 1),
            ("below", ny.max() < -1),
            ("above", ny.min() > 1),
        )
        if out
    ]
    if outside:
        return f"it is outside the frame, {' and '.join(outside)}"
    width, height = result.width, result.height
    x0, x1 = (np.clip([nx.min(), nx.max()], -1, 1) + 1) / 2 * width
    y0, y1 = (1 - np.clip([ny.max(), ny.min()], -1, 1)) / 2 * height
    if (x1 - x0) < 1 and (y1 - y0) < 1:
        distance = float(np.linalg.norm(camera.mean(axis=0)))
        return f"it is too small to cover a pixel from {distance:.1f} m away"
    assert result.segmentation is not None
    region = result.segmentation[
        int(y0) : max(math.ceil(y1), int(y0) + 1),
        int(x0) : max(math.ceil(x1), int(x0) + 1),
    ]
    values, amounts = np.unique(region[region > 0], return_counts=True)
    if len(values):
        blocker = result.labels[int(values[int(np.argmax(amounts))]) - 1]
        return f"{HIDDEN} {blocker!r}"
    return "it is in the frame but not drawn (fully transparent or facing away)"
