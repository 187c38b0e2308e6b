"""Both Redis channel layers deliver one group message to a burst of 100 sockets of a process."""

from __future__ import annotations

import asyncio
import socket

import pytest
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from config.channel_layer import BlockingPoolRedisChannelLayer, FanOutRedisChannelLayer

pytestmark = pytest.mark.integration

SOCKETS = 100


async def fan_out(layer) -> list[dict]:
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    # A burst of connects: every socket joins the run's group at once.
    await asyncio.gather(*(layer.group_add("run-1", channel) for channel in channels))
    await layer.group_send("run-1", {"type": "run.events", "events": [{"seq": 1}]})
    received = await asyncio.wait_for(
        asyncio.gather(*(layer.receive(channel) for channel in channels)), timeout=10
    )
    await asyncio.gather(*(layer.group_discard("run-1", channel) for channel in channels))
    return list(received)


@pytest.mark.parametrize(
    "make_layer",
    [
        lambda url: FanOutRedisChannelLayer(hosts=[url]),
        # max_connections far below the burst: the blocking pool queues instead of failing.
        lambda url: BlockingPoolRedisChannelLayer(hosts=[{"address": url, "max_connections": 10}]),
    ],
    ids=["pubsub", "lists"],
)
def test_every_socket_gets_the_pushed_events(redis_url, make_layer):
    layer = make_layer(redis_url)
    received = asyncio.run(fan_out(layer))
    assert len(received) == SOCKETS
    assert all(message["events"] == [{"seq": 1}] for message in received)


def test_a_pubsub_channel_whose_subscribe_fails_is_not_kept():
    """A socket retries its join while Redis is down: no dead queue piles up per failed try."""
    with socket.socket() as bound:  # bound, never listening: connections are refused
        bound.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{bound.getsockname()[1]}/0"
        layer = FanOutRedisChannelLayer(hosts=[{"address": url, "retry": Retry(NoBackoff(), 0)}])

        async def fail_twice() -> dict:
            for _ in range(2):
                with pytest.raises(redis.exceptions.ConnectionError):
                    await layer.new_channel()
            return dict(layer._get_layer().channels)

        assert asyncio.run(fail_twice()) == {}
