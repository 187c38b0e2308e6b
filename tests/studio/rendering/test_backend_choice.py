"""The studio renders on a fresh machine: OSMesa where installed, else EGL (a GPU, or Mesa's
software device), each proved by a real frame in a process of its own."""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.rendering._gl import describe_platform

ROOT = Path(__file__).resolve().parents[3]
HAS_OSMESA = bool(ctypes.util.find_library("OSMesa"))
HAS_EGL = bool(ctypes.util.find_library("EGL"))


def libraries(*present: str):
    names = {"osmesa": "OSMesa", "egl": "EGL"}
    found = {names[name] for name in present}
    return lambda name: f"lib{name}.so" if name in found else None


def test_a_machine_without_osmesa_renders_with_egl():
    platform, reason = describe_platform({}, find_library=libraries("egl"))
    assert platform == "egl"
    assert "OSMesa is not installed" in reason


def test_osmesa_is_taken_where_it_is_installed():
    assert describe_platform({}, find_library=libraries("osmesa", "egl"))[0] == "osmesa"
    assert describe_platform({}, find_library=libraries("osmesa"))[0] == "osmesa"


def test_neither_library_says_so_instead_of_guessing():
    platform, reason = describe_platform({}, find_library=libraries())
    assert platform == "osmesa"  # load() then fails naming the package to install
    assert reason == "neither OSMesa nor EGL is installed"


def test_a_platform_named_in_the_environment_wins_over_the_libraries():
    assert describe_platform({"PYOPENGL_PLATFORM": "egl"}, find_library=libraries("osmesa")) == (
        "egl",
        "PYOPENGL_PLATFORM names it",
    )


def render_check(**env: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "manage.py", "render_check", "--json"],
        cwd=ROOT,
        env={**os.environ, "LOG_LEVEL": "WARNING", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    assert (done.returncode == 0) == report["renders"], done.stderr[-2000:]
    return report


@pytest.mark.skipif(not HAS_EGL, reason="libEGL is not installed (Debian: libegl1)")
def test_egl_forced_draws_a_frame():
    report = render_check(PYOPENGL_PLATFORM="egl")
    assert report["renders"] is True, report["error"]
    assert report["platform"] == "egl"
    assert report["renderer"], "GL_RENDERER names what drew the frame"


@pytest.mark.skipif(not HAS_OSMESA, reason="OSMesa is not installed (Debian: libosmesa6)")
def test_osmesa_forced_draws_a_frame():
    report = render_check(PYOPENGL_PLATFORM="osmesa")
    assert report["renders"] is True, report["error"]
    assert report["platform"] == "osmesa"


@pytest.mark.skipif(not (HAS_OSMESA or HAS_EGL), reason="neither OSMesa nor EGL is installed")
def test_the_unforced_choice_draws_a_frame_on_this_machine():
    env = {key: value for key, value in os.environ.items() if key != "PYOPENGL_PLATFORM"}
    env.pop("MUJOCO_GL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "render_check", "--json"],
        cwd=ROOT,
        env={**env, "LOG_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["renders"] is True, report
    assert report["platform"] == ("osmesa" if HAS_OSMESA else "egl")


def test_a_platform_that_cannot_load_is_reported_not_raised():
    report = render_check(PYOPENGL_PLATFORM="glx-nonexistent")
    assert report["renders"] is False
    assert "not supported for headless rendering" in str(report["error"])


THREADS = """
import threading
import numpy as np
from studio.rendering.renderer import render
from studio.scene.model import Scene, SceneObject, Shape, Transform
from tests.studio.rendering.shapes import mesh_for

cube = SceneObject(name="cube", shape=Shape(kind="box", params={"size": [0.5, 0.5, 0.5]}),
                   transform=Transform(translation=(0.0, 0.25, 0.0)))
scene = Scene(objects=[cube])
frames, errors = [], []

def draw():
    try:
        frames.append(render(scene, mesh_for=mesh_for, width=64, height=48).color)
    except Exception as error:
        errors.append(repr(error))

for _ in range(3):  # each on a thread of its own, as a server's request threads are
    thread = threading.Thread(target=draw)
    thread.start()
    thread.join()
draw()
assert not errors, errors
assert len(frames) == 4 and all(np.array_equal(frames[0], frame) for frame in frames)
print("ok")
"""


@pytest.mark.parametrize("platform", ["egl", "osmesa"])
def test_a_renderer_made_on_one_thread_draws_on_the_next(platform):
    if not (HAS_EGL if platform == "egl" else HAS_OSMESA):
        pytest.skip(f"{platform} is not installed here")
    done = subprocess.run(
        [sys.executable, "-c", THREADS],
        cwd=ROOT,
        env={**os.environ, "PYOPENGL_PLATFORM": platform, "LOG_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.stdout.strip().endswith("ok"), done.stderr[-3000:]
