"""Clocks the players own, and the GM's clocks whose progress is hidden (issue 29), in one
browser context per person: the GM, Ada and Bo, and the shared screen on a TV."""

import pytest
from playwright.sync_api import expect

from crews import actions as crew_actions
from sessions.models import Table
from tests.browsers import add_clock, start_table, wait_for_socket

pytestmark = pytest.mark.browser


def open_screen(person, server):
    shared = crew_actions.new_screen_link(table=Table.objects.get())
    tv = person()
    tv.goto(f"{server.url}/screen/{shared.token}/")
    wait_for_socket(tv)
    return tv


def test_a_player_makes_a_clock_and_ticks_it_while_the_table_follows(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    tv = open_screen(person, server)
    add_clock(ada, "Ada's long con", 6)
    for page in (gm, bo, tv):
        expect(page.get_by_role("heading", name="Ada's long con")).to_be_visible()
    # Her own clock is hers to untick and delete as well as to tick; Bo has no button on it.
    for control in ("Untick Ada's long con", "Delete Ada's long con"):
        expect(ada.get_by_role("button", name=control, exact=True)).to_be_visible()
        expect(bo.get_by_role("button", name=control, exact=True)).to_have_count(0)
    expect(bo.get_by_role("button", name="Tick Ada's long con", exact=True)).to_have_count(0)
    expect(bo.get_by_role("article", name="Ada's long con")).not_to_contain_text("You may tick")

    ada.get_by_role("button", name="Tick Ada's long con", exact=True).click()
    for page in (ada, gm, bo, tv):
        face = page.get_by_role("article", name="Ada's long con")
        expect(face.get_by_role("img", name="1 of 6 segments filled")).to_be_visible()

    # Her private clock: the GM sees it, Bo and the TV never do.
    add_clock(ada, "Ada's secret debt", 4, visibility="Only me and the GM")
    ada.get_by_role("button", name="Tick Ada's secret debt", exact=True).click()
    expect(gm.get_by_role("article", name="Ada's secret debt")).to_contain_text("1/4")
    # A public tick after it: once Bo and the TV have it, they had every push before it.
    ada.get_by_role("button", name="Tick Ada's long con", exact=True).click()
    for page in (bo, tv):
        face = page.get_by_role("article", name="Ada's long con")
        expect(face.get_by_role("img", name="2 of 6 segments filled")).to_be_visible()
        expect(page.get_by_text("Ada's secret debt")).to_have_count(0)
    # The GM may still edit, hide or delete any clock: Ada's too.
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.get_by_role("button", name="Delete Ada's long con").click()
    for page in (ada, bo, tv):
        expect(page.get_by_role("heading", name="Ada's long con")).to_have_count(0)


def test_a_progress_hidden_clock_shows_its_name_not_its_ticks(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    tv = open_screen(person, server)
    add_clock(gm, "The Inspectors close in", 8, visibility="Everyone, progress hidden")
    add_clock(gm, "Alarm", 4)
    for _ in range(3):
        gm.get_by_role("button", name="Tick The Inspectors close in", exact=True).click()
    expect(gm.get_by_role("img", name="3 of 8 segments filled")).to_be_visible()
    gm.get_by_role("button", name="Tick Alarm", exact=True).click()
    for page in (ada, tv):
        # The Alarm's tick came after the three: every push has arrived.
        expect(page.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
        veiled = page.get_by_role("article", name="The Inspectors close in")
        expect(veiled.get_by_role("img", name="8 segments, progress hidden")).to_be_visible()
        html = page.content()
        assert "3 of 8" not in html and "3/8" not in html
    expect(
        ada.get_by_role("button", name="Tick The Inspectors close in", exact=True)
    ).to_have_count(0)


def test_the_new_clock_menus_follow_in_the_gms_second_tab(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    second = gm.context.new_page()
    second.goto(gm.url)
    wait_for_socket(second)
    add_clock(gm, "Rooftop escape", 4)
    expect(second.get_by_role("heading", name="Rooftop escape")).to_be_visible()
    second.get_by_text("New clock").click()
    form = second.locator("#clock-form")
    for menu in ("Unlocks (once full)", "Races against"):
        expect(form.get_by_label(menu).locator("option", has_text="Rooftop escape")).to_have_count(
            1
        )


# Each field of the open Edit form, measured against the clocks' panel.
PAST_THE_PANEL = """edit => {
  const panel = edit.closest('.clocks-card').getBoundingClientRect();
  return [...edit.querySelectorAll('input, select')]
    .filter(field => field.getBoundingClientRect().right > panel.right + 0.5)
    .map(field => field.name);
}"""


def test_the_clock_edit_form_fits_its_panel_at_1280(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    add_clock(gm, "A very long clock name for the rival menus to carry", 4)
    add_clock(gm, "Harbour patrol", 4)
    gm.get_by_role("article", name="Harbour patrol").get_by_text("Edit").click()
    edit = gm.locator("details.clock-edit[open]")
    expect(edit.get_by_role("button", name="Save clock")).to_be_visible()
    assert edit.evaluate(PAST_THE_PANEL) == []
