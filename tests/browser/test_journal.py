"""The session journal in the browser: the GM starts a session, the table plays, the GM
ends it, and each person's journal tells what they saw."""

import os
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from chronicle import actions as journal_actions
from chronicle.models import PlaySession
from tests.browsers import add_clock, assert_accessible, start_table, wait_for_socket
from tests.factories import TableFactory

pytestmark = pytest.mark.browser


def _roll(page, kind: str, pool: int, note: str, secret: bool = False) -> None:
    form = page.locator("#roll-form")
    form.get_by_label("Roll type").select_option(label=kind)
    form.get_by_label("Dice", exact=True).fill(str(pool))
    form.get_by_label("Note").fill(note)
    if secret:
        form.get_by_label("Secret (GM only)").check()
    form.get_by_role("button", name="Roll the dice").click()
    expect(page.locator(".roll").filter(has_text=note)).to_be_visible()


def test_a_session_played_and_read_back_per_audience(person, make_user):
    gm, ada, bo = start_table(person, make_user)
    gm.get_by_label("Session title").fill("The Dimmer Sisters' job")
    gm.get_by_role("button", name="Start a session").click()
    expect(gm.get_by_role("button", name="End the session")).to_be_visible()
    wait_for_socket(gm)

    _roll(ada, "Fortune", 2, "Over the canal wall")
    _roll(gm, "Fortune", 1, "Whispers of the Lampblacks", secret=True)
    add_clock(gm, "Bluecoat patrol", 4)
    add_clock(gm, "Sashes' revenge", 4, visibility="GM only")
    for name in ("Bluecoat patrol", "Sashes' revenge"):
        clock = gm.get_by_role("article", name=name)
        for filled in range(1, 5):
            clock.get_by_role("button", name=f"Tick {name}", exact=True).click()
            expect(clock.get_by_role("img", name=f"{filled} of 4 segments filled")).to_be_visible()
    gm.get_by_role("button", name="End the session").click()
    expect(gm.get_by_role("button", name="Start a session")).to_be_visible()

    gm.get_by_role("link", name="Journal").click()
    session = gm.get_by_role("article", name="The Dimmer Sisters' job")
    for told in (
        "ada made a fortune roll",
        "Over the canal wall",
        "Whispers of the Lampblacks",
        "A new danger clock: Bluecoat patrol",
        "The clock Bluecoat patrol filled",
        "The clock Sashes' revenge filled",
    ):
        expect(session).to_contain_text(told)
    assert_accessible(gm)

    ada.get_by_role("link", name="Journal").click()
    session = ada.get_by_role("article", name="The Dimmer Sisters' job")
    expect(session).to_contain_text("Over the canal wall")
    expect(session).to_contain_text("The clock Bluecoat patrol filled")
    expect(session).not_to_contain_text("Whispers of the Lampblacks")
    expect(session).not_to_contain_text("Sashes' revenge")
    session.get_by_role("textbox", name="A line of what we learned").fill(
        "The Bluecoats patrol the canal at dawn"
    )
    session.get_by_role("button", name="Add the line").click()
    learned = ada.get_by_role("region", name="What we learned")
    expect(learned).to_contain_text("The Bluecoats patrol the canal at dawn")
    assert_accessible(ada)

    # The line is the table's: the GM reads it too, and keeps notes of their own.
    gm.reload()
    expect(gm.get_by_role("region", name="What we learned")).to_contain_text("at dawn")
    gm.get_by_role("link", name="Title and notes").click()
    gm.get_by_label("GM notes").fill("The Sashes know who broke in. Revenge comes next session.")
    gm.get_by_role("button", name="Save").click()
    expect(gm.get_by_role("region", name="GM notes")).to_contain_text("Revenge comes next")
    ada.reload()
    expect(ada.get_by_role("region", name="What we learned")).to_be_visible()
    expect(ada.get_by_role("region", name="GM notes")).to_have_count(0)
    if os.environ.get("SCREENSHOTS"):
        gm.set_viewport_size({"width": 1000, "height": 900})
        gm.screenshot(path=f"{os.environ['SCREENSHOTS']}/journal.png", full_page=True)


def test_the_journal_gives_its_times_in_the_readers_time_zone(person, make_user, server):
    """The page says UTC; a reader in Tokyo reads the evening on her own clock, the next
    morning there, and the session control on the table page too."""
    table = TableFactory(gm=make_user("gm"))
    night = journal_actions.start_session(table=table, title="Night one")
    PlaySession.objects.filter(pk=night.pk).update(started=datetime(2026, 3, 4, 21, 5, tzinfo=UTC))
    gm = person("gm", timezone_id="Asia/Tokyo")
    gm.goto(server.url + reverse("journal", args=[table.pk]))
    session = gm.get_by_role("article", name="Night one")
    expect(session.locator("time")).to_have_text("Mar 5, 2026, 6:05 AM")
    expect(gm.locator(".session-control time")).to_have_text("6:05 AM")
