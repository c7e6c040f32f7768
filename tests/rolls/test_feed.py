"""The shared screen's JSON feed: what the screen shows, as the players see it, in the
shape docs/feed.schema.json promises; and nothing once the link is revoked."""

import json
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings
from django.urls import reverse

from characters import actions as sheet
from crews import actions
from tests.factories import (
    ActionRollFactory,
    CharacterFactory,
    ClockFactory,
    RollFactory,
    TableFactory,
)

pytestmark = pytest.mark.django_db
SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "feed.schema.json").read_text())
HIDDEN = "Zq-hidden"


def feed(client, token):
    return client.get(reverse("screen_feed", args=[token]))


def a_table_in_play():
    table = TableFactory()
    actions.create_crew(table=table, crew_type="shadows", name="The Lanterns")
    ClockFactory(table=table, name="Bluecoats close in", segments=6, filled=2)
    ClockFactory(table=table, name=f"{HIDDEN} plot", visibility="gm")
    sable = CharacterFactory(table=table, name="Sable", stress=3, traumas=["cold"])
    sheet.add_harm(character=sable, level=2, description="Broken hand")
    log = RollFactory(table=table, character=sable, dice=[2, 4, 5, 3], pool=4)
    ActionRollFactory(
        table=table, character=sable, goal="Slip past", step="consequences", pool=4,
        dice=[2, 4, 5, 3], outcome="partial", position="desperate", log=log,
    )  # fmt: skip
    ActionRollFactory(table=table, character=sable, goal=f"{HIDDEN} roll", secret=True)
    RollFactory(table=table, note=f"{HIDDEN} whisper", secret=True)
    return table, sable


def test_the_feed_follows_its_schema_and_shows_what_players_see(client):
    table, sable = a_table_in_play()
    shared = actions.new_screen_link(table=table)
    response = feed(client, shared.token)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert HIDDEN.encode() not in response.content
    data = response.json()
    jsonschema.validate(data, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert data["crew"]["name"] == "The Lanterns"
    assert [c["name"] for c in data["clocks"]] == ["Bluecoats close in"]
    (scoundrel,) = data["scoundrels"]
    assert scoundrel["stress"] == 3 and scoundrel["traumas"] == ["cold"]
    assert {"level": 2, "entries": ["Broken hand"], "penalty": "\u22121d"} in scoundrel["harm"]
    (rolling,) = data["rolling"]
    # The counting die is the highest: 5, third of the four.
    assert rolling["dice"] == [2, 4, 5, 3] and rolling["counting"] == 2
    assert data["latest_rolls"][0]["counting"] == 2


def test_a_table_with_nothing_yet_follows_the_schema(client):
    shared = actions.new_screen_link(table=TableFactory())
    data = feed(client, shared.token).json()
    jsonschema.validate(data, SCHEMA)
    assert data["crew"] is None and data["rolling"] == []


def test_the_feed_ends_with_its_link(client):
    table, _ = a_table_in_play()
    shared = actions.new_screen_link(table=table)
    actions.new_screen_link(table=table)
    gone = feed(client, shared.token)
    assert gone.status_code == 404
    assert "revoked" in gone.json()["error"]
    renewed = table.screen
    renewed.refresh_from_db()
    assert feed(client, renewed.token).status_code == 200
    actions.revoke_screen_link(table=table)
    assert feed(client, renewed.token).status_code == 404
    assert feed(client, "not a token").status_code == 404
