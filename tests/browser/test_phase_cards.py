"""The phase's steps as cards that read like the book's procedure (issue 29): the plan
and its detail, each scoundrel's load, the engagement roll with its dice; the payoff's
split; the heat; the entanglement with its dice; a card per scoundrel in downtime with
each activity's dice. A GM and a player click through it, and every step's page is
read by axe on a phone (390 px) and a desktop (1280 px) for both of them."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from crews import actions as crew_actions
from crews.models import Crew, Faction
from play.models import DowntimeActivity, Phase
from sessions import actions
from tests.browser.test_cycle import pick_entanglement
from tests.browsers import (
    DESKTOP,
    PHONE,
    assert_accessible,
    read_well_at_both_sizes,
    wait_for_socket,
)
from tests.factories import AdaFactory, FactionFactory, MembershipFactory

pytestmark = pytest.mark.browser
# One die face as drawn on a card: "4", or "6 (counts)" for the die that counts.
FACE = re.compile(r"^[1-6]( \(counts\))?$")


@pytest.fixture
def table(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the data migration loaded
    gm, ada_user = make_user("gm"), make_user("ada")
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    MembershipFactory(table=table, user=ada_user)
    # No stress marked: whatever her vice clears is more, and she overindulges.
    AdaFactory(table=table, owner=ada_user, stress=0)
    FactionFactory(table=table, name="Bluecoats", tier=2)
    crew_actions.create_crew(table=table, crew_type="shadows", name="The Lamplighters")
    return table


def card(page, heading: str):
    return page.locator(".card").filter(has=page.get_by_role("heading", name=heading))


def dice_on(locator):
    return locator.get_by_role("img", name=FACE)


def test_gm_and_player_take_the_phase_step_by_step_as_cards(person, server, table):
    url = f"{server.url}/tables/{table.pk}/phase/"
    gm = person("gm", viewport=DESKTOP)
    ada = person("ada", viewport=PHONE)
    for page in (gm, ada):
        page.goto(url)
        wait_for_socket(page)

    # The score's card: the plan and its detail, each load as boxes, the engagement roll.
    gm.get_by_label("Target faction").select_option(label="Bluecoats (tier 2)")
    gm.get_by_label("Plan").select_option(label="Stealth (point of infiltration)")
    gm.get_by_label(re.compile("^Detail")).fill("Over the roof")
    gm.get_by_role("button", name="Start the score").click()
    plan = "Score: Stealth on Bluecoats (tier 2)"
    for page in (gm, ada):
        expect(card(page, plan)).to_contain_text("Point of infiltration: Over the roof")
        expect(card(page, plan).get_by_role("heading", name="Engagement roll")).to_be_visible()
    ada.get_by_role("group", name="Load for Ada").get_by_role("button", name="Light").focus()
    ada.keyboard.press("Enter")
    expect(
        gm.get_by_role("group", name="Load for Ada").get_by_role("button", name="Light")
    ).to_have_attribute("aria-pressed", "true")
    expect(ada.get_by_role("button", name="Roll engagement")).to_have_count(0)
    read_well_at_both_sizes(gm, ada)
    gm.get_by_role("button", name="Roll engagement").click()
    score = Phase.objects.get(table=table).score
    expect(gm.locator("#phase-panel")).to_contain_text("Engagement:")
    score.refresh_from_db()
    for page in (gm, ada):
        expect(dice_on(card(page, plan))).to_have_count(len(score.engagement_roll.dice))
    # On a wide screen the roll log stands beside the step in hand, with the roll in it;
    # on a phone, below it.
    for viewport, beside in ((DESKTOP, True), (PHONE, False)):
        ada.set_viewport_size(viewport)
        log = ada.get_by_role("region", name="Roll log")
        expect(log).to_contain_text("Engagement")
        step, rolls = ada.locator("#phase-panel").bounding_box(), log.bounding_box()
        assert (rolls["x"] >= step["x"] + step["width"]) is beside, (step, rolls)
        assert (rolls["y"] < step["y"] + step["height"]) is beside, (step, rolls)

    # Payoff: the GM divvies it up; everyone reads the split.
    gm.get_by_role("button", name="End the score: payoff").click()
    expect(card(ada, "Payoff")).to_contain_text("The GM counts the coin")
    read_well_at_both_sizes(gm, ada)
    gm.get_by_label("Size of the job").select_option("standard")
    gm.get_by_label("Ada's share").fill("2")
    gm.get_by_role("button", name="Apply payoff").click()
    expect(gm.get_by_role("button", name="Apply heat")).to_be_visible()
    for page in (gm, ada):
        payoff = card(page, "Payoff")
        payoff.locator("summary").click()
        split = payoff.locator(".split")
        # A standard job is 6 coin: Ada takes 2, the crew the other 4.
        expect(split.locator("div", has_text="Coin")).to_contain_text("6")
        expect(split.locator("div", has_text="To Ada")).to_contain_text("2")
        expect(split.locator("div", has_text="To the crew")).to_contain_text("4")

    # Heat: the player sees the exposures the GM weighs; then the heat it drew.
    expect(card(ada, "Heat")).to_contain_text("Contained: 2 heat")
    read_well_at_both_sizes(gm, ada)
    gm.get_by_label("Exposure").select_option("contained")
    gm.get_by_role("button", name="Apply heat").click()
    expect(gm.get_by_role("button", name=re.compile("^Roll entanglements"))).to_be_visible()
    expect(card(ada, "Heat")).to_contain_text("The score drew 2 heat")

    # Entanglements: the roll's dice on the card, then the GM's way out.
    read_well_at_both_sizes(gm, ada)
    gm.get_by_role("button", name=re.compile("^Roll entanglements")).click()
    expect(gm.get_by_role("button", name="Apply the choice")).to_be_visible()
    score.refresh_from_db()
    for page in (gm, ada):
        entangled = card(page, "Entanglements")
        expect(dice_on(entangled)).to_have_count(len(score.entanglement_roll.dice))
    read_well_at_both_sizes(gm, ada)
    crew, faction = Crew.objects.get(), Faction.objects.get()
    name, way, choice = pick_entanglement(crew, score.entanglements, faction)
    gm.get_by_role("radio", name=f"{name}: {way.label}").check()
    # The form asks only what the chosen way out needs (issue 39), as in test_cycle.
    if "faction" in choice.needs:
        gm.get_by_label("Faction involved").select_option(label="Bluecoats (tier 2)")
    gm.get_by_role("button", name="Apply the choice").click()

    # Downtime: a card per scoundrel; each activity shows the dice it rolled.
    mine = ada.get_by_role("article", name="Ada (0 done)")
    expect(mine).to_be_visible()
    read_well_at_both_sizes(gm, ada)
    ada.get_by_role("radio", name=re.compile("^Indulge vice")).check()
    ada.get_by_role("button", name="Spend an activity for Ada").click()
    expect(ada.get_by_role("article", name="Ada (1 done)")).to_be_visible()
    vice = DowntimeActivity.objects.get(kind="indulge_vice")
    for page in (gm, ada):
        done = page.get_by_role("article", name="Ada (1 done)")
        expect(done).to_contain_text("Indulge vice")
        expect(dice_on(done)).to_have_count(len(vice.roll.dice))
    # The overindulgence's menu names each choice and what it does: it fits a phone.
    expect(ada.get_by_label("Overindulgence")).to_be_visible()
    read_well_at_both_sizes(gm, ada)


def test_a_long_roll_log_beside_the_step_scrolls_by_keyboard(person, server, table):
    """On a desktop the roll log beside the step scrolls on its own once it is long: a
    keyboard reader must be able to reach it and scroll it (axe's
    scrollable-region-focusable)."""
    ada_user = table.memberships.get(role="player").user
    for n in range(30):
        actions.quick_roll(table=table, roller=ada_user, kind="fortune", pool=2, note=f"Try {n}")
    gm = person("gm", viewport=DESKTOP)
    gm.goto(f"{server.url}/tables/{table.pk}/phase/")
    wait_for_socket(gm)
    log = gm.get_by_role("region", name="Roll log")
    assert log.evaluate("(el) => el.scrollHeight > el.clientHeight")
    assert_accessible(gm)
    log.focus()
    gm.keyboard.press("End")
    expect(log).not_to_have_js_property("scrollTop", 0)
