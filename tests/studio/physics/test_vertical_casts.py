"""The vertical ray casts behind `support` test only the (point, triangle) pairs whose XZ boxes
meet; they must find exactly what testing every pair finds."""

import numpy as np
import trimesh

from studio.physics import run_checks, stability, support
from studio.physics.common import (
    Triangles,
    lowest_surface,
    top_surface_below,
    tops_below,
    vertical_hits,
)
from studio.scene.model import Scene

from .helpers import ball, crate, table, world_mesh


def _every_pair(triangles: Triangles, points: np.ndarray) -> np.ndarray:
    """Heights on every (point, triangle) pair, NaN where the line misses: the plain cast."""
    c = triangles.corners
    px, pz = points[:, 0:1], points[:, 1:2]
    x0, y0, z0 = c[:, 0, 0], c[:, 0, 1], c[:, 0, 2]
    x1, y1, z1 = c[:, 1, 0], c[:, 1, 1], c[:, 1, 2]
    x2, y2, z2 = c[:, 2, 0], c[:, 2, 1], c[:, 2, 2]
    det = (z1 - z2) * (x0 - x2) + (x2 - x1) * (z0 - z2)
    l0 = ((z1 - z2) * (px - x2) + (x2 - x1) * (pz - z2)) / det
    l1 = ((z2 - z0) * (px - x2) + (x0 - x2) * (pz - z2)) / det
    l2 = 1.0 - l0 - l1
    inside = (l0 >= -1e-9) & (l1 >= -1e-9) & (l2 >= -1e-9)
    return np.where(inside, l0 * y0 + l1 * y1 + l2 * y2, np.nan)


def _meshes() -> list[trimesh.Trimesh]:
    rng = np.random.default_rng(7)
    shapes = [
        trimesh.creation.icosphere(subdivisions=3, radius=0.4),
        trimesh.creation.box(extents=(0.5, 0.5, 0.5)),
        trimesh.creation.cylinder(radius=0.3, height=1.0, sections=24),
        trimesh.creation.cone(radius=0.3, height=0.5),
        trimesh.creation.annulus(r_min=0.1, r_max=0.3, height=0.2),
    ]
    out = []
    for shape in shapes:
        out.append(shape)
        turned = shape.copy()
        turned.apply_transform(trimesh.transformations.random_rotation_matrix(rng.random(3)))
        out.append(turned)
    return out


def test_casts_find_what_testing_every_pair_finds():
    rng = np.random.default_rng(11)
    for mesh in _meshes():
        # Random lines, and lines through the mesh's own vertices (they hit edges and corners).
        points = np.vstack([rng.uniform(-0.6, 0.6, (300, 2)), mesh.vertices[:, [0, 2]]])
        everything = Triangles.of(mesh)
        for triangles in (
            everything,
            everything.subset(everything.up),
            everything.subset(~everything.up),
        ):
            dense = _every_pair(triangles, points)
            hit = ~np.isnan(dense)
            lowest = np.where(hit, dense, np.inf).min(axis=1)
            lowest[~np.isfinite(lowest)] = np.nan
            np.testing.assert_array_equal(lowest_surface(triangles, points), lowest)
            usable = hit & (dense <= 0.1 + 1e-9)
            top = np.where(usable, dense, -np.inf).max(axis=1)
            top[~np.isfinite(top)] = np.nan
            np.testing.assert_array_equal(top_surface_below(triangles, points, 0.1), top)
            hits = vertical_hits(triangles, points)
            assert np.count_nonzero(~np.isnan(hits)) == np.count_nonzero(hit)
            np.testing.assert_array_equal(np.sort(hits[~np.isnan(hits)]), np.sort(dense[hit]))


def test_run_checks_gives_the_reports_of_the_checks_run_one_by_one():
    scene = Scene(
        objects=(
            table(),
            ball("ball", (0.0, 0.85, 0.0)),
            crate("c1", (2.0, 0.25, 0.0)),
            crate("c2", (2.0, 0.75, 0.0)),
            ball("loose", (3.0, 0.6, 0.0)),
        )
    )
    together = run_checks(scene, world_mesh)
    alone = {"support": support(scene, world_mesh), "stability": stability(scene, world_mesh)}
    assert list(together) == ["interpenetration", "support", "stability", "scale_sanity"]
    for name, report in alone.items():
        first = {k: v for k, v in together[name].to_dict().items() if not k.endswith("_s")}
        second = {k: v for k, v in report.to_dict().items() if not k.endswith("_s")}
        assert first == second, name
    assert not together["support"].passed and not together["stability"].passed


def test_tops_below_is_top_surface_below_per_mesh():
    rng = np.random.default_rng(5)
    sets = [Triangles.of(mesh) for mesh in _meshes()]
    sets = [t.subset(t.up) for t in sets] + [sets[0]]
    points = rng.uniform(-0.6, 0.6, (400, 2))
    together = tops_below(sets, points, 0.15)
    assert together.shape == (len(points), len(sets))
    for column, triangles in enumerate(sets):
        np.testing.assert_array_equal(
            together[:, column], top_surface_below(triangles, points, 0.15)
        )
    assert tops_below([], points, 0.15).shape == (len(points), 0)
