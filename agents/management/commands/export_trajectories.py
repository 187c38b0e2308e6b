"""`manage.py export_trajectories --out FILE`: finished runs as JSONL training records."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import QuerySet

from agents.models import Run, Workspace
from agents.trajectories.build import run_trajectory, trajectory_line
from agents.trajectories.known_secrets import settings_scrubber
from agents.trajectories.selection import exportable_runs

FINISHED = [status for status in Run.Status.values if status not in Run.ACTIVE]


class Command(BaseCommand):
    help = (
        "Write one JSON line per finished run (OpenAI chat messages with tool calls, tool "
        "schemas, rewards, step signals, metadata), secrets redacted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, help="The JSONL file to write ('-': stdout).")
        parser.add_argument("--workspace", type=int, help="Only this workspace's runs (its id).")
        parser.add_argument("--suite", help="Only runs of this evaluation suite's tasks.")
        parser.add_argument(
            "--min-reward",
            type=float,
            help="Only runs whose verifier reward (else mean user rating) is at least this.",
        )
        parser.add_argument("--status", choices=FINISHED, help="Only runs that ended so.")

    def handle(self, *args: Any, **options: Any) -> None:
        workspace = options["workspace"]
        if workspace is not None and not Workspace.objects.filter(pk=workspace).exists():
            raise CommandError(f"no workspace with id {workspace}")
        runs = exportable_runs(
            workspace_id=workspace,
            suite=options["suite"],
            min_reward=options["min_reward"],
            status=options["status"],
        )
        path = options["out"]
        if path == "-":
            written = self._write(runs, sys.stdout)
            self.stderr.write(f"wrote {written} trajectories")
            return
        try:
            with open(path, "w", encoding="utf-8") as out:
                written = self._write(runs, out)
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror or error}") from error
        self.stdout.write(self.style.SUCCESS(f"wrote {written} trajectories to {path}"))

    def _write(self, runs: QuerySet[Run], out: TextIO) -> int:
        scrubber = settings_scrubber()
        written = 0
        for run in runs.iterator(chunk_size=50):
            out.write(trajectory_line(run_trajectory(run, scrubber=scrubber), scrubber=scrubber))
            out.write("\n")
            written += 1
        return written
