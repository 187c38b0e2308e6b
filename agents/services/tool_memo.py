"""Tool calls made once per run: results stored by call key, so a replayed unit reuses them.

A unit whose worker is lost after a tool made its side effects (a note written, a revision
stored, the working scene edited) but before the unit committed runs again from the last
checkpoint, with the same pending call. `DatabaseToolMemo` finds the call's stored result and the
registry returns it instead of calling the tool again: no duplicate notes, revisions or edits.

The call and the storing of its result are one transaction (`atomic`): the effects of our tools
are rows in this database (a note, a scene revision, the working scene), so a worker lost at any
moment of the call leaves either the effect with its result, which the replay reuses, or neither,
and the replay makes the call once. A call that fails is rolled back whole. While the transaction
is open the run's live events (a tool's progress) wait for the unit's commit instead of being
committed on their own, since they would otherwise commit inside it. An effect outside the
database (a file written, a request sent) is not covered: a tool with one must make it idempotent
by its call key (`ToolContext.call_key`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError, transaction

from agents.models import ToolCallRecord
from agents.services.unit_log import UnitLog


class DatabaseToolMemo:
    def __init__(self, run_id: int, log: UnitLog | None = None) -> None:
        self.run_id = run_id
        self.log = log

    @contextmanager
    def atomic(self) -> Iterator[None]:
        held = self.log is not None and self.log.hold_live
        if self.log is not None:
            self.log.hold_live = True
        try:
            with transaction.atomic():
                yield
        finally:
            if self.log is not None:
                self.log.hold_live = held

    def get(self, key: str) -> str | None:
        found = (
            ToolCallRecord.objects.filter(run_id=self.run_id, call_key=key)
            .values_list("content", flat=True)
            .first()
        )
        return found

    def put(self, key: str, content: str) -> None:
        try:
            with transaction.atomic():
                ToolCallRecord.objects.create(run_id=self.run_id, call_key=key, content=content)
        except IntegrityError:
            pass  # stored by an execution that got here first: the same call, the same result
