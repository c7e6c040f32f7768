"""The presence rows of sockets that open or close together are written in one go."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from sessions import presence
from sessions.models import Presence
from tests.factories import MembershipFactory, PresenceFactory, TableFactory, UserFactory
from tests.helpers import database_thread_held

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def a_table_with_two_players():
    table = TableFactory()
    players = [MembershipFactory(table=table).user for _ in range(2)]
    gone = PresenceFactory(table=table, user=players[0], channel_name="closing")
    return table, players, gone


@database_sync_to_async
def rows() -> dict[str, int]:
    return dict(Presence.objects.values_list("channel_name", "user_id"))


async def test_sockets_coming_and_going_together_share_one_write(monkeypatch):
    table, (ada, bo), gone = await a_table_with_two_players()
    writes = []
    write = presence.write
    monkeypatch.setattr(presence, "write", lambda changes: writes.append(1) or write(changes))
    async with database_thread_held():
        changes = [
            asyncio.ensure_future(presence.arrive("ada's page", table.pk, ada.pk, "en")),
            asyncio.ensure_future(presence.arrive("bo's page", table.pk, bo.pk, "en")),
            asyncio.ensure_future(presence.leave(gone.channel_name)),
        ]
        await asyncio.sleep(0)
    assert await asyncio.gather(*changes) == [True, True, None]
    assert writes == [1]
    assert await rows() == {"ada's page": ada.pk, "bo's page": bo.pk}


async def test_a_socket_that_comes_and_goes_in_one_write_leaves_no_row():
    table, (ada, _), _ = await a_table_with_two_players()
    async with database_thread_held():
        came = asyncio.ensure_future(presence.arrive("brief", table.pk, ada.pk, "en"))
        went = asyncio.ensure_future(presence.leave("brief"))
        await asyncio.sleep(0)
    await asyncio.gather(came, went)
    assert "brief" not in await rows()


async def test_a_page_arriving_again_on_its_channel_is_seen_now():
    table, (ada, _), gone = await a_table_with_two_players()
    await database_sync_to_async(Presence.objects.update)(seen="2020-01-01T00:00Z")
    await presence.arrive(gone.channel_name, table.pk, ada.pk, "en")
    seen = await database_sync_to_async(Presence.objects.get)(channel_name=gone.channel_name)
    assert seen.seen.year > 2020


async def test_an_arrival_of_someone_no_longer_a_member_is_refused_and_not_written():
    table, (ada, _), _ = await a_table_with_two_players()
    stranger = await database_sync_to_async(UserFactory)()
    assert not await presence.arrive("stranger's page", table.pk, stranger.pk, "en")
    assert "stranger's page" not in await rows()
