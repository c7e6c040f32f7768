"""What the GM hides never reaches a player: not in a page, a fragment or a socket frame.

The checks scan raw bytes, so a secret cannot slip through in an attribute, a comment
or an escaped form of the same text.
"""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from blades.asgi import application
from tests.helpers import ORIGIN, session_cookie
from tests.security.conftest import (
    GM_NOTE,
    HIDDEN_CLOCK,
    SECRET_ROLL,
    assert_no_secrets,
    build_scene,
)
from tests.sockets import Socket


def test_no_page_or_fragment_a_player_gets_holds_a_secret(client, scene):
    client.force_login(scene.player)
    for character in (scene.character, scene.other_character):
        for url in scene.urls(character=character):
            for htmx in (False, True):
                headers = {"HX-Request": "true"} if htmx else {}
                response = client.get(url.url, headers=headers)
                assert_no_secrets(response.content)
                assert response.status_code != 500, url
    # The player's own moves answer with fragments of the sheet: no GM note in them.
    response = client.post(
        f"/tables/{scene.table.pk}/characters/{scene.character.pk}/do/stress/",
        {"amount": "1"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert_no_secrets(response.content)


def test_the_gm_does_see_them(client, scene):
    client.force_login(scene.gm)
    table_page = client.get(f"/tables/{scene.table.pk}/").content
    sheet = client.get(f"/tables/{scene.table.pk}/characters/{scene.character.pk}/").content
    assert HIDDEN_CLOCK.encode() in table_page and SECRET_ROLL.encode() in table_page
    assert GM_NOTE.encode() in sheet


def _gm_does_everything_hidden(scene) -> None:
    """Every GM move on hidden things, through the same URLs the page uses."""
    gm = Client()
    gm.force_login(scene.gm)
    table, hidden = scene.table.pk, scene.hidden_clock.pk
    hx = {"HX-Request": "true"}
    gm.post(f"/tables/{table}/clocks/{hidden}/tick/", {"ticks": "1"}, headers=hx)
    prefix = f"clock-{hidden}"
    gm.post(
        f"/tables/{table}/clocks/{hidden}/",
        {
            f"{prefix}-name": HIDDEN_CLOCK + " renamed",
            f"{prefix}-segments": 6,
            f"{prefix}-kind": "danger",
            f"{prefix}-visibility": "gm",
        },
        headers=hx,
    )
    gm.post(
        f"/tables/{table}/clocks/",
        {
            "new-clock-name": HIDDEN_CLOCK + " two",
            "new-clock-segments": 4,
            "new-clock-kind": "danger",
            "new-clock-visibility": "gm",
        },
        headers=hx,
    )
    gm.post(
        f"/tables/{table}/rolls/",
        {"kind": "fortune", "pool": 2, "note": SECRET_ROLL + " again", "secret": "on"},
        headers=hx,
    )
    for character in (scene.character, scene.other_character):
        url = f"/tables/{table}/characters/{character.pk}"
        gm.post(f"{url}/do/gm-note/", {"text": GM_NOTE + " updated"}, headers=hx)
        # A change players do see, so the sheet is pushed while the note is set.
        gm.post(f"{url}/do/stress/", {"amount": "1"}, headers=hx)
    gm.post(f"/tables/{table}/clocks/{hidden}/delete/", headers=hx)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_socket_frame_a_player_gets_holds_a_secret():
    scene = await database_sync_to_async(build_scene)()
    sockets = []
    for user in (scene.player, scene.gm):
        communicator = Socket(
            application,
            f"/ws/tables/{scene.table.pk}/",
            headers=[
                ORIGIN,
                (b"cookie", (await database_sync_to_async(session_cookie)(user)).encode()),
            ],
        )
        assert (await communicator.connect())[0]
        sockets.append(communicator)
    player, gm = sockets
    await database_sync_to_async(_gm_does_everything_hidden)(scene)
    player_frames, gm_frames = [], []
    for communicator, frames in ((player, player_frames), (gm, gm_frames)):
        # receive_nothing waits without cancelling the consumer, unlike a receive timeout.
        while not await communicator.receive_nothing(timeout=0.5):
            frames.append(await communicator.receive_from())
        await communicator.disconnect()
    assert_no_secrets("".join(player_frames).encode())
    # The GM's socket did carry them: the scan above looked at frames that matter.
    assert HIDDEN_CLOCK in "".join(gm_frames) and SECRET_ROLL in "".join(gm_frames)
    assert len(player_frames) >= 3  # snapshot, presence, the visible stress changes
