"""Redis forgets the groups under several sockets on one daphne process.

Killed and back at once, empty: channels-redis shares one blocking receive per process
among all its consumers, so only the consumer that was doing it sees Redis fail (if it
was doing it at that moment at all). The others would wait on in the new, empty Redis,
their groups gone: open but never pushed to again. Flushed while up: no command fails.
Either way every socket must be closed by the server, so its page reconnects, joins its
groups again and catches up.
"""

import asyncio
import contextlib
import os
import signal

import redis.asyncio
from django.test import Client
from websockets.exceptions import ConnectionClosed, InvalidStatus

from sessions import layer
from tests.factories import MembershipFactory, TableFactory
from tests.helpers import session_cookie
from tests.scale.support import SCALE, run_in_thread, table_socket

pytestmark = SCALE

SOCKETS = 5


async def reconnect(server, table_id: int, cookie: str):
    """Open a socket as the page does after a drop: again a moment later if refused.

    The first command on each of the process's pooled Redis connections that outlived
    the old server fails, so a handshake right after the restart may be refused (500).
    """
    for pause in (0.2, 0.5, 1):
        try:
            return await table_socket(server, table_id, cookie)
        except InvalidStatus:
            await asyncio.sleep(pause)
    return await table_socket(server, table_id, cookie)


async def greeted(socket) -> None:
    """On connect the server sends the snapshot, then the presence list."""
    for _ in range(2):
        await socket.recv()


async def close_code(socket) -> int:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            await socket.recv()
    except ConnectionClosed:
        return socket.close_code


async def frame_with(socket, text: str) -> None:
    while text not in await socket.recv():
        pass


async def connect_all(server, table_id: int, cookie: str):
    sockets = [await reconnect(server, table_id, cookie) for _ in range(SOCKETS)]
    # Once greeted, each consumer has joined its groups and waits on the layer.
    for socket in sockets:
        await greeted(socket)
    return sockets


async def closed_then_caught_up(server, table, cookie, gm, sockets) -> list[int]:
    """Every socket is closed by the server; opened again, each hears the next roll."""
    async with asyncio.timeout(10):
        codes = await asyncio.gather(*(close_code(socket) for socket in sockets))
    sockets = await connect_all(server, table.pk, cookie)
    form = {"kind": "fortune", "pool": 1, "note": "After the blip"}
    await asyncio.to_thread(server.post, gm, f"/tables/{table.pk}/rolls/", form)
    async with asyncio.timeout(10):
        await asyncio.gather(*(frame_with(socket, "After the blip") for socket in sockets))
    for socket in sockets:
        await socket.close()
    return codes


def a_player_and_the_gm():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    gm = Client()
    gm.force_login(table.gm)
    return table, session_cookie(player), gm


def test_every_socket_is_closed_and_catches_up_after_a_quick_redis_restart(servers, redis_server):
    a, _ = servers
    table, cookie, gm = a_player_and_the_gm()

    async def blip():
        sockets = await connect_all(a, table.pk, cookie)
        # Redis must be back before A notices it went: A's consumers would otherwise
        # all fail one after the other on the refused connection. Holding A still
        # while Redis restarts makes that order certain (as a busy process would).
        os.kill(a.process.pid, signal.SIGSTOP)
        try:
            redis_server.kill()
            redis_server.start()
        finally:
            os.kill(a.process.pid, signal.SIGCONT)
        return await closed_then_caught_up(a, table, cookie, gm, sockets)

    # 1011, from the consumer that saw Redis fail or from the process's watch on its
    # key: a code on which the page's socket reconnects.
    assert run_in_thread(blip()) == [1011] * SOCKETS


def test_every_socket_is_closed_and_catches_up_when_redis_is_flushed(servers, redis_server):
    """Nothing fails here: only the process's key, gone with the groups, tells."""
    a, _ = servers
    table, cookie, gm = a_player_and_the_gm()

    async def flush():
        sockets = await connect_all(a, table.pk, cookie)
        client = redis.asyncio.Redis.from_url(redis_server.url)
        try:
            await client.flushall()
        finally:
            await client.aclose()
        return await closed_then_caught_up(a, table, cookie, gm, sockets)

    assert run_in_thread(flush()) == [1011] * SOCKETS


def test_the_key_is_marked_again_over_a_connection_that_outlived_redis(
    redis_server, settings, monkeypatch
):
    """After `lose`, the key must be back before the next look, or that look ends the
    sockets that reconnected meanwhile (a loaded CI run failed so): the watch's own
    pooled connection outlived the old server, and its first command fails."""
    settings.REDIS_URL = redis_server.url
    monkeypatch.setattr(layer, "WATCH_SECONDS", 3600)  # only the renewal looks here

    async def renewed() -> int:
        watch = layer.Watch()
        await watch.marked
        redis_server.kill()
        redis_server.start()
        await watch.renew()
        probe = redis.asyncio.Redis.from_url(redis_server.url)
        try:
            return await probe.exists(watch.key)
        finally:
            await probe.aclose()
            watch.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch.task  # closes the watch's client

    assert run_in_thread(renewed()) == 1


def test_a_failed_command_ends_the_sockets_only_if_redis_forgot_the_key(
    redis_server, settings, monkeypatch
):
    """The first command over each pooled connection that outlived a restarted Redis
    fails, also for a socket connecting long after the others joined the new one: a
    failure alone must not end them (a loaded CI run lost its reconnected sockets so)."""
    settings.REDIS_URL = redis_server.url
    monkeypatch.setattr(layer, "WATCH_SECONDS", 3600)  # only `check` looks here
    lost = []
    monkeypatch.setattr(layer, "lose", lambda: lost.append(len(lost) + 1))

    async def checked() -> list[int]:
        watch = await layer.watch()
        redis_server.kill()
        redis_server.start()
        probe = redis.asyncio.Redis.from_url(redis_server.url)
        try:
            await probe.set(watch.key, 1)  # marked again, as after the first `lose`
            await layer.check()  # over the watch's stale connection first
            after_renewal = list(lost)
            await probe.delete(watch.key)
            await layer.check()
            return [after_renewal, lost]
        finally:
            await probe.aclose()
            watch.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch.task

    assert run_in_thread(checked()) == [[], [1]]
