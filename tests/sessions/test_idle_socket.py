"""A table socket left idle stays open: on Redis, channels-redis waits 5 s for each next
message, and redis-py 8 stopped reading any reply after 5 s by default, so an idle
socket failed and took every socket of its process down with it."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from sessions import live
from tests.helpers import connect, drain_greeting, make_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.skipif(not settings.REDIS_URL, reason="the race is with Redis's blocking wait")
async def test_a_socket_idle_past_the_layers_wait_still_gets_the_next_push():
    table, gm, player = await make_table()
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    # Idle through two of channels-redis's 5 s waits; the loop runs meanwhile.
    await asyncio.sleep(11)
    await database_sync_to_async(live.push_to_table)(table.pk, "<p>Still here</p>")
    assert await communicator.receive_from(timeout=5) == "<p>Still here</p>"
    await communicator.disconnect()
