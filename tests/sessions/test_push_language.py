"""Each socket reads the table's pushes and its snapshot in its reader's language, and the
shared screen in the table's; a table whose sockets all read English draws each push once
per audience, as before (docs/i18n.md)."""

from collections import Counter

import pytest
from channels.db import database_sync_to_async

from blades.server.language import SESSION_KEY, socket_language
from sessions import actions, live
from sessions.models import Presence
from tests.crews.test_screen_socket import is_signal, make_screen, open_screen
from tests.factories import ClockFactory, MembershipFactory
from tests.helpers import connect, drain, drain_greeting, make_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TICKED = {"en": "1 of 4 segments filled", "es": "1 de 4 segmentos llenos"}
ROLL_LOG = {"en": 'aria-label="Roll log"', "es": 'aria-label="Registro de tiradas"'}


async def a_table_read_in_two_languages():
    table, gm, player = await make_table()
    other = (await database_sync_to_async(MembershipFactory)(table=table)).user
    clock = await database_sync_to_async(ClockFactory)(table=table, name="Alarm", segments=4)
    return table, gm, {"en": player, "es": other}, clock


async def test_a_gms_change_reaches_each_player_in_their_language():
    table, gm, players, clock = await a_table_read_in_two_languages()
    sockets = {}
    for language, player in players.items():
        sockets[language], _ = await connect(player, table.pk, language=language)
        snapshot = await sockets[language].receive_from()
        assert ROLL_LOG[language] in snapshot
    for socket in sockets.values():
        await drain(socket)
    await database_sync_to_async(actions.tick_clock)(clock=clock, by=1)
    for language, socket in sockets.items():
        frame = await socket.receive_from()
        assert TICKED[language] in frame
        assert TICKED["es" if language == "en" else "en"] not in frame
        await socket.disconnect()


async def test_an_english_table_draws_each_push_once_per_audience():
    table, gm, players, _ = await a_table_read_in_two_languages()
    sockets = [
        (await connect(user, table.pk, language="en"))[0] for user in (gm, *players.values())
    ]
    for socket in sockets:
        await drain_greeting(socket)
    drawn = Counter()

    def push() -> None:
        live.push(
            table.pk,
            gm=lambda: drawn.update(["gm"]) or "<p>GM</p>",
            players=lambda: drawn.update(["players"]) or "<p>Players</p>",
        )

    await database_sync_to_async(push)()
    assert drawn == {"gm": 1, "players": 1}
    spanish, _ = await connect(players["es"], table.pk, language="es")
    await drain(spanish)
    await database_sync_to_async(push)()
    # A language somebody at the table reads is drawn for both audiences.
    assert drawn == {"gm": 3, "players": 3}
    for socket in [*sockets, spanish]:
        await socket.disconnect()


async def test_the_shared_screen_reads_the_tables_language():
    table, shared = await make_screen()
    table.language = "es"
    await database_sync_to_async(table.save)()
    clock = await database_sync_to_async(ClockFactory)(table=table, name="Alarm", segments=4)
    english = (await database_sync_to_async(MembershipFactory)(table=table)).user
    page, _ = await connect(english, table.pk, language="en")
    await drain_greeting(page)
    screen, _ = await open_screen(f"/ws/screen/{shared.token}/")
    assert is_signal(await screen.receive_from())
    rows = Presence.objects.filter(table=table).values_list("user_id", "language")
    assert set(await database_sync_to_async(list)(rows)) == {(english.pk, "en"), (None, "es")}
    await database_sync_to_async(actions.tick_clock)(clock=clock, by=1)
    assert is_signal(await screen.receive_from())
    assert TICKED["en"] in await page.receive_from()
    await screen.disconnect()
    await page.disconnect()


async def test_a_sockets_language_is_its_readers_choice_else_its_browsers():
    def scope(choice: str | None, accept: bytes) -> dict:
        # A session already read, as seating leaves it.
        session = {} if choice is None else {SESSION_KEY: choice}
        return {"session": session, "headers": [(b"accept-language", accept)], "cookies": {}}

    assert socket_language(scope(None, b"es-ES,es;q=0.9")) == "es"
    assert socket_language(scope("en", b"es-ES,es;q=0.9")) == "en"
    assert socket_language(scope(None, b"fr")) == "en"
