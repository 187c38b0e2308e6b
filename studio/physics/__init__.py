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

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from studio.physics.common import Report, WorldMesh, cached
from studio.physics.interpenetration import InterpenetrationReport, interpenetration
from studio.physics.scale import ScaleReport, scale_sanity
from studio.physics.stability import StabilityReport, stability
from studio.physics.support import SupportReport, support
from studio.scene.model import Scene
from studio.scene.solids import enclosed_volume

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
    """All four checks, sharing one world-mesh cache, keyed by check name.

    The meshes are built first; then the MuJoCo simulation (which releases the GIL and runs its
    nudged seeds on threads of their own) runs on a worker thread while this one runs the other
    three checks (mostly NumPy and manifold3d, which release it too). Each check reads only the
    scene and the meshes, so the reports are the ones a serial run gives."""
    meshes = cached(world_mesh)
    for obj in scene.objects:
        # Built here, with the properties both threads read, so that no cache is filled twice.
        enclosed_volume(meshes(obj))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="stability") as pool:
        simulating = pool.submit(stability, scene, meshes, **stability_options)
        overlaps = interpenetration(scene, meshes)
        resting = support(scene, meshes)
        sizes = scale_sanity(scene, meshes)
        simulated = simulating.result()
    return {
        "interpenetration": overlaps,
        "support": resting,
        "stability": simulated,
        "scale_sanity": sizes,
    }
