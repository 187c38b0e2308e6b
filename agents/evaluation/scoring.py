"""From verdicts to a task's pass/fail and reward (partial credit, weighted per check)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.evaluation.verdicts import Verdict


@dataclass(frozen=True)
class ScoredCheck:
    """One check as it was judged, in a shape that is stored and printed as it is."""

    turn: int
    check: str
    weight: float
    verdict: Verdict
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "check": self.check,
            "params": self.params,
            "weight": self.weight,
            "passed": self.verdict.passed,
            "score": round(self.verdict.credit, 4),
            "reason": self.verdict.reason,
            "outputs": self.verdict.outputs,
        }


def reward(checks: Sequence[ScoredCheck]) -> float:
    """The weighted mean credit of the checks, in [0, 1]; no checks at all earn nothing."""
    total = sum(check.weight for check in checks)
    if total <= 0:
        return 0.0
    return round(sum(check.weight * check.verdict.credit for check in checks) / total, 4)


def passed(checks: Sequence[ScoredCheck]) -> bool:
    return bool(checks) and all(check.verdict.passed for check in checks)


def failed_reasons(checks: Sequence[ScoredCheck]) -> list[str]:
    return [
        f"turn {check.turn} {check.check}: {check.verdict.reason or 'failed'}"
        for check in checks
        if not check.verdict.passed
    ]
