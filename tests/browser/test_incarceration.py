"""The GM sends a PC to prison from the phase page: the sentence is served at once (the
crew's tier rolled into the log), wanted drops by one and heat clears (003)."""

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from crews import actions as crew_actions
from crews.models import Crew
from sessions import actions
from tests.browsers import PHONE, assert_accessible, wait_for_socket
from tests.factories import CharacterFactory

pytestmark = pytest.mark.browser


@pytest.fixture
def wanted(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm = make_user("gm")
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
    Crew.objects.filter(pk=crew.pk).update(heat=5, wanted=2)
    CharacterFactory(table=table, name="Cross")
    return table


def test_the_gm_sends_a_pc_to_prison_and_the_sentence_is_served(person, server, wanted):
    gm = person("gm", viewport=PHONE)
    gm.goto(f"{server.url}/tables/{wanted.pk}/phase/")
    wait_for_socket(gm)
    form = gm.locator("form", has=gm.get_by_role("heading", name="Send someone to prison"))
    expect(form).to_contain_text("Wanted level 2: several months.")
    form.get_by_label("PC who serves the time").select_option(label="Cross")
    claim = form.get_by_label("Prison claim the crew takes if the time inside earns one")
    claim.select_option(label="Cell Block Control: Never take trauma from incarceration.")
    assert_accessible(gm)
    form.get_by_role("button", name="Serve the sentence: roll the crew's tier").click()
    expect(gm.locator("#phase-panel")).to_contain_text("Wanted level 1: a month or two.")
    expect(gm.get_by_text("Cross serves time: several months").first).to_be_visible()
    crew = Crew.objects.get()
    assert (crew.heat, crew.wanted) == (0, 1)
