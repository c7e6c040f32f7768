"""The crew sheet, the faction ladder and the shared screen in Spanish: the interface's
words from the catalog, the crew type's content from blades/content/es; the screen in
the table's language whoever looks at it."""

import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from crews import actions
from sessions.models import Table
from tests.factories import FactionFactory, TableFactory

from .test_screen_socket import open_screen

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def shown_text(response) -> str:
    """What a reader reads: the text between tags and what screen readers are told."""
    page = response.content.decode()
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    told = " ".join(
        re.findall(r'(?:aria-label|title|hx-confirm|data-announce-rolls)="([^"]*)"', page)
    )
    return re.sub(r"<[^>]+>", " ", page) + " " + told


def english_in(text: str, words: list[str]) -> list[str]:
    return [word for word in words if re.search(rf"\b{re.escape(word)}\b", text)]


# The sheet's interface words, and the Shadows' content as the English data has it.
CREW_SHEET_ENGLISH = [
    "Tier", "Hold", "Heat", "Coin", "Rep", "Wanted", "Books", "Crew xp", "Advances",
    "Special abilities", "Upgrades", "Claims", "Cohorts", "At war", "Turf", "Seize",
    "Remove", "Save books", "Edges", "Flaws", "Harm", "quality", "scale", "Unharmed",
    "Strong", "Weak", "Shadows", "Everyone Steals", "Interrogation Chamber", "Thugs",
    "Fearsome", "Wild", "Carriage", "Lair", "Training", "Crew upgrades", "None yet",
    "Who keeps the sheet",
]  # fmt: skip


@pytest.fixture
def crew_at_war(crew):
    FactionFactory(table=crew.table, name="Lampblacks", status=-3)
    actions.recruit_cohort(
        crew=crew, name="", kind="gang", types=["thugs"], edges=["fearsome"], flaws=["wild"],
        gained_in_play=True,
    )  # fmt: skip
    return crew


def test_the_crew_sheet_reads_in_spanish_for_a_spanish_reader(client, crew_at_war, gm):
    client.force_login(gm)
    page = client.get(reverse("crew_detail", args=[crew_at_war.table_id]), **SPANISH)
    text = shown_text(page)
    for spanish in (
        "Calor", "Rango", "Monedas", "Sombras", "Todos roban", "Sala de interrogatorios",
        "Rufianes", "Temibles", "Ilesa", "En guerra", "Mejoras de banda", "Habilidades especiales",
    ):  # fmt: skip
        assert spanish in text, spanish
    assert english_in(text, CREW_SHEET_ENGLISH) == []


def test_an_english_reader_keeps_the_english_sheet(client, crew_at_war, gm):
    client.force_login(gm)
    page = client.get(reverse("crew_detail", args=[crew_at_war.table_id]), **ENGLISH)
    text = shown_text(page)
    assert english_in(text, ["Heat", "Shadows", "Everyone Steals", "Thugs", "Unharmed"]) == [
        "Heat", "Shadows", "Everyone Steals", "Thugs", "Unharmed",
    ]  # fmt: skip
    assert "Calor" not in text


def test_the_faction_ladder_reads_in_spanish(client, crew_at_war, gm):
    client.force_login(gm)
    text = shown_text(client.get(reverse("faction_list", args=[crew_at_war.table_id]), **SPANISH))
    assert "Rango" in text and "Control fuerte" in text and "Guerra" in text
    english = ["Tier", "Strong hold", "War", "Factions", "Status", "Delete", "Add faction"]
    assert english_in(text, english) == []


SCREEN_ENGLISH = [
    "Tier", "Hold", "Heat", "Coin", "Wanted", "At war", "Clocks", "Latest rolls",
    "The scoundrels", "Shadows", "Dice sound", "Share this view", "table view",
    "Rolls as they land",
]  # fmt: skip


def test_the_screen_of_a_spanish_table_is_spanish_for_an_english_browser(client, crew_at_war, gm):
    table = crew_at_war.table
    Table.objects.filter(pk=table.pk).update(language="es")
    shared = actions.new_screen_link(table=table)
    client.force_login(gm)
    for url in (reverse("screen", args=[table.pk]), reverse("screen_shared", args=[shared.token])):
        text = shown_text(client.get(url, **ENGLISH))
        assert "Relojes" in text and "Calor" in text and "Sombras" in text, url
        assert english_in(text, SCREEN_ENGLISH) == [], url
    # What each fetch of the body brings is drawn in the same language.
    body = client.get(reverse("screen_shared", args=[shared.token]), headers={"HX-Request": "1"})
    assert "Relojes" in shown_text(body)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_revoked_links_last_frame_is_in_the_tables_language():
    @database_sync_to_async
    def spanish_screen():
        table = TableFactory(language="es")
        return table, actions.new_screen_link(table=table)

    table, shared = await spanish_screen()
    screen, _ = await open_screen(f"/ws/screen/{shared.token}/")
    await screen.receive_from()
    await database_sync_to_async(actions.revoke_screen_link)(table=table)
    frame = await screen.receive_from(timeout=1)
    assert "revocado" in frame and "link was revoked" not in frame
    await screen.disconnect()


def test_the_screens_feed_speaks_the_tables_language(client, crew):
    Table.objects.filter(pk=crew.table_id).update(language="es")
    shared = actions.new_screen_link(table=crew.table)
    feed = client.get(reverse("screen_feed", args=[shared.token]), **ENGLISH).json()
    assert feed["crew"]["type"] == "Sombras"
