"""The nudged runs (8 ms steps, stopping once the scene is still again) must still tell a
balance that only holds untouched from a rest that survives a hand's nudge."""

from __future__ import annotations

import numpy as np
import pytest

from studio.physics import nudge, stability
from studio.physics.rest_run import simulate
from studio.scene.geometry import world_mesh
from studio.scene.model import Scene

from .helpers import cone, thing

BALANCED = {
    "a small ball on a cone's tip": (
        Scene(objects=(cone(), thing("ball", "sphere", (0, 0.53, 0), radius=0.03))),
        "ball",
        "falls",
    ),
    "a ball on top of a ball": (
        Scene(
            objects=(
                thing("under", "sphere", (0, 0.2, 0), dynamic=False, radius=0.2),
                thing("ball", "sphere", (0, 0.6, 0), radius=0.2),
            )
        ),
        "ball",
        "falls",
    ),
    "a crate standing on its edge": (
        Scene(
            objects=(thing("crate", "box", rotation=(0, 0, 45), rest_on=0.0, size=[0.4, 0.4, 0.4]),)
        ),
        "crate",
        "topples",
    ),
    "a plank balanced across a post": (
        Scene(
            objects=(
                thing("post", "box", (0, 0.5, 0), dynamic=False, size=[0.05, 1.0, 0.05]),
                thing("plank", "box", (0, 1.01, 0), size=[1.0, 0.02, 0.2]),
            )
        ),
        "plank",
        "falls",
    ),
}

STEADY = {
    "a 2 m pole standing": Scene(
        objects=(thing("pole", "cylinder", rest_on=0.0, radius=0.05, height=2.0),)
    ),
    "a thin slab on its long edge": Scene(
        objects=(thing("slab", "box", rest_on=0.0, size=[0.05, 1.0, 0.5]),)
    ),
    "a can on its side": Scene(
        objects=(
            thing("can", "cylinder", rotation=(90, 0, 0), rest_on=0.0, radius=0.1, height=0.3),
        )
    ),
    "five crates in a tower": Scene(
        objects=tuple(
            thing(f"crate-{i}", "box", (0, 0.25 + 0.5 * i, 0), size=[0.5, 0.5, 0.5])
            for i in range(5)
        )
    ),
    "a cube on a big ball (it rocks back)": Scene(
        objects=(
            thing("ball", "sphere", (0, 0.2, 0), dynamic=False, radius=0.2),
            thing("cube", "box", (0, 0.55, 0), size=[0.3, 0.3, 0.3]),
        )
    ),
}


@pytest.mark.parametrize("case", sorted(BALANCED))
def test_a_balance_that_rests_untouched_fails_when_nudged(case):
    scene, name, verdict = BALANCED[case]
    assert stability(scene, world_mesh, perturb_seeds=()).passed  # it rests untouched
    report = stability(scene, world_mesh)
    assert not report.passed
    motion = report.item(name)
    assert motion.verdict == verdict and motion.nudged is not None, motion.reason


@pytest.mark.parametrize("case", sorted(STEADY))
def test_what_rests_steadily_survives_the_nudges(case):
    report = stability(STEADY[case], world_mesh)
    assert report.passed, report.reasons
    assert report.perturb_seeds == [1, 2, 3]


def test_a_ball_rolling_off_another_is_caught_by_the_first_seed():
    # At first it rolls nearly level over the top (it hardly goes down); it speeds up, though,
    # which a ball rolling on a table after a push does not.
    scene, name, _ = BALANCED["a ball on top of a ball"]
    assert stability(scene, world_mesh).item(name).nudged == 1


def _pushed_pile_ends(monkeypatch, tolerances):
    """A 3 x 3 block of crates side by side, four crates and a ball on top, nudged with the
    solver `tolerances`: the report, and every body's position at the end of each nudged run."""
    crates = [
        thing(f"crate-{row}-{col}", "box", (0.5 * col, 0.25, 0.5 * row), size=[0.5, 0.5, 0.5])
        for row in range(3)
        for col in range(3)
    ]
    upper = [
        thing(f"top-{i}", "box", (0.5 * (i % 2), 0.75, 0.5 * (i // 2)), size=[0.5, 0.5, 0.5])
        for i in range(4)
    ]
    ball = thing("ball", "sphere", (1.0, 0.6, 1.0), radius=0.1)
    monkeypatch.setattr(nudge, "NUDGE_SOLVER_TOLERANCES", tolerances)
    ends: list[np.ndarray] = []

    def noting_the_end(model, data, *args, **kwargs):
        steps = simulate(model, data, *args, **kwargs)
        ends.append(np.array(data.xpos))
        return steps

    monkeypatch.setattr(nudge, "simulate", noting_the_end)
    report = stability(Scene(objects=(*crates, *upper, ball)), world_mesh)
    return report, ends


def test_the_nudged_runs_looser_solver_ends_where_mujocos_default_does(monkeypatch):
    # The nudged runs stop the solver early (NUDGE_SOLVER_TOLERANCES): a pushed pile must end
    # where MuJoCo's own tolerances (1e-8, line search 0.01) leave it, far within the 5 cm fall
    # and the 15° tip the runs look for.
    loose, loose_ends = _pushed_pile_ends(monkeypatch, nudge.NUDGE_SOLVER_TOLERANCES)
    exact, exact_ends = _pushed_pile_ends(monkeypatch, (1e-8, 0.01))
    assert loose.passed and exact.passed, loose.reasons + exact.reasons
    assert len(loose_ends) == len(exact_ends) == 3
    for ends, reference in zip(loose_ends, exact_ends, strict=True):
        # The crates (body 0 is the world; the ball is last: pushed, it rolls on, and where it
        # ends depends on when the run stops).
        assert np.abs(ends[1:-1] - reference[1:-1]).max() < 0.002
