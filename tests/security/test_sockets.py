"""Who may keep a table socket: only pages of this site (by scheme, host and port), only
while logged in, and a player's socket hears nothing of what the GM does out of sight."""

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.test import Client

from crews import actions as crew_actions
from tests.factories import MembershipFactory, TableFactory
from tests.helpers import drain, drain_greeting, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def seated_player():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    client = Client()
    client.force_login(player)
    return table, player, client


async def test_the_gm_touching_a_hidden_faction_sends_players_nothing():
    table, player, client = await seated_player()
    await sync_to_async(crew_actions.create_crew)(table=table, crew_type="hawkers", name="Crew")
    faction = await sync_to_async(crew_actions.create_faction)(
        table=table, name="Zq-cabal", tier=2, hold="weak", status=0, hidden=True
    )
    socket, _ = await open_socket(table, client, (b"origin", b"http://127.0.0.1"))
    await drain_greeting(socket)
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
