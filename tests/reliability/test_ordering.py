"""One socket, a thousand pushes: all arrive, in the order they were sent."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from blades.asgi import application
from sessions import live
from tests.factories import MembershipFactory, TableFactory
from tests.sockets import Socket

EVENTS = 1000
pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]


def _player_cookie():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    client = Client()
    client.force_login(player)
    return table, f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_a_thousand_pushes_arrive_in_order_none_missing():
    table, cookie = await database_sync_to_async(_player_cookie)()
    communicator = Socket(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie)],
    )
    assert (await communicator.connect())[0]
    await communicator.receive_from()  # snapshot
    await communicator.receive_from()  # presence

    def push_all():
        # The same path as every change: live.push after commit (no transaction: at once).
        for n in range(EVENTS):
            live.push_to_table(table.pk, lambda n=n: f'<p id="event" data-n="{n}"></p>')

    received = []

    async def receive_all():
        while len(received) < EVENTS:
            frame = await communicator.receive_from(timeout=10)
            if 'id="event"' in frame:
                received.append(int(frame.split('data-n="')[1].split('"')[0]))

    await asyncio.gather(database_sync_to_async(push_all)(), receive_all())
    assert received == list(range(EVENTS))
    assert await communicator.receive_nothing(timeout=0.2)
    await communicator.disconnect()
