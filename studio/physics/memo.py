"""The physics checks of a scene whose physical content was measured before, reused.

A refinement round that only moved the camera or scaled the lights (most rounds after the first)
hands the next round the same objects: the same shapes, transforms, materials and physics
settings on the same ground. The four checks read nothing else, and every one of them is
deterministic (the simulation's nudges use fixed seeds), so measuring those objects again would
give the same reports. `measured_physics` keeps the last `MEMO_SIZE` results per process, keyed by
a digest of exactly what the checks read, and returns copies of them, marked `reused` so that the
round says so. A scene with an uploaded mesh is always measured (its key would need the file's
content), and so is one whose parameters are not plain JSON.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import asdict
from typing import Any

from studio.physics import run_checks
from studio.physics.common import Report, WorldMesh
from studio.scene.geometry import shape_key
from studio.scene.model import Scene

MEMO_SIZE = 16

_MEMO: OrderedDict[str, dict[str, Report]] = OrderedDict()
_LOCK = threading.Lock()


def physics_key(scene: Scene, options: dict[str, Any] | None = None) -> str | None:
    """A digest of everything the physics checks read; None when the scene cannot have one."""
    if any(shape_key(obj.shape) is None for obj in scene.objects):
        return None
    content = {
        "objects": [asdict(obj) for obj in scene.objects],
        "ground": scene.ground,
        "ground_size": scene.ground_size,
        "options": options or {},
    }
    try:
        text = json.dumps(content, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def measured_physics(
    scene: Scene, world_mesh: WorldMesh, **stability_options: Any
) -> tuple[dict[str, Report], bool]:
    """`run_checks(scene, world_mesh)`, or a copy of the reports of the same objects measured
    before; the flag says which (True: reused)."""
    key = physics_key(scene, stability_options)
    if key is not None:
        with _LOCK:
            hit = _MEMO.get(key)
            if hit is not None:
                _MEMO.move_to_end(key)
        if hit is not None:
            return copy.deepcopy(hit), True
    reports = run_checks(scene, world_mesh, **stability_options)
    if key is not None:
        stored = copy.deepcopy(reports)
        with _LOCK:
            _MEMO[key] = stored
            while len(_MEMO) > MEMO_SIZE:
                _MEMO.popitem(last=False)
    return reports, False


def forget_measurements() -> None:
    """Drop every remembered result (for benchmarks that time the checks themselves)."""
    with _LOCK:
        _MEMO.clear()
