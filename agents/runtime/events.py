"""Event type names: the contract between the runtime, the event log and the browser."""

RUN_STARTED = "run.started"
RUN_STATUS = "run.status"
RUN_FINISHED = "run.finished"
RUN_FAILED = "run.failed"
MODEL_DELTA = "model.delta"
MODEL_MESSAGE = "model.message"
TOOL_CALL = "tool.call"
TOOL_RESULT = "tool.result"
OBSERVATION_COMPRESSED = "observation.compressed"
CONTEXT_CONDENSED = "context.condensed"
"""Payload {messages_condensed, steps_condensed, first_step, last_step, tool_calls, tokens_before,
tokens_after, artifact}: old turns were replaced by one summary message; the artifact holds the
removed messages whole (a JSON list)."""
ROUND_COMPLETED = "round.completed"
ARTIFACT_CREATED = "artifact.created"
EVENTS_SUPERSEDED = "events.superseded"
"""Payload {from, to, reason}: the events with seq in [from, to] were live events of a unit
that never committed (its worker was lost); the unit ran again, so they are not to be shown."""

ALL = (
    RUN_STARTED,
    RUN_STATUS,
    RUN_FINISHED,
    RUN_FAILED,
    MODEL_DELTA,
    MODEL_MESSAGE,
    TOOL_CALL,
    TOOL_RESULT,
    OBSERVATION_COMPRESSED,
    CONTEXT_CONDENSED,
    ROUND_COMPLETED,
    ARTIFACT_CREATED,
    EVENTS_SUPERSEDED,
)
