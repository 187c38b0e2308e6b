"""Artifact files no row records (a worker killed mid-commit, a deleted run) are removed."""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command

from agents.models import Run
from agents.services.file_janitor import JANITOR_LOCK, orphan_files_remove, orphan_files_sweep
from agents.services.runs import run_create
from tests.agents.helpers import stage_artifact

HOUR = timedelta(hours=1)


@pytest.fixture(autouse=True)
def own_media_root(settings, tmp_path):
    """Files outlive the test database's rollback: each test gets a storage folder of its own."""
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def run(alice, make_workspace):
    return run_create(workspace=make_workspace(alice), prompt="what is 1+1")


def store(run_id: int, ref: str, *, age_s: float = 0.0) -> str:
    path = default_storage.save(f"runs/{run_id}/{ref}/render.png", ContentFile(b"png"))
    if age_s:
        then = time.time() - age_s
        os.utime(default_storage.path(path), (then, then))
    return path


def test_a_killed_units_old_files_go_and_recorded_or_young_ones_stay(run):
    recorded_path = str(stage_artifact(run, name="note.md", content=b"# note").file.name)
    os.utime(default_storage.path(recorded_path), (time.time() - 7200,) * 2)
    orphan = store(run.pk, "art_killedmidcommit", age_s=7200)
    young = store(run.pk, "art_stillcommitting", age_s=5)

    report = orphan_files_remove(older_than=HOUR)

    assert report.removed == [orphan]
    assert report.kept_young == 1
    assert not default_storage.exists(orphan)
    assert default_storage.exists(young) and default_storage.exists(recorded_path)


def test_a_deleted_runs_files_go_and_a_dry_run_removes_nothing(run):
    path = store(run.pk, "art_of_a_deleted_run", age_s=7200)
    Run.objects.filter(pk=run.pk).delete()

    assert orphan_files_remove(older_than=HOUR, dry_run=True).removed == [path]
    assert default_storage.exists(path)
    assert orphan_files_remove(older_than=HOUR).removed == [path]
    assert not default_storage.exists(path)


def test_the_command_reports_what_it_removed(run, capsys):
    path = store(run.pk, "art_orphan", age_s=7200)

    call_command("remove_orphan_files", "--older-than", "30")

    out = capsys.readouterr().out
    assert f"removed {path}" in out and "removed 1 orphan files" in out
    assert not default_storage.exists(path)


def test_the_command_refuses_a_negative_age():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="0 or more"):
        call_command("remove_orphan_files", "--older-than", "-5")


def test_one_janitor_pass_per_period_across_workers(run, settings):
    settings.AGENT_ORPHAN_FILE_SECONDS = 60
    cache.delete(JANITOR_LOCK)
    path = store(run.pk, "art_orphan", age_s=7200)

    first = orphan_files_sweep()
    second = orphan_files_sweep()

    assert first is not None and first.removed == [path]
    assert second is None  # another pass within AGENT_JANITOR_SECONDS is skipped
    cache.delete(JANITOR_LOCK)
