"""A socket refused on any path ends at once, and a receive from the layer ends when it
is cancelled, whenever the cancellation lands.

On Redis, a refused socket used to keep a blocking receive open, and the cancellation
that should have ended it could be lost inside redis-py's send (Python 3.11's
`asyncio.wait_for`): the socket's application never ended, daphne killed it after 10 s,
and a test's event loop could hang for good at its teardown.
"""

import asyncio
import contextlib

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from blades.asgi import application
from blades.server.channel_layer import ends_when_cancelled
from sessions import layer
from tests.factories import TableFactory
from tests.helpers import ORIGIN, session_cookie
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ENDS_WITHIN = 1.0  # seconds


def refusals(table) -> list[tuple[str, list]]:
    """(path, headers) of a socket refused on each path before it reads the database: a
    foreign page, no Origin, nobody logged in, a path no consumer serves."""
    member = (b"cookie", session_cookie(table.gm).encode())
    return [
        (f"/ws/tables/{table.pk}/", [member, (b"origin", b"https://evil.example")]),
        (f"/ws/tables/{table.pk}/", [member]),  # no Origin
        (f"/ws/tables/{table.pk}/", [ORIGIN]),  # not logged in
        ("/ws/nothing/", [member, ORIGIN]),
    ]


async def test_a_refused_socket_ends_at_once_on_every_path():
    table = await database_sync_to_async(TableFactory)()
    for path, headers in await database_sync_to_async(refusals)(table):
        socket = Socket(application, path, headers=headers)
        connected, code = await socket.connect()
        assert (connected, code) == (False, 1000), path
        # Ended by itself once its client goes: `disconnect` cancels an application still
        # running after the timeout and fails with TimeoutError.
        await socket.disconnect(timeout=ENDS_WITHIN)
        assert socket.future.done() and not socket.future.cancelled(), path
    # The database thread closes what its last call left open when it is next used: used
    # once more here, so that no connection outlives the test (PostgreSQL would refuse to
    # drop the test database at the end of the run).
    await database_sync_to_async(TableFactory)()


@pytest.mark.skipif(not settings.REDIS_URL, reason="the lost cancellation is redis-py's")
@pytest.mark.parametrize("turns", range(40))
async def test_a_receive_ends_when_cancelled_whenever_the_cancellation_lands(turns):
    """Cancelled after `turns` turns of the loop. Some of them land as the send of the
    receive's first BZPOPMIN finishes (about the 9th to the 25th turn here, with
    channels-redis's own layer: a third of these cases hung)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    receive = asyncio.ensure_future(layer.receive(channel))
    for _ in range(turns):
        await asyncio.sleep(0)
    receive.cancel()
    done, _ = await asyncio.wait([receive], timeout=ENDS_WITHIN)
    assert done, f"cancelled after {turns} turns of the loop, the receive went on"
    await layer.flush()


class SwallowingRedis:
    """A client whose SET swallows a cancellation that lands while it is in flight, as
    redis-py's send through Python 3.11's `asyncio.wait_for` may."""

    def __init__(self):
        self.in_flight = asyncio.Event()
        self.cut = False

    async def set(self, *args, **kwargs) -> bool:
        if self.cut:
            raise asyncio.CancelledError  # Only so that a failing test can end its loop.
        self.in_flight.set()
        # Cancelled as the send had just finished: its result is returned instead.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(ENDS_WITHIN / 10)
        return True

    async def aclose(self) -> None:
        pass


async def test_the_layers_watch_ends_when_cancelled_inside_a_command(monkeypatch):
    """The watch that looks for this process's key in Redis (sessions.layer) runs until
    its event loop closes, which cancels it; a cancellation lost in a command left it
    looping, and the closing loop (a test's teardown) waited for it forever."""
    client = SwallowingRedis()
    monkeypatch.setattr(layer.Redis, "from_url", lambda *args, **kwargs: client)
    monkeypatch.setattr(layer, "WATCH_SECONDS", 0)
    watch = layer.Watch()
    await watch.marked
    client.in_flight.clear()
    await client.in_flight.wait()  # the loop's first renewal is in flight
    watch.task.cancel()
    done, _ = await asyncio.wait([watch.task], timeout=ENDS_WITHIN)
    client.cut = True
    assert done and watch.task.cancelled(), "cancelled inside a command, the watch went on"


async def test_a_command_cancelled_twice_is_still_ended():
    """A closing event loop cancels every task, and Channels cancels its receives again as
    the consumer ends: the second cancellation of a caller still passing the first on to
    its command left the command running, its own cancellation lost (a test's teardown
    then waited for it for good)."""
    sent, ended = asyncio.Event(), asyncio.Event()

    async def command() -> None:
        sent.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(ENDS_WITHIN)  # the send, whose cancellation is lost
        try:
            await asyncio.sleep(60)  # the blocking read that follows it
        finally:
            ended.set()

    caller = asyncio.ensure_future(ends_when_cancelled(command()))
    await sent.wait()
    caller.cancel()
    for _ in range(3):  # the caller is passing its cancellation on
        await asyncio.sleep(0)
    caller.cancel()
    await asyncio.wait([caller], timeout=ENDS_WITHIN)
    assert caller.cancelled()
    await asyncio.wait_for(ended.wait(), timeout=ENDS_WITHIN)
