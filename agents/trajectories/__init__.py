"""Trajectories for post-training: each run as OpenAI chat messages with rewards and signals.

`record`, `messages`, `signals` and `scrub` are plain Python; `build` reads a stored run;
`kinds` is where workspace kinds register signals of their own.
"""

from agents.trajectories.kinds import register_signals
from agents.trajectories.record import FORMAT

__all__ = ["FORMAT", "register_signals"]
