import json
import math

import numpy as np

from studio.physics import stability, support
from studio.physics.fixes import fix_collision_shapes, stabilise
from studio.physics.mjcf import build_mjcf, collision_geom
from studio.scene.model import Scene

from .helpers import ball, cone, crate, table, thing, world_mesh


def test_tilted_pillar_topples_then_is_stood_upright():
    pillar = thing(
        "pillar", "box", rotation=(0, 0, 30), size=[0.2, 2.0, 0.2], rest_on=0.0, category="pillar"
    )
    scene = Scene(objects=(pillar,))
    report = stability(scene, world_mesh)

    assert not report.passed
    [motion] = report.objects
    assert motion.verdict == "topples"
    assert motion.rotation_deg > 45
    assert report.reasons[0].startswith("pillar topples: it tips")
    json.dumps(report.to_dict(), allow_nan=False)

    fixed, changes = stabilise(scene, report, world_mesh)
    assert changes[0].startswith("pillar: stood upright (it was tilted 30° and topples)")
    assert fixed.object("pillar").transform.rotation == (0.0, 0.0, 0.0)
    assert stability(fixed, world_mesh).passed
    assert support(fixed, world_mesh).passed


def test_ball_off_the_table_edge_falls_then_is_moved_onto_the_table():
    scene = Scene(objects=(table(), ball("ball", (0.66, 0.85, 0.0))))  # edge at x = 0.6
    report = stability(scene, world_mesh)

    assert not report.passed
    [motion] = report.objects
    assert motion.verdict == "falls"
    assert motion.drop_m > 0.7
    assert report.static == ["table"]

    fixed, changes = stabilise(scene, report, world_mesh)
    assert changes[0].startswith("ball: moved 0.16 m to sit over table")
    after = stability(fixed, world_mesh)
    assert after.passed, after.reasons
    assert support(fixed, world_mesh).passed


def test_stacked_crates_are_stable():
    scene = Scene(
        objects=(
            crate("c1", (0, 0.25, 0)),
            crate("c2", (0.05, 0.75, 0.0)),
            crate("c3", (0.0, 1.15, 0.05), size=0.3, rotation=(0, 20, 0)),
        )
    )
    report = stability(scene, world_mesh)
    assert report.passed, report.reasons
    assert report.value < 0.01
    assert all(m.verdict == "stable" for m in report.objects)


def test_turned_ball_with_a_box_collision_is_unstable_until_convex():
    scene = Scene(objects=(ball("ball", (0, 0.1, 0), rotation=(0, 0, 45), collision="box"),))
    report = stability(scene, world_mesh)
    assert not report.passed  # its box stands on an edge, half sunk into the ground
    assert report.objects[0].collision == "box"

    fixed, changes = fix_collision_shapes(scene, world_mesh, report)
    assert changes == ["ball: collision box → convex (a box is a poor stand-in for a sphere)"]
    assert stability(fixed, world_mesh).passed


def test_box_collision_kept_for_boxes_and_full_meshes():
    scene = Scene(
        objects=(
            crate("crate", (0, 0.25, 0), collision="box"),
            thing(
                "ring",
                "torus",
                major_radius=0.3,
                minor_radius=0.05,
                collision="box",
                at=(2, 0.05, 0),
            ),
        )
    )
    fixed, changes = fix_collision_shapes(scene, world_mesh)
    assert fixed.object("crate").physics.collision == "box"
    assert fixed.object("ring").physics.collision == "convex"
    assert changes == ["ring: collision box → convex (a box is a poor stand-in for a torus)"]


def test_furniture_on_the_ground_that_moves_is_made_static():
    # The chair starts 3 cm inside a static wall; the contact pushes it away.
    wall = thing("wall", "box", at=(0, 1.0, 0), size=[0.2, 2.0, 3.0], dynamic=False)
    chair = thing("chair", "box", at=(0.295, 0.45, 0), size=[0.45, 0.9, 0.45], category="chair")
    scene = Scene(objects=(wall, chair))
    report = stability(scene, world_mesh)
    assert [m.verdict for m in report.objects] == ["slides"]

    fixed, changes = stabilise(scene, report, world_mesh)
    assert changes == ["chair: made static (a chair standing on the ground; it slides)"]
    assert not fixed.object("chair").physics.dynamic
    assert stability(fixed, world_mesh).passed


def test_crate_sliding_down_a_ramp_gets_more_friction():
    slope = math.radians(20)
    normal = (-math.sin(slope), math.cos(slope), 0.0)
    ramp = thing(
        "ramp",
        "box",
        at=(0, 1.0, 0),
        size=[4.0, 0.2, 2.0],
        rotation=(0, 0, 20),
        dynamic=False,
        friction=0.2,
    )
    on_ramp = tuple(c + 0.35 * n for c, n in zip((0, 1.0, 0), normal, strict=True))
    box = crate("crate", on_ramp, rotation=(0, 0, 20), friction=0.2)
    scene = Scene(objects=(ramp, box))
    assert support(scene, world_mesh).item("crate").status == "supported"
    report = stability(scene, world_mesh)
    assert [m.verdict for m in report.objects] == ["slides"]  # tan 20° = 0.36 > 0.2

    fixed, changes = stabilise(scene, report, world_mesh)
    assert changes == ["crate: friction 0.2 → 1 (it slides)"]
    assert stability(fixed, world_mesh).passed


def test_simulation_is_deterministic_and_well_formed():
    scene = Scene(objects=(table(), ball("ball", (0.66, 0.85, 0.0)), crate("c", (2, 0.25, 0))))
    first, second = stability(scene, world_mesh), stability(scene, world_mesh)
    assert [m.displacement for m in first.objects] == [m.displacement for m in second.objects]
    assert first.steps == 375 and first.timestep == 0.004  # 1.5 s in 4 ms steps

    geoms = [collision_geom(o, world_mesh(o)) for o in scene.objects]
    xml = build_mjcf(scene, geoms, [1.0] * len(geoms))
    assert 'gravity="0 -9.81 0"' in xml
    assert 'type="plane"' in xml and 'quat="0.70710678118654757 -0.70710678118654757 0 0"' in xml
    assert xml.count("<freejoint/>") == 2


def test_mass_from_density_and_material():
    obj = crate("c", (0, 0.25, 0))
    report = stability(Scene(objects=(obj,)), world_mesh)
    assert math.isclose(report.objects[0].mass_kg, 500.0 * 0.125, rel_tol=1e-6)


def test_no_dynamic_objects_pass():
    report = stability(Scene(objects=(table(),)), world_mesh)
    assert report.passed and report.steps == 0


def test_crate_hanging_off_another_is_moved_back_over_it():
    scene = Scene(objects=(crate("bottom", (0, 0.25, 0)), crate("top", (0.35, 0.7, 0.0), size=0.4)))
    assert support(scene, world_mesh).passed  # it does rest on the bottom crate, at its edge
    report = stability(scene, world_mesh)
    assert report.item("top").verdict == "falls"

    fixed, changes = stabilise(scene, report, world_mesh)
    assert changes == ["top: moved 0.30 m to sit over bottom (it falls off its edge)"]
    assert fixed.object("top").transform.translation == (0.05, 0.7, 0.0)
    assert stability(fixed, world_mesh).passed


def test_a_ball_on_the_tip_of_a_cone_rests_but_falls_when_nudged():
    from studio.scene.geometry import world_mesh as engine_mesh

    on_tip = ball("ball", (0.0, 0.61, 0.0), radius=0.11)
    scene = Scene(objects=(cone(), on_tip))
    resting = stability(scene, engine_mesh, perturb_seeds=())
    assert resting.passed  # a perfect simulation balances it: why perturbation is needed

    report = stability(scene, engine_mesh)
    assert not report.passed
    motion = report.item("ball")
    assert (motion.verdict, motion.nudged) == ("falls", 1)
    assert motion.drop_m > 0.3
    assert report.reasons[0].startswith("ball falls")
    assert "when nudged (a 0.05 m/s push and a 0.1 m/s tilt, seed 1)" in report.reasons[0]
    json.dumps(report.to_dict(), allow_nan=False)
    again = stability(scene, engine_mesh)  # fixed seeds: the same verdict, to the millimetre
    assert again.reasons == report.reasons

    # No simple fix balances a ball on a point: it is reported, not hidden.
    _, changes = stabilise(scene, report, engine_mesh)
    assert changes == ["ball: not changed: no simple fix for an object that falls"]


def test_a_tower_of_cubes_on_a_cone_fails_under_perturbation():
    from studio.scene.geometry import world_mesh as engine_mesh

    cubes = tuple(
        crate(f"cube-{i}", (0.0, 0.65 + 0.3 * i, 0.0), size=0.3, collision="box") for i in range(3)
    )
    scene = Scene(objects=(cone(dynamic=True), *cubes))
    assert stability(scene, engine_mesh, perturb_seeds=()).passed

    report = stability(scene, engine_mesh)
    assert not report.passed
    assert {m.name for m in report.flagged()} >= {"cube-1", "cube-2"}
    assert all(m.nudged is not None for m in report.flagged())


def test_perturbation_is_deterministic_and_leaves_stable_stacks_alone():
    scene = Scene(
        objects=(
            table(),
            ball("ball", (0.0, 0.85, 0.0)),
            crate("c1", (2.0, 0.25, 0.0)),
            crate("c2", (2.0, 0.75, 0.0)),
            crate("c3", (2.0, 1.25, 0.0)),
        )
    )
    first, second = stability(scene, world_mesh), stability(scene, world_mesh)
    assert first.passed, first.reasons
    assert first.perturb_seeds == [1, 2, 3]
    assert "and when nudged (3 seeds)" in first.summary
    assert [m.displacement for m in first.objects] == [m.displacement for m in second.objects]


def test_a_ball_resting_in_a_bowl_stays_put_the_bowl_is_hollow():
    from studio.physics.mjcf import hollow_parts
    from studio.scene.geometry import world_mesh as engine_mesh
    from studio.scene.model import Physics, SceneObject, Shape, Transform

    profile = [[0.0, 0.0], [0.06, 0.0], [0.13, 0.08], [0.12, 0.08], [0.055, 0.01], [0.0, 0.01]]
    bowl = SceneObject(
        "bowl",
        Shape("revolve", {"profile": profile, "sections": 48}),
        Transform(),
        physics=Physics(dynamic=True),
        category="bowl",
    )
    inside = ball("ball", (0.0, 0.12, 0.0), radius=0.11)  # on the bowl's floor, below its rim
    parts = hollow_parts(bowl)
    assert len(parts) == 4 * 16  # the profile's triangles, each turned through 16 sectors
    assert min(float(p[:, 1].min()) for p in parts) == 0.0
    report = stability(Scene(objects=(bowl, inside)), engine_mesh)
    assert report.passed, report.reasons  # a hull around the bowl would push the ball out


def test_a_bodys_turn_is_read_from_mujocos_quaternion_order():
    # MuJoCo stores (w, x, y, z); scipy reads (x, y, z, w). Unnormalised ones are normalised.
    from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]

    from studio.physics.rest_run import quat_matrix

    rng = np.random.default_rng(5)
    for _ in range(200):
        quat = rng.normal(size=4) * rng.uniform(0.2, 5.0)
        expected = Rotation.from_quat([quat[1], quat[2], quat[3], quat[0]]).as_matrix()
        assert np.allclose(quat_matrix(quat), expected, atol=1e-12)
    tipped = quat_matrix(np.array([math.cos(math.pi / 8), 0.0, 0.0, math.sin(math.pi / 8)]))
    assert np.allclose(tipped @ [0.0, 1.0, 0.0], [-math.sqrt(0.5), math.sqrt(0.5), 0.0])
