"""The table page as people meet it: the Players list fills as they join, the GM ticks a
clock by tapping it, and the page is accessible and fits a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from characters import actions as sheet
from rolls import actions as flow
from sessions.models import Membership
from tests.browsers import (
    PHONE,
    add_clock,
    assert_accessible,
    assert_fits_phone,
    start_table,
    wait_for_socket,
)
from tests.helpers import call

pytestmark = pytest.mark.browser


def test_the_players_list_updates_live_and_a_clock_ticks_by_tap(person, make_user, server):
    make_user("cy")
    gm, ada, bo = start_table(person, make_user)
    members = gm.locator("#members")
    # Ada and Bo joined after the GM's page loaded: they are listed, with Remove buttons.
    for name in ("ada", "bo"):
        expect(members.get_by_role("button", name=f"Remove {name}")).to_be_visible()
    invite = gm.get_by_label("Invite link").input_value()
    cy = person("cy")
    cy.goto(invite)
    cy.get_by_role("button", name="Join the table").click()
    expect(members.get_by_role("button", name="Remove cy")).to_be_visible()
    expect(ada.locator("#members")).to_contain_text("cy")
    expect(ada.locator("#members").get_by_role("button")).to_have_count(0)

    add_clock(gm, "Bluecoats close in", 4)
    tap = gm.get_by_role("button", name="Tick Bluecoats close in", exact=True)
    tap.click()
    expect(ada.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
    # The GM's clock is redrawn by the tick's answer and its push: focus the face only
    # once it shows the tick, or Enter may land on a button already replaced.
    expect(gm.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
    # By keyboard: the clock's face takes the focus and Enter ticks it.
    gm.get_by_role("button", name="Tick Bluecoats close in", exact=True).focus()
    gm.keyboard.press("Enter")
    expect(ada.get_by_role("img", name="2 of 4 segments filled")).to_be_visible()
    expect(gm.get_by_role("img", name="2 of 4 segments filled")).to_be_visible()

    for page in (gm, ada):
        assert_accessible(page)
        assert_fits_phone(page)  # at 1280 px
        page.set_viewport_size(PHONE)
        assert_fits_phone(page)


def test_a_logged_out_visitor_sees_which_table_invites_them(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    invite = gm.get_by_label("Invite link").input_value()
    visitor = person()
    visitor.goto(invite)
    expect(visitor.get_by_role("heading", name="Join The Crows' Nest")).to_be_visible()
    visitor.get_by_role("link", name="Log in to join").click()
    expect(visitor.get_by_label("Username")).to_be_visible()
    gm.get_by_role("button", name="Revoke invite link").click()
    expect(gm.get_by_text("The invite link is revoked")).to_be_visible()
    visitor.goto(invite)
    expect(visitor.get_by_role("heading", name="Invite revoked")).to_be_visible()
    wait_for_socket(gm)


def test_the_copy_button_copies_the_invite_link_and_says_so(person, make_user, server):
    make_user("gm")
    gm = person("gm")
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"])
    gm.get_by_label("Table name").fill("Copied table")
    gm.get_by_role("button", name="Create table").click()
    gm.get_by_role("button", name="Copy the invite link").click()
    expect(gm.get_by_role("button", name="Copied the invite link")).to_be_visible()
    assert (
        gm.evaluate("navigator.clipboard.readText()")
        == gm.get_by_label("Invite link").input_value()
    )
    expect(gm.get_by_role("button", name="Copy the invite link")).to_be_visible()


def test_the_table_page_on_a_phone_is_three_screens_tall_when_folded(person, make_user, server):
    """Issue 29: the table page on a phone was 5,811 px tall. The open roll stays on top;
    the other sections fold under their headings, and folded the page is at most three
    screens of a 390 x 844 phone."""
    gm, ada, _ = start_table(person, make_user)
    for name in ("Bluecoats close in", "The wards fail", "Lampblack's revenge"):
        add_clock(gm, name, 6)
    # One roll at a time: while a roll is in flight htmx keeps only the last click
    # queued, so rapid clicks collapse and the count would be a race.
    for count in range(1, 9):
        gm.locator("#roll-form").get_by_role("button", name="Roll the dice").click()
        expect(gm.locator("#roll-log li")).to_have_count(count)
    expect(ada.locator("#roll-log li")).to_have_count(8)
    for page in (gm, ada):
        page.set_viewport_size(PHONE)
        page.reload()
        wait_for_socket(page)
        # Only the roll is open; a section opens under its heading with a tap.
        expect(page.locator("details.fold[open] #flow-heading")).to_be_attached()
        expect(page.locator("details.fold[open]")).to_have_count(1)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= 3 * PHONE["height"], height
        page.get_by_text("Clocks", exact=True).click()
        expect(page.get_by_role("img", name="0 of 6 segments filled")).to_have_count(3)
        assert_accessible(page)
    # A wide screen has room for every section, open.
    gm.set_viewport_size({"width": 1280, "height": 800})
    gm.reload()
    expect(gm.locator("details.fold[open]")).to_have_count(5)


ON_THE_FIRST_SCREEN = "(el) => el.getBoundingClientRect().bottom <= innerHeight"


def test_a_phone_shows_the_roll_and_its_next_button_on_the_first_screen(person, crew, server):
    """Issue 40: on a phone "Roll the dice" sat 1.3-1.9 screens down, under the roll's
    bonus controls (more with harm on the roller's card and an assist). The roll in
    progress and this reader's next step (the roller's dice, a teammate's assist) are on
    the first screen of a 390 x 844 phone, before a thumb scrolls."""
    table, ada, bo = crew
    sheet.add_harm(character=ada, level=2, description="Broken hand")
    sheet.add_harm(character=ada, level=1, description="Bruised")
    by = Membership.objects.get(table=table, user=ada.owner)
    call(flow.start_roll(by=by, character=ada, goal="Cut the watchman", action="skirmish"))
    pages = {}
    for name in ("ada", "bo"):
        page = pages[name] = person(name, viewport=PHONE)
        page.goto(f"{server.url}/tables/{table.pk}/")
        wait_for_socket(page)
    roll = "Ada: Skirmish — Cut the watchman"
    assist = pages["bo"].get_by_role("article", name=roll).get_by_role("button", name="Assist")
    assert assist.evaluate(ON_THE_FIRST_SCREEN)
    assist.click()
    mine = pages["ada"].get_by_role("article", name=roll)
    expect(mine).to_contain_text("Bo assists")
    heading = mine.get_by_role("heading", name=roll)
    dice = mine.get_by_role("button", name="Roll the dice")
    for shown in (heading, dice):
        assert shown.evaluate(ON_THE_FIRST_SCREEN), shown
    # The next step comes first for the keyboard too: before the bonuses that change it.
    push = mine.get_by_role("button", name="Push for +1d (2 stress)")
    assert dice.evaluate("(d, p) => !!(d.compareDocumentPosition(p) & 4)", push.element_handle())
    assert_accessible(pages["ada"])
