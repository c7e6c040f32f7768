"""A table with everything a GM can hide, and the table URLs to try against it."""

from dataclasses import dataclass

import pytest

from tests.security.urls import table_urls

# Words that exist only in things the GM hides; a player's bytes must never hold them.
HIDDEN_CLOCK = "Zq-hidden-clock-name"
GM_NOTE = "Zq-gm-note-text"
SECRET_ROLL = "Zq-secret-roll-note"
SECRETS = (HIDDEN_CLOCK, GM_NOTE, SECRET_ROLL)


@dataclass
class Scene:
    table: object
    gm: object
    player: object
    other_player: object
    character: object  # the player's
    other_character: object  # the other player's
    clock: object  # visible
    hidden_clock: object

    def ids(self, character=None) -> dict:
        return {
            "table_id": self.table.pk,
            "clock_id": self.clock.pk,
            "character_id": (character or self.other_character).pk,
            "user_id": self.other_player.pk,
        }

    def urls(self, character=None):
        return table_urls(**self.ids(character))


def build_scene(table=None) -> Scene:
    from tests.factories import (
        CharacterFactory,
        ClockFactory,
        GmNoteFactory,
        MembershipFactory,
        RollFactory,
        TableFactory,
    )

    table = table or TableFactory()
    player = MembershipFactory(table=table).user
    other_player = MembershipFactory(table=table).user
    character = CharacterFactory(table=table, owner=player)
    other_character = CharacterFactory(table=table, owner=other_player)
    GmNoteFactory(character=character, text=GM_NOTE)
    GmNoteFactory(character=other_character, text=GM_NOTE)
    RollFactory(table=table, roller=table.gm, secret=True, note=SECRET_ROLL)
    return Scene(
        table=table,
        gm=table.gm,
        player=player,
        other_player=other_player,
        character=character,
        other_character=other_character,
        clock=ClockFactory(table=table, name="Open threat"),
        hidden_clock=ClockFactory(table=table, name=HIDDEN_CLOCK, visibility="gm"),
    )


@pytest.fixture
def scene(db) -> Scene:
    return build_scene()


def assert_no_secrets(raw: bytes) -> None:
    for secret in SECRETS:
        assert secret.encode() not in raw, f"{secret} leaked"
