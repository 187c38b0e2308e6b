"""Removing artifact files that no row records.

A unit stores its artifact files before the transaction that records them; a unit that fails to
commit removes its own files, but a worker killed between the two (SIGKILL, OOM, power) cannot.
Its files sit under `runs/<run id>/<ref>/` with no `Artifact` row for that ref; so do the files of
a run that was deleted. The janitor removes such files once they are older than a grace period,
so a unit still between storing and committing is never touched.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.utils import timezone

from agents.models import Artifact

logger = logging.getLogger(__name__)

RUNS_FOLDER = "runs"
JANITOR_LOCK = "agents:file-janitor-lock"


@dataclass
class JanitorReport:
    removed: list[str] = field(default_factory=list)
    kept_young: int = 0


def orphan_files_remove(*, older_than: timedelta, dry_run: bool = False) -> JanitorReport:
    """Remove (or, with `dry_run`, only list) the orphan files older than `older_than`."""
    report = JanitorReport()
    cutoff = timezone.now() - older_than
    # Not `exists(RUNS_FOLDER)`: a bucket has no folders, only keys, so S3 would answer False.
    try:
        run_folders, _ = default_storage.listdir(RUNS_FOLDER)
    except FileNotFoundError:  # local storage before the first artifact
        return report
    for run_folder in run_folders:
        if not run_folder.isdigit():
            continue
        base = f"{RUNS_FOLDER}/{run_folder}"
        refs, _ = default_storage.listdir(base)
        recorded = set(
            Artifact.objects.filter(run_id=int(run_folder), ref__in=refs).values_list(
                "ref", flat=True
            )
        )
        for ref in refs:
            if ref in recorded:
                continue
            _, names = default_storage.listdir(f"{base}/{ref}")
            for name in names:
                path = f"{base}/{ref}/{name}"
                if _modified(path) > cutoff:
                    report.kept_young += 1
                    continue
                if not dry_run:
                    default_storage.delete(path)
                report.removed.append(path)
    return report


def orphan_files_sweep() -> JanitorReport | None:
    """One cluster-wide pass at most every `AGENT_JANITOR_SECONDS` (a lock in the cache); None
    when it is not yet time or another worker holds the lock."""
    if not cache.add(JANITOR_LOCK, uuid.uuid4().hex, settings.AGENT_JANITOR_SECONDS):
        return None
    report = orphan_files_remove(older_than=timedelta(seconds=settings.AGENT_ORPHAN_FILE_SECONDS))
    if report.removed:
        logger.info("removed %d orphan artifact files", len(report.removed))
    return report


def _modified(path: str) -> datetime:
    try:
        return default_storage.get_modified_time(path)
    except (NotImplementedError, OSError):
        return timezone.now()  # unknown age: treated as young, never removed
