"""The finance workspace's offline planner (the embedded default): a documented research plan."""

from finance.planner.policy import ResearchPlanner

__all__ = ["ResearchPlanner"]
