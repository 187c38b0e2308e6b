"""A simple free-cash-flow DCF and its discount-rate x terminal-growth sensitivity table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finance.modeling.core import Derived, Input, Missing
from finance.modeling.ratios import BS, _as_statements, _need

UNIT = "USD millions"


@dataclass(frozen=True)
class DCFResult:
    enterprise_value: Derived
    equity_value: Derived
    projected: list[float]  # undiscounted FCF, years 1..N
    discounted: list[float]  # present values, years 1..N
    terminal_value: float  # at year N, undiscounted
    terminal_present_value: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "enterprise_value": self.enterprise_value.to_dict(),
            "equity_value": self.equity_value.to_dict(),
            "projected": list(self.projected),
            "discounted": list(self.discounted),
            "terminal_value": self.terminal_value,
            "terminal_present_value": self.terminal_present_value,
        }


def _as_input(value: float | Derived | Input, label: str) -> Input:
    if isinstance(value, Derived):
        return value.as_input(label)
    if isinstance(value, Input):
        return value
    return Input(label, float(value), {"source": "assumption"})


def _growth_path(growth: float | Sequence[float], years: int | None) -> list[float]:
    if isinstance(growth, int | float):
        if years is None or years < 1:
            raise ValueError("a single growth rate needs years >= 1")
        return [float(growth)] * years
    path = [float(g) for g in growth]
    if years is not None and years != len(path):
        raise ValueError(f"years={years} but {len(path)} growth rates were given")
    if not path:
        raise ValueError("at least one explicit growth year is needed")
    return path


def _validate(discount_rate: float, terminal_growth: float, path: list[float]) -> None:
    if discount_rate <= -1:
        raise ValueError(f"discount rate must exceed -100%, got {discount_rate}")
    if discount_rate <= terminal_growth:
        raise ValueError(
            f"discount rate ({discount_rate:.4g}) must exceed terminal growth "
            f"({terminal_growth:.4g}); otherwise the terminal value is unbounded"
        )
    if any(g <= -1 for g in path):
        raise ValueError("growth rates must exceed -100%")


def dcf(
    base_fcf: float | Derived | Input,
    growth: float | Sequence[float],
    terminal_growth: float,
    discount_rate: float,
    net_debt: float | Derived | Input = 0.0,
    years: int | None = None,
) -> DCFResult:
    """Enterprise and equity value of FCF grown explicitly, then at `terminal_growth` forever.

    FCF_t = FCF_{t-1} * (1 + g_t); PV_t = FCF_t / (1 + r)^t;
    TV = FCF_N * (1 + g_T) / (r - g_T), discounted by (1 + r)^N; equity = EV - net debt.
    Rates are fractions (0.08 = 8%). `growth` is one rate for `years` years, or one rate per year.
    """
    path = _growth_path(growth, years)
    _validate(discount_rate, terminal_growth, path)
    base = _as_input(base_fcf, "base free_cash_flow")
    debt = _as_input(net_debt, "net_debt")
    r = discount_rate
    projected: list[float] = []
    discounted: list[float] = []
    inputs: list[Input] = [base]
    cash = base.value
    for t, g in enumerate(path, start=1):
        cash *= 1 + g
        pv = cash / (1 + r) ** t
        projected.append(cash)
        discounted.append(pv)
        formula = f"FCF_{t} / (1 + {r:g})^{t}, FCF_{t} = FCF_{t - 1} * (1 + {g:g}) = {cash:.6g}"
        inputs.append(Input(f"discounted FCF year {t}", pv, {"source": "dcf", "formula": formula}))
    n = len(path)
    terminal = projected[-1] * (1 + terminal_growth) / (r - terminal_growth)
    terminal_pv = terminal / (1 + r) ** n
    tv_formula = (
        f"FCF_{n} * (1 + {terminal_growth:g}) / ({r:g} - {terminal_growth:g}) / (1 + {r:g})^{n}"
    )
    inputs.append(
        Input("discounted terminal value", terminal_pv, {"source": "dcf", "formula": tv_formula})
    )
    ev_value = sum(discounted) + terminal_pv
    ev = Derived(
        "enterprise_value",
        ev_value,
        UNIT,
        f"sum(discounted FCF years 1..{n}) + discounted terminal value "
        f"(discount rate {r:g}, terminal growth {terminal_growth:g}, growth {path})",
        inputs,
    )
    equity = Derived(
        "equity_value",
        ev_value - debt.value,
        UNIT,
        "enterprise_value - net_debt",
        [ev.as_input(), debt],
    )
    return DCFResult(ev, equity, projected, discounted, terminal, terminal_pv)


@dataclass(frozen=True)
class Sensitivity:
    """values[i][j] is the value at discount_rates[i] and terminal_growths[j] (None: invalid)."""

    measure: str
    discount_rates: list[float]
    terminal_growths: list[float]
    values: list[list[float | None]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "discount_rates": list(self.discount_rates),
            "terminal_growths": list(self.terminal_growths),
            "values": [list(row) for row in self.values],
        }


def dcf_sensitivity(
    base_fcf: float | Derived | Input,
    growth: float | Sequence[float],
    discount_rates: Sequence[float],
    terminal_growths: Sequence[float],
    net_debt: float | Derived | Input = 0.0,
    years: int | None = None,
    measure: str = "equity_value",
) -> Sensitivity:
    """The DCF over discount rate (rows) x terminal growth (columns).

    Cells where the discount rate does not exceed the terminal growth are None.
    """
    if measure not in ("equity_value", "enterprise_value"):
        raise ValueError(f"measure must be equity_value or enterprise_value, got {measure!r}")
    if not discount_rates or not terminal_growths:
        raise ValueError("both axes of the sensitivity table need at least one value")
    table: list[list[float | None]] = []
    for r in discount_rates:
        row: list[float | None] = []
        for g in terminal_growths:
            if r <= g:
                row.append(None)
                continue
            result = dcf(base_fcf, growth, g, r, net_debt, years)
            row.append(getattr(result, measure).value)
        table.append(row)
    return Sensitivity(
        measure, [float(r) for r in discount_rates], [float(g) for g in terminal_growths], table
    )


def net_debt(data: Any, year: str) -> Derived | Missing:
    """long_term_debt - cash_and_equivalents at year-end (only the debt the statements key)."""
    s = _as_statements(data)
    got = _need(s, year, (BS, "long_term_debt"), (BS, "cash_and_equivalents"))
    if isinstance(got, str):
        return Missing("net_debt", got, year)
    debt, cash = got
    formula = "long_term_debt - cash_and_equivalents"
    return Derived("net_debt", debt.value - cash.value, s.unit, formula, got, year)
