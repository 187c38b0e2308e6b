"""How sure a pass rate is: the Wilson score interval, which stays inside [0, 1] and is honest
for small sets and rates near 0 or 1 (the normal approximation is neither)."""

from __future__ import annotations

import math

Z_95 = 1.959964


def wilson(passed: int, total: int, z: float = Z_95) -> tuple[float, float] | None:
    """The 95 % interval of a rate of `passed` out of `total` (None for no trials)."""
    if total <= 0:
        return None
    rate = passed / total
    spread = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total))
    centre = rate + z * z / (2 * total)
    scale = 1 + z * z / total
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def shown(passed: int, total: int) -> str:
    """ "95.9% (95% CI 92.7-97.7%)", or "n/a" for no trials."""
    interval = wilson(passed, total)
    if interval is None:
        return "n/a"
    low, high = interval
    return f"{passed / total:.1%} (95% CI {low:.1%}-{high:.1%})"
