"""Financial modelling over canonical statements and price series; every number keeps its inputs."""

from finance.modeling.core import Derived, Input, Missing, Statements
from finance.modeling.dcf import DCFResult, Sensitivity, dcf, dcf_sensitivity, net_debt
from finance.modeling.macro import YearPair, growth_vs_macro
from finance.modeling.prices import price_metrics
from finance.modeling.ratios import RatioReport, cagr, compute_ratios

__all__ = [
    "DCFResult",
    "Derived",
    "Input",
    "Missing",
    "RatioReport",
    "Sensitivity",
    "Statements",
    "YearPair",
    "cagr",
    "compute_ratios",
    "dcf",
    "dcf_sensitivity",
    "growth_vs_macro",
    "net_debt",
    "price_metrics",
]
