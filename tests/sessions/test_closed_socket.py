"""A closed socket is not an error: a frame pushed to a socket that is closing goes
nowhere, and nothing is logged. (Removing a player who held a table socket and a screen
socket sometimes logged "Attempt to send on a closed protocol": the first socket to leave
pushed the presence list to the other, closing but still in its groups.)"""

import asyncio

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from blades.asgi import application
from sessions import live
from tests.helpers import ORIGIN, connect, drain_greeting, make_table, session_cookie
from tests.sockets import WAIT

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

LATE = {"type": "table.fragment", "html": '<p id="late">late</p>'}


async def test_a_socket_the_server_closed_sends_nothing_after_its_close():
    table, _, player = await make_table()
    socket, connected = await connect(player, table.pk)
    assert connected
    await drain_greeting(socket)
    layer = get_channel_layer()
    await layer.group_send(live.member_group(table.pk, player.pk, "en"), {"type": "table.kick"})
    # Pushed after the kick, before the browser has answered the close.
    await layer.group_send(live.players_group(table.pk, "en"), LATE)
    assert (await socket.receive_output(WAIT))["type"] == "websocket.close"
    assert await socket.receive_nothing()
    await socket.disconnect()


async def test_a_frame_refused_after_the_browser_closed_ends_nothing(caplog):
    """Daphne refuses a frame sent between the browser's close frame and the end of the
    connection, raising autobahn's Disconnected into the consumer's send."""
    table, _, player = await make_table()
    cookie = await database_sync_to_async(session_cookie)(player)
    inbox, sent = asyncio.Queue(), asyncio.Queue()
    browser_closed, refused = asyncio.Event(), asyncio.Event()

    async def send(message: dict) -> None:
        if message["type"] == "websocket.send" and browser_closed.is_set():
            refused.set()
            raise Disconnected("Attempt to send on a closed protocol")
        await sent.put(message)

    scope = {
        "type": "websocket",
        "path": f"/ws/tables/{table.pk}/",
        "raw_path": f"/ws/tables/{table.pk}/".encode(),
        "query_string": b"",
        "headers": [ORIGIN, (b"cookie", cookie.encode())],
        "subprotocols": [],
    }
    consumer = asyncio.create_task(application(scope, inbox.get, send))
    await inbox.put({"type": "websocket.connect"})
    for expected in ("websocket.accept", "websocket.send", "websocket.send"):
        assert (await asyncio.wait_for(sent.get(), WAIT))["type"] == expected
    browser_closed.set()
    await get_channel_layer().group_send(live.players_group(table.pk, "en"), LATE)
    await asyncio.wait_for(refused.wait(), WAIT)
    await inbox.put({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(consumer, WAIT)
    assert [r for r in caplog.records if r.exc_info] == []
