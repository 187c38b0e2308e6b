"""A full studio refinement round (render 1024x768 + every check: exposure, framing,
interpenetration, support, a 1.5 s MuJoCo stability simulation, scale) at 20 and 100 objects,
and a whole `create_scene` run. Goal: <= 1.0 s per round at 20 objects on CPU.

    uv run python bench/studio_round.py
    uv run python bench/studio_round.py --repeats 5 --sizes 20 100

The scene is a grid of crates and barrels resting on the ground 1 m apart, lit for the
studio mood, with the camera fitted by the planner; rounds are timed with
`studio.refinement.refine_round` exactly as the agent's `refine_round` tool calls it (the revision
write is not included). The first round of a process creates the GL context and is reported apart.
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

from studio.planner.builder import build_scene, camera_for, lights_for  # noqa: E402
from studio.planner.grammar import LightingSpec, parse_request  # noqa: E402
from studio.refinement import refine_round  # noqa: E402
from studio.scene.model import Scene, Transform  # noqa: E402

NOUNS = ("crate", "barrel")


def grid_scene(count: int) -> Scene:
    """`count` everyday objects on a square grid, each resting on the ground."""
    side = int(count**0.5 + 0.999)
    objects = []
    for index in range(count):
        item = build_scene(parse_request(f"a {NOUNS[index % 2]}")).scene.objects[0]
        row, col = divmod(index, side)
        low_y = {"crate": 0.25, "ball": 0.11, "barrel": 0.45}[item.category]
        moved = Transform(translation=(col * 1.0, low_y, row * 1.0))
        objects.append(replace(item, name=f"{item.category}-{index + 1}", transform=moved))
    scene = Scene(objects=tuple(objects))
    scene = replace(scene, lights=lights_for(LightingSpec("studio"), scene))
    return replace(scene, camera=camera_for(scene))


def time_rounds(count: int, repeats: int) -> tuple[list[float], dict[str, bool]]:
    scene = grid_scene(count)
    times, checks = [], {}
    for _ in range(repeats):
        started = time.perf_counter()
        result = refine_round(scene, 1)
        times.append(time.perf_counter() - started)
        checks = {name: check["passed"] for name, check in result.checks.items()}
    return times, checks


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
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    refine_round(grid_scene(2), 1)
    print(
        f"first round in this process (GL context, shaders): {time.perf_counter() - started:.2f} s"
    )
    for count in args.sizes:
        times, checks = time_rounds(count, args.repeats)
        failed = [name for name, passed in checks.items() if not passed]
        print(
            f"{count:4d} objects: median {statistics.median(times):.3f} s per round "
            f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} rounds); "
            f"checks failing: {', '.join(failed) or 'none'}"
        )
    prompt = "a red metal sphere of 50 cm resting on a wooden table, warm light from the left"
    print(f"create_scene {prompt!r}: {time_create_scene(prompt):.2f} s end to end")
    print("goal: <= 1.0 s per round at 20 objects on CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
