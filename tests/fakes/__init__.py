"""Fakes of outside services for tests: an OpenAI-compatible model server."""

from tests.fakes.openai_server import Call, FakeOpenAI, Faults, Reply, Request, arithmetic_model

__all__ = ["Call", "FakeOpenAI", "Faults", "Reply", "Request", "arithmetic_model"]
