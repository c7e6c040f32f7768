"""The live table, clicked through by a GM and two players, each in their own browser."""

import re

import pytest
from playwright.sync_api import expect

from sessions.models import Table
from tests.browsers import (
    PASSWORD,
    PHONE,
    add_clock,
    assert_accessible,
    assert_fits_phone,
    start_table,
    wait_for_socket,
)

pytestmark = pytest.mark.browser


def test_three_people_play_live(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    expect(gm.locator("#presence")).to_contain_text("ada")
    expect(gm.locator("#presence")).to_contain_text("bo")

    # Ada rolls; the GM and Bo see it without reloading.
    ada.get_by_label("Roll type").select_option(label="Fortune")
    ada.get_by_label("Dice").fill("3")
    ada.get_by_label("Note").fill("Climb the bell tower")
    ada.get_by_role("button", name="Roll the dice").click()
    for page in (gm, bo, ada):
        roll = page.locator(".roll").filter(has_text="Climb the bell tower")
        expect(roll).to_be_visible()
        expect(roll).to_contain_text("ada")
        expect(roll.get_by_role("img")).to_have_count(3)
        # A fortune roll reads as the effect it gives.
        expect(roll).to_contain_text(re.compile(r"(Great|Standard|Limited|Poor) effect"))
    # The note was sent, so it is cleared; the choices stay for the next roll.
    expect(ada.get_by_label("Note")).to_have_value("")
    expect(ada.get_by_label("Dice", exact=True)).to_have_value("3")

    # The GM makes and ticks a visible clock; both players watch it fill.
    add_clock(gm, "Bluecoats close in", 6)
    for page in (ada, bo):
        expect(page.get_by_role("img", name="0 of 6 segments filled")).to_be_visible()
    gm.get_by_role("button", name="Tick Bluecoats close in", exact=True).click()
    expect(gm.get_by_role("img", name="1 of 6 segments filled")).to_be_visible()
    gm.get_by_role("button", name="Tick Bluecoats close in", exact=True).click()
    for page in (gm, ada, bo):
        expect(page.get_by_role("img", name="2 of 6 segments filled")).to_be_visible()
    gm.get_by_role("button", name="Untick Bluecoats close in").click()
    for page in (ada, bo):
        expect(page.get_by_role("img", name="1 of 6 segments filled")).to_be_visible()
    # Players get no clock controls.
    expect(ada.get_by_role("button", name="Tick Bluecoats close in", exact=True)).to_have_count(0)

    # A GM-only clock never shows up for the players.
    add_clock(gm, "Lampblack revenge", 8, visibility="GM only")
    gm.get_by_role("button", name="Tick Lampblack revenge", exact=True).click()
    expect(gm.get_by_role("img", name="1 of 8 segments filled")).to_be_visible()
    ada.get_by_label("Note").fill("after the secret clock")
    ada.get_by_role("button", name="Roll the dice").click()
    expect(bo.locator(".roll").filter(has_text="after the secret clock")).to_be_visible()
    for page in (ada, bo):
        assert "Lampblack" not in page.content()
        page.reload()
        wait_for_socket(page)
        assert "Lampblack" not in page.content()

    # The GM resizes and renames a clock through its edit form.
    clock = gm.get_by_role("article", name="Bluecoats close in")
    clock.get_by_text("Edit").click()
    clock.get_by_label("Clock name").fill("Bluecoats at the door")
    clock.get_by_label("Segments", exact=True).fill("4")
    clock.get_by_role("button", name="Save clock").click()
    for page in (ada, bo):
        expect(page.get_by_role("heading", name="Bluecoats at the door")).to_be_visible()
        expect(page.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()


def test_bad_input_is_explained_and_kept(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    ada.get_by_label("Dice").fill("12")
    ada.get_by_label("Note").fill("too many dice")
    ada.get_by_role("button", name="Roll the dice").click()
    expect(ada.locator("#id_pool_error")).to_contain_text("less than or equal to 10")
    expect(ada.get_by_label("Note")).to_have_value("too many dice")
    expect(gm.locator(".roll")).to_have_count(0)
    # Mended, the roll goes through and the error goes away with it.
    ada.get_by_label("Dice").fill("2")
    ada.get_by_role("button", name="Roll the dice").click()
    expect(gm.locator(".roll").filter(has_text="too many dice")).to_be_visible()
    expect(ada.locator("#id_pool_error")).to_have_count(0)
    expect(ada.get_by_label("Note")).to_have_value("")


def test_pages_reconnect_after_a_server_restart(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    server.stop()
    # Each page saw its socket drop: an "open" after the start is a new socket's.
    for page in (gm, ada, bo):
        wait_for_socket(page, "closed")
    server.start()
    for page in (gm, ada, bo):
        wait_for_socket(page)
    bo.get_by_label("Note").fill("after the restart")
    bo.get_by_role("button", name="Roll the dice").click()
    for page in (gm, ada):
        expect(page.locator(".roll").filter(has_text="after the restart")).to_be_visible()


def test_changes_made_while_a_page_was_away_arrive_on_reconnect(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    add_clock(gm, "Flood", 4)
    server.stop()
    table = Table.objects.get()
    clock = table.clocks.get()
    # Changed behind the pages' backs, straight in the database.
    type(clock).objects.filter(pk=clock.pk).update(filled=3)
    server.start()
    for page in (ada, bo):
        expect(page.get_by_role("img", name="3 of 4 segments filled")).to_be_visible()


def test_a_push_between_press_and_release_does_not_eat_the_click(person, make_user, server):
    make_user("gm")
    gm = person("gm")
    gm.get_by_label("Table name").fill("Busy table")
    gm.get_by_role("button", name="Create table").click()
    add_clock(gm, "Lampblacks", 8)
    # The GM's second screen (the shared table view) ticks the same clock meanwhile.
    screen = person("gm")
    screen.goto(gm.url)
    for page in (gm, screen):
        wait_for_socket(page)
    # A test on a loaded machine may need longer than a hand does: the page's hold on
    # pushed frames (1.5 s) becomes a minute here.
    gm.evaluate(
        "{ const setTimeout = window.setTimeout;"
        " window.setTimeout = (callback, delay, ...rest) =>"
        " setTimeout(callback, delay === 1500 ? 60000 : delay, ...rest); }"
        "document.body.dataset.pushed = '';"
        "document.addEventListener('htmx:wsBeforeMessage', (e) => {"
        " document.body.dataset.pushed += e.detail.message })"
    )
    # hover waits for the button to stand still and scrolls it into view: a position taken
    # before a late redraw (the second screen's arrival) can press beside the button.
    tick = gm.get_by_role("button", name="Tick Lampblacks", exact=True)
    tick.hover()
    gm.mouse.down()
    expect(tick).to_be_focused()
    screen.get_by_role("button", name="Tick Lampblacks", exact=True).click()
    expect(screen.get_by_role("img", name="1 of 8 segments filled")).to_be_visible()
    expect(gm.locator("body")).to_have_attribute("data-pushed", re.compile("1 of 8 segments"))
    # The redraw waits for the release, so the pressed button is still there.
    expect(gm.get_by_role("img", name="0 of 8 segments filled")).to_be_visible()
    gm.mouse.up()
    for page in (gm, screen):
        expect(page.get_by_role("img", name="2 of 8 segments filled")).to_be_visible()

    # By keyboard: Space presses on keydown and clicks on keyup.
    gm.get_by_role("button", name="Tick Lampblacks", exact=True).focus()
    gm.keyboard.down(" ")
    screen.get_by_role("button", name="Tick Lampblacks", exact=True).click()
    expect(gm.locator("body")).to_have_attribute("data-pushed", re.compile("3 of 8 segments"))
    expect(gm.get_by_role("img", name="2 of 8 segments filled")).to_be_visible()
    gm.keyboard.up(" ")
    for page in (gm, screen):
        expect(page.get_by_role("img", name="4 of 8 segments filled")).to_be_visible()


def test_gm_revokes_the_invite(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    invite = gm.get_by_label("Invite link").input_value()
    gm.get_by_role("button", name="Revoke invite link").click()
    expect(gm.get_by_text("The invite link is revoked")).to_be_visible()
    make_user("cy")
    cy = person("cy")
    cy.goto(invite)
    expect(cy.get_by_role("heading", name="Invite revoked")).to_be_visible()


def test_joining_when_logged_out_comes_back_to_the_invite(person, make_user, server):
    make_user("gm")
    gm = person("gm")
    gm.get_by_label("Table name").fill("Late joiners")
    gm.get_by_role("button", name="Create table").click()
    invite = gm.get_by_label("Invite link").input_value()
    make_user("dee", password=PASSWORD)
    dee = person()
    dee.goto(invite)
    expect(dee.get_by_role("heading", name="Join Late joiners")).to_be_visible()
    dee.get_by_role("link", name="Log in to join").click()
    dee.get_by_label("Username").fill("dee")
    dee.get_by_label("Password").fill(PASSWORD)
    dee.get_by_role("button", name="Log in").click()
    dee.get_by_role("button", name="Join the table").click()
    expect(dee.get_by_role("heading", name="Late joiners", level=1)).to_be_visible()


def test_pages_are_accessible_and_fit_a_phone(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    add_clock(gm, "Alarm", 4)
    ada.get_by_role("button", name="Roll the dice").click()
    expect(gm.locator(".roll")).to_have_count(1)
    assert_accessible(gm)
    assert_accessible(ada)
    phone = person("bo", viewport=PHONE)
    assert_accessible(phone)
    assert_fits_phone(phone)
    phone.get_by_role("link", name="The Crows' Nest").click()
    wait_for_socket(phone)
    expect(phone.locator(".roll")).to_have_count(1)
    assert_accessible(phone)
    assert_fits_phone(phone)
    for path in ("/accounts/login/", "/accounts/signup/"):
        anonymous = person(viewport=PHONE)
        anonymous.goto(server.url + path)
        assert_accessible(anonymous)
        assert_fits_phone(anonymous)
