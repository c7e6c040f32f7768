"""The GM resolves an entanglement in one menu (issue 15): the roll's entanglements and
their ways out together; a refusal is drawn beside the field at fault, what was chosen
stays chosen, and the second try goes through."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from crews import actions as crew_actions
from crews.models import Crew
from play import phases
from sessions import actions
from tests.browsers import PHONE, assert_accessible, assert_fits_phone, wait_for_socket
from tests.factories import FactionFactory
from tests.helpers import Dice

pytestmark = pytest.mark.browser


@pytest.fixture
def reprisals(transactional_db, make_user):
    """Heat 4, wanted 1, a 4 on the die: Reprisals or Unquiet Dead."""
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm = make_user("gm")
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
    FactionFactory(table=table, name="Bluecoats", tier=2)
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    Crew.objects.filter(pk=crew.pk).update(heat=4, wanted=1, rep=5, coin=6)
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(4))
    return table


def test_the_gm_resolves_an_entanglement_in_one_menu(person, server, reprisals):
    gm = person("gm", viewport=PHONE)
    gm.goto(f"{server.url}/tables/{reprisals.pk}/phase/")
    wait_for_socket(gm)
    expect(gm.get_by_text("The roll gives Reprisals or Unquiet Dead: choose one.")).to_be_visible()
    expect(gm.get_by_label("Entanglement", exact=True)).to_have_count(0)
    menu = gm.get_by_label("Entanglement and way out")
    expect(menu.locator("optgroup")).to_have_count(2)
    menu.select_option(label="Reprisals: Pay 1 rep and 1 coin per tier of the faction")
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
    expect(menu).to_have_value("Reprisals:pay")
    assert_accessible(gm)
    assert_fits_phone(gm)

    faction.select_option(label="Bluecoats (tier 2)")
    gm.get_by_role("button", name="Apply the choice").click()
    expect(gm.get_by_role("heading", name="Downtime activities")).to_be_visible()
    expect(gm.locator("#phase-panel")).to_contain_text("Reprisals: Pay 2 rep and 2 coin")
    crew = Crew.objects.get()
    assert (crew.rep, crew.coin) == (3, 4)
