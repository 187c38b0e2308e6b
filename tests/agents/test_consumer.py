"""`ws/runs/<id>/`: replay from the event log, then live events, each exactly once and in order."""

from __future__ import annotations

import asyncio

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from agents.consumers import (
    CLOSE_BAD_REQUEST,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHENTICATED,
    RunEventsConsumer,
)
from agents.models import Event
from agents.services import runs
from agents.services.execution import run_advance
from agents.services.publishing import run_group
from config.asgi import application
from tests.agents.helpers import TWO_SUMS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("offline_planner"),
]

# A page of ours: its origin is the socket's own (the scheme, the Host it connects to).
OURS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
ALICE_PASSWORD = "correct horse battery"


def bearer(client):
    return [(b"authorization", f"Bearer {client.raw_token}".encode())]


def session_cookie(username, password):
    client = Client()
    assert client.login(username=username, password=password)
    name = settings.SESSION_COOKIE_NAME
    return (b"cookie", f"{name}={client.cookies[name].value}".encode())


async def connect(run_id, headers, query=""):
    communicator = WebsocketCommunicator(application, f"/ws/runs/{run_id}/{query}", headers)
    connected, _ = await communicator.connect()
    assert connected, "the socket was refused"
    return communicator


async def refused(run_id, headers):
    """True when the handshake itself is refused (no message, no accept)."""
    communicator = WebsocketCommunicator(application, f"/ws/runs/{run_id}/", headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return not connected


async def assert_refused_with(communicator, code):
    message = await communicator.receive_json_from()
    assert message["type"] == "error" and message["code"] == code and message["error"]
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": code}
    await communicator.disconnect()


async def receive_seqs(communicator, *, through, timeout=2.0):
    """Seqs of the events received until seq `through` arrives; fails after `timeout` of quiet."""
    seqs: list[int] = []
    while not seqs or seqs[-1] < through:
        message = await communicator.receive_json_from(timeout=timeout)
        assert message["type"] == "event", message
        seqs.append(message["event"]["seq"])
    return seqs


async def advance(run, *, units=1, owner="worker"):
    return await database_sync_to_async(run_advance)(run_id=run.pk, owner=owner, max_units=units)


@database_sync_to_async
def last_seq(run):
    run.refresh_from_db()
    return run.last_seq


@database_sync_to_async
def event_dicts(run, *seqs):
    return [event.to_dict() for event in Event.objects.filter(run=run, seq__in=seqs)]


async def push(run, events):
    await get_channel_layer().group_send(
        run_group(run.pk), {"type": "run.events", "events": events}
    )


@pytest.fixture(autouse=True)
async def empty_channel_layer():
    yield
    await get_channel_layer().flush()


@pytest.fixture
def queued_run(alice, make_workspace, monkeypatch):
    """A run no worker has picked up: each test advances it itself."""
    with monkeypatch.context() as patch:
        patch.setattr(runs, "run_enqueue", lambda run_id: None)
        return runs.run_create(workspace=make_workspace(alice), prompt=TWO_SUMS)


@pytest.fixture
def finished_run(queued_run, finish_run):
    run = finish_run(queued_run)
    assert run.status == "succeeded" and run.last_seq > 5
    return run


# --- replay ------------------------------------------------------------------------------------


async def test_a_token_replays_all_events_of_a_finished_run_in_order(finished_run, alice_api):
    communicator = await connect(finished_run.pk, bearer(alice_api))

    messages = [await communicator.receive_json_from() for _ in range(finished_run.last_seq)]

    assert [m["event"]["seq"] for m in messages] == list(range(1, finished_run.last_seq + 1))
    assert messages[0]["event"]["type"] == "run.started"
    assert messages[-1]["event"]["type"] == "run.finished"
    assert all(m["event"]["run_id"] == finished_run.pk for m in messages)
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_the_socket_stops_reading_the_log_once_the_run_has_ended(finished_run, alice_api):
    communicator = await connect(finished_run.pk, bearer(alice_api))
    seqs = await receive_seqs(communicator, through=finished_run.last_seq)
    assert seqs == list(range(1, finished_run.last_seq + 1))

    # Were the socket still polling, a row written now would reach it within a poll or two.
    await database_sync_to_async(Event.objects.create)(
        run_id=finished_run.pk,
        seq=finished_run.last_seq + 1,
        type="model.delta",
        ts=timezone.now(),
        payload={},
    )
    assert await communicator.receive_nothing(timeout=4 * settings.EVENTS_POLL_SECONDS + 0.3)
    await communicator.disconnect()


async def test_after_replays_only_later_events(finished_run, alice_api):
    communicator = await connect(finished_run.pk, bearer(alice_api), "?after=3")

    seqs = await receive_seqs(communicator, through=finished_run.last_seq)

    assert seqs == list(range(4, finished_run.last_seq + 1))
    await communicator.disconnect()


async def test_ping_answers_with_the_last_seq_sent(finished_run, alice_api):
    communicator = await connect(finished_run.pk, bearer(alice_api))
    await receive_seqs(communicator, through=finished_run.last_seq)

    await communicator.send_json_to({"type": "ping"})

    assert await communicator.receive_json_from() == {
        "type": "pong",
        "last_seq": finished_run.last_seq,
    }
    await communicator.disconnect()


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, "not json", '{"type": "ping"'])
async def test_a_message_too_deep_or_not_json_is_answered_and_the_socket_stays(
    finished_run, alice_api, text
):
    communicator = await connect(finished_run.pk, bearer(alice_api))
    await receive_seqs(communicator, through=finished_run.last_seq)

    await communicator.send_to(text_data=text)

    error = await communicator.receive_json_from()
    assert error["type"] == "error" and error["code"] == CLOSE_BAD_REQUEST
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from())["type"] == "pong"
    await communicator.disconnect()


async def test_a_session_cookie_from_our_origin_works(finished_run, alice):
    headers = [*OURS, await database_sync_to_async(session_cookie)("alice", ALICE_PASSWORD)]
    communicator = await connect(finished_run.pk, headers)

    seqs = await receive_seqs(communicator, through=finished_run.last_seq)

    assert seqs == list(range(1, finished_run.last_seq + 1))
    await communicator.disconnect()


# --- refusals ----------------------------------------------------------------------------------


async def test_no_credentials_get_an_error_and_close_4401(finished_run):
    communicator = await connect(finished_run.pk, OURS)

    await assert_refused_with(communicator, CLOSE_UNAUTHENTICATED)


async def test_another_users_run_is_not_found(finished_run, bob_api):
    communicator = await connect(finished_run.pk, bearer(bob_api))

    await assert_refused_with(communicator, CLOSE_NOT_FOUND)


@pytest.mark.parametrize("query", ["?after=-1", "?after=abc"])
async def test_a_bad_after_is_refused(finished_run, alice_api, query):
    communicator = await connect(finished_run.pk, bearer(alice_api), query)

    await assert_refused_with(communicator, CLOSE_BAD_REQUEST)


async def test_an_invalid_token_is_refused(finished_run):
    assert await refused(finished_run.pk, [(b"authorization", b"Bearer aw_not-a-real-token")])


async def test_a_foreign_origin_is_refused_even_with_a_session(finished_run, alice):
    cookie = await database_sync_to_async(session_cookie)("alice", ALICE_PASSWORD)

    assert await refused(finished_run.pk, [(b"origin", b"http://evil.example"), cookie])


async def test_a_session_without_an_origin_is_refused(finished_run, alice):
    cookie = await database_sync_to_async(session_cookie)("alice", ALICE_PASSWORD)

    assert await refused(finished_run.pk, [cookie])


# --- live events -------------------------------------------------------------------------------


async def test_live_events_arrive_by_tailing_the_log(queued_run, alice_api):
    communicator = await connect(queued_run.pk, bearer(alice_api))
    assert await communicator.receive_nothing(timeout=0.3), "nothing has happened yet"
    seqs: list[int] = []
    status = "continue"

    while status != "finished":
        status = (await advance(queued_run)).status
        timeout = settings.EVENTS_POLL_SECONDS * 10
        seqs += await receive_seqs(
            communicator, through=await last_seq(queued_run), timeout=timeout
        )

    assert seqs == list(range(1, await last_seq(queued_run) + 1))
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_pushed_events_and_the_log_tail_deliver_each_event_once(
    queued_run, alice_api, settings
):
    settings.EVENTS_PUSH = True  # the worker pushes each checkpoint through the channel layer
    await advance(queued_run)
    communicator = await connect(queued_run.pk, bearer(alice_api))
    seqs = await receive_seqs(communicator, through=await last_seq(queued_run))

    status = "continue"
    while status != "finished":
        status = (await advance(queued_run)).status
        newest = await last_seq(queued_run)
        # a late duplicate of the first event, and a repeat of the newest one
        await push(queued_run, await event_dicts(queued_run, 1, newest))
        seqs += await receive_seqs(communicator, through=newest)

    assert seqs == list(range(1, await last_seq(queued_run) + 1))
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_a_pushed_event_that_skips_ahead_is_filled_in_from_the_log(
    queued_run, alice_api, settings
):
    settings.EVENTS_POLL_SECONDS = 60  # only the push can deliver within this test
    await advance(queued_run)
    communicator = await connect(queued_run.pk, bearer(alice_api))
    replayed = await receive_seqs(communicator, through=await last_seq(queued_run))
    await advance(queued_run, units=2)
    newest = await last_seq(queued_run)
    assert newest >= replayed[-1] + 2, "there is a gap for the push to skip"

    await push(queued_run, await event_dicts(queued_run, replayed[-1], newest))
    live = await receive_seqs(communicator, through=newest)
    await push(queued_run, await event_dicts(queued_run, newest))

    assert live == list(range(replayed[-1] + 1, newest + 1))
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


# --- a failing channel layer ---------------------------------------------------------------------


class LayerOutage:
    """The test's channel layer, failing like a restarting Redis: while `down`, joining a group
    and reading the socket's channel raise ConnectionError; `joins` counts the joins that work."""

    def __init__(self, layer, monkeypatch):
        self.down = True
        self.joins = 0
        self.failed = 0
        self._group_add = layer.group_add
        self._receive = layer.receive
        monkeypatch.setattr(layer, "group_add", self.group_add)
        monkeypatch.setattr(layer, "receive", self.receive)

    def _fail_while_down(self):
        if self.down:
            self.failed += 1
            raise redis.exceptions.ConnectionError("Connection lost")

    async def group_add(self, group, channel):
        self._fail_while_down()
        await self._group_add(group, channel)
        self.joins += 1

    async def receive(self, channel):
        self._fail_while_down()
        return await self._receive(channel)


@pytest.fixture
def layer_outage(monkeypatch, settings):
    settings.EVENTS_PUSH = True
    settings.EVENTS_POLL_SECONDS = 60  # the safety-net tail alone would deliver nothing in time
    # quick retries, so that the recovery is seen within a second
    monkeypatch.setattr(RunEventsConsumer, "retry_first_seconds", 0.05)
    monkeypatch.setattr(RunEventsConsumer, "retry_max_seconds", 0.2)
    return LayerOutage(get_channel_layer(), monkeypatch)


async def eventually(predicate, *, timeout=3.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "not within the timeout"
        await asyncio.sleep(0.02)


async def test_a_layer_that_cannot_join_still_serves_every_event_then_pushes_again(
    queued_run, alice_api, layer_outage
):
    await advance(queued_run)
    communicator = await connect(queued_run.pk, bearer(alice_api))  # accepted, not a 500
    seqs = await receive_seqs(communicator, through=await last_seq(queued_run))

    # While the layer is down, the worker's pushes reach nobody: the socket reads the log.
    for _ in range(2):
        await advance(queued_run)
        seqs += await receive_seqs(communicator, through=await last_seq(queued_run))
    assert layer_outage.failed >= 2 and layer_outage.joins == 0, "the join is retried"

    layer_outage.down = False
    await eventually(lambda: layer_outage.joins == 1)
    await asyncio.sleep(0.3)  # the tail's last quick read, then it waits the full 60 s
    status = "continue"
    while status != "finished":  # only pushes can deliver now
        status = (await advance(queued_run)).status
        seqs += await receive_seqs(communicator, through=await last_seq(queued_run))

    assert seqs == list(range(1, await last_seq(queued_run) + 1))
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_a_failed_read_of_the_layer_keeps_the_socket_and_joins_again(
    queued_run, alice_api, layer_outage, settings
):
    settings.EVENTS_PUSH = False  # nothing is pushed: after the failure, only the log delivers
    layer_outage.down = False
    await advance(queued_run)
    communicator = await connect(queued_run.pk, bearer(alice_api))
    seqs = await receive_seqs(communicator, through=await last_seq(queued_run))
    assert layer_outage.joins == 1

    # Redis restarts: the pending read returns (an empty push here) and the next one fails.
    layer_outage.down = True
    await push(queued_run, [])
    await eventually(lambda: layer_outage.failed >= 1)
    status = "continue"
    while status != "finished":
        status = (await advance(queued_run)).status
        seqs += await receive_seqs(communicator, through=await last_seq(queued_run))
    layer_outage.down = False
    await eventually(lambda: layer_outage.joins == 2)  # a restarted Redis forgot the group

    assert seqs == list(range(1, await last_seq(queued_run) + 1))
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
