"""The agent runtime: a small, pure-Python library (never imports Django)."""

from agents.runtime.builtin_tools import BUILTIN_TOOLS
from agents.runtime.compression import Compressor
from agents.runtime.errors import PolicyError, ToolArgumentsError, ToolError
from agents.runtime.loop import Agent
from agents.runtime.memory_artifacts import MemoryArtifacts
from agents.runtime.policies import (
    OfflinePlanner,
    ScriptedPolicy,
    answer_decision,
    call_decision,
    first_user_text,
    result_object,
    tool_results,
)
from agents.runtime.protocols import EventSink, ListSink, Policy, PolicyInput
from agents.runtime.state import Budget, RunState
from agents.runtime.tools import ArtifactStore, Tool, ToolContext, ToolRegistry
from agents.runtime.types import Decision, Outcome, ToolCall, Usage

__all__ = [
    "BUILTIN_TOOLS",
    "Agent",
    "ArtifactStore",
    "Budget",
    "Compressor",
    "Decision",
    "EventSink",
    "ListSink",
    "MemoryArtifacts",
    "OfflinePlanner",
    "Outcome",
    "Policy",
    "PolicyError",
    "PolicyInput",
    "RunState",
    "ScriptedPolicy",
    "Tool",
    "ToolArgumentsError",
    "ToolCall",
    "ToolContext",
    "ToolError",
    "ToolRegistry",
    "Usage",
    "answer_decision",
    "call_decision",
    "first_user_text",
    "result_object",
    "tool_results",
]
