"""The GM resolves an entanglement with one tap (issue 15, issue 40): the roll's
entanglements as cards with their ways out on them; a refusal is drawn beside the field
at fault, what was chosen stays chosen, and the second try goes through."""

import re

import pytest
from playwright.sync_api import expect

from crews.models import Crew
from tests.browsers import PHONE, assert_accessible, assert_fits_phone, wait_for_socket

pytestmark = pytest.mark.browser


def test_the_gm_resolves_an_entanglement_with_one_tap(person, server, reprisals):
    gm = person("gm", viewport=PHONE)
    gm.goto(f"{server.url}/tables/{reprisals.pk}/phase/")
    wait_for_socket(gm)
    expect(gm.get_by_text("The roll gives Reprisals or Unquiet Dead: choose one.")).to_be_visible()
    expect(gm.get_by_label("Entanglement", exact=True)).to_have_count(0)
    cards = gm.get_by_role("radiogroup", name="Entanglement and way out")
    expect(cards.get_by_role("group")).to_have_count(2)
    way = cards.get_by_role("radio", name="Reprisals: Pay 1 rep and 1 coin per tier of the faction")
    way.check()
    # The form asks only what this way out needs: the faction, not who is handed over
    # (issue 39).
    expect(gm.get_by_label("Faction involved")).to_be_visible()
    for unneeded in ("Who is handed over", "Claim to give up", "PC involved"):
        expect(gm.get_by_label(re.compile(f"^{unneeded}"))).to_be_hidden()
    gm.get_by_role("button", name="Apply the choice").click()

    # Refused beside the faction, with the menu and the typed name as they were.
    faction = gm.get_by_label("Faction involved")
    expect(faction).to_have_attribute("aria-invalid", "true")
    expect(faction).to_have_accessible_description("Choose the faction involved in Reprisals.")
    expect(gm.get_by_role("alert")).to_have_count(1)
    expect(way).to_be_checked()
    assert_accessible(gm)
    assert_fits_phone(gm)

    faction.select_option(label="Bluecoats (tier 2)")
    gm.get_by_role("button", name="Apply the choice").click()
    expect(gm.get_by_role("heading", name="Downtime activities")).to_be_visible()
    expect(gm.locator("#phase-panel")).to_contain_text("Reprisals: Pay 2 rep and 2 coin")
    crew = Crew.objects.get()
    assert (crew.rep, crew.coin) == (3, 4)
