"""Sockets that open together are signed in and seated at their tables in one trip."""

import asyncio
from importlib import import_module

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib import auth
from django.test import Client
from django.urls import reverse

from sessions import seating
from tests.factories import MembershipFactory, TableFactory, UserFactory
from tests.helpers import database_thread_held

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def signed_in(user):
    """A session as a socket's scope carries it: named by the cookie, not loaded yet."""
    client = Client()
    client.force_login(user)
    return SessionStore(client.session.session_key)


@database_sync_to_async
def a_table():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    stranger = UserFactory()
    return table, table.gm, player, stranger


async def seats(*asked):
    """Each (session, table id) seated, all asked while the database thread was busy."""
    async with database_thread_held():
        seating_now = [asyncio.ensure_future(seating.seat(s, table_id)) for s, table_id in asked]
        await asyncio.sleep(0)
    return await asyncio.gather(*seating_now)


def who(seat):
    return None if seat is None else (seat.user.username, seat.is_gm)


async def test_a_burst_is_seated_in_one_trip_each_as_themselves(monkeypatch):
    table, gm, player, stranger = await a_table()
    other = await database_sync_to_async(TableFactory)()
    trips = []
    read = seating.memberships
    monkeypatch.setattr(seating, "memberships", lambda places: trips.append(1) or read(places))
    session = database_sync_to_async(signed_in)
    gm_session, player_session, stranger_session = [
        await session(user) for user in (gm, player, stranger)
    ]
    anonymous = SessionStore()
    seated = await seats(
        (gm_session, table.pk),
        (player_session, table.pk),
        (stranger_session, table.pk),  # not a member
        (player_session, other.pk),  # a member, but of another table
        (anonymous, table.pk),
        (None, table.pk),
    )
    assert [who(seat) for seat in seated] == [
        (gm.username, True),
        (player.username, False),
        None,
        None,
        None,
        None,
    ]
    assert trips == [1]


async def test_an_id_past_any_table_does_not_fail_the_burst():
    # SQLite cannot even be asked about such an id: in the burst's one query, it would
    # have failed every socket opening alongside.
    table, gm, player, _ = await a_table()
    session = await database_sync_to_async(signed_in)(player)
    seated = await seats((session, 2**63), (session, 0), (session, table.pk))
    assert [who(seat) for seat in seated] == [None, None, (player.username, False)]


async def test_a_sign_in_that_fails_leaves_the_others_seated(monkeypatch, caplog):
    table, gm, player, _ = await a_table()
    broken, session = [await database_sync_to_async(signed_in)(user) for user in (gm, player)]
    get_user = auth.get_user

    def failing_for_one(request):
        if request.session.get(auth.SESSION_KEY) == str(gm.pk):
            raise RuntimeError("the session store failed")
        return get_user(request)

    monkeypatch.setattr(auth, "get_user", failing_for_one)
    seated = await seats((broken, table.pk), (session, table.pk))
    assert [who(seat) for seat in seated] == [None, (player.username, False)]
    assert "Could not sign a socket in" in caplog.text


@pytest.mark.parametrize("change", ["password", "deactivated"])
async def test_a_session_no_longer_valid_is_not_seated(change):
    """As for a request: a password changed since (the session's hash no longer matches)
    or an account switched off signs the socket in as nobody."""
    table, gm, player, _ = await a_table()
    session = await database_sync_to_async(signed_in)(player)

    def changed():
        if change == "password":
            player.set_password("a new secret, chosen elsewhere")
        else:
            player.is_active = False
        player.save()

    await database_sync_to_async(changed)()
    assert await seats((session, table.pk)) == [None]


async def test_a_session_only_an_old_key_verifies_waits_for_a_request_to_renew_it(settings):
    """Signed in before the site's key was changed, the old key kept among the fallbacks:
    a request renews such a session and hands the browser its new key. A socket cannot,
    so it is refused, and the session is left for the page's next request to renew."""
    table, gm, player, _ = await a_table()
    old_key, new_key = "the key the player signed in under " * 2, "the site's new key " * 3
    settings.SECRET_KEY = old_key
    session = await database_sync_to_async(signed_in)(player)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = new_key, [old_key]
    assert await seats((session, table.pk)) == [None]

    def next_request() -> str:
        page = Client()
        page.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
        assert page.get(reverse("table_detail", args=[table.pk])).status_code == 200
        return page.cookies[settings.SESSION_COOKIE_NAME].value

    renewed = await database_sync_to_async(next_request)()
    assert renewed != session.session_key
    assert [who(seat) for seat in await seats((SessionStore(renewed), table.pk))] == [
        (player.username, False)
    ]
