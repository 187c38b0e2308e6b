"""What reading a follow-up request produces: the tool calls that make the change, notes, a direct
answer, or a request to rebuild; and the names of the messages the request is read against."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.registry import CONTEXT_NAME

STATE_LABEL = f"{CONTEXT_NAME}-state"
"""The name of the message holding the scene summary (see studio.tools.conversation)."""
UPLOADS_LABEL = f"{CONTEXT_NAME}-uploads"
"""The name of the message listing the workspace's uploaded meshes."""


@dataclass
class Call:
    tool: str
    arguments: dict[str, Any]
    says: str
    """What the change is, in the words of the final answer."""


@dataclass
class EditPlan:
    calls: list[Call] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    answer: str = ""
    """A reply that needs no change (a question about the scene)."""
    rebuild: str | None = None
    """Set when the person asked to start over: the request to build the new scene from."""
