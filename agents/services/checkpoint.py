"""Committing one unit of a run: its events, artifacts, new messages and state, fenced by the lease.

A commit appends: the unit's events get the next seqs, the conversation's new messages are added
as rows (`RunMessage`) and the rest of the state, which stays small, replaces the checkpoint. The
conversation is rewritten only from the first position a compression or a condensation changed,
so a step costs the same at step 100 as at step 1.

On PostgreSQL a unit without artifacts is one statement (one round trip): a data-modifying CTE
updates the run where the lease is still ours and, only then, inserts the events and messages.
Everywhere else (SQLite, or a unit that stored artifacts) the same fenced update and plain
inserts run in one short transaction. Both return whether a cancel was asked for, so the loop
need not ask again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from agents.models import Artifact, Event, Run, RunMessage
from agents.runtime import Outcome
from agents.runtime.types import Message
from agents.services.publishing import events_publish


class LeaseLost(Exception):
    """Another worker took the run over (our lease expired); stop without writing."""


@dataclass(frozen=True)
class UnitWrite:
    """What one unit (or the live part of one) has to record."""

    run_id: int
    owner: str
    events: list[tuple[str, datetime, dict[str, Any]]]
    artifacts: list[tuple[Any, str]] = field(default_factory=list)
    """(PendingArtifact, stored file path) pairs."""
    state: dict[str, Any] | None = None
    """The checkpoint without its messages; None for live events only."""
    messages: list[Message] = field(default_factory=list)
    """The conversation from position `message_start` on."""
    message_start: int = 0
    message_count: int = 0
    rewrite: bool = False
    """True when messages before the stored end changed (rows from `message_start` are replaced
    and any beyond `message_count` removed); False for a pure append."""
    outcome: Outcome | None = None
    release: bool = False
    """Give the lease back with this commit (the slice ends after it)."""


@dataclass(frozen=True)
class Committed:
    events: list[Event]
    cancel_requested: bool
    last_seq: int


def unit_commit(write: UnitWrite) -> Committed:
    """Record the unit, or raise LeaseLost (nothing written) when the lease is no longer ours."""
    if connection.vendor == "postgresql" and not write.artifacts:
        committed = _commit_one_statement(write)
    else:
        committed = _commit_transaction(write)
    rows = committed.events
    transaction.on_commit(lambda: events_publish(run_id=write.run_id, events=rows))
    return committed


# The run's row, changed only where the lease is still ours. `{json}` is the cast a JSON
# parameter needs ("::jsonb" on PostgreSQL).
RUN_UPDATE = """
    UPDATE {run} SET
        last_seq = last_seq + %(n)s,
        checkpoint_seq = CASE WHEN %(checkpoint)s THEN last_seq + %(n)s ELSE checkpoint_seq END,
        state = COALESCE(%(state)s{json}, state),
        lease_owner = CASE WHEN %(let_go)s THEN '' ELSE lease_owner END,
        lease_expires_at = CASE WHEN %(let_go)s THEN NULL ELSE %(lease)s END,
        updated_at = %(now)s,
        started_at = CASE WHEN status = 'queued' THEN %(now)s ELSE started_at END,
        status = COALESCE(%(status)s, CASE WHEN status = 'queued' THEN 'running' ELSE status END),
        result = COALESCE(%(result)s{json}, result),
        message = COALESCE(%(message)s, message),
        finished_at = CASE WHEN %(finished)s THEN %(now)s ELSE finished_at END
    WHERE id = %(run_id)s AND lease_owner = %(owner)s
"""


def _params(write: UnitWrite) -> dict[str, Any]:
    now = timezone.now()
    outcome = write.outcome
    adapt = connection.ops.adapt_datetimefield_value
    return {
        "run_id": write.run_id,
        "owner": write.owner,
        "n": len(write.events),
        "checkpoint": write.state is not None or outcome is not None,
        "state": None if write.state is None else json.dumps(write.state),
        "finished": outcome is not None,
        "let_go": outcome is not None or write.release,
        "lease": adapt(now + timedelta(seconds=settings.AGENT_LEASE_SECONDS)),
        "now": adapt(now),
        "status": None if outcome is None else outcome.status,
        "result": None if outcome is None else json.dumps(outcome.to_dict()),
        "message": None if outcome is None else outcome.message,
    }


def _table_names() -> dict[str, str]:
    return {
        "run": Run._meta.db_table,
        "event": Event._meta.db_table,
        "message": RunMessage._meta.db_table,
    }


def _commit_transaction(write: UnitWrite) -> Committed:
    """The unit in one short transaction: the fenced run update, then plain inserts."""
    run_id, tables = write.run_id, _table_names()
    adapt = connection.ops.adapt_datetimefield_value
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(RUN_UPDATE.format(json="", **tables), _params(write))
        if cursor.rowcount != 1:
            raise LeaseLost(run_id)
        cursor.execute(
            f"SELECT last_seq, cancel_requested FROM {tables['run']} WHERE id = %s", [run_id]
        )
        last_seq, cancel_requested = cursor.fetchone()
        rows = _events(run_id, last_seq - len(write.events), write.events)
        cursor.executemany(
            f'INSERT INTO {tables["event"]} (run_id, seq, "type", ts, payload) '
            "VALUES (%s, %s, %s, %s, %s)",
            [(run_id, e.seq, e.type, adapt(e.ts), json.dumps(e.payload)) for e in rows],
        )
        if write.state is not None:
            if write.rewrite:
                cursor.execute(
                    f"DELETE FROM {tables['message']} WHERE run_id = %s AND position >= %s",
                    [run_id, write.message_start],
                )
            cursor.executemany(
                f"INSERT INTO {tables['message']} (run_id, position, body) VALUES (%s, %s, %s)",
                [
                    (run_id, position, json.dumps(body))
                    for position, body in enumerate(write.messages, start=write.message_start)
                ],
            )
        if write.artifacts:
            Artifact.objects.bulk_create(
                Artifact(
                    run_id=run_id,
                    ref=pending.ref,
                    kind=pending.kind,
                    name=pending.name,
                    file=path,
                    media_type=pending.media_type,
                    size=len(pending.content),
                    metadata=pending.metadata,
                )
                for pending, path in write.artifacts
            )
    return Committed(rows, bool(cancel_requested), last_seq)


def _events(
    run_id: int, last_seq: int, staged: list[tuple[str, datetime, dict[str, Any]]]
) -> list[Event]:
    return [
        Event(run_id=run_id, seq=last_seq + index, type=type, ts=ts, payload=payload)
        for index, (type, ts, payload) in enumerate(staged, start=1)
    ]


# Only the run's row is locked (by the UPDATE); the inserts select from its RETURNING row, so
# when the lease is not ours the UPDATE matches nothing and nothing at all is written.
ONE_STATEMENT = """
WITH r AS ({update}
    RETURNING id, last_seq - %(n)s AS base, cancel_requested
), new_events AS (
    INSERT INTO {event} (run_id, seq, "type", ts, payload)
    SELECT r.id, r.base + e.i, e."type", e.ts, e.payload
    FROM r, jsonb_to_recordset(%(events)s::jsonb)
        AS e(i integer, "type" text, ts timestamptz, payload jsonb)
), new_messages AS (
    INSERT INTO {message} (run_id, position, body)
    SELECT r.id, m.position, m.body
    FROM r, jsonb_to_recordset(%(messages)s::jsonb) AS m(position integer, body jsonb)
    ON CONFLICT (run_id, position) DO UPDATE SET body = EXCLUDED.body
), dropped_messages AS (
    DELETE FROM {message} WHERE run_id IN (SELECT id FROM r) AND position >= %(keep)s
)
SELECT base, cancel_requested FROM r
"""


def _commit_one_statement(write: UnitWrite) -> Committed:
    staged = [
        {"i": index, "type": type, "ts": ts.isoformat(), "payload": payload}
        for index, (type, ts, payload) in enumerate(write.events, start=1)
    ]
    messages = (
        [
            {"position": position, "body": body}
            for position, body in enumerate(write.messages, start=write.message_start)
        ]
        if write.state is not None
        else []
    )
    params = {
        **_params(write),
        "events": json.dumps(staged),
        "messages": json.dumps(messages),
        "keep": write.message_count if write.state is not None and write.rewrite else None,
    }
    tables = _table_names()
    update = RUN_UPDATE.format(json="::jsonb", **tables)
    with connection.cursor() as cursor:
        cursor.execute(ONE_STATEMENT.format(update=update, **tables), params)
        row = cursor.fetchone()
    if row is None:
        raise LeaseLost(write.run_id)
    base, cancel_requested = row
    rows = _events(write.run_id, base, write.events)
    return Committed(rows, bool(cancel_requested), base + len(rows))
