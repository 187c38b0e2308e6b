"""What each workspace kind plugs in: its tools, its offline planner, its system prompt.

Workspace apps register in `AppConfig.ready`; this app never imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.runtime import BUILTIN_TOOLS, OfflinePlanner, Policy, Tool
from agents.runtime.types import Message

PolicyFactory = Callable[[], Policy]
ContextProvider = Callable[[Any], list[Message]]
"""Given a new `Run`, the messages its planner reads before the request (see WorkspaceKind)."""
CONTEXT_NAME = "context"
CONTEXT_TURN = f"{CONTEXT_NAME}-turn"
"""The name of an earlier request or answer of the workspace among a run's context messages."""

DEFAULT_SYSTEM_PROMPT = (
    "You are a careful assistant that works through tools. Call tools to gather facts and compute; "
    "never invent numbers. When you are done, answer plainly and say what you could not do."
)


@dataclass(frozen=True)
class WorkspaceKind:
    key: str
    label: str
    tools: Sequence[Tool] | Callable[[], Sequence[Tool]] = BUILTIN_TOOLS
    """The tools, or a function returning them (so heavy tool modules load only in workers)."""
    planners: dict[str, PolicyFactory] = field(default_factory=lambda: {"offline": OfflinePlanner})
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    context: ContextProvider | None = None
    """The workspace's state and the conversation so far, as messages a new run starts with
    (after the system prompt, before the request). Each is named (the chat API's optional `name`)
    with `CONTEXT_NAME` or a name starting with it ("context-state"), so a planner tells them
    from the request and a model server receives nothing outside the API."""


@dataclass(frozen=True)
class ExtraPlanner:
    """A planner any workspace may select by name, with the tools it needs."""

    factory: PolicyFactory
    tools: Sequence[Tool] = ()


Rescuer = Callable[[], list[int]]
"""Re-enqueues a workspace app's own stalled background work (documents, say); returns the ids."""

_kinds: dict[str, WorkspaceKind] = {}
_extra_planners: dict[str, ExtraPlanner] = {}
_rescuers: dict[str, Rescuer] = {}


def register_kind(kind: WorkspaceKind) -> None:
    _kinds[kind.key] = kind


def register_planner(name: str, planner: ExtraPlanner) -> None:
    _extra_planners[name] = planner


def register_rescuer(name: str, rescue: Rescuer) -> None:
    """Have every sweeper pass (agents/services/sweeper.py) call `rescue` too."""
    _rescuers[name] = rescue


def rescuers() -> dict[str, Rescuer]:
    return dict(_rescuers)


def kind_tools(kind: WorkspaceKind) -> list[Tool]:
    return list(kind.tools() if callable(kind.tools) else kind.tools)


def get_kind(key: str) -> WorkspaceKind:
    try:
        return _kinds[key]
    except KeyError:
        raise LookupError(f"no workspace kind {key!r} is registered") from None


def planner_names(kind_key: str) -> list[str]:
    return sorted({*get_kind(kind_key).planners, *_extra_planners})


def resolve_planner(kind_key: str, name: str) -> tuple[Policy, list[Tool]]:
    """The policy named `name` for a workspace kind, with the tools that run may use."""
    kind = get_kind(kind_key)
    tools = kind_tools(kind)
    if name in kind.planners:
        return kind.planners[name](), tools
    extra = _extra_planners.get(name)
    if extra is None:
        raise LookupError(f"no planner {name!r}; choose one of {planner_names(kind_key)}")
    known = {tool.name for tool in tools}
    return extra.factory(), tools + [tool for tool in extra.tools if tool.name not in known]
