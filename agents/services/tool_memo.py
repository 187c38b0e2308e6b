"""Tool calls made once per run: results stored by call key, so a replayed unit reuses them.

A unit whose worker is lost after a tool made its side effects (a note written, a revision
stored, the working scene edited) but before the unit committed runs again from the last
checkpoint, with the same pending call. `DatabaseToolMemo` finds the call's stored result and the
registry returns it instead of calling the tool again: no duplicate notes, revisions or edits.
The result is stored right after the call returns; a worker lost in between (a few
milliseconds) still repeats the call.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from agents.models import ToolCallRecord


class DatabaseToolMemo:
    def __init__(self, run_id: int) -> None:
        self.run_id = run_id

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
