"""Checks shared by the commands that run agents in-process."""

from __future__ import annotations

from django.core.management.base import CommandError


def require_migrated() -> None:
    """Refuse to run on a database that misses migrations, with the command that fixes it."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise CommandError("the database is not up to date: run `python manage.py migrate` first")
