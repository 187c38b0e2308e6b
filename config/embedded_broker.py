"""The embedded default's Celery broker: kombu's filesystem transport, made safe to share.

kombu's own filesystem transport creates a message file and then writes it, and rewrites an
exchange's table in place, so a worker polling the folder can read a file that is still empty or
half written: the worker dies on a JSONDecodeError ("Unrecoverable error"), and whatever it held
is lost. Here every file appears whole or not at all:

* a message is written under ``.incoming/`` and renamed into the queue folder (``os.replace``
  is atomic within one file system), so a reader never sees a partial message;
* a reader claims a message by renaming it into ``.claimed/``: of two workers polling the same
  folder exactly one wins the rename, and only the winner reads it;
* an exchange table is rewritten the same way, under a lock on a file of its own, so readers
  need no lock and never see a half-written table;
* a message that still cannot be decoded (written by something else) is moved to ``.broken/``
  and logged; it never takes the worker down.

Delivery is at most once, as with kombu's transport: a message is gone from disk once claimed,
and a worker killed before acknowledging it loses it. The sweepers (agents/services/sweeper.py,
finance/services/rescue.py) re-enqueue the runs and documents such a loss leaves behind.
Chosen by the stress test in tests/integration/test_embedded_broker.py: writers in several
processes and readers racing for the same folder, every message delivered once and whole.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
import uuid
from pathlib import Path
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.transport.virtual import Empty
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)
INCOMING, CLAIMED, BROKEN = ".incoming", ".claimed", ".broken"


def write_atomically(path: Path, data: bytes) -> None:
    """Make ``path`` hold ``data``, appearing whole or not at all to every other process."""
    incoming = path.parent / INCOMING
    incoming.mkdir(exist_ok=True)
    temporary = incoming / f"{uuid.uuid4().hex}.part"
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise


class Channel(filesystem.Channel):
    """kombu's filesystem channel with whole-file writes and claims (see the module docstring)."""

    # kombu-stubs give the two base classes different signatures; this matches the nearer one.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        # Zero-padded wall-clock nanoseconds: names sort in the order they were sent, across
        # processes and restarts (kombu's own prefix, monotonic milliseconds, does neither).
        name = f"{time.time_ns():020d}_{uuid.uuid4().hex}.{queue}.msg"
        try:
            write_atomically(Path(self.data_folder_out) / name, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"cannot add a message to {self.data_folder_out}") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        folder = Path(self.data_folder_in)
        wanted = f"{queue}.msg"
        claimed = folder / CLAIMED
        claimed.mkdir(exist_ok=True)
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            mine = claimed / f"{os.getpid()}-{name}"
            try:
                os.rename(folder / name, mine)
            except FileNotFoundError:
                continue  # another reader claimed it first
            try:
                data = mine.read_bytes()
            finally:
                mine.unlink(missing_ok=True)
            try:
                return loads(bytes_to_str(data))
            except ValueError:
                self._keep_broken(folder, name, data)
        raise Empty()

    @staticmethod
    def _keep_broken(folder: Path, name: str, data: bytes) -> None:
        broken = folder / BROKEN
        broken.mkdir(exist_ok=True)
        (broken / name).write_bytes(data)
        logger.error("broker message %s could not be decoded; kept in %s", name, broken)

    def _table_file(self, exchange: str) -> Path:
        # kombu's check that the name is a plain file name inside the control folder
        file: Path = filesystem.Channel._exchange_file(self, exchange)  # type: ignore[attr-defined]
        return file

    def get_table(self, exchange: str) -> list[Any]:
        file = self._table_file(exchange)
        try:
            table = loads(bytes_to_str(file.read_bytes()))
        except FileNotFoundError:
            return []
        except ValueError:  # a table left half written by kombu's own transport: start again
            logger.warning("exchange table %s could not be decoded; treating it as empty", file)
            return []
        except OSError as exc:
            raise ChannelError(f"cannot open {file}") from exc
        return [filesystem.exchange_queue_t(*entry) for entry in table]

    def _queue_bind(
        self, exchange: str, routing_key: str | None, pattern: str | None, queue: str | None
    ) -> None:
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(exchange):
            table = self.get_table(exchange)
            if entry not in table:
                self._write_table(exchange, [entry, *table])

    def _delete(
        self, queue: str, exchange: str, routing_key: str, pattern: str, *args: Any, **kwargs: Any
    ) -> None:
        # The virtual channel's own bookkeeping, then this exchange's table without the queue.
        super(filesystem.Channel, self)._delete(
            queue, exchange, routing_key, pattern, *args, **kwargs
        )
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(exchange):
            table = self.get_table(exchange)
            if entry in table:
                self._write_table(exchange, [kept for kept in table if kept != entry])

    def _write_table(self, exchange: str, table: list[Any]) -> None:
        file = self._table_file(exchange)
        try:
            write_atomically(file, str_to_bytes(dumps(table)))
        except OSError as exc:
            raise ChannelError(f"cannot write {file}") from exc

    def _table_lock(self, exchange: str) -> _FileLock:
        self.control_folder.mkdir(parents=True, exist_ok=True)
        return _FileLock(self.control_folder / f"{exchange or 'default'}.lock")


class _FileLock:
    """An exclusive lock on a file of its own, for the read-change-write of an exchange table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle: Any = None

    def __enter__(self) -> None:
        self.handle = open(self.path, "ab")
        fcntl.flock(self.handle, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        try:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
        finally:
            self.handle.close()


class Transport(filesystem.Transport):
    """The embedded default's broker (``CELERY_BROKER_TRANSPORT`` for ``filesystem://``)."""

    Channel = Channel
    global_state = virtual.BrokerState()
