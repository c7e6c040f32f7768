"""The crew sheet, clicked by the GM and watched live by two players on phones; the
crew founded by cards; the faction ladder's status tracks tapped by the GM."""

import re

import pytest
from playwright.sync_api import expect

from crews import actions as crew_actions
from crews.models import Faction
from sessions.models import Table
from tests.browsers import (
    PHONE,
    assert_accessible,
    assert_fits_phone,
    read_well_at_both_sizes,
    start_table,
    wait_for_socket,
)

pytestmark = pytest.mark.browser


def test_the_crew_chooses_its_ability_in_creation_and_a_waiting_player_sees_it(
    person, make_user, server
):
    gm, ada, _ = start_table(person, make_user)
    crew_url = gm.url.rstrip("/") + "/crew/"
    ada.set_viewport_size(PHONE)
    ada.goto(crew_url)
    # A player is invited to found it too; here the GM does, and Ada's form gives way.
    expect(ada.get_by_role("heading", name="Found the crew")).to_be_visible()
    wait_for_socket(ada)
    gm.goto(crew_url)
    gm.get_by_role("radio", name=re.compile("^Shadows")).check()
    # The type's sheet follows the card chosen: its abilities, its contacts.
    gm.get_by_role("radio", name="Ghost Echoes", exact=False).check()
    gm.get_by_role("checkbox", name="Vault", exact=False).check()
    gm.get_by_role("radio", name="Fitz, collector").check()
    assert_accessible(gm)
    gm.get_by_label("Crew name").fill("The Lamplighters")
    gm.get_by_role("button", name="Create the crew").click()
    expect(gm.get_by_role("heading", name="The Lamplighters", level=1)).to_be_visible()
    for page in (gm, ada):
        abilities = page.locator(
            "section", has=page.get_by_role("heading", name="Special abilities")
        )
        expect(abilities.get_by_text("Ghost Echoes", exact=True)).to_be_visible(timeout=15_000)
        expect(abilities.get_by_text("Everyone Steals", exact=True)).to_have_count(0)
        expect(page.get_by_text("Fitz")).to_be_visible()
    expect(ada.get_by_role("img", name="Vault: 1 of 2 boxes")).to_be_attached()
    assert_accessible(ada)
    assert_fits_phone(ada)


def test_a_player_founds_the_crew_and_the_gm_sees_the_sheet_live(person, make_user, server):
    """Issue 40: each player "works with the other players to create the crew"."""
    gm, ada, _ = start_table(person, make_user)
    crew_url = gm.url.rstrip("/") + "/crew/"
    gm.goto(crew_url)
    expect(gm.get_by_role("heading", name="Found the crew")).to_be_visible()
    wait_for_socket(gm)
    ada.set_viewport_size(PHONE)
    ada.goto(crew_url)
    expect(ada.get_by_text("anyone at the table may found it")).to_be_visible()
    # Each crew type a card: what it is, where it hunts and what earns its xp, read as
    # the radio's description. The keyboard moves from card to card.
    types = ada.get_by_role("radiogroup", name="Crew type")
    expect(types.get_by_role("radio")).to_have_count(7)
    bravos = types.get_by_role("radio", name="Bravos Mercenaries, thugs and killers")
    expect(bravos).to_have_accessible_description(
        re.compile("^Hunting grounds: Battle, Extortion, Sabotage, Smash & Grab Crew xp: ")
    )
    types.get_by_role("radio", name=re.compile("^Assassins")).focus()
    ada.keyboard.press("ArrowDown")
    expect(bravos).to_be_checked()
    expect(bravos).to_be_focused()
    # A tap on a card's words takes it too: the ability's description, the contact.
    ada.get_by_text("Cohorts fighting beside you get +1d", exact=False).click()
    expect(ada.get_by_role("radio", name="Blood Brothers")).to_be_checked()
    ada.get_by_role("radio", name="Meg, pit-fighter").check()
    upgrades = ada.get_by_role("group", name="Mark 2 upgrade boxes")
    upgrades.get_by_role("checkbox", name="Bravos Rigging").check()
    ada.get_by_label("Crew name").fill("The Red Sashes")
    read_well_at_both_sizes(ada)
    ada.get_by_role("button", name="Create the crew").click()
    expect(ada.get_by_role("heading", name="The Red Sashes", level=1)).to_be_visible()
    # The GM's page swaps its own form for the sheet, drawn for the GM: the books'
    # buttons and who keeps the sheet, which stay the GM's.
    expect(gm.get_by_role("heading", name="The Red Sashes", level=1)).to_be_visible(timeout=15_000)
    abilities = gm.locator("section", has=gm.get_by_role("heading", name="Special abilities"))
    expect(abilities.get_by_text("Blood Brothers", exact=True)).to_be_visible()
    expect(gm.get_by_role("img", name=re.compile("^Bravos Rigging: 1 of"))).to_be_attached()
    expect(gm.get_by_role("button", name="Heat 1 of 9")).to_be_visible()
    expect(gm.get_by_role("heading", name="Who keeps the sheet")).to_be_visible()
    expect(ada.get_by_role("button", name="Heat 1 of 9")).to_have_count(0)
    expect(ada.get_by_role("heading", name="Who keeps the sheet")).to_have_count(0)
    assert_fits_phone(ada)


def test_gm_keeps_the_books_and_players_watch_live(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    table_url = gm.url
    gm.get_by_role("link", name="Crew sheet").click()
    gm.get_by_role("radio", name=re.compile("^Shadows")).check()
    # The type's choices are drawn again for Shadows before the crew is founded.
    expect(gm.get_by_role("radio", name="Everyone Steals", exact=False)).to_be_visible()
    gm.get_by_label("Crew name").fill("The Lamplighters")
    gm.get_by_role("button", name="Create the crew").click()
    expect(gm.get_by_role("heading", name="The Lamplighters", level=1)).to_be_visible()
    wait_for_socket(gm)

    watchers = []
    for page in (ada, bo):
        page.set_viewport_size(PHONE)
        page.goto(table_url.rstrip("/") + "/crew/")
        wait_for_socket(page)
        expect(page.get_by_role("img", name="Heat 0 of 9")).to_be_visible()
        watchers.append(page)

    # Each click waits for its answer: the section is swapped under the pointer.
    # The books are tapped like the PC sheet's tracks: a box marks up to it, the last
    # marked box clears it.
    for box, heat in ((1, 1), (3, 3), (3, 2)):
        gm.get_by_role("button", name=f"Heat {box} of 9").click()
        expect(gm.get_by_role("group", name=f"Heat {heat} of 9")).to_be_visible()
    gm.get_by_role("button", name="Coin 3 of 4").click()
    expect(gm.get_by_role("button", name="Coin 3 of 4")).to_have_attribute("aria-pressed", "true")
    gm.get_by_role("button", name="Wanted level 1 of 4").click()
    for page in watchers:
        expect(page.get_by_role("img", name="Heat 2 of 9")).to_be_visible(timeout=15_000)
        # A new crew starts with 2 coin (SRD_FACTS §6.2).
        expect(page.get_by_role("img", name="Coin 3 of 4")).to_be_visible(timeout=15_000)
        expect(page.get_by_role("img", name="Wanted level 1 of 4")).to_be_visible(timeout=15_000)
    # Players do not keep the books by default: no buttons for them.
    expect(ada.get_by_role("button", name="Heat 1 of 9")).to_have_count(0)

    assert_accessible(gm)
    assert_accessible(ada)
    assert_fits_phone(ada)


def test_the_gm_taps_a_faction_status_on_its_track_and_a_player_watches(person, make_user, server):
    """Issue 40: status drawn as the track war to allies, each step a button for the GM;
    a player's page follows live and never learns of a hidden faction."""
    gm, ada, _ = start_table(person, make_user)
    table = Table.objects.get()
    crew_actions.create_faction(table=table, name="Bluecoats", tier=2, hold="strong", status=0)
    crew_actions.create_faction(
        table=table, name="The Circle of Flame", tier=3, hold="strong", status=1, hidden=True
    )
    url = gm.url.rstrip("/") + "/factions/"
    ada.set_viewport_size(PHONE)
    for page in (gm, ada):
        page.goto(url)
        wait_for_socket(page)
    track = gm.get_by_role("group", name="Status with Bluecoats")
    expect(track.get_by_role("button")).to_have_count(7)
    expect(track.get_by_role("button", name="+0 Neutral")).to_have_attribute("aria-pressed", "true")
    expect(ada.get_by_role("img", name="Status with Bluecoats: +0 Neutral")).to_be_visible()
    expect(ada.get_by_role("button", name="-2 Hostile")).to_have_count(0)
    read_well_at_both_sizes(gm, ada)

    track.get_by_role("button", name="-2 Hostile").click()
    expect(track.get_by_role("button", name="-2 Hostile")).to_have_attribute("aria-pressed", "true")
    expect(gm.get_by_role("article", name="Bluecoats").locator(".status")).to_have_text(
        "-2 Hostile"
    )
    expect(ada.get_by_role("img", name="Status with Bluecoats: -2 Hostile")).to_be_visible(
        timeout=15_000
    )
    # By keyboard: each step is a button the focus reaches and Enter presses.
    track.get_by_role("button", name="-3 War").focus()
    gm.keyboard.press("Enter")
    expect(ada.get_by_role("img", name="Status with Bluecoats: -3 War")).to_be_visible(
        timeout=15_000
    )
    # The hidden faction's track is the GM's alone, tapped or not.
    hidden = gm.get_by_role("group", name="Status with The Circle of Flame")
    hidden.get_by_role("button", name="+2 Friendly").click()
    expect(hidden.get_by_role("button", name="+2 Friendly")).to_have_attribute(
        "aria-pressed", "true"
    )
    statuses = dict(Faction.objects.values_list("name", "status"))
    assert statuses == {"Bluecoats": -3, "The Circle of Flame": 2}
    expect(ada.get_by_text("The Circle of Flame")).to_have_count(0)
    expect(ada.get_by_role("img", name="Status with Bluecoats: -3 War")).to_be_visible()
    assert_fits_phone(ada)
