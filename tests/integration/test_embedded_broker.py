"""The embedded default's broker under writers and readers racing in separate processes: every
message is delivered once and whole, and no reader dies (kombu's own filesystem transport hands
readers half-written files; bench/embedded_broker.py shows it)."""

from __future__ import annotations

import json

import pytest

from config.embedded_broker import BROKEN, Transport
from tests.integration.broker_stress import stress

pytestmark = pytest.mark.integration


def test_racing_writers_and_readers_get_every_message_once_and_whole(tmp_path):
    result = stress(tmp_path / "broker", writers=4, readers=3, per_writer=150, seconds=20)

    assert result.failures == [], result.failures
    assert result.lost == 0, f"{result.lost} of {result.sent} messages never arrived"
    assert result.duplicated == 0
    assert result.whole
    assert not (tmp_path / "broker" / BROKEN).exists()


def test_a_message_that_cannot_be_decoded_is_set_aside_not_fatal(tmp_path):
    from kombu import Connection

    folder = tmp_path / "broker"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }
    with Connection("filesystem://", transport=Transport, transport_options=options) as conn:
        queue = conn.SimpleQueue("tasks")
        # what kombu's own transport leaves behind when it is read mid-write: an empty file
        (folder / "00000000000000000001_x.tasks.msg").write_bytes(b"")
        queue.put({"task": "after it"})
        message = queue.get(timeout=2)
        assert message.payload == {"task": "after it"}
        message.ack()
        queue.close()

    kept = list((folder / BROKEN).iterdir())
    assert [path.name for path in kept] == ["00000000000000000001_x.tasks.msg"]


def test_an_exchange_table_is_never_seen_half_written(tmp_path):
    from kombu import Connection

    folder = tmp_path / "broker"
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }
    folder.mkdir()
    with Connection("filesystem://", transport=Transport, transport_options=options) as conn:
        queues = [conn.SimpleQueue(f"q{number}") for number in range(5)]
        table = json.loads((folder / "control" / "q0.exchange").read_text())
        assert table == [["q0", "", "q0"]]
        assert not list((folder / "control" / ".incoming").iterdir())  # no stray parts
        for queue in queues:
            queue.close()
