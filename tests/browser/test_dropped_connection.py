"""A dropped connection (issue 40), mid-roll: every page says in words that its socket is
down and that it is back, the GM's page holds who is at the table as unknown meanwhile,
a tap that cannot reach the server is refused in words, and what was typed, sent or
not, survives the snapshot that redraws the roll on reconnecting."""

import re

import pytest
from playwright.sync_api import expect

from crews.models import Screen
from rolls import actions as roll_actions
from rolls.models import ActionRoll
from sessions.models import Membership
from tests.browsers import assert_accessible, wait_for_socket

pytestmark = pytest.mark.browser

GOAL = "Slip past the watch"
LOST = "Connection lost — reconnecting…"
BACK = "Back at the table."
UNSENT = "Not sent — the table can't be reached. Try again."


def status(page):
    return page.get_by_role("status", name="Connection")


def the_roll(page):
    return page.get_by_role("article", name=re.compile(f"Ada: Prowl — {GOAL}"))


def test_a_dropped_connection_is_said_and_loses_nothing_typed(person, server, crew):
    table = crew[0]
    gm, ada = person("gm"), person("ada")
    for page in (gm, ada):
        page.goto(f"{server.url}/tables/{table.pk}/")
        wait_for_socket(page)
    tv = person()  # the shared screen: a link, no login
    tv.goto(f"{server.url}/screen/{Screen.objects.create(table=table, active=True).token}/")
    wait_for_socket(tv)
    expect(gm.locator("#presence")).to_contain_text("ada")

    # Mid-roll: Ada proposes, the GM calls it desperate; both start a devil's bargain.
    ada.get_by_text("Start an action roll").click()
    ada.get_by_label("Goal").fill(GOAL)
    ada.get_by_label("Action", exact=True).select_option(label="Prowl")
    ada.get_by_role("button", name="Propose the roll").click()
    the_roll(gm).get_by_label("Position").select_option(label="Desperate")
    the_roll(gm).get_by_role("button", name="Set position and effect").click()
    expect(the_roll(ada)).to_contain_text("Desperate position")
    the_roll(ada).get_by_label("Devil's bargain").fill("The watch spots Bo")
    for page in (gm, ada, tv):
        expect(status(page)).to_have_text("")
    assert_accessible(gm)

    server.stop()
    for page in (gm, ada, tv):
        wait_for_socket(page, "closed")
        expect(status(page)).to_have_text(LOST)
    expect(gm.get_by_text("Unknown while offline")).to_be_visible()
    # The GM's offer cannot reach the server: refused in words, and kept.
    the_roll(gm).get_by_label("Devil's bargain").fill("Your blade snaps")
    the_roll(gm).get_by_role("button", name="Offer the bargain").click()
    expect(status(gm)).to_contain_text(UNSENT)
    # Meanwhile Bo assists from a page of his own that the test does not draw.
    bo = Membership.objects.get(table=table, user__username="bo")
    roll_actions.assist(by=bo, roll=ActionRoll.objects.get(goal=GOAL))

    server.start()
    for page in (gm, ada, tv):
        wait_for_socket(page)
        expect(status(page)).not_to_contain_text(LOST)
        expect(status(page)).to_contain_text(BACK)
    # The snapshot redrew the roll with Bo's help, around what each of them had typed.
    for page in (gm, ada):
        expect(the_roll(page)).to_contain_text("Bo assists (+1d)")
    expect(the_roll(ada).get_by_label("Devil's bargain")).to_have_value("The watch spots Bo")
    expect(the_roll(gm).get_by_label("Devil's bargain")).to_have_value("Your blade snaps")
    # Who is here is drawn again, and no longer unknown.
    expect(gm.get_by_text("Unknown while offline")).to_be_hidden()
    expect(gm.locator("#presence")).to_contain_text("ada")
    expect(gm.locator("#presence[data-unknown]")).to_have_count(0)

    # Tapped again, the offer goes, and the refusal goes with it.
    the_roll(gm).get_by_role("button", name="Offer the bargain").click()
    expect(the_roll(ada)).to_contain_text("Devil's bargain offered by gm: Your blade snaps")
    expect(status(gm)).not_to_contain_text(UNSENT)
    # "Back at the table" is said for a moment, then the region is quiet again.
    expect(status(ada)).to_have_text("")
    assert_accessible(gm)
