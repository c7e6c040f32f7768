"""Redis killed and back at once, empty, under several sockets on one daphne process.

channels-redis shares one blocking receive per process among all its consumers, so
only the consumer that was doing it sees Redis fail. The others would wait on in the
new, empty Redis, their groups gone: open but never pushed to again. Every socket must
be closed by the server, so its page reconnects, joins its groups again and catches up.
"""

import asyncio
import os
import signal

from django.test import Client
from websockets.exceptions import ConnectionClosed, InvalidStatus

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


def test_every_socket_is_closed_and_catches_up_after_a_quick_redis_restart(servers, redis_server):
    a, _ = servers
    table = TableFactory()
    player = MembershipFactory(table=table).user
    cookie = session_cookie(player)
    gm = Client()
    gm.force_login(table.gm)

    async def connect_all():
        sockets = [await reconnect(a, table.pk, cookie) for _ in range(SOCKETS)]
        # Once greeted, each consumer has joined its groups and waits on the layer.
        for socket in sockets:
            await greeted(socket)
        return sockets

    async def blip():
        sockets = await connect_all()
        # Redis must be back before A notices it went: A's consumers would otherwise
        # all fail one after the other on the refused connection. Holding A still
        # while Redis restarts makes that order certain (as a busy process would).
        os.kill(a.process.pid, signal.SIGSTOP)
        try:
            redis_server.kill()
            redis_server.start()
        finally:
            os.kill(a.process.pid, signal.SIGCONT)
        async with asyncio.timeout(5):
            codes = await asyncio.gather(*(close_code(socket) for socket in sockets))

        sockets = await connect_all()
        form = {"kind": "fortune", "pool": 1, "note": "After the blip"}
        await asyncio.to_thread(a.post, gm, f"/tables/{table.pk}/rolls/", form)
        async with asyncio.timeout(5):
            await asyncio.gather(*(frame_with(socket, "After the blip") for socket in sockets))
        for socket in sockets:
            await socket.close()
        return codes

    # 1011 for the consumer that saw Redis fail and for each one it ended: a code on
    # which the page's socket reconnects.
    assert run_in_thread(blip()) == [1011] * SOCKETS
