"""Shapes become meshes of exactly the asked size, placed where their transform says."""

from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from studio.scene.geometry import (
    PLANE_THICKNESS,
    ground_mesh,
    lowest_point,
    object_bounds,
    object_matrix,
    object_mesh,
    shape_mesh,
    world_bounds,
    world_mesh,
)
from studio.scene.model import Scene, SceneError, SceneObject, Shape, Transform
from studio.scene.transforms import look_at_rotation, quaternion_xyzw, rotation_matrix

PI = math.pi
L_PROFILE = [[0, 0], [2, 0], [2, 1], [1, 1], [1, 3], [0, 3]]  # area 4 m^2


def box(x: float, y: float, z: float, **transform) -> dict:
    shape = {"kind": "box", "params": {"size": [x, y, z]}}
    return {**shape, "transform": transform} if transform else shape


@pytest.mark.parametrize(
    ("kind", "params", "bounds", "volume"),
    [
        ("box", {"size": [1, 2, 3]}, [[-0.5, -1, -1.5], [0.5, 1, 1.5]], 6.0),
        (
            "plane",
            {"size": [2, 3]},
            [[-1, -PLANE_THICKNESS / 2, -1.5], [1, PLANE_THICKNESS / 2, 1.5]],
            6 * PLANE_THICKNESS,
        ),
        ("sphere", {"radius": 0.5}, [[-0.5] * 3, [0.5] * 3], 4 / 3 * PI * 0.5**3),
        (
            "cylinder",
            {"radius": 0.3, "height": 1.2},
            [[-0.3, -0.6, -0.3], [0.3, 0.6, 0.3]],
            PI * 0.09 * 1.2,
        ),
        (
            "cone",
            {"radius": 0.3, "height": 0.9},
            [[-0.3, -0.45, -0.3], [0.3, 0.45, 0.3]],
            PI * 0.09 * 0.9 / 3,
        ),
        (
            "capsule",
            {"radius": 0.2, "height": 1.0},
            [[-0.2, -0.5, -0.2], [0.2, 0.5, 0.2]],
            PI * 0.04 * 0.6 + 4 / 3 * PI * 0.008,
        ),
        (
            "torus",
            {"major_radius": 1.0, "minor_radius": 0.25},
            [[-1.25, -0.25, -1.25], [1.25, 0.25, 1.25]],
            2 * PI**2 * 1.0 * 0.25**2,
        ),
        ("extrusion", {"profile": L_PROFILE, "height": 0.5}, [[0, -0.25, 0], [2, 0.25, 3]], 2.0),
        (
            "revolve",  # a frustum: radius 0.5 at the bottom, 0.3 at the top, 1 m tall
            {"profile": [[0, 0], [0.5, 0], [0.3, 1], [0, 1]]},
            [[-0.5, 0, -0.5], [0.5, 1, 0.5]],
            PI / 3 * (0.25 + 0.15 + 0.09),
        ),
        (
            "revolve",  # a tube, profile given clockwise and closed
            {"profile": [[0.2, 0], [0.2, 1], [0.5, 1], [0.5, 0], [0.2, 0]], "sections": 32},
            [[-0.5, 0, -0.5], [0.5, 1, 0.5]],
            PI * (0.25 - 0.04),
        ),
    ],
)
def test_primitives_have_exact_bounds_and_volume_and_are_solid(kind, params, bounds, volume):
    mesh = shape_mesh(Shape(kind, params))

    np.testing.assert_allclose(mesh.bounds, bounds, rtol=1e-6, atol=1e-12)
    assert mesh.is_watertight
    assert mesh.is_volume  # consistent winding, outward normals, positive volume
    assert mesh.volume == pytest.approx(volume, rel=0.02)


def test_round_shapes_stand_along_y_with_the_cone_apex_up():
    cone = shape_mesh(Shape("cone", {"radius": 0.3, "height": 0.9}))
    apex = cone.vertices[cone.vertices[:, 1] > 0.45 - 1e-9]
    assert len(apex) == 1 and np.allclose(apex[0], [0, 0.45, 0])

    cylinder = shape_mesh(Shape("cylinder", {"radius": 0.1, "height": 2.0}))
    assert cylinder.extents[1] == pytest.approx(2.0)


def test_extrusion_keeps_profile_x_and_z():
    mesh = shape_mesh(Shape("extrusion", {"profile": L_PROFILE, "height": 0.5}))

    corners = {(round(x, 9), round(y, 9), round(z, 9)) for x, y, z in mesh.vertices}
    expected = {(x, y, z) for x, z in L_PROFILE for y in (-0.25, 0.25)}
    assert corners == expected  # not mirrored: the notch stays at high x and high z


def test_extrusion_with_a_hole_is_a_frame():
    square = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
    hole = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    mesh = shape_mesh(Shape("extrusion", {"profile": square, "holes": [hole], "height": 0.1}))

    assert mesh.is_watertight
    assert mesh.volume == pytest.approx(0.3)
    np.testing.assert_allclose(mesh.bounds, [[-1, -0.05, -1], [1, 0.05, 1]])


@pytest.mark.parametrize(
    ("op", "volume"),
    [("union", 1.5), ("intersection", 0.5), ("difference", 0.5)],
)
def test_booleans_of_overlapping_cubes(op, volume):
    shape = Shape(
        "boolean", {"op": op, "a": box(1, 1, 1), "b": box(1, 1, 1, translation=[0.5, 0, 0])}
    )

    mesh = shape_mesh(shape)

    assert mesh.is_watertight
    assert mesh.volume == pytest.approx(volume, rel=1e-9)


def test_box_minus_inner_box_and_corner_cut():
    hollow = shape_mesh(
        Shape("boolean", {"op": "difference", "a": box(2, 2, 2), "b": box(1, 1, 1)})
    )
    # The transform may also sit inside the operand's params.
    corner = {"kind": "box", "params": {"size": [1, 1, 1], "transform": {"translation": [1, 1, 1]}}}
    notched = shape_mesh(Shape("boolean", {"op": "difference", "a": box(2, 2, 2), "b": corner}))

    assert hollow.volume == pytest.approx(7.0)
    assert notched.volume == pytest.approx(8 - 0.125)
    np.testing.assert_allclose(notched.bounds, [[-1, -1, -1], [1, 1, 1]])


def test_nested_boolean_with_a_rotated_operand():
    cross = {
        "kind": "boolean",
        "params": {"op": "union", "a": box(3, 1, 1), "b": box(3, 1, 1, rotation=[0, 90, 0])},
    }
    mesh = shape_mesh(Shape("boolean", {"op": "difference", "a": cross, "b": box(1, 2, 1)}))

    assert mesh.volume == pytest.approx(5 - 1)  # a plus sign of 5 cubes, its centre cut away
    np.testing.assert_allclose(mesh.extents, [3, 1, 3], rtol=1e-9)


def test_mesh_shape_uses_the_resolver_and_scales_a_copy():
    source = trimesh.creation.box(extents=[200, 100, 50])  # a file in millimetres
    mesh = shape_mesh(
        Shape("mesh", {"ref": "upload-1", "scale": 0.001}),
        resolve_mesh={"upload-1": source}.__getitem__,
    )

    np.testing.assert_allclose(mesh.extents, [0.2, 0.1, 0.05])
    np.testing.assert_allclose(source.extents, [200, 100, 50])  # the resolver's mesh is untouched


def test_mesh_shape_errors():
    huge = trimesh.creation.box(extents=[2000, 1, 1])
    with pytest.raises(SceneError, match=r"no mesh resolver"):
        shape_mesh(Shape("mesh", {"ref": "upload-1"}))
    with pytest.raises(SceneError, match=r"2000 m across at this scale.*scale 0\.001"):
        shape_mesh(Shape("mesh", {"ref": "big"}), resolve_mesh=lambda ref: huge)
    with pytest.raises(SceneError, match=r"scale must be above 0"):
        shape_mesh(Shape("mesh", {"ref": "big", "scale": [1, 0, 1]}), resolve_mesh=lambda ref: huge)


def test_boolean_refuses_an_open_mesh_operand():
    triangle = trimesh.Trimesh(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], faces=[[0, 1, 2]])
    shape = Shape(
        "boolean", {"op": "union", "a": box(1, 1, 1), "b": {"kind": "mesh", "params": {"ref": "t"}}}
    )

    with pytest.raises(SceneError, match=r"boolean b \(mesh\) is not a closed solid"):
        shape_mesh(shape, resolve_mesh=lambda ref: triangle)


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("box", {}, r"box needs size \[x, y, z\] \(metres\)"),
        ("box", {"size": [1, -1, 1]}, r"box size y must be positive, not -1"),
        ("box", {"size": [1, 1, 0]}, r"box size z must be positive, not 0"),
        ("box", {"size": [1, 1]}, r"box needs size \[x, y, z\]"),
        ("sphere", {"radius": float("nan")}, r"sphere radius must be a finite number"),
        ("sphere", {"radius": float("inf")}, r"sphere radius must be a finite number"),
        ("sphere", {"radius": "big"}, r"sphere radius must be a number of metres, not 'big'"),
        ("sphere", {"radius": True}, r"sphere radius must be a number of metres"),
        ("sphere", {"radius": 5000}, r"sphere radius must be at most 1000 m, not 5000"),
        ("sphere", {"radius": 1e-6}, r"sphere radius must be at least 0.0001 m"),
        ("plane", {"size": [1, 1, 1]}, r"plane needs size \[x, z\]"),
        ("cylinder", {"radius": 1}, r"cylinder needs height \(metres\)"),
        ("cone", {"height": 1}, r"cone needs radius"),
        ("capsule", {"radius": 0.5, "height": 0.8}, r"at least twice the radius \(1 m\)"),
        ("torus", {"major_radius": 0.2, "minor_radius": 0.3}, r"must be smaller than major_radius"),
        ("extrusion", {"profile": [[0, 0], [1, 0]], "height": 1}, r"at least 3 points"),
        ("extrusion", {"profile": [[0, 0], [1, 0], [1, 1]]}, r"extrusion needs height"),
        ("extrusion", {"height": 1}, r"extrusion needs profile \[\[x, z\], \.\.\.\]"),
        (
            "extrusion",
            {"profile": [[0, 0], [1, 1], [1, 0], [0, 1]], "height": 1},  # a bow tie
            r"extrusion profile must not cross itself \(Self-intersection",
        ),
        ("extrusion", {"profile": [[0, 0], [1, 1], [2, 2]], "height": 1}, r"encloses no area"),
        ("extrusion", {"profile": [[0, 0], [1, float("nan")], [1, 1]], "height": 1}, r"finite"),
        ("extrusion", {"profile": [[0, 0], [1, 0], [1, 5000]], "height": 1}, r"within 1000 m"),
        ("revolve", {"profile": [[-0.1, 0], [0.5, 0], [0.5, 1]]}, r"radii r must be >= 0"),
        (
            "revolve",
            {"profile": [[0, 0], [0.5, 0], [0.5, 1]], "sections": 1000},
            r"between 3 and 256",
        ),
        (
            "boolean",
            {"op": "xor", "a": box(1, 1, 1), "b": box(1, 1, 1)},
            r"op must be one of union",
        ),
        ("boolean", {"op": "union", "a": box(1, 1, 1)}, r"boolean b must be a shape"),
        (
            "boolean",
            {"op": "union", "a": {"kind": "sphere", "params": {"radius": -1}}, "b": box(1, 1, 1)},
            r"boolean a: sphere radius must be positive, not -1",
        ),
        (
            "boolean",
            {"op": "intersection", "a": box(1, 1, 1), "b": box(1, 1, 1, translation=[5, 0, 0])},
            r"boolean intersection of a and b leaves nothing",
        ),
        (
            "boolean",
            {"op": "union", "a": box(1, 1, 1, scale=[1, 0, 1]), "b": box(1, 1, 1)},
            r"boolean a scale must be positive",
        ),
        ("mesh", {}, r"mesh needs ref"),
    ],
)
def test_bad_params_raise_clear_errors(kind, params, message):
    with pytest.raises(SceneError, match=message):
        shape_mesh(Shape(kind, params))


def test_unknown_kind_and_deep_nesting_are_refused():
    shape: dict = box(1, 1, 1)
    for _ in range(10):
        shape = {"kind": "boolean", "params": {"op": "union", "a": shape, "b": box(1, 1, 1)}}

    with pytest.raises(SceneError, match=r"shape kind must be one of box"):
        shape_mesh(Shape("blob", {}))  # type: ignore[arg-type]
    with pytest.raises(SceneError, match=r"nest at most 8 deep"):
        shape_mesh(Shape("boolean", shape["params"]))


def test_errors_name_the_object():
    lamp = SceneObject("lamp", Shape("sphere", {"radius": 0}))

    with pytest.raises(SceneError, match=r"^object 'lamp': sphere radius must be positive"):
        object_mesh(lamp)


def placed(transform: Transform, size=(1.0, 2.0, 3.0)) -> SceneObject:
    return SceneObject("thing", Shape("box", {"size": list(size)}), transform)


def test_translation_moves_bounds():
    bounds = object_bounds(placed(Transform(translation=(1, 2, 3))))

    np.testing.assert_allclose(bounds, [[0.5, 1, 1.5], [1.5, 3, 4.5]])


def test_rotation_about_y_swaps_x_and_z_extents():
    mesh = world_mesh(placed(Transform(rotation=(0, 90, 0))))

    np.testing.assert_allclose(mesh.extents, [3, 2, 1], atol=1e-12)


def test_scale_multiplies_extents_and_volume():
    mesh = world_mesh(placed(Transform(scale=(2, 3, 4)), size=(1, 1, 1)))

    np.testing.assert_allclose(mesh.extents, [2, 3, 4])
    assert mesh.volume == pytest.approx(24)


@pytest.mark.parametrize(
    ("rotation", "local", "world"),
    [
        # Extrinsic X then Y then Z: Rz @ Ry @ Rx.
        ((90, 90, 0), (0, 1, 0), (1, 0, 0)),
        ((90, 0, 90), (0, 1, 0), (0, 0, 1)),
        ((0, 0, 90), (1, 0, 0), (0, 1, 0)),
        ((90, 0, 0), (0, 0, 1), (0, -1, 0)),
    ],
)
def test_euler_angles_apply_x_then_y_then_z(rotation, local, world):
    matrix = object_matrix(Transform(rotation=rotation))

    np.testing.assert_allclose(matrix[:3, :3] @ local, world, atol=1e-12)


def test_object_matrix_is_translate_rotate_scale():
    transform = Transform(translation=(1, 2, 3), rotation=(10, 20, 30), scale=(2, 3, 4))
    expected = (
        trimesh.transformations.translation_matrix([1, 2, 3])
        @ trimesh.transformations.euler_matrix(
            math.radians(10), math.radians(20), math.radians(30), "sxyz"
        )
        @ np.diag([2, 3, 4, 1])
    )

    np.testing.assert_allclose(object_matrix(transform), expected, atol=1e-12)


def test_quaternions_match_rotation_matrices():
    for angles in [
        (0, 0, 0),
        (10, 20, 30),
        (180, 0, 0),
        (0, 180, 0),
        (90, 90, 90),
        (-170, 45, 179),
    ]:
        rotation = rotation_matrix(angles)
        x, y, z, w = quaternion_xyzw(rotation)
        rebuilt = trimesh.transformations.quaternion_matrix([w, x, y, z])[:3, :3]
        np.testing.assert_allclose(rebuilt, rotation, atol=1e-9)
        assert w >= 0


@pytest.mark.parametrize("target", [(0, 0.5, 0), (3, 2, 3.5), (3, -5, 3), (3, 10, 3)])
def test_look_at_points_minus_z_at_the_target(target):
    position = (3.0, 2.0, 3.0)
    rotation = look_at_rotation(position, target)

    towards = np.subtract(target, position)
    direction = towards / np.linalg.norm(towards)
    np.testing.assert_allclose(rotation @ [0, 0, -1], direction, atol=1e-9)
    np.testing.assert_allclose(rotation.T @ rotation, np.eye(3), atol=1e-12)
    assert np.linalg.det(rotation) == pytest.approx(1)


def test_lowest_point_and_world_bounds():
    ball = SceneObject("ball", Shape("sphere", {"radius": 0.5}), Transform(translation=(0, 0.5, 0)))
    crate = placed(Transform(translation=(3, 1, 0)))
    scene = Scene(objects=(ball, crate))

    assert lowest_point(ball) == pytest.approx(0.0, abs=1e-12)
    bounds = world_bounds(scene)
    assert bounds is not None
    np.testing.assert_allclose(bounds, np.array([[-0.5, 0, -1.5], [3.5, 2, 1.5]]))
    assert world_bounds(Scene()) is None


def test_ground_top_is_at_zero():
    ground = ground_mesh(Scene(ground_size=12.0))

    assert ground.bounds[1, 1] == 0.0
    np.testing.assert_allclose(ground.extents[[0, 2]], [12, 12])
    assert ground.is_watertight
