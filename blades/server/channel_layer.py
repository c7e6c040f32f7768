"""The channel layers: Channels' in-memory layer with its sweep rationed (the embedded
default), and channels-redis's with a receive that always ends when it is cancelled
(`ends_when_cancelled`, which every Redis command in a loop goes through).

The stock in-memory layer sweeps every queue and every group membership for expired entries on
each receive and each group_send. A table socket receives once per frame, so with a
thousand sockets each frame pays for a walk over a thousand memberships: the cost of
fan-out grows with the square of the sockets. Messages expire after a minute and
memberships after a day, so sweeping once a second keeps the same guarantees.
"""

import asyncio
import contextlib
import time
from collections.abc import Awaitable
from typing import TypeVar

from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer

T = TypeVar("T")

SWEEP_EVERY = 1.0  # seconds
RECANCEL_EVERY = 0.05  # seconds


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        super()._clean_expired()


async def ends_when_cancelled(command: Awaitable[T]) -> T:
    """Awaits a Redis command so that a cancellation of the caller always ends it.

    redis-py sends each command through `asyncio.wait_for` when a socket timeout is set
    (ours are, see settings.REDIS_READ_TIMEOUT). On Python 3.11, a cancellation that lands
    while that send is finishing is lost: `wait_for` returns the send's result instead of
    raising, and the caller carries on as if never cancelled. A loop that sends a command
    each turn (a receive, sessions.layer's watch) then never ends, and whoever waits for
    it (Channels when a consumer ends, an event loop closing) waits forever. So the
    command runs as a task of its own, and a cancellation of the caller is passed on to
    it until it ends; the caller then ends cancelled, whatever the command returned. A
    caller is often cancelled twice (a closing event loop cancels every task, and Channels
    cancels its receives again as the consumer ends): the second must not cut the passing
    on short, or the command is left running with its cancellation lost.
    """
    inner = asyncio.ensure_future(command)
    try:
        return await asyncio.shield(inner)
    except asyncio.CancelledError:
        while not inner.done():
            inner.cancel()
            # A cancellation the send swallowed is taken by the read that follows it.
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait([inner], timeout=RECANCEL_EVERY)
        raise


class RedisChannelLayer(StockRedisChannelLayer):
    """channels-redis's layer, with a receive that a cancellation always ends (a socket
    that closes as its first BZPOPMIN goes out would otherwise block in Redis every 5 s
    for a message that never comes)."""

    async def receive(self, channel: str) -> dict:
        return await ends_when_cancelled(super().receive(channel))
