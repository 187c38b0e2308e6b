"""Physical plausibility checks for scenes, and simple fixes for what they find.

Every check takes the scene and a callable `world_mesh(obj) -> trimesh.Trimesh` (the object's mesh
in world coordinates) and returns a JSON-ready dataclass report: `passed`, a headline `value`,
per-object or per-pair details and human-readable `reasons`.

* `interpenetration`: pairs of objects overlapping beyond a tolerance (depth and volume);
* `support`: objects that float above, or sink into, what is beneath them;
* `stability`: a MuJoCo rigid-body simulation; objects that fall, topple, roll or slide;
* `scale_sanity`: objects far from the typical size of their everyday noun.

`studio.physics.fixes` holds the matching repairs. `run_checks` runs all four with one mesh cache.
"""

from __future__ import annotations

from typing import Any

from studio.physics.common import Report, WorldMesh, cached
from studio.physics.interpenetration import InterpenetrationReport, interpenetration
from studio.physics.scale import ScaleReport, scale_sanity
from studio.physics.stability import StabilityReport, stability
from studio.physics.support import SupportReport, support
from studio.scene.model import Scene

__all__ = [
    "InterpenetrationReport",
    "Report",
    "ScaleReport",
    "StabilityReport",
    "SupportReport",
    "WorldMesh",
    "cached",
    "interpenetration",
    "run_checks",
    "scale_sanity",
    "stability",
    "support",
]


def run_checks(scene: Scene, world_mesh: WorldMesh, **stability_options: Any) -> dict[str, Report]:
    """All four checks, sharing one world-mesh cache, keyed by check name."""
    meshes = cached(world_mesh)
    return {
        "interpenetration": interpenetration(scene, meshes),
        "support": support(scene, meshes),
        "stability": stability(scene, meshes, **stability_options),
        "scale_sanity": scale_sanity(scene, meshes),
    }
