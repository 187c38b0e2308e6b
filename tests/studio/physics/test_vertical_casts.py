"""The vertical ray casts behind `support` test only the (point, triangle) pairs whose XZ boxes
meet; they must find exactly what testing every pair finds."""

import numpy as np
import trimesh

from studio.physics import run_checks, stability, support
from studio.physics.common import Triangles, crossings, top_surface_below, vertical_hits
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
            which_point, which_triangle, heights = crossings(triangles, points)
            expected = np.argwhere(hit)
            found = np.column_stack([which_point, which_triangle])
            order = np.lexsort((which_triangle, which_point))
            np.testing.assert_array_equal(found[order], expected)
            np.testing.assert_array_equal(heights[order], dense[hit])
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


def test_casts_in_groups_find_what_each_group_finds_alone():
    # `footing` casts every object's lines in one search, each line meeting only the triangles
    # of its own group (the object, or one object beneath it), however the groups overlap.
    rng = np.random.default_rng(5)
    sets = Triangles.of_each(_meshes())
    groups = [rng.uniform(-0.6, 0.6, (150, 2)) for _ in sets]
    point_group = np.repeat(np.arange(len(sets)), [len(g) for g in groups])
    triangle_group = np.repeat(np.arange(len(sets)), [len(t.corners) for t in sets])
    which_point, which_triangle, heights = crossings(
        Triangles.concatenate(sets), np.vstack(groups), (point_group, triangle_group)
    )
    point_start = np.cumsum([0] + [len(g) for g in groups])
    triangle_start = np.cumsum([0] + [len(t.corners) for t in sets])
    for group, (triangles, points) in enumerate(zip(sets, groups, strict=True)):
        mine = point_group[which_point] == group
        assert np.all(triangle_group[which_triangle[mine]] == group)
        alone_point, alone_triangle, alone_heights = crossings(triangles, points)
        together = sorted(
            zip(
                which_point[mine] - point_start[group],
                which_triangle[mine] - triangle_start[group],
                heights[mine],
                strict=True,
            )
        )
        assert together == sorted(zip(alone_point, alone_triangle, alone_heights, strict=True))
        assert len(together) > 0
    np.testing.assert_array_equal(
        Triangles.of_each(_meshes())[3].corners, Triangles.of(_meshes()[3]).corners
    )
