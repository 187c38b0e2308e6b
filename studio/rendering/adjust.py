"""Scene changes that fix failed render checks; each returns a new Scene (the input is frozen).

`fix_exposure` scales every light by one factor. The renderer's output is linear light
(proportional to the intensities, ambient included) encoded with a 1/2.2 power, so scaling the
lights by s scales the measured luma by s^(1/2.2) wherever nothing clips. From the measured mean
luma m and the target t the step is s = (t / m)^2.2, clamped to [1/16, 16] so one wild
measurement (an all-black or all-white frame) cannot throw the scene far off; a frame that
started very far off takes two or three rounds. When the mean is within bounds but too much is
blown out (or crushed), the step is a fixed 0.75 (or 1.33); when both happen, the contrast is too
high for one factor and a soft fill light from the camera is added instead. A scene with no
light at all gets the studio rig (`studio_lights`).

`fix_framing` keeps the camera's viewing direction and field of view, aims at the centre of the
objects' bounds and sets the distance analytically so that everything fits with a margin: the
bounding sphere of all objects fits when d = r / sin(half the narrower field of view); every
corner of every object's box fits at the distance `_fit_distance` solves for, usually closer
(a row of objects seen from the front is much smaller than its sphere). The closer of the two is
used; both guarantee that nothing is cut. Then the aim moves across the view to the middle of
where the corners land in the frame, and the fit is done again (twice): seen from above at an
angle the near side of a scene fills more of the view than the far side, and aiming at its box's
centre left a wide empty band and the camera further back than needed. That moves the camera
back when something was cut or behind it, and closer when everything was too small. When an
object is hidden behind another, the camera first looks HIDDEN_STEP_DEG further down (at most
MAX_ELEVATION_DEG below the horizon), from the same side: from higher up it sees over what
stands in front; so it does when an object is too small (often mostly hidden: a small thing in
a bowl; or on a flat layout seen at a low angle). If the camera would end up under the
ground (looking up from below), it looks down at 15 degrees instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from studio.rendering.checks import HIDDEN, ExposureReport, FramingReport
from studio.scene.model import Camera, Light, Scene, Vec3

Bounds = tuple[Vec3, Vec3]
GAMMA = 2.2
MAX_STEP = 16.0
MAX_INTENSITY = 1e6
MIN_CAMERA_HEIGHT = 0.05
Z_CLEARANCE = 0.1
"""Closest a corner may come to the camera along its view, metres (the near plane is 0.02)."""
FALLBACK_ELEVATION_DEG = 15.0
HIDDEN_STEP_DEG = 20.0
MAX_ELEVATION_DEG = 70.0
RECENTRE_STEPS = 2


def studio_lights(camera: Camera, *, key: float = 3.0, shadows: bool = True) -> tuple[Light, ...]:
    """A three-point rig around the camera's target, in glTF units (lux): key 3 from the
    camera's right at 50 degrees up (casting shadows), fill 0.4 x key from the left and low,
    rim 0.67 x key from behind. The renderer's EXPOSURE is calibrated on this rig."""
    target = np.asarray(camera.target, dtype=np.float64)
    toward_camera = np.asarray(camera.position, dtype=np.float64) - target
    toward_camera[1] = 0.0
    length = float(np.linalg.norm(toward_camera))
    toward_camera = toward_camera / length if length > 1e-9 else np.array([0.0, 0.0, 1.0])
    right = np.cross(-toward_camera, np.array([0.0, 1.0, 0.0]))
    distance = max(float(np.linalg.norm(np.subtract(camera.position, camera.target))), 1.0) * 2

    def place(azimuth_deg: float, elevation_deg: float) -> Vec3:
        azimuth, elevation = math.radians(azimuth_deg), math.radians(elevation_deg)
        flat = toward_camera * math.cos(azimuth) + right * math.sin(azimuth)
        direction = flat * math.cos(elevation) + np.array([0.0, math.sin(elevation), 0.0])
        return _vec(target + direction * distance)

    aim = _vec(target)
    return (
        Light("key", "directional", (1.0, 0.97, 0.92), key, place(45, 50), aim, shadows),
        Light("fill", "directional", (0.92, 0.95, 1.0), key * 0.4, place(-60, 25), aim, False),
        Light("rim", "directional", (1.0, 1.0, 1.0), key * 2 / 3, place(160, 55), aim, False),
    )


def fix_exposure(scene: Scene, report: ExposureReport, *, max_step: float = MAX_STEP) -> Scene:
    """The scene with its lights rescaled toward the report's target luma (see the docstring)."""
    if report.passed:
        return scene
    lit = [light for light in scene.lights if light.intensity > 0]
    if not lit:
        return replace(scene, lights=(*scene.lights, *studio_lights(scene.camera)))
    mean = report.mean_luma.value
    if mean is None:  # nothing visible: a framing problem, not an exposure one
        return scene
    low, high = report.mean_luma.low, report.mean_luma.high
    if (low is not None and mean < low) or (high is not None and mean > high):
        factor = (report.target_luma / max(mean, 0.25 / 255)) ** GAMMA
    elif not report.clipped.passed and not report.crushed.passed:
        return replace(scene, lights=(*scene.lights, _fill_light(scene)))
    elif not report.clipped.passed:
        factor = 0.75
    else:
        factor = 4 / 3
    factor = min(max(factor, 1 / max_step), max_step)
    return replace(scene, lights=_scaled(scene.lights, factor))


def fix_framing(
    scene: Scene,
    report: FramingReport,
    bounds: Mapping[str, Bounds] | Bounds,
    *,
    margin: float = 0.1,
) -> Scene:
    """The scene with its camera moved so every object fits (see the module docstring).

    `bounds` is either each object's world bounds (`RenderResult.object_bounds`) or one
    (low, high) box around everything that must be in view.
    """
    if report.passed:
        return scene
    boxes = _boxes(scene, bounds)
    if not boxes:
        return scene
    centre = (np.min([low for low, _ in boxes], axis=0) + np.max([h for _, h in boxes], axis=0)) / 2
    camera = scene.camera
    aspect = report.width / report.height if report.height else camera.aspect
    tan_v = math.tan(math.radians(camera.yfov_deg) / 2)
    tan_h = tan_v * aspect
    direction = np.subtract(camera.target, camera.position).astype(np.float64)
    length = float(np.linalg.norm(direction))
    if length < 1e-9:  # camera on its target: look from the front, slightly down
        direction, length = np.array([0.0, -0.5, -1.0]), math.sqrt(1.25)
    direction = direction / length
    if any(
        item.problem == "too_small" or (item.reason or "").startswith(HIDDEN)
        for item in report.objects
    ):
        # Hidden behind something, or too small (often mostly hidden: an orange below a bowl's
        # rim): from higher up the camera sees over what stands in front, and a flat layout is
        # less foreshortened, so what lies on it shows larger.
        direction = _looking_down(direction, HIDDEN_STEP_DEG)
    aim, distance = _aimed(boxes, centre, direction, tan_v, tan_h, margin)
    if scene.ground and (aim - direction * distance)[1] < MIN_CAMERA_HEIGHT:
        direction = _at_elevation(direction, FALLBACK_ELEVATION_DEG)
        aim, distance = _aimed(boxes, centre, direction, tan_v, tan_h, margin)
    position = aim - direction * distance
    return replace(scene, camera=replace(camera, position=_vec(position), target=_vec(aim)))


def _aimed(
    boxes: list[tuple[NDArray[np.float64], NDArray[np.float64]]],
    centre: NDArray[np.float64],
    forward: NDArray[np.float64],
    tan_v: float,
    tan_h: float,
    margin: float,
) -> tuple[NDArray[np.float64], float]:
    """Where to aim and how far back to stand, looking along `forward`: the fit around the
    boxes' centre, then RECENTRE_STEPS times the aim moved to the middle of where the corners
    land in the frame and the fit done again."""
    distance = _fit_distance(boxes, centre, forward, tan_v, tan_h, margin)
    for _ in range(RECENTRE_STEPS):
        centre = _recentred(boxes, centre, forward, distance, tan_v, tan_h)
        distance = _fit_distance(boxes, centre, forward, tan_v, tan_h, margin)
    return centre, distance


def _recentred(
    boxes: list[tuple[NDArray[np.float64], NDArray[np.float64]]],
    centre: NDArray[np.float64],
    forward: NDArray[np.float64],
    distance: float,
    tan_v: float,
    tan_h: float,
) -> NDArray[np.float64]:
    """The aim moved across the view to the middle of where the boxes' corners land in the
    frame from `distance` back along `forward`: seen from above at an angle, the near side of a
    scene fills more of the frame than the far side, so aiming at the middle of its box leaves a
    wide empty band on one side, and the fit that follows keeps the camera further away than
    the objects need."""
    right, up = _camera_axes(forward)
    corners = _corners(boxes) - (centre - forward * distance)
    depth = np.maximum(corners @ forward, 1e-6)
    across = corners @ right / (depth * tan_h)
    down = corners @ up / (depth * tan_v)
    shift = (across.max() + across.min()) / 2 * tan_h * right
    shift += (down.max() + down.min()) / 2 * tan_v * up
    moved: NDArray[np.float64] = centre + shift * distance
    return moved


def _looking_down(direction: NDArray[np.float64], step_deg: float) -> NDArray[np.float64]:
    """The viewing direction turned `step_deg` further down (same side of the scene), up to
    MAX_ELEVATION_DEG below the horizon: from higher up the camera sees over what stands in
    front (a cushion behind a coffee table)."""
    elevation = math.degrees(math.asin(max(-1.0, min(1.0, -float(direction[1])))))
    if elevation >= MAX_ELEVATION_DEG:
        return direction
    return _at_elevation(direction, min(elevation + step_deg, MAX_ELEVATION_DEG))


def _at_elevation(direction: NDArray[np.float64], degrees: float) -> NDArray[np.float64]:
    """A unit viewing direction `degrees` below the horizon, facing the way `direction` does."""
    flat = np.array([direction[0], 0.0, direction[2]])
    flat_length = float(np.linalg.norm(flat))
    flat = flat / flat_length if flat_length > 1e-9 else np.array([0.0, 0.0, -1.0])
    angle = math.radians(degrees)
    turned: NDArray[np.float64] = flat * math.cos(angle) - np.array([0.0, math.sin(angle), 0.0])
    return turned


def _boxes(
    scene: Scene, bounds: Mapping[str, Bounds] | Bounds
) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    chosen: Iterable[Bounds]
    if isinstance(bounds, Mapping):
        names = {item.name for item in scene.objects}
        chosen = [box for name, box in bounds.items() if name in names] or list(bounds.values())
    else:
        chosen = [bounds]
    return [(np.asarray(low, np.float64), np.asarray(high, np.float64)) for low, high in chosen]


def _fit_distance(
    boxes: list[tuple[NDArray[np.float64], NDArray[np.float64]]],
    centre: NDArray[np.float64],
    forward: NDArray[np.float64],
    tan_v: float,
    tan_h: float,
    margin: float,
) -> float:
    """Distance from `centre`, backwards along `forward`, at which every box fits the view.

    Two sufficient conditions, the closer one wins: the bounding sphere of all the boxes fits
    (d = r / sin(half the narrower field of view)), or every corner of every box fits, each
    corner q = centre + v needing d >= |v . right| / tan_h - v . forward (and likewise for up):
    in camera space it lies at depth v . forward + d and must stay within the frustum's slope.
    The margin shrinks both slopes by 1 + margin.
    """
    tan_v, tan_h = tan_v / (1 + margin), tan_h / (1 + margin)
    right, true_up = _camera_axes(forward)
    offsets = _corners(boxes) - centre
    depth = offsets @ forward
    needed = np.maximum(
        np.abs(offsets @ right) / tan_h - depth, np.abs(offsets @ true_up) / tan_v - depth
    )
    corner_fit = float(max(needed.max(), (Z_CLEARANCE - depth).max()))
    radius = max(float(np.linalg.norm(offsets, axis=1).max()), 0.05)
    sphere_fit = radius / math.sin(min(math.atan(tan_v), math.atan(tan_h)))
    return min(corner_fit, sphere_fit)


def _camera_axes(forward: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The view's right and up directions for a camera looking along `forward`, Y up."""
    right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
    if np.linalg.norm(right) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    return right, np.cross(right, forward)


def _corners(boxes: list[tuple[NDArray[np.float64], NDArray[np.float64]]]) -> NDArray[np.float64]:
    return np.array(
        [
            [x, y, z]
            for low, high in boxes
            for x in (low[0], high[0])
            for y in (low[1], high[1])
            for z in (low[2], high[2])
        ]
    )


def _scaled(lights: tuple[Light, ...], factor: float) -> tuple[Light, ...]:
    return tuple(
        replace(light, intensity=min(light.intensity * factor, MAX_INTENSITY)) for light in lights
    )


def _fill_light(scene: Scene) -> Light:
    directional = [light.intensity for light in scene.lights if light.kind == "directional"]
    strongest = max(directional, default=3.0)
    names = {light.name for light in scene.lights}
    name = "fill-auto"
    counter = 2
    while name in names:
        name, counter = f"fill-auto-{counter}", counter + 1
    return Light(
        name=name,
        kind="directional",
        intensity=0.3 * strongest,
        position=scene.camera.position,
        target=scene.camera.target,
        cast_shadows=False,
    )


def _vec(values: NDArray[np.float64]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))
