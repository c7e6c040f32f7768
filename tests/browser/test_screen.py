"""The shared screen on a TV (issue 15): a logged-out browser on the token link shows
what the GM and the players do, live, without reloading and without polling; and it
stops once the GM revokes the link."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from crews import actions as crew_actions
from crews.models import Screen
from sessions import actions
from sessions.models import Clock, Membership
from tests.browser.screenshots import DESKTOP
from tests.browsers import PHONE, assert_fits_phone, wait_for_socket
from tests.factories import CharacterFactory

pytestmark = pytest.mark.browser


@pytest.fixture
def crew(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm, ada_user = make_user("gm"), make_user("ada")
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    Membership.objects.create(table=table, user=ada_user, role=Membership.Role.PLAYER)
    CharacterFactory(table=table, owner=ada_user, name="Ada", prowl=2)
    for name, visibility in (("Alarm", Clock.Visibility.EVERYONE), ("Zephyr", "gm")):
        actions.create_clock(
            table=table, name=name, segments=4, kind="danger", visibility=visibility
        )
    return table, crew_actions.new_screen_link(table=table)


def motion(dice) -> list[str]:
    """The CSS animations each element runs (or "none")."""
    return dice.evaluate_all("(els) => els.map((el) => getComputedStyle(el).animationName)")


def test_the_tv_follows_the_table_live_without_polling(person, server, crew):
    table, shared = crew
    gm = person("gm")
    gm.goto(f"{server.url}/tables/{table.pk}/")
    ada = person("ada")
    ada.goto(f"{server.url}/tables/{table.pk}/")
    tv = person()
    calm = person()  # a TV whose owner asked for less motion
    calm.emulate_media(reduced_motion="reduce")
    # Every frame the TV's socket brings, and from its socket's opening on, every request.
    requests, frames = [], []
    tv.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    screen_url = f"{server.url}/screen/{shared.token}/"
    tv.goto(screen_url)
    calm.goto(screen_url)
    for page in (gm, ada, tv, calm):
        wait_for_socket(page)
    tv.on("request", lambda request: requests.append(request.url))

    gm.get_by_role("button", name="Tick Alarm", exact=True).click()
    expect(tv.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
    # The GM's hidden clock ticks: the TV neither shows it nor hears of it.
    gm.get_by_role("button", name="Tick Zephyr", exact=True).click()
    expect(gm.get_by_role("img", name="1 of 4 segments filled")).to_have_count(2)

    # Ada proposes a roll, the GM sets the terms, Ada rolls: the TV shows each step.
    ada.get_by_text("Start an action roll").click()
    ada.get_by_label("Action", exact=True).select_option("prowl")
    ada.get_by_label("Goal").fill("Slip past the watch")
    ada.get_by_role("button", name="Propose the roll").click()
    rolling = tv.get_by_role("region", name="Rolling now")
    expect(rolling).to_contain_text("Ada rolls Prowl")
    expect(rolling).to_contain_text("Slip past the watch")
    expect(rolling).to_contain_text("Setting up")
    roll = gm.get_by_role("article", name=re.compile("Ada: Prowl — Slip past the watch"))
    roll.get_by_label("Position").select_option(label="Desperate")
    roll.get_by_label("Effect").select_option(label="Great")
    roll.get_by_role("button", name="Set position and effect").click()
    expect(rolling).to_contain_text("Desperate")
    expect(rolling).to_contain_text("Great effect")
    mine = ada.get_by_role("article", name=re.compile("Ada: Prowl — Slip past the watch"))
    mine.get_by_role("button", name="Roll the dice").click()
    expect(rolling.get_by_role("img", name=re.compile(r"\(counts\)"))).to_have_count(1)
    # The roll arrives with motion, CSS only: the dice tumble, the counting die settles,
    # then the result is named. The TV that asked for less motion shows it all still.
    still = calm.get_by_role("region", name="Rolling now")
    expect(still.get_by_role("img", name=re.compile(r"\(counts\)"))).to_have_count(1)
    for region, moves in ((rolling, True), (still, False)):
        assert set(motion(region.locator(".die:not(.counting)"))) == {"tumble" if moves else "none"}
        assert motion(region.locator(".die.counting")) == ["tumble, settle" if moves else "none"]
        assert motion(region.locator(".outcome")) == ["name-result" if moves else "none"]
    expect(tv.get_by_role("region", name="Latest rolls")).to_contain_text("Slip past the watch")

    assert "Zephyr" not in tv.content()
    # No polling: the TV asked for nothing but its own body, and only after a signal.
    assert requests and set(requests) == {screen_url}
    assert len(requests) <= len(frames)
    assert all("screen-signal" in frame for frame in frames)

    # The GM revokes the link: the TV's socket closes and stays closed.
    gm.goto(f"{server.url}/tables/{table.pk}/screen/")
    gm.get_by_text("Share this view").click()
    gm.get_by_role("button", name="Revoke link").click()
    wait_for_socket(tv, "closed")


def test_a_link_just_made_is_in_sight_on_a_phone_by_keyboard(person, server, crew):
    """Issue 40: "Make a link" reloaded the page, whose share panel came back folded shut
    over the new link. It stays open, the link focused; the TV on an old link is told."""
    table, shared = crew
    tv = person()
    tv.goto(f"{server.url}/screen/{shared.token}/")
    wait_for_socket(tv)
    gm = person("gm", viewport=PHONE)
    gm.goto(f"{server.url}/tables/{table.pk}/screen/")
    wait_for_socket(gm)
    gm.get_by_text("Share this view").focus()
    gm.keyboard.press("Enter")
    gm.get_by_role("button", name="Revoke link").focus()
    gm.keyboard.press("Enter")
    wait_for_socket(tv, "closed")
    make = gm.get_by_role("button", name="Make a link")
    expect(make).to_be_visible()
    make.focus()
    gm.keyboard.press("Enter")
    link = gm.get_by_role("textbox", name="Table view link")
    expect(link).to_be_visible()
    expect(link).to_be_focused()
    made = Screen.objects.get(table=table).token
    expect(link).to_have_value(re.compile(f"/screen/{made}/$"))
    assert_fits_phone(gm)
    # A TV on that link follows the table; a new link tells it, and is shown the same way.
    tv.goto(f"{server.url}/screen/{made}/")
    wait_for_socket(tv)
    gm.get_by_role("button", name="New link").focus()
    gm.keyboard.press("Enter")
    expect(link).not_to_have_value(re.compile(f"/screen/{made}/$"))
    expect(link).to_be_visible()
    expect(link).to_be_focused()
    wait_for_socket(tv, "closed")
    expect(tv.get_by_role("alert")).to_contain_text("revoked")


# Each book's value against its own box's width (the value is what overflows: "Strong"
# in the display face ran into "Rep 3/12" at 1280 px).
OVERFLOWING_BOOKS = """[...document.querySelectorAll('.screen-grid > div')]
  .filter(box => box.scrollWidth > box.clientWidth)
  .map(box => box.textContent.trim())"""


def test_the_books_each_fit_their_box_on_a_tv_and_a_phone(person, server, crew):
    table, shared = crew
    crew_actions.create_crew(table=table, crew_type="shadows", name="The Lanterns")
    for viewport in (DESKTOP, PHONE):
        tv = person(viewport=viewport)
        tv.goto(f"{server.url}/screen/{shared.token}/")
        books = tv.get_by_role("region", name=re.compile("The Lanterns"))
        expect(books.get_by_role("definition")).to_have_count(6)
        assert tv.evaluate(OVERFLOWING_BOOKS) == []
        assert_fits_phone(tv)
