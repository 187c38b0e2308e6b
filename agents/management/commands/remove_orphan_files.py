"""`manage.py remove_orphan_files`: remove artifact files that no row records."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.services.file_janitor import orphan_files_remove


class Command(BaseCommand):
    help = (
        "Remove artifact files no Artifact row records (left by a worker killed mid-commit, or "
        "by a deleted run), once older than --older-than minutes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=float, default=60.0, help="Minutes (default 60).")
        parser.add_argument("--dry-run", action="store_true", help="List, remove nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        minutes = options["older_than"]
        if minutes < 0:
            raise CommandError("--older-than must be 0 or more minutes")
        report = orphan_files_remove(
            older_than=timedelta(minutes=minutes), dry_run=options["dry_run"]
        )
        verb = "would remove" if options["dry_run"] else "removed"
        for path in report.removed:
            self.stdout.write(f"{verb} {path}")
        self.stdout.write(
            f"{verb} {len(report.removed)} orphan files; {report.kept_young} younger ones kept"
        )
