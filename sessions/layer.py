"""Knowing when the channel layer's Redis has forgotten this process's sockets.

A table socket joins its groups in Redis once, on connect. If Redis restarts empty (or
is flushed), those groups are gone, and the socket stays open but deaf: no push reaches
it again. Its page would reconnect, join again and catch up, if only the socket closed.

Two ways this process learns of it:

- A Redis command in flight fails. channels-redis shares one blocking receive among all
  the consumers of a process, so only one consumer sees that; it ends the others (`lose`,
  from `TableConsumer.__call__`). A socket that fails while joining first asks whether
  the key below is still there (`check`): the first command over each pooled connection
  that outlived a restarted Redis fails too, long after the sockets that reconnected have
  joined their groups in the new one.
- No command was in flight (the process was busy, or Redis was flushed while up): redis-py
  reconnects a pooled connection without a word, and nothing fails. So each process keeps
  a key of its own in that Redis, set before its first socket joins a group, and looks
  for it every `WATCH_SECONDS`: a key gone means the groups went with it.

The key is exactly as durable as the groups: a Redis that comes back from its snapshot
brings back both, and no socket needs to close.
"""

import asyncio
import contextlib
import uuid
import weakref

from django.conf import settings
from redis.asyncio import Redis
from redis.exceptions import RedisError

from blades.server.channel_layer import ends_when_cancelled

# How the channel layer fails when Redis goes away or comes back empty.
LAYER_FAILURES = (RedisError, OSError, TimeoutError)

WATCH_SECONDS = 1.0
# A process that stops looking (killed, or frozen this long) leaves no key behind for
# long; one frozen longer closes its sockets once on waking, which costs a reconnect.
KEY_SECONDS = 60
WATCH_TIMEOUT = 5

# Every open (or opening) table socket in this process.
OPEN_SOCKETS: set = set()


class LayerLost(Exception):
    """Ends a socket whose groups may be gone with the channel layer's Redis."""


def lose() -> None:
    """End every socket of this process: each page reconnects and joins its groups again.

    Daphne lets an application close only with 1000 or 3000-4999, but closes with 1011
    itself when an application fails, and 1011 is a code on which the page reconnects. So
    each run is cancelled and ends failing (`TableConsumer.__call__`). Cancelling is how
    daphne itself stops an application; channels-redis gives back its receive lock on
    cancellation.
    """
    sockets = list(OPEN_SOCKETS)
    OPEN_SOCKETS.clear()
    for consumer in sockets:
        consumer.layer_lost = True
        consumer.run.cancel()
    current = _watches.get(asyncio.get_running_loop())
    if current is not None:
        current.renewal = asyncio.ensure_future(current.renew())


async def check() -> None:
    """One socket's command failed: end every socket unless this process's key, and so
    its groups, are still in Redis."""
    current = _watches.get(asyncio.get_running_loop())
    if current is None or not await current.kept():
        lose()


class Watch:
    """This process's key in the layer's Redis, and the task that looks for it."""

    def __init__(self):
        self.key = f"blades:layer:{uuid.uuid4().hex}"
        self.client = Redis.from_url(
            settings.REDIS_URL, socket_timeout=WATCH_TIMEOUT, socket_connect_timeout=WATCH_TIMEOUT
        )
        self.renewal: asyncio.Future | None = None
        self.marked = asyncio.ensure_future(self.mark())
        self.task = asyncio.ensure_future(self.run())

    async def mark(self) -> None:
        await ends_when_cancelled(self.client.set(self.key, 1, ex=KEY_SECONDS))

    async def renew_key(self) -> bool:
        """Keeps the key another KEY_SECONDS; False if it was gone."""
        # XX: only if the key is there, so None says it is gone. Through
        # `ends_when_cancelled`: the watch's loop must end when its event loop closes.
        command = self.client.set(self.key, 1, ex=KEY_SECONDS, xx=True)
        return bool(await ends_when_cancelled(command))

    async def renew(self) -> None:
        """After `lose`: the Redis now up is the one the reconnecting sockets join."""
        # The first command over a pooled connection that outlived the old server fails
        # (redis-py then drops it), so a second try goes over a new one. Left unmarked,
        # the next look would end the sockets that reconnected meanwhile. Still down:
        # the next look finds the key gone, once Redis is back.
        for _ in range(2):
            with contextlib.suppress(*LAYER_FAILURES):
                await self.mark()
                return

    async def kept(self) -> bool:
        """Whether the key is there (kept for another KEY_SECONDS); False if Redis cannot
        say. Tried twice: a pooled connection that outlived the old server fails once."""
        for _ in range(2):
            with contextlib.suppress(*LAYER_FAILURES):
                return await self.renew_key()
        return False

    async def run(self) -> None:
        try:
            try:
                await self.marked
            except LAYER_FAILURES:
                return  # Redis down at the start: the next socket starts a new watch.
            while True:
                await asyncio.sleep(WATCH_SECONDS)
                try:
                    kept = await self.renew_key()
                except LAYER_FAILURES:
                    continue  # Down: the sockets' own commands fail and end them.
                if not kept:
                    lose()
        finally:
            await self.client.aclose()


# One watch per event loop: daphne runs one loop for its life, the tests one per test.
_watches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def watch() -> Watch | None:
    """This process's watch, started if need be; returns once its key is set.

    A socket calls this before joining its groups, so the key is never younger than a
    group it must vouch for. Without Redis (the in-memory layer) there is nothing to watch.
    """
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    current = _watches.get(loop)
    if current is None or current.task.done():
        current = _watches[loop] = Watch()
    # Shielded: a socket that goes while it waits must not cancel the others' start.
    await asyncio.shield(current.marked)
    return current
