"""What the table socket carries about characters: the party in the catch-up snapshot,
and never the GM's private notes."""

import re

import pytest
from channels.db import database_sync_to_async

from characters import actions
from tests.factories import CharacterFactory, GmNoteFactory, MembershipFactory, TableFactory
from tests.helpers import connect, drain_greeting

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]

SECRET = "Owes the Lampblacks a debt he cannot pay"


@database_sync_to_async
def make_party():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    character = CharacterFactory(table=table, owner=player, name="Sable", stress=3)
    GmNoteFactory(character=character, text=SECRET)
    return table, player, character


async def test_snapshot_brings_the_party_and_makes_open_sheets_catch_up():
    table, player, character = await make_party()
    communicator, _ = await connect(player, table.pk)
    snapshot = await communicator.receive_from()
    assert '<ul id="party" class="plain party" hx-swap-oob="morph">' in snapshot
    assert f'id="party-{character.pk}"' in snapshot
    assert "Sable" in snapshot and "Stress 3/9" in snapshot
    # Only the list swaps out-of-band, not each member inside it as well.
    member_tag = re.search(rf'<[^>]*id="party-{character.pk}"[^>]*>', snapshot).group(0)
    assert "hx-swap-oob" not in member_tag
    assert f'id="sheet-signal-{character.pk}"' in snapshot
    # It fetches only if the sheet shows an older revision than the database has.
    # (table.js compares the two; the signal carries the revision it was pushed with.)
    signal = re.search(rf'<div id="sheet-signal-{character.pk}"[^>]*>', snapshot).group(0)
    assert f'data-sheet="sheet-{character.pk}" data-revision="{character.revision}"' in signal
    await communicator.disconnect()


async def test_gm_notes_are_never_in_a_players_snapshot_or_pushes():
    table, player, character = await make_party()
    communicator, _ = await connect(player, table.pk)
    greeting = await drain_greeting(communicator)
    assert "Sable" in greeting and SECRET not in greeting
    await database_sync_to_async(actions.set_gm_note)(character=character, text=SECRET + "!")
    assert await communicator.receive_nothing(timeout=0.3)
    await database_sync_to_async(actions.mark_stress)(character=character, amount=1)
    frame = await communicator.receive_from()
    assert "Stress 4/9" in frame and SECRET not in frame
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_the_gm_gets_the_party_too():
    table, player, character = await make_party()
    communicator, _ = await connect(table.gm, table.pk)
    snapshot = await communicator.receive_from()
    assert f'id="party-{character.pk}"' in snapshot
    # The notes reach the GM only on the sheet page, over HTTP.
    assert SECRET not in snapshot
    await communicator.disconnect()
