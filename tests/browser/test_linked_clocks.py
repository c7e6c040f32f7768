"""Clocks that behave as their kind says, played by a GM and two players (issue 15): the
GM links two clocks and lets the players tick the first; a player fills it and every
browser sees the next one open; a clock the GM did not allow has no button for players,
and a forged tap is refused."""

import json

import pytest
from playwright.sync_api import expect

from sessions.models import Clock
from tests.browsers import HOLD_ANSWERS, add_clock, start_table

pytestmark = pytest.mark.browser


def test_a_player_fills_a_linked_clock_and_everyone_sees_the_next_open(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    add_clock(gm, "Vulnerable", 4)
    form = gm.locator("#clock-form")
    form.get_by_label("Clock name").fill("Defense")
    form.get_by_label("Segments", exact=True).fill("2")
    form.get_by_label("Kind").select_option(label="Linked")
    form.get_by_label("Unlocks (once full)").select_option(label="Vulnerable")
    form.get_by_label("Players may tick").check()
    form.get_by_role("button", name="Add clock").click()
    expect(gm.locator("#clock-form").get_by_label("Clock name")).to_have_value("")

    vulnerable = {p: p.get_by_role("article", name="Vulnerable") for p in (gm, ada, bo)}
    for page in (gm, ada, bo):
        expect(
            page.get_by_role("article", name="Defense").get_by_text("Unlocks: Vulnerable")
        ).to_be_visible()
        expect(vulnerable[page]).to_contain_text("Locked until Defense fills")
    # The GM's tap on the locked clock is refused beside it.
    gm.get_by_role("button", name="Tick Vulnerable", exact=True).click()
    expect(vulnerable[gm].get_by_role("alert")).to_have_text(
        "This clock is locked until “Defense” fills."
    )

    # Only the clock the GM allowed is tappable for the players.
    expect(ada.get_by_role("button", name="Tick Vulnerable", exact=True)).to_have_count(0)
    tap = ada.get_by_role("button", name="Tick Defense", exact=True)
    tap.click()
    expect(bo.get_by_role("img", name="1 of 2 segments filled")).to_be_visible()
    expect(ada.get_by_role("img", name="1 of 2 segments filled")).to_be_visible()
    # By keyboard, like the GM's own taps.
    ada.get_by_role("button", name="Tick Defense", exact=True).press("Enter")
    for page in (gm, bo):
        expect(page.get_by_role("img", name="2 of 2 segments filled")).to_be_visible()
        expect(vulnerable[page]).not_to_contain_text("Locked until")

    # Vulnerable is open now, but the GM never let players tick it: a forged tap is refused.
    clock = Clock.objects.get(name="Vulnerable")
    token = json.loads(ada.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
    url = f"{server.url}/tables/{clock.table_id}/clocks/{clock.pk}/tick/"
    forged = ada.request.post(url, form={"ticks": "1"}, headers={"X-CSRFToken": token})
    assert forged.status == 403
    assert Clock.objects.get(pk=clock.pk).filled == 0
    # The GM ticks it, now that it is open; the players watch.
    gm.get_by_role("button", name="Tick Vulnerable", exact=True).click()
    for page in (ada, bo):
        expect(vulnerable[page].get_by_role("img", name="1 of 4 segments filled")).to_be_visible()


def test_what_the_gm_types_while_the_last_clock_is_on_its_way_is_kept(person, make_user, server):
    """The new clock shows (pushed) before the form's answer comes home; the GM starts the
    next clock at once, and the answer that clears the form keeps what was typed since."""
    make_user("gm")
    gm = person("gm")
    gm.get_by_label("Table name").fill("Two clocks")
    gm.get_by_role("button", name="Create table").click()
    gm.evaluate(HOLD_ANSWERS, "POST")
    gm.get_by_text("New clock").click()
    form = gm.locator("#clock-form")
    form.get_by_label("Clock name").fill("Vulnerable")
    form.get_by_label("Segments", exact=True).fill("4")
    form.get_by_role("button", name="Add clock").click()
    expect(gm.locator("body")).to_have_attribute("data-held-answers", "1")
    expect(gm.get_by_role("heading", name="Vulnerable")).to_be_visible()

    form.get_by_label("Clock name").fill("Defense")
    form.get_by_label("Segments", exact=True).fill("2")
    form.get_by_label("Kind").select_option(label="Linked")
    gm.evaluate("heldAnswers[0]()")
    # The answer's form offers the clock just added as one a new clock can unlock.
    unlocks = form.get_by_label("Unlocks (once full)")
    expect(unlocks.get_by_role("option", name="Vulnerable")).to_have_count(1)
    expect(form.get_by_label("Clock name")).to_have_value("Defense")
    expect(form.get_by_label("Segments", exact=True)).to_have_value("2")
    expect(form.get_by_label("Kind")).to_have_value("linked")
    unlocks.select_option(label="Vulnerable")
    form.get_by_role("button", name="Add clock").click()
    expect(gm.locator("body")).to_have_attribute("data-held-answers", "2")
    gm.evaluate("heldAnswers[1]()")
    expect(
        gm.get_by_role("article", name="Defense").get_by_text("Unlocks: Vulnerable")
    ).to_be_visible()
