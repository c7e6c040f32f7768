"""The phase's judgments as things of the game you act on (issue 40): the entanglement
table drawn as the book's with the rolled cell lit and its entanglements as cards, each
downtime activity a card with its cost, and the end-of-session xp as the sheet's own
triggers, ticked. The GM on a phone and a player on a desktop tap through them (one of
the taps by keyboard), and every page is read by axe at both sizes for both of them."""

import re

import pytest
from playwright.sync_api import expect

from characters.models import Character
from crews.models import Crew
from play.models import DowntimeActivity
from tests.browser.test_every_page import SMALL_TARGETS
from tests.browsers import DESKTOP, PHONE, read_well_at_both_sizes, wait_for_socket
from tests.factories import AdaFactory, MembershipFactory

pytestmark = pytest.mark.browser


def read_well(*pages):
    """axe and the phone's width at both sizes, and every card big enough for a finger."""
    read_well_at_both_sizes(*pages)
    for page in pages:
        assert page.evaluate(SMALL_TARGETS) == []


@pytest.fixture
def table(reprisals, make_user):
    """The Crows' Nest at its entanglement (conftest), with Ada at the table."""
    ada_user = make_user("ada")
    MembershipFactory(table=reprisals, user=ada_user)
    AdaFactory(table=reprisals, owner=ada_user, stress=0, coin=2)
    return reprisals


def test_the_gm_and_a_player_tap_the_judgments_as_cards(person, server, table):
    url = f"{server.url}/tables/{table.pk}/phase/"
    gm = person("gm", viewport=PHONE)
    ada = person("ada", viewport=DESKTOP)
    for page in (gm, ada):
        page.goto(url)
        wait_for_socket(page)

    # The book's table, for everyone: the cell the roll read is lit, and says so.
    for page in (gm, ada):
        book = page.get_by_role("table", name="The entanglement table")
        expect(book.get_by_role("columnheader")).to_have_text(
            ["Die", "Heat 0-3", "Heat 4-5", "Heat 6+"]
        )
        lit = book.locator("td[aria-current=true]")
        expect(lit).to_have_count(1)
        expect(lit).to_have_text(re.compile(r"^\s*Reprisals\s*Unquiet Dead"))
        expect(lit).to_contain_text("(rolled)")
    # The player reads the ways out; the GM taps one on the entanglement's card.
    expect(ada.get_by_role("radio")).to_have_count(0)
    expect(ada.locator("#phase-panel")).to_contain_text("Pay 1 rep and 1 coin per tier")
    cards = gm.get_by_role("radiogroup", name="Entanglement and way out")
    expect(cards.get_by_role("group")).to_have_count(2)
    read_well(gm, ada)
    reprisal = cards.get_by_role("group", name="Reprisals")
    reprisal.get_by_role("radio", name=re.compile("Pay 1 rep and 1 coin")).check()
    # The form asks only what this way out needs: the faction.
    expect(gm.get_by_label("Faction involved")).to_be_visible()
    expect(gm.get_by_label("Who is handed over")).to_be_hidden()
    gm.get_by_label("Faction involved").select_option(label="Bluecoats (tier 2)")
    gm.get_by_role("button", name="Apply the choice").click()
    expect(gm.get_by_role("heading", name="Downtime activities")).to_be_visible()
    assert (Crew.objects.get().rep, Crew.objects.get().coin) == (3, 4)

    # Downtime: each activity a card with its cost; the player taps one to start it.
    mine = ada.get_by_role("radiogroup", name="Activity for Ada")
    expect(mine.get_by_role("radio")).to_have_count(7)
    vice = mine.get_by_role("radio", name=re.compile("^Indulge vice"))
    expect(vice).to_have_accessible_name(re.compile("Free: 2 free activities left$"))
    read_well(gm, ada)
    vice.focus()
    ada.keyboard.press("Space")  # a card is a radio: the keyboard takes it as a tap
    expect(vice).to_be_checked()
    ada.get_by_role("button", name="Spend an activity for Ada").click()
    expect(ada.get_by_role("article", name="Ada (1 done)")).to_be_visible()
    train = mine.get_by_role("radio", name=re.compile("^Train"))
    expect(train).to_have_accessible_name(re.compile("Free: 1 free activity left$"))
    train.check()
    ada.get_by_label("Track to train").select_option(label="Insight")
    ada.get_by_role("button", name="Spend an activity for Ada").click()
    # The third is past the free ones: its card says what it costs, and the GM, who
    # acts for Ada too, pays it with her coin from the phone.
    for page in (gm, ada):
        expect(page.get_by_role("article", name="Ada (2 done)")).to_be_visible()
    theirs = gm.get_by_role("radiogroup", name="Activity for Ada")
    train = theirs.get_by_role("radio", name=re.compile("^Train"))
    expect(train).to_have_accessible_name(re.compile("Costs 1 coin or 1 rep$"))
    read_well(gm, ada)
    train.check()
    gm.get_by_role("group", name="Pay for the extra activity with").get_by_role(
        "radio", name="1 coin"
    ).check()
    gm.get_by_role("button", name="Spend an activity for Ada").click()
    expect(gm.get_by_role("article", name="Ada (3 done)")).to_be_visible()
    assert DowntimeActivity.objects.filter(paid_with="coin").count() == 1
    assert Character.objects.get(name="Ada").coin == 1

    # The xp review: the sheet's triggers, each ticked, its xp on the track tapped.
    gm.get_by_role("button", name="End downtime").click()
    gm.get_by_role("button", name="End the session: xp review").click()
    expect(ada.get_by_role("heading", name="End of session: xp")).to_be_visible()
    ada_pc = Character.objects.get(name="Ada")
    before = (ada_pc.playbook_xp, ada_pc.insight_xp)
    read_well(gm, ada)
    beliefs = ada.get_by_role("group", name=re.compile("^You expressed your beliefs"))
    beliefs.get_by_role("radio", name="2 xp").check()
    beliefs.get_by_role("group", name="Mark it on").get_by_role("radio", name="Insight").check()
    trigger = ada_pc.playbook.xp_trigger.rstrip(".")
    ada.get_by_role("group", name=trigger).get_by_role("radio", name="1 xp").check()
    ada.get_by_role("button", name="Mark xp for Ada").click()
    expect(ada.locator("#phase-panel")).to_contain_text("Ada: xp marked.")
    after = Character.objects.get(pk=ada_pc.pk)
    assert (after.playbook_xp, after.insight_xp) == (before[0] + 1, before[1] + 2)
    # The crew's xp likewise, ticked by the GM on the phone.
    station = gm.get_by_role("group", name=re.compile("above your current station"))
    station.get_by_role("radio", name="1 xp").check()
    gm.get_by_role("button", name="Mark crew xp").click()
    expect(gm.locator("#phase-panel")).to_contain_text("Crew xp marked.")
    assert Crew.objects.get().xp == 1
