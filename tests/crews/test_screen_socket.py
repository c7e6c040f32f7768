"""The shared screen's socket: a signal that something players see has changed, for a
member's screen and for the token link a TV opens without logging in; never a byte of
what the GM hides, and closed once the link is revoked or made anew."""

import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from blades.asgi import application
from blades.rules.rolls import RollKind
from characters import actions as character_actions
from crews import actions, consumers
from sessions import actions as table_actions
from tests.factories import (
    CharacterFactory,
    ClockFactory,
    FactionFactory,
    MembershipFactory,
    TableFactory,
)
from tests.helpers import ORIGIN, session_cookie
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

MARKER = "Zephyrine"


@database_sync_to_async
def make_screen():
    table = TableFactory()
    return table, actions.new_screen_link(table=table)


async def open_screen(path: str, user=None, origin=ORIGIN):
    headers = [origin]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    communicator = Socket(application, path, headers=headers)
    connected, _ = await communicator.connect()
    if not connected:
        # A refused socket's consumer waits for the disconnect a browser would send; left
        # waiting, it kept a database session open past the test (PostgreSQL).
        await communicator.disconnect()
    return communicator, connected


SIGNAL = '<div id="screen-signal" hidden hx-swap-oob="true" hx-get="" '


def is_signal(frame: str) -> bool:
    """The signal names no address: each page (the TV, an overlay) fetches its own."""
    return frame.startswith(SIGNAL)


async def test_token_socket_signals_a_change_players_see():
    table, shared = await make_screen()
    clock = await database_sync_to_async(ClockFactory)(table=table, name="Alarm", segments=4)
    screen, connected = await open_screen(f"/ws/screen/{shared.token}/")
    assert connected
    # On connecting it catches up: the signal makes the page fetch its body once.
    assert is_signal(await screen.receive_from())
    await database_sync_to_async(table_actions.tick_clock)(clock=clock, by=1)
    assert is_signal(await screen.receive_from())
    assert await screen.receive_nothing(timeout=0.3)
    await screen.disconnect()


async def test_a_burst_of_pushes_is_one_signal(monkeypatch):
    # Three commits a few ms apart are a burst; on a busy machine they can be spread wider
    # than the 0.15 s the screen waits, so the test widens the wait, not the burst.
    monkeypatch.setattr(consumers, "COALESCE_SECONDS", 1.0)
    table, shared = await make_screen()
    clocks = await database_sync_to_async(ClockFactory.create_batch)(3, table=table)
    screen, _ = await open_screen(f"/ws/screen/{shared.token}/")
    await screen.receive_from()

    @database_sync_to_async
    def tick_all():
        for clock in clocks:
            table_actions.tick_clock(clock=clock, by=1)

    await tick_all()
    await screen.receive_from()
    assert await screen.receive_nothing(timeout=1.5)
    await screen.disconnect()


async def test_token_socket_refused_when_revoked_or_unknown():
    table, shared = await make_screen()
    await database_sync_to_async(actions.revoke_screen_link)(table=table)
    for token in (shared.token, "not-a-token-at-all-but-long-enough", "x" * 300):
        screen, connected = await open_screen(f"/ws/screen/{token}/")
        assert not connected


async def test_token_socket_refused_from_another_origin():
    table, shared = await make_screen()
    other = (b"origin", b"http://127.0.0.1:1")
    screen, connected = await open_screen(f"/ws/screen/{shared.token}/", origin=other)
    assert not connected


@pytest.mark.parametrize("change", ["revoke", "new link"])
async def test_revoking_or_renewing_the_link_closes_its_open_screens(change):
    table, shared = await make_screen()
    screen, _ = await open_screen(f"/ws/screen/{shared.token}/")
    await screen.receive_from()
    if change == "revoke":
        await database_sync_to_async(actions.revoke_screen_link)(table=table)
    else:
        await database_sync_to_async(actions.new_screen_link)(table=table)
    # The screen is told why, and closed with a code that asks it not to try again.
    assert "link was revoked" in await screen.receive_from(timeout=1)
    assert await screen.receive_output(timeout=1) == {"type": "websocket.close", "code": 4404}
    await screen.disconnect()
    # ...and the old token opens nothing any more.
    _, connected = await open_screen(f"/ws/screen/{shared.token}/")
    assert not connected


async def test_token_socket_carries_no_hidden_bytes():
    table, shared = await make_screen()

    @database_sync_to_async
    def setup():
        character = CharacterFactory(table=table, name="Sable")
        open_clock = ClockFactory(table=table, name="Alarm", segments=4)
        return character, open_clock

    character, open_clock = await setup()
    screen, _ = await open_screen(f"/ws/screen/{shared.token}/")
    frames = [await screen.receive_from()]

    @database_sync_to_async
    def gm_moves_in_secret():
        clock = table_actions.create_clock(
            table=table, name=f"{MARKER} plot", segments=6, kind="faction", visibility="gm"
        )
        table_actions.tick_clock(clock=clock, by=2)
        character_actions.set_gm_note(character=character, text=f"{MARKER} owes a debt")
        FactionFactory(table=table, name=f"{MARKER} Cabal", hidden=True)
        table_actions.quick_roll(
            table=table,
            roller=table.gm,
            kind=RollKind.FORTUNE,
            pool=2,
            note=f"{MARKER} whisper",
            secret=True,
            rng=random.Random(3),
        )

    await gm_moves_in_secret()
    # Nothing players could see changed: the screen hears nothing at all.
    assert await screen.receive_nothing(timeout=0.4)
    await database_sync_to_async(table_actions.tick_clock)(clock=open_clock, by=1)
    await database_sync_to_async(character_actions.mark_stress)(character=character, amount=1)
    while not await screen.receive_nothing(timeout=0.4):
        frames.append(await screen.receive_from())
    assert len(frames) >= 2
    assert all(is_signal(frame) and MARKER not in frame for frame in frames)
    # ...and the body each signal fetches is drawn as the players see it.
    body = await database_sync_to_async(Client().get)(
        f"/screen/{shared.token}/", headers={"HX-Request": "true"}
    )
    html = body.content.decode()
    assert "1 of 4 segments filled" in html and "Sable: stress 1 of 9" in html
    assert MARKER not in html
    await screen.disconnect()


async def test_members_screen_is_the_players_view_even_for_the_gm():
    table, _ = await make_screen()
    screen, connected = await open_screen(f"/ws/tables/{table.pk}/screen/", table.gm)
    assert connected
    assert is_signal(await screen.receive_from())
    await database_sync_to_async(table_actions.create_clock)(
        table=table, name=f"{MARKER} plot", segments=6, kind="faction", visibility="gm"
    )
    assert await screen.receive_nothing(timeout=0.4)
    await screen.disconnect()


async def test_members_screen_refused_to_a_stranger_and_logged_out():
    table, _ = await make_screen()
    stranger = await database_sync_to_async(TableFactory)()
    for user in (None, stranger.gm):
        _, connected = await open_screen(f"/ws/tables/{table.pk}/screen/", user)
        assert not connected


async def test_a_removed_players_screen_is_closed():
    table, _ = await make_screen()
    player = await database_sync_to_async(lambda: MembershipFactory(table=table).user)()
    screen, connected = await open_screen(f"/ws/tables/{table.pk}/screen/", player)
    assert connected
    await screen.receive_from()
    await database_sync_to_async(table_actions.remove_player)(table=table, user_id=player.pk)
    assert (await screen.receive_output(timeout=1))["type"] == "websocket.close"
    await screen.disconnect()
