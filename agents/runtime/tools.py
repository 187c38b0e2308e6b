"""Tool registry: named tools with a JSON-schema for their arguments, validated before they run."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agents.runtime.errors import ToolArgumentsError, ToolError
from agents.runtime.time_limit import TimeLimit, ToolTimeout
from agents.runtime.types import ToolCall

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


class ArtifactStore(Protocol):
    """Keeps large outputs whole outside the context; the runtime only sees references."""

    def put(self, *, name: str, content: str, media_type: str = "text/plain") -> str:
        """Store content and return a reference the policy can later read."""
        ...

    def read(self, ref: str) -> str:
        """Return the whole content stored under ref, or raise KeyError."""
        ...


class ProgressReporter(Protocol):
    """Lets a long tool report how far it got."""

    def __call__(self, fraction: float, message: str = "") -> None: ...


def _no_event(type: str, payload: dict[str, Any]) -> None:
    return None


@dataclass
class ToolContext:
    """What a running tool may use besides its arguments."""

    artifacts: ArtifactStore
    progress: ProgressReporter
    options: dict[str, Any] = field(default_factory=dict)
    emit: Callable[[str, dict[str, Any]], None] = _no_event
    """Report a domain event of the run (e.g. `round.completed`) to the event sink."""
    call_key: str = ""
    """This call's key within the run ("<step>:<call id>"): the same when a unit is replayed."""


class ToolMemo(Protocol):
    """Results of calls already made, by call key: a replayed unit gets the stored result
    instead of doing the call's side effects again (a note written, a revision stored).

    `atomic()` wraps a call with effects and the `put` of its result: a host whose effects are
    writes to the same database makes them in one transaction with the result, so a worker lost
    at any moment of the call leaves either both (the replay reuses the result) or neither (the
    replay makes the call once)."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, content: str) -> None: ...

    def atomic(self) -> AbstractContextManager[object]: ...


ToolFunction = Callable[[dict[str, Any], ToolContext], Any]


@dataclass(frozen=True)
class Tool:
    """A named capability: one-line description, JSON-schema of its arguments, the function."""

    name: str
    description: str
    parameters: dict[str, Any]
    function: ToolFunction
    effects: bool = False
    """True when a call changes something outside the run's own log (writes a note, stores a
    revision, edits the working scene): its result is kept by call key, so a replayed unit does
    not make the change twice. Read-only tools (search, calculate) skip that write."""
    timeout_s: float | None = None
    """This tool's own wall-clock limit per call, in seconds; None: the registry's default."""

    def spec(self) -> dict[str, Any]:
        """The tool in the OpenAI `tools` shape."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass(frozen=True)
class ToolResult:
    """What came back from one call: content for the policy, and whether it is an error."""

    call: ToolCall
    content: str
    ok: bool
    duration_ms: float
    data: Any = None
    timed_out: bool = False
    """True when the call was stopped at its time limit (then `ok` is False)."""


class ToolRegistry:
    """The set of tools a run may use; validates arguments and turns failures into observations."""

    def __init__(
        self,
        tools: Iterable[Tool] = (),
        passthrough: tuple[type[BaseException], ...] = (),
        memo: ToolMemo | None = None,
        default_timeout_s: float | None = None,
    ) -> None:
        """`passthrough`: exception types that are the infrastructure's, not the tool's (a
        database connection dropped): they propagate, so the unit is retried whole, instead of
        becoming an error result the policy would see.

        `default_timeout_s`: the wall-clock limit of a call to a tool without a `timeout_s` of
        its own (None: no limit). A call past its limit is stopped and becomes an error result;
        `agents.runtime.time_limit` says where the limit is enforced."""
        self._tools: dict[str, Tool] = {}
        self._validators: dict[str, Draft202012Validator] = {}
        self.passthrough = passthrough
        self.memo = memo
        self.default_timeout_s = default_timeout_s
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        self._validators[tool.name] = _validator(json.dumps(tool.parameters, sort_keys=True))

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    @property
    def names(self) -> list[str]:
        return sorted(self._tools)

    def specs(self) -> list[dict[str, Any]]:
        """Tool specs sorted by name, so the prompt prefix is byte-stable between requests."""
        return [self._tools[name].spec() for name in self.names]

    def _effects(self, call: ToolCall) -> bool:
        tool = self._tools.get(call.name)
        return tool is not None and tool.effects

    def timeout_for(self, tool: Tool) -> float | None:
        """The effective limit of a call to `tool`: its own, else the registry's default."""
        return tool.timeout_s if tool.timeout_s is not None else self.default_timeout_s

    def validate(self, call: ToolCall) -> Tool:
        tool = self._tools.get(call.name)
        if tool is None:
            known = ", ".join(self.names) or "none"
            raise ToolArgumentsError(f"unknown tool {call.name!r}; available tools: {known}")
        errors = sorted(self._validators[call.name].iter_errors(call.arguments), key=str)
        if errors:
            details = "; ".join(_describe(error) for error in errors[:5])
            raise ToolArgumentsError(f"invalid arguments for {call.name}: {details}")
        return tool

    def execute(self, call: ToolCall, context: ToolContext) -> ToolResult:
        """Run one call; any failure becomes an error result, never an exception (except the
        `passthrough` ones). A call with effects runs inside the memo's `atomic()` with the
        storing of its result; when it fails, its effects are undone with it."""
        started = time.perf_counter()
        memo = self.memo if context.call_key and self._effects(call) else None
        if memo is None:
            return self._call(call, context, started)
        done = memo.get(context.call_key)
        if done is not None:  # made before, by a unit that was lost before it committed
            return _result(call, done, ok=True, started=started, data=_parsed(done))
        try:
            with memo.atomic():
                result = self._call(call, context, started)
                if not result.ok:
                    raise _Undo(result)
                memo.put(context.call_key, result.content)
        except _Undo as undone:
            return undone.result
        return result

    def _call(self, call: ToolCall, context: ToolContext, started: float) -> ToolResult:
        limit: TimeLimit | None = None
        try:
            if call.error:
                raise ToolArgumentsError(
                    f"could not read the arguments for {call.name}: {call.error}"
                )
            tool = self.validate(call)
            limit = TimeLimit(self.timeout_for(tool))
            data = limit.call(tool.function, call.arguments, context)
        except ToolTimeout as timeout:
            if timeout.limit is not limit:  # an enclosing limit's: not this call's to report
                raise
            message = f"error: {call.name} timed out after {timeout.seconds:g} s"
            return _result(call, message, ok=False, started=started, timed_out=True)
        except ToolError as error:
            return _result(call, f"error: {error}", ok=False, started=started)
        except Exception as error:  # a tool bug must not crash the run: the policy sees it
            if isinstance(error, self.passthrough):
                raise
            message = f"error: {call.name} failed: {type(error).__name__}: {error}"
            return _result(call, message, ok=False, started=started)
        content = data if isinstance(data, str) else json.dumps(data, sort_keys=True, default=str)
        return _result(call, content, ok=True, started=started, data=data)


class _Undo(Exception):
    """Leaves the memo's atomic block so a failed call's partial effects are rolled back."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.content)
        self.result = result


@functools.lru_cache(maxsize=1024)
def _validator(schema: str) -> Draft202012Validator:
    """A checked validator per schema text: a registry is built at every slice start, and checking
    a schema costs milliseconds, so each distinct schema is checked once per process."""
    from jsonschema import Draft202012Validator  # loaded with the first registry, not at start-up

    parsed = json.loads(schema)
    Draft202012Validator.check_schema(parsed)
    return Draft202012Validator(parsed)


def _result(
    call: ToolCall,
    content: str,
    *,
    ok: bool,
    started: float,
    data: Any = None,
    timed_out: bool = False,
) -> ToolResult:
    elapsed = (time.perf_counter() - started) * 1000
    return ToolResult(
        call=call, content=content, ok=ok, duration_ms=elapsed, data=data, timed_out=timed_out
    )


def _parsed(content: str) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return content


def _describe(error: Any) -> str:
    where = "/".join(str(part) for part in error.absolute_path)
    return f"{where or '(root)'}: {error.message}"
