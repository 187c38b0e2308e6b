import time

from studio.physics import run_checks

from .helpers import grid_scene, world_mesh


def test_twenty_object_scene_checks_are_fast():
    scene = grid_scene(20)
    run_checks(scene, world_mesh)  # warm up imports and MuJoCo
    started = time.perf_counter()
    reports = run_checks(scene, world_mesh)
    elapsed = time.perf_counter() - started

    figures = ", ".join(f"{name} {r.elapsed_s * 1000:.0f} ms" for name, r in reports.items())
    print(f"\n20 objects: all four checks {elapsed * 1000:.0f} ms ({figures})")
    assert all(r.passed for r in reports.values()), {n: r.reasons for n, r in reports.items()}
    assert elapsed < 3.0


def test_reports_are_json():
    import json

    scene = grid_scene(6)
    reports = run_checks(scene, world_mesh)
    data = json.loads(json.dumps({k: r.to_dict() for k, r in reports.items()}, allow_nan=False))
    assert set(data) == {"interpenetration", "support", "stability", "scale_sanity"}
    for item in data.values():
        assert {"check", "passed", "value", "unit", "summary", "reasons", "notes"} <= set(item)
