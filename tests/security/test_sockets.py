"""Who may keep a table socket: only pages of this site (by scheme, host and port), only
while logged in, and a player's socket hears nothing of what the GM does out of sight."""

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from blades.asgi import application
from crews import actions as crew_actions
from tests.factories import MembershipFactory, TableFactory

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def seated_player():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    client = Client()
    client.force_login(player)
    return table, player, client


async def open_socket(table, client: Client, *headers: tuple[bytes, bytes]):
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(
        application, f"/ws/tables/{table.pk}/", headers=[*headers, (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    return communicator, connected


async def drain(communicator) -> list[str]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.3):
        frames.append(await communicator.receive_from())
    return frames


@pytest.mark.parametrize(
    "host, origin, accepted",
    [
        (b"127.0.0.1:8000", b"http://127.0.0.1:8000", True),
        (b"localhost:8000", b"http://localhost:8000", True),
        (b"127.0.0.1", b"http://127.0.0.1", True),
        (b"127.0.0.1", b"http://127.0.0.1:80", True),
        # Another program on the same machine, or the same host on another scheme.
        (b"127.0.0.1:8000", b"http://127.0.0.1:1", False),
        (b"127.0.0.1:8000", b"http://127.0.0.1", False),
        (b"127.0.0.1:8000", b"https://127.0.0.1:8000", False),
        (b"127.0.0.1:8000", b"http://localhost:8000", False),
        (b"127.0.0.1:8000", b"null", False),
        (b"evil.example:8000", b"http://evil.example:8000", False),
        (None, b"http://127.0.0.1:1", False),
        (None, b"https://127.0.0.1", False),
    ],
)
async def test_a_socket_opens_only_from_this_sites_own_origin(host, origin, accepted):
    table, _, client = await seated_player()
    headers = [(b"origin", origin)] + ([(b"host", host)] if host else [])
    communicator, connected = await open_socket(table, client, *headers)
    assert connected is accepted
    await communicator.disconnect()


async def test_a_trusted_origin_behind_the_proxy_opens_a_socket(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://blades.example.org"]
    table, _, client = await seated_player()
    communicator, connected = await open_socket(
        table, client, (b"origin", b"https://blades.example.org"), (b"host", b"127.0.0.1:8001")
    )
    assert connected
    await communicator.disconnect()


async def test_logging_out_closes_the_sockets_of_that_login():
    table, player, client = await seated_player()
    other_device = Client()
    await sync_to_async(other_device.force_login)(player)
    origin = (b"origin", b"http://127.0.0.1")
    socket, _ = await open_socket(table, client, origin)
    elsewhere, _ = await open_socket(table, other_device, origin)
    await drain(socket)
    await drain(elsewhere)
    response = await sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code == 302
    assert (await socket.receive_output(timeout=2))["type"] == "websocket.close"
    # The same player's other login is not this one: its page stays live.
    assert await elsewhere.receive_nothing(timeout=0.3)
    await elsewhere.disconnect()


async def test_the_gm_touching_a_hidden_faction_sends_players_nothing():
    table, player, client = await seated_player()
    await sync_to_async(crew_actions.create_crew)(table=table, crew_type="hawkers", name="Crew")
    faction = await sync_to_async(crew_actions.create_faction)(
        table=table, name="Zq-cabal", tier=2, hold="weak", status=0, hidden=True
    )
    socket, _ = await open_socket(table, client, (b"origin", b"http://127.0.0.1"))
    await drain(socket)
    await sync_to_async(crew_actions.update_faction)(
        faction=faction, name="Zq-cabal", tier=3, hold="strong", status=-1, notes="",
        hidden=True, notes_hidden=False,
    )  # fmt: skip
    await sync_to_async(crew_actions.shift_status)(faction=faction, delta=-2)
    assert await drain(socket) == []
    # Revealing it changes what players see (the ladder, and the war in their books).
    await sync_to_async(crew_actions.update_faction)(
        faction=faction, name="Zq-cabal", tier=3, hold="strong", status=-3, notes="",
        hidden=False, notes_hidden=False,
    )  # fmt: skip
    frames = "".join(await drain(socket))
    assert "Zq-cabal" in frames and "-books" in frames
    await socket.disconnect()
