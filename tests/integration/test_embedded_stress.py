"""The embedded default under a crowd, from its first seconds: `python3 deploy/dev.py run` (its
supervisor, a prefork worker, uvicorn, SQLite, the filesystem broker), then 20 uploads and 50
runs sent at once by several clients as soon as the server answers, before the worker is ready.

Every request is accepted (no 500: task names need no discovery in request threads), every run
and document ends, the broker hands no worker a broken message, no worker dies, and nothing is
left queued. Minutes of real processes: marked like the fault trials.
"""

from __future__ import annotations

import io
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.conftest import SHARED_DATA
from tests.integration.stack import FINISHED, ROOT, Stack, free_port, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.fault_trials]

RUNS, UPLOADS, CLIENTS = 50, 20, 12
DEADLINE_SECONDS = 300
NETFLIX = SHARED_DATA / "finance" / "filings" / "NETFLIX_2017_10K.pdf"
BROKER_FAULTS = ("Unrecoverable error", "JSONDecodeError", "NotRegistered", "ChannelError")


def prices(number: int) -> bytes:
    rows = "".join(f"2024-01-{day:02d},{100 + number + day * 0.5}\n" for day in range(2, 28))
    return f"Date,Close\n{rows}".encode()


class Client:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.session.post(self.base_url + path, timeout=60, **kwargs)

    def get(self, path: str) -> Any:
        response = self.session.get(self.base_url + path, timeout=30)
        response.raise_for_status()
        return response.json()


def answered(base_url: str) -> bool:
    try:
        return requests.get(f"{base_url}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def test_a_crowd_in_the_first_seconds_after_start_is_served_and_every_job_ends(tmp_path: Path):
    port = free_port()
    stack = Stack.create(
        tmp_path,
        {
            "PORT": str(port),
            "QUOTA_CONCURRENT_RUNS": "100",
            "QUOTA_RUNS_PER_HOUR": "1000",
            "SLOW_TICK_SECONDS": "0.1",
        },
    )
    stack.base_url = f"http://127.0.0.1:{port}"
    stack.manage("migrate", "--noinput")
    tokens = [stack.create_token("alice"), stack.create_token("bob")]
    runner = stack.spawn("run", [sys.executable, str(ROOT / "deploy" / "dev.py"), "run"])
    try:
        wait_for(lambda: answered(stack.base_url), timeout=180, interval=0.05,
                 what="the run command to serve", stack=stack)  # fmt: skip
        worker_was_ready = " ready." in runner.log()
        clients = [Client(stack.base_url, token) for token in tokens]

        def workspace(index: int) -> requests.Response:
            kind = "studio" if index % 2 else "finance"  # a studio scene per studio run
            body = {"name": f"crowd {index}", "kind": kind}
            return clients[index % 2].post("/api/v1/workspaces/", json=body)

        def run(index: int) -> tuple[int, requests.Response]:
            space = finance[index % len(finance)] if index % 10 else studio[index // 10]
            if index % 10 == 0:
                prompt, options = "a red cube on a small table", {}
            elif index % 10 == 5:
                prompt, options = "count to 5", {"planner": "slow-count"}
            else:
                prompt, options = f"what is {index}*17+{index % 7}", {}
            body = {"workspace": space["id"], "prompt": prompt, "options": options}
            return space["client"], clients[space["client"]].post("/api/v1/runs/", json=body)

        def upload(index: int) -> tuple[int, requests.Response]:
            space = finance[index % len(finance)]
            name, data = f"prices-{index}.csv", prices(index)
            if index == 0 and NETFLIX.exists():
                name, data = NETFLIX.name, NETFLIX.read_bytes()
            return space["client"], clients[space["client"]].post(
                f"/api/v1/finance/workspaces/{space['id']}/documents",
                files={"file": (name, io.BytesIO(data))},
            )

        with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
            made = list(pool.map(workspace, range(10)))
            assert [response.status_code for response in made] == [201] * 10, made[0].text
            spaces = [
                response.json() | {"client": index % 2} for index, response in enumerate(made)
            ]
            finance = [space for space in spaces if space["kind"] == "finance"]
            studio = [space for space in spaces if space["kind"] == "studio"]
            # interleaved, so uploads and runs reach the server at once
            uploads = [pool.submit(upload, index) for index in range(UPLOADS)]
            runs = [pool.submit(run, index) for index in range(RUNS)]
            sent = [future.result() for future in runs + uploads]

        failures = [(r.status_code, r.text[:300]) for _, r in sent if r.status_code >= 300]
        assert failures == [], failures  # every request accepted: 201 (runs), 202 (uploads)
        jobs = [(owner, f"/api/v1/runs/{r.json()['id']}/") for owner, r in sent[:RUNS]] + [
            (owner, f"/api/v1/finance/documents/{r.json()['id']}") for owner, r in sent[RUNS:]
        ]

        def everything_ended() -> dict[str, str] | None:
            details = {path: clients[owner].get(path) for owner, path in jobs}
            ended = FINISHED | {"ready", "failed"}
            if not all(detail["status"] in ended for detail in details.values()):
                return None
            return {
                path: f"{d['status']}: {d.get('message', '')[:200]}" for path, d in details.items()
            }

        began = time.monotonic()
        states = wait_for(everything_ended, timeout=DEADLINE_SECONDS, interval=2,
                          what="every run and document to end", stack=stack)  # fmt: skip
        took = time.monotonic() - began
    finally:
        stack.stop_all()

    log = runner.log()
    print(f"worker ready before the crowd: {worker_was_ready}; all ended {took:.0f} s after it")
    unfinished = {
        path: state
        for path, state in states.items()
        if not state.startswith(("succeeded", "ready"))
    }
    assert unfinished == {}
    assert not [fault for fault in BROKER_FAULTS if fault in log], log[-6000:]
    assert "starting it again" not in log, "a worker or the server died under the crowd"
    assert " 500 " not in log and "Internal Server Error" not in log
    broker = tmp_path / "var" / "broker"
    assert not [name for name in os.listdir(broker) if name.endswith(".msg")], "left queued"
    assert not (broker / ".broken").exists()
