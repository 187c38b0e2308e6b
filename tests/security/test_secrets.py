"""Secrets never leave: not in events, answers, notes, logs or trajectory exports.

Planted as settings (a FRED key, the model key, SECRET_KEY, a database password) and as a real
project API token, then a finance run whose FRED request fails the way `requests` fails: with
the full URL, `api_key` included, in the exception text. Every output is then searched.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import stat

import pytest
import requests
from django.core.management import call_command

from agents.models import Artifact, Event, RunMessage
from agents.services.runs import run_create
from config.log_redaction import RedactSecrets
from finance.models import Note
from finance.providers import ProviderError, SeriesQuery
from finance.providers.fred import OBSERVATIONS_URL, Fred
from tests.conftest import SHARED_DATA
from tests.finance.providers.fakes import FakeSession
from tests.finance.uploads import needs_filings, ready_netflix_workspace

FRED_KEY = "plantedfredkey0123456789abcdef"
MODEL_KEY = "planted-model-key-7f3a9c55"
DJANGO_KEY = "planted-django-secret-" + "k" * 40
DB_PASSWORD = "planted-db-pass-hunter2"
DATABASE_URL = f"postgres://agentworks:{DB_PASSWORD}@db.internal:5432/agentworks"
LEAKY_URL = f"{OBSERVATIONS_URL}?series_id=A191RL1A225NBEA&api_key={FRED_KEY}&file_type=json"
LEAKY_PATH = LEAKY_URL.split("stlouisfed.org", 1)[1]


@pytest.fixture
def planted(settings, alice_api):
    """The secrets, as this deployment would hold them; returns every value to search for."""
    settings.FRED_API_KEY = FRED_KEY
    settings.MODEL_API_KEY = MODEL_KEY
    settings.MODEL_BASE_URL = settings.MODEL_NAME = ""  # the offline planner
    settings.SECRET_KEY = DJANGO_KEY
    settings.DATABASES = {**settings.DATABASES, "replica": {"PASSWORD": DB_PASSWORD}}
    return [FRED_KEY, MODEL_KEY, DJANGO_KEY, DB_PASSWORD, alice_api.raw_token]


@pytest.fixture
def redacting_caplog(caplog):
    """caplog, with the filter LOGGING installs on the console handler installed on it too."""
    installed = [f for h in logging.getLogger().handlers for f in h.filters]
    redactors = [f for f in installed if isinstance(f, RedactSecrets)]
    assert redactors, "LOGGING installs no RedactSecrets filter on the root's handlers"
    caplog.handler.addFilter(redactors[0])
    yield caplog
    caplog.handler.removeFilter(redactors[0])


def fred_fails_with_the_key_in_the_url(monkeypatch, settings, tmp_path) -> list[str]:
    """Replay recorded SEC data, and a FRED that answers 401 as `raise_for_status` words it."""
    from django.core.cache import caches

    from finance.providers import configured

    shutil.copytree(SHARED_DATA / "finance" / "sec", tmp_path / "sec")
    (tmp_path / "fred").mkdir()
    settings.FINANCE_RECORDED_DIR = str(tmp_path)
    caches["default"].clear()  # a FRED answer cached by another test would skip the request
    asked: list[str] = []

    def fail(self, url, *, params=None, headers=None, timeout=0):
        asked.append(params["api_key"])
        # What urllib3 logs at DEBUG for every request: the path with its query string.
        logging.getLogger("urllib3.connectionpool").debug(
            'https://api.stlouisfed.org:443 "GET %s HTTP/1.1" 401 None', LEAKY_PATH
        )
        raise requests.HTTPError(f"401 Client Error: Unauthorized for url: {LEAKY_URL}")

    monkeypatch.setattr(configured.RecordedFredSession, "get", fail)
    return asked


@needs_filings
@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")  # only known_secrets reads it
def test_no_planted_secret_reaches_any_output(
    planted, alice, alice_api, make_workspace, django_capture_on_commit_callbacks,
    finish_run, monkeypatch, settings, tmp_path, redacting_caplog, client,
):  # fmt: skip
    asked = fred_fails_with_the_key_in_the_url(monkeypatch, settings, tmp_path / "recorded")
    workspace = ready_netflix_workspace(alice, make_workspace, django_capture_on_commit_callbacks)
    redacting_caplog.set_level(logging.DEBUG, logger="urllib3")
    logging.getLogger("agents").warning("connecting to %s failed", DATABASE_URL)
    try:
        raise RuntimeError(f"model server refused key {MODEL_KEY}")
    except RuntimeError:
        logging.getLogger("agents").exception("model call failed")

    run = finish_run(run_create(workspace=workspace, prompt="Netflix growth against GDP"))

    assert run.status == "succeeded", run.message
    assert asked and set(asked) == {FRED_KEY}, "FRED was not asked with the planted key"
    assert "FRED request failed: HTTPError: 401 Client Error: Unauthorized" in run.message
    note = Note.objects.get(run=run)
    client.force_login(alice)
    outputs = {
        "run message": run.message,
        "run result": json.dumps(run.result),
        "events": json.dumps([e.payload for e in Event.objects.filter(run=run)]),
        "messages": json.dumps([m.body for m in RunMessage.objects.filter(run=run)]),
        "note body": json.dumps(note.body),
        "note page": client.get(f"/finance/notes/{note.pk}/").content.decode(),
        "note markdown": alice_api.get(f"/api/v1/finance/notes/{note.pk}.md").content.decode(),
        "artifacts": "".join(
            a.file.open("rb").read().decode(errors="replace")
            for a in Artifact.objects.filter(run=run)
        ),
        "trajectories": export_trajectories(tmp_path),
        "logs": redacting_caplog.text,
    }
    assert "api.stlouisfed.org" in outputs["logs"] and "model call failed" in outputs["logs"]
    for where, text in outputs.items():
        for secret in planted:
            assert secret not in text, f"a planted secret is in the {where}"
        assert "api_key=" + FRED_KEY[:6] not in text


def export_trajectories(tmp_path) -> str:
    out = tmp_path / "trajectories.jsonl"
    call_command("export_trajectories", "--out", str(out))
    return out.read_text(encoding="utf-8")


# --- providers word their errors without the URL's query string ------------------------------


@pytest.mark.parametrize(
    "failure",
    [
        requests.HTTPError(f"401 Client Error: Unauthorized for url: {LEAKY_URL}"),
        requests.TooManyRedirects(f"Exceeded 30 redirects: {LEAKY_URL}"),
        requests.ConnectionError(
            "HTTPSConnectionPool(host='api.stlouisfed.org', port=443): Max retries exceeded with "
            f"url: {LEAKY_PATH} (Caused by SSLError('certificate verify failed'))"
        ),
        requests.ConnectionError(f"proxy https://user:{DB_PASSWORD}@proxy.internal refused"),
    ],
    ids=["http-error", "redirects", "ssl", "proxy-credentials"],
)
def test_a_fred_failure_never_carries_the_key(failure):
    session = FakeSession(*[failure] * 4)
    fred = Fred(FRED_KEY, session=session, sleep=lambda _: None)

    with pytest.raises(ProviderError) as raised:
        fred.get(SeriesQuery("GDP"))

    message = str(raised.value)
    assert session.calls[0]["params"]["api_key"] == FRED_KEY  # the key was used...
    assert FRED_KEY not in message and DB_PASSWORD not in message  # ...and is not told
    assert "api_key" not in message and "?" not in message
    assert message.startswith("FRED")


def test_a_refused_request_names_the_url_without_its_query():
    from finance.providers.http import get_json
    from tests.finance.providers.fakes import FakeResponse

    session = FakeSession(FakeResponse(403))
    with pytest.raises(ProviderError) as raised:
        get_json(session, LEAKY_URL, label="FRED")
    assert str(raised.value) == f"FRED refused the request (403) for {OBSERVATIONS_URL}"


# --- logs ------------------------------------------------------------------------------------


def test_the_log_filter_redacts_secret_values_query_keys_and_tracebacks(settings):
    settings.MODEL_API_KEY = MODEL_KEY
    record = logging.LogRecord(
        "urllib3", logging.DEBUG, __file__, 1, "GET %s with %s", (LEAKY_URL, MODEL_KEY), None
    )
    try:
        raise ValueError(f"bad key {MODEL_KEY} for {DATABASE_URL}")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()

    assert RedactSecrets().filter(record) is True  # a redacted line is still logged
    line = logging.Formatter("%(message)s").format(record)
    assert "GET " in line and "ValueError: bad key" in line
    for secret in (FRED_KEY, MODEL_KEY, DB_PASSWORD):
        assert secret not in line


# --- the secret key file ---------------------------------------------------------------------


def test_the_secret_key_file_is_private_from_its_first_byte(tmp_path, monkeypatch):
    from config import env

    monkeypatch.delenv("SECRET_KEY", raising=False)
    modes: list[int] = []
    real_fdopen = os.fdopen

    def fdopen(descriptor, *args, **kwargs):  # before the key is written: already 0600?
        modes.append(stat.S_IMODE(os.fstat(descriptor).st_mode))
        return real_fdopen(descriptor, *args, **kwargs)

    monkeypatch.setattr(env.os, "fdopen", fdopen)
    old_umask = os.umask(0)  # the most permissive umask: only the open's own mode protects it
    try:
        key = env.secret_key(tmp_path / "var")
    finally:
        os.umask(old_umask)

    path = tmp_path / "var" / "secret_key"
    assert modes == [0o600]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == key and len(key) >= 50
    assert env.secret_key(tmp_path / "var") == key  # read back, not made again
