"""A full studio refinement round (render 1024x768 + every check: exposure, framing,
interpenetration, support, MuJoCo stability at rest and nudged with three seeds, scale) at 20
and 100 objects, and a whole `create_scene` run. Goals: <= 1.0 s per round at 20 objects and
<= 0.5 s at 100 objects that touch and stack, on CPU.

    uv run python bench/studio_round.py
    uv run python bench/studio_round.py --repeats 5 --sizes 20 100 --layout grid

The default scene (`--layout stacked`) is half 0.5 m crates side by side on the ground, each
face against its neighbours', and half on top of them (a crate on most, a ball on every
fourth), lit for the studio mood, with the camera fitted by the planner; `grid` is the older
layout of crates and barrels 1 m apart. Rounds are timed with `studio.refinement.refine_round`
exactly as the agent's `refine_round` tool calls it (the revision write is not included), each
on a fresh copy of the scene read back from its JSON (as the tool loads it), so nothing is
cached from one round to the next by object identity. The CPU time of the whole process (every
thread: the rasteriser's and the physics worker's) is printed beside the wall time: on a shared
machine it moves less with the load. The first round of a process creates the GL context and is
reported apart. Under each size a line gives the parts (medians of wall seconds, see PARTS): the
render beside the physics checks, and within those support and stability (model build, the run
at rest, the three nudged runs).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.physics.memo import forget_measurements  # noqa: E402
from studio.planner.builder import build_scene, camera_for, lights_for  # noqa: E402
from studio.planner.grammar import LightingSpec, parse_request  # noqa: E402
from studio.refinement import refine_round  # noqa: E402
from studio.scene.geometry import object_bounds  # noqa: E402
from studio.scene.model import Scene, SceneObject, Transform, scene_from_dict  # noqa: E402

NOUNS = ("crate", "barrel")


def _resting_y(item: SceneObject, bottom: float) -> float:
    """The height to put `item` at so that its lowest point is at `bottom` (shapes differ in
    where their origin is: a box at its centre, a revolved barrel at its base)."""
    low, _ = object_bounds(item)
    return bottom + item.transform.translation[1] - float(low[1])


def grid_scene(count: int) -> Scene:
    """`count` everyday objects on a square grid, each resting on the ground."""
    side = int(count**0.5 + 0.999)
    objects = []
    for index in range(count):
        item = build_scene(parse_request(f"a {NOUNS[index % 2]}")).scene.objects[0]
        row, col = divmod(index, side)
        moved = Transform(translation=(col * 1.0, _resting_y(item, 0.0), row * 1.0))
        objects.append(replace(item, name=f"{item.category}-{index + 1}", transform=moved))
    scene = Scene(objects=tuple(objects))
    scene = replace(scene, lights=lights_for(LightingSpec("studio"), scene))
    return replace(scene, camera=camera_for(scene))


def stacked_scene(count: int) -> Scene:
    """`count` objects that touch and stack: half of them 0.5 m crates side by side on the
    ground (each face against its neighbours'), the rest on top of them, a crate on most and a
    ball on every fourth; every contact is a real one for interpenetration, support and the
    simulation."""
    crate = build_scene(parse_request("a crate")).scene.objects[0]
    ball = build_scene(parse_request("a ball")).scene.objects[0]
    below = (count + 1) // 2
    side = int(below**0.5 + 0.999)
    objects = []
    for index in range(count):
        layer, spot = divmod(index, below)
        row, col = divmod(spot, side)
        item = ball if layer and spot % 4 == 3 else crate
        moved = Transform(translation=(col * 0.5, _resting_y(item, 0.5 * layer), row * 0.5))
        objects.append(replace(item, name=f"{item.category}-{index + 1}", transform=moved))
    scene = Scene(objects=tuple(objects))
    scene = replace(scene, lights=lights_for(LightingSpec("studio"), scene))
    return replace(scene, camera=camera_for(scene))


LAYOUTS = {"stacked": stacked_scene, "grid": grid_scene}


PARTS = (
    ("render", ("timings", "render")),
    ("physics", ("timings", "physics")),
    ("support", ("support", "elapsed_s")),
    ("stability", ("stability", "elapsed_s")),
    ("model", ("stability", "build_s")),
    ("rest run", ("stability", "simulate_s")),
    ("nudged runs", ("stability", "perturb_s")),
)
"""The parts printed under each size: wall seconds, medians over the rounds. The render (with
the exposure and framing checks) runs on the calling thread while the physics checks run beside
it; stability simulates on its own thread while the other three checks run, and its three nudged
runs side by side."""


def time_rounds(
    count: int, repeats: int, layout: str = "stacked"
) -> tuple[list[float], list[float], dict[str, bool], dict[str, list[float]], list[float], str]:
    """Per repeat, a first round on objects never measured in this process (the physics memo is
    emptied), then the round after it on the scene that round proposed. Returns the first
    rounds' wall and CPU times, their checks and parts, the next rounds' wall times, and what
    the first round changed."""
    stored = LAYOUTS[layout](count).to_dict()
    times, cpu, checks, following = [], [], {}, []
    changed = ""
    parts: dict[str, list[float]] = {name: [] for name, _ in PARTS}
    for _ in range(repeats):
        forget_measurements()
        scene = scene_from_dict(stored)
        started, started_cpu = time.perf_counter(), time.process_time()
        result = refine_round(scene, 1)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        checks = {name: check["passed"] for name, check in result.checks.items()}
        for name, (where, key) in PARTS:
            source = result.timings if where == "timings" else result.reports[where]
            parts[name].append(float(source.get(key, 0.0)))
        if result.passed:
            continue
        changed = "; ".join(result.changes)
        following_scene = scene_from_dict(result.next_scene.to_dict())
        started = time.perf_counter()
        second = refine_round(following_scene, 2)
        following.append(time.perf_counter() - started)
        changed += " (physics reused)" if second.timings.get("physics_reused") else ""
    return times, cpu, checks, parts, following, changed


def time_create_scene(prompt: str) -> float:
    os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="bench-studio-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    out = tempfile.mkdtemp(prefix="bench-scene-")
    started = time.perf_counter()
    call_command("create_scene", prompt, "--out", out, stdout=open(os.devnull, "w"))  # noqa: SIM115
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="stacked")
    parser.add_argument("--no-create-scene", action="store_true", help="rounds only")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"layout: {args.layout}")
    started = time.perf_counter()
    refine_round(grid_scene(2), 1)
    print(
        f"first round in this process (GL context, shaders): {time.perf_counter() - started:.2f} s"
    )
    for count in args.sizes:
        times, cpu, checks, parts, following, changed = time_rounds(
            count, args.repeats, args.layout
        )
        failed = [name for name, passed in checks.items() if not passed]
        print(
            f"{count:4d} objects: median {statistics.median(times):.3f} s per round "
            f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} rounds; "
            f"CPU median {statistics.median(cpu):.3f} s); "
            f"checks failing: {', '.join(failed) or 'none'}"
        )
        print(
            "      parts (median wall s): "
            + ", ".join(f"{name} {statistics.median(values):.3f}" for name, values in parts.items())
        )
        if following:
            print(
                f"      the round after it: median {statistics.median(following):.3f} s "
                f"(min {min(following):.3f}, max {max(following):.3f}); round 1 changed: {changed}"
            )
        else:
            print("      the round after it: none (round 1 passed every check)")
    if not args.no_create_scene:
        prompt = "a red metal sphere of 50 cm resting on a wooden table, warm light from the left"
        print(f"create_scene {prompt!r}: {time_create_scene(prompt):.2f} s end to end")
    print("goals: <= 1.0 s per round at 20 objects, <= 0.5 s at 100 touching and stacked, on CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
