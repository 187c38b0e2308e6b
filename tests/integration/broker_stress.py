"""Writers and readers racing on one embedded broker folder, each in a process of its own.

Used by the test (the project's transport) and by bench/embedded_broker.py, which runs kombu's
own filesystem transport beside it: the stress that chose the transport.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = "config.embedded_broker:Transport"
KOMBU = "filesystem"

CLIENT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kombu import Connection
role, transport, folder, name, count, deadline = sys.argv[2:8]
options = {"data_folder_in": folder, "data_folder_out": folder,
           "control_folder": folder + "/control", "polling_interval": 0.01}
with Connection("filesystem://", transport=transport, transport_options=options) as connection:
    queue = connection.SimpleQueue("stress")
    if role == "write":
        # Large messages, as a task's headers and arguments can be: a reader that lists the
        # folder while a file is being written meets it half written.
        for index in range(int(count)):
            queue.put({"writer": name, "index": index, "padding": "x" * 20000})
    else:
        stop = time.monotonic() + float(deadline)
        done = folder + "/writers-done"
        import os
        while time.monotonic() < stop:
            try:
                message = queue.get(block=True, timeout=0.3)
            except queue.Empty:
                if os.path.exists(done):
                    break  # the writers finished before this empty poll began
                continue
            body = message.payload
            message.ack()
            print(json.dumps([body["writer"], body["index"], len(body["padding"])]), flush=True)
    queue.close()
"""


@dataclass
class StressResult:
    sent: int
    received: list[tuple[str, int]]
    whole: bool
    failures: list[str]  # each crashed process's last words

    @property
    def lost(self) -> int:
        return self.sent - len(set(self.received))

    @property
    def duplicated(self) -> int:
        return len(self.received) - len(set(self.received))


def stress(
    folder: Path,
    *,
    transport: str = OURS,
    writers: int = 4,
    readers: int = 3,
    per_writer: int = 150,
    seconds: float = 20.0,
) -> StressResult:
    """Start the readers, then the writers; collect what every reader got within ``seconds``."""
    folder.mkdir(parents=True, exist_ok=True)

    def client(role: str, name: str) -> subprocess.Popen[str]:
        args = [role, transport, str(folder), name, str(per_writer), str(seconds)]
        return subprocess.Popen(
            [sys.executable, "-c", CLIENT, str(ROOT), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    reading = [client("read", f"r{number}") for number in range(readers)]
    time.sleep(0.5)
    writing = [client("write", f"w{number}") for number in range(writers)]
    received: list[tuple[str, int]] = []
    whole = True
    failures: list[str] = []
    for process in writing:
        process.wait(timeout=seconds + 60)
    (folder / "writers-done").touch()
    for process in writing + reading:
        out, err = process.communicate(timeout=seconds + 60)
        if process.returncode != 0:
            failures.append(err.strip().splitlines()[-1] if err.strip() else "no message")
        for line in out.splitlines():
            writer, index, size = json.loads(line)
            received.append((writer, index))
            whole = whole and size == 20000
    return StressResult(writers * per_writer, received, whole, failures)
