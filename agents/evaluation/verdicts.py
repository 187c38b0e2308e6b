"""What a verifier receives (the task's workspace and runs) and what it returns (a verdict)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.evaluation.spec import Task
    from agents.models import Run, Workspace


@dataclass(frozen=True)
class Verdict:
    """One verifier's judgement: pass or fail, partial credit in [0, 1], and why it failed.

    `outputs` are the key values the verifier measured (sizes, figures, pages): the determinism
    check compares them between repeats, and the report shows them.
    """

    passed: bool
    reason: str = ""
    score: float | None = None
    outputs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Stored as JSON, which has no infinity or NaN ("at least 0.5 m": no upper bound).
        object.__setattr__(self, "outputs", _finite(self.outputs))

    @property
    def credit(self) -> float:
        if self.score is None:
            return 1.0 if self.passed else 0.0
        return min(1.0, max(0.0, float(self.score)))

    @classmethod
    def ok(cls, **outputs: Any) -> Verdict:
        return cls(True, outputs=outputs)

    @classmethod
    def fail(cls, reason: str, *, score: float = 0.0, **outputs: Any) -> Verdict:
        return cls(False, reason=reason, score=score, outputs=outputs)


def _finite(value: Any) -> Any:
    """`value` with every infinite or NaN float inside it replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


@dataclass
class VerifierContext:
    """The finished state a verifier judges: the task's own workspace, its runs so far, inputs.

    `runs` holds one run per turn played so far (the last is the turn being verified);
    `inputs` is what the kind's `prepare` returned (document ids, mesh ids...); `memo` is a
    per-task scratch space so verifiers can share an expensive load (a GLB, statements).
    """

    task: Task
    workspace: Workspace
    runs: list[Run]
    turn: int
    inputs: dict[str, Any] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def run(self) -> Run:
        return self.runs[-1]


Verifier = Callable[[VerifierContext, dict[str, Any]], Verdict]
"""A check by name: `verify(context, params)` where params are the check's fields in the suite."""
