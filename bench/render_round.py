"""One render-refinement round: render 1024x768 with segmentation, then the exposure and framing
checks, at 20 and 100 objects. Goal: <= 1.0 s per round at 20 objects on CPU (OSMesa).

The scene is a grid of boxes, spheres and cylinders (0.5 m, 1 m apart) on the ground, lit by the
studio rig (`studio.rendering.adjust.studio_lights`) with all three lights casting shadows. Before
timing, the camera is fitted with `fix_framing` until the framing check passes (so the round
measured is a passing one, every object in view). A round is timed from the call to `render`
to the end of both checks, `mesh_for` included (meshes are rebuilt every round, as a refinement
loop would after an edit). The first round of each size is reported apart: it creates the GL
context and compiles the shaders. Physics checks are not part of a round here; they are
measured separately by the physics module's own benchmark.

Meshes come from `studio.scene.geometry` when it is importable, otherwise from the rendering
tests' minimal box/sphere/cylinder helper; the output says which.

    uv run python bench/render_round.py
    uv run python bench/render_round.py --objects 20 --repeats 10
    PYOPENGL_PLATFORM=egl uv run python bench/render_round.py   # GPU machines
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.rendering import renderer  # noqa: E402
from studio.rendering._gl import choose_platform  # noqa: E402
from studio.rendering.adjust import fix_framing, studio_lights  # noqa: E402
from studio.rendering.checks import exposure, framing  # noqa: E402
from studio.rendering.result import png  # noqa: E402
from studio.scene.model import (  # noqa: E402
    Camera,
    Material,
    Scene,
    SceneObject,
    Shape,
    Transform,
)

GOAL_S = 1.0
GOAL_OBJECTS = 20
COLORS = [(0.8, 0.3, 0.25), (0.3, 0.55, 0.8), (0.85, 0.75, 0.3), (0.4, 0.7, 0.4), (0.7, 0.7, 0.7)]


def mesh_source():
    try:
        from studio.scene.geometry import object_matrix, shape_mesh

        def mesh_for(obj):
            return shape_mesh(obj.shape), object_matrix(obj.transform)

        return mesh_for, "studio.scene.geometry"
    except ImportError:
        from tests.studio.rendering.shapes import mesh_for

        return mesh_for, "tests.studio.rendering.shapes (geometry.py not importable)"


def grid_scene(count: int) -> Scene:
    side = math.ceil(math.sqrt(count))
    objects = []
    for index in range(count):
        row, col = divmod(index, side)
        x, z = (col - (side - 1) / 2) * 1.0, (row - (side - 1) / 2) * 1.0
        kind = ("box", "sphere", "cylinder")[index % 3]
        shape = {
            "box": Shape("box", {"size": [0.5, 0.5, 0.5]}),
            "sphere": Shape("sphere", {"radius": 0.25}),
            "cylinder": Shape("cylinder", {"radius": 0.2, "height": 0.6}),
        }[kind]
        height = 0.3 if kind == "cylinder" else 0.25
        material = Material(
            base_color=COLORS[index % len(COLORS)],
            metallic=1.0 if index % 7 == 3 else 0.0,
            roughness=0.3 + 0.1 * (index % 5),
        )
        objects.append(
            SceneObject(
                f"{kind}-{index + 1}",
                shape,
                Transform((x, height, z), rotation=(0.0, 15.0 * index, 0.0)),
                material,
            )
        )
    camera = Camera(position=(side * 0.6, side * 0.7, side * 1.1), target=(0.0, 0.0, 0.0))
    lights = tuple(replace(light, cast_shadows=True) for light in studio_lights(camera))
    return Scene(objects=tuple(objects), lights=lights, camera=camera)


def one_round(scene, mesh_for, width, height):
    started = time.perf_counter()
    result = renderer.render(scene, mesh_for=mesh_for, width=width, height=height)
    rendered = time.perf_counter()
    exposure_report = exposure(result)
    framing_report = framing(result, scene)
    finished = time.perf_counter()
    return result, exposure_report, framing_report, finished - started, finished - rendered


def gl_renderer_name(width: int, height: int) -> str:
    try:
        from OpenGL.GL import (  # type: ignore[import-untyped]
            GL_RENDERER,
            GL_VERSION,
            glGetString,
        )

        platform_ = renderer._RENDERERS[(width, height)].offscreen._platform
        platform_.make_current()
        return f"{glGetString(GL_RENDERER).decode()} / {glGetString(GL_VERSION).decode()}"
    except Exception as exc:  # informative only
        return f"unknown ({exc!r})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--repeats", type=int, default=5, help="measured rounds per size")
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--height", type=int, default=768)
    parser.add_argument("--save", help="a folder to write the last frame of each size to, as PNG")
    args = parser.parse_args()

    mesh_for, source = mesh_source()
    print(
        "render_round: one refinement round = render (colour + segmentation) + exposure + framing"
    )
    print(
        f"  image {args.width}x{args.height}, {args.repeats} measured rounds per size, "
        f"3 directional lights with shadows, ground on"
    )
    print(f"  PYOPENGL_PLATFORM={choose_platform()}  meshes from {source}")
    print(
        f"  python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"LP_NUM_THREADS={os.environ.get('LP_NUM_THREADS', '(default: all)')}"
    )
    medians: dict[int, float] = {}
    gl_name = None
    for count in args.objects:
        scene = grid_scene(count)
        cold = one_round(scene, mesh_for, args.width, args.height)
        if gl_name is None:
            gl_name = gl_renderer_name(args.width, args.height)
            print(f"  GL: {gl_name}")
        for _ in range(5):  # fit the camera first (not timed)
            result, _, framing_report, _, _ = one_round(scene, mesh_for, args.width, args.height)
            if framing_report.passed:
                break
            scene = fix_framing(scene, framing_report, result.object_bounds)
        rounds, checks, parts = [], [], {"prepare": [], "color": [], "segmentation": []}
        for _ in range(args.repeats):
            result, exposure_report, framing_report, seconds, check_s = one_round(
                scene, mesh_for, args.width, args.height
            )
            rounds.append(seconds)
            checks.append(check_s)
            for key in parts:
                parts[key].append(result.timings[key])
        medians[count] = statistics.median(rounds)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            Path(args.save, f"round-{count}.png").write_bytes(png(result))
        print(
            f"\n{count} objects: median {medians[count]:.3f} s per round "
            f"(min {min(rounds):.3f}, max {max(rounds):.3f}; first round {cold[3]:.3f} s)"
        )
        print(
            "  median parts: "
            + ", ".join(f"{key} {statistics.median(v):.3f} s" for key, v in parts.items())
            + f", checks {statistics.median(checks):.3f} s"
        )
        print(
            f"  exposure passed={exposure_report.passed} "
            f"(mean luma {exposure_report.mean_luma.value}), framing passed={framing_report.passed}"
            f" ({len(framing_report.failed)} objects failing"
            + "".join(
                f"; {n} {problem}"
                for problem, n in Counter(
                    o.problem for o in framing_report.objects if o.problem
                ).items()
            )
            + ")"
        )
    if GOAL_OBJECTS in medians:
        met = medians[GOAL_OBJECTS] <= GOAL_S
        print(
            f"\ngoal: <= {GOAL_S:.1f} s per round at {GOAL_OBJECTS} objects on CPU: "
            f"{'MET' if met else 'MISSED'} ({medians[GOAL_OBJECTS]:.3f} s). "
            "Physics checks are measured separately by the physics module."
        )
    renderer.close_renderers()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
