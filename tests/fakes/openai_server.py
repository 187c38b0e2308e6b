"""The scripted OpenAI-compatible server the tests script (`agents.evaluation.scripted_server`,
where the evaluation's quality control replays gold, null and wrong solvers through it too)."""

from agents.evaluation.scripted_server import (
    AUTO,
    MODEL,
    Call,
    FakeOpenAI,
    Faults,
    Reply,
    Request,
    Responder,
    arithmetic_model,
    split_bytes,
    tool_results,
)

__all__ = [
    "AUTO",
    "MODEL",
    "Call",
    "FakeOpenAI",
    "Faults",
    "Reply",
    "Request",
    "Responder",
    "arithmetic_model",
    "split_bytes",
    "tool_results",
]
