"""The Redis channel layer, with a connection pool fit for many sockets per process.

Two fixes over the stock channels_redis pool, for redis-py 8:

* channels_redis builds a plain redis-py pool, which raises MaxConnectionsError as soon as more
  commands are in flight than `max_connections`: a burst of WebSocket connects (each one a
  `group_add`) to one process then fails with HTTP 500. A blocking pool queues them instead.
* redis-py 8 reads with a 5 s socket timeout by default, the same as the layer's 5 s blocking pop
  (BZPOPMIN): a consumer that waits 5 s for a message hits the socket timeout first, and its
  WebSocket is dropped. Reads must be allowed to outlast the pop.
"""

from __future__ import annotations

import uuid
from typing import Any

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio import BlockingConnectionPool

POOL_WAIT_SECONDS = 20
READ_MARGIN_SECONDS = 10


class BlockingPoolRedisChannelLayer(RedisChannelLayer):
    # Workers push through one long-lived event loop (agents.services.publishing), so the pool
    # and its connections are reused across pushes.
    shared_across_processes = True

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinel or keyword hosts: the stock pool
            return super().create_pool(index)
        address = host.pop("address")
        host.setdefault("timeout", POOL_WAIT_SECONDS)
        host.setdefault("socket_timeout", self.brpop_timeout + READ_MARGIN_SECONDS)
        return BlockingConnectionPool.from_url(address, **host)


class FanOutRedisChannelLayer(RedisPubSubChannelLayer):
    """Redis pub/sub: one message per group per process, fanned out to local consumers in memory.

    The list-based layer stores one message per consumer and each process pops them one at a
    time, so the 100th browser of a run waits for 99 round trips. Pub/sub keeps nothing for absent
    consumers, which is fine here: the event log, not the layer, delivers what a consumer missed.
    """

    shared_across_processes = True

    async def new_channel(self, prefix: str = "specific.") -> str:
        """The stock new_channel, minus the dead queue it leaves when the subscribe fails.

        A socket whose join fails is served from the event log and joins again later
        (agents/consumer_base.py); each failed try would otherwise keep one more queue for a
        channel nobody will ever read.
        """
        layer = self._get_layer()
        channel = f"{layer.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await layer._subscribe_to_channel(channel)
        except BaseException:
            layer.channels.pop(channel, None)
            raise
        return channel
