"""Every page a GM or a player opens, at a desktop's and a phone's width: nothing sticks
out sideways, every button and checkbox is at least 24 px, and axe finds nothing serious."""

import random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from crews import actions as crew_actions
from rolls import actions as flow
from sessions import actions
from sessions.models import Membership
from tests.browser.screenshots import DESKTOP, seed
from tests.browsers import PHONE, assert_accessible, assert_fits_phone
from tests.helpers import call

pytestmark = pytest.mark.browser

CONTROLS = "#main button, #main input[type=checkbox], #main input[type=radio]"
SMALL_TARGETS = f"""[...document.querySelectorAll('{CONTROLS}')]
  .filter(el => el.offsetParent !== null)
  .filter(el => {{ const r = el.getBoundingClientRect(); return r.width < 24 || r.height < 24; }})
  .map(el => el.outerHTML.slice(0, 120))"""


@pytest.mark.long
def test_every_page_fits_both_widths_and_is_accessible(person, make_user, server):
    table, sable = seed(make_user)
    t = f"/tables/{table.pk}"
    # The clocks Bo owns (with their tick buttons) and a GM's clock whose progress
    # players do not see, drawn veiled.
    bo = get_user_model().objects.get(username="bo")
    for name, visibility in (("Nib's long con", "everyone"), ("Nib's debt", "owner")):
        actions.create_clock(table=table, name=name, segments=6, kind="project",
                             visibility=visibility, owner=bo)  # fmt: skip
    actions.create_clock(table=table, name="The Inspectors", segments=8, kind="danger",
                         visibility="known")  # fmt: skip
    # A table with no crew yet: the GM's founding form, Bo's wait for it.
    founding = actions.create_table(gm=table.gm, name="The Empty Chair")
    actions.join_table(user=bo, token=founding.invite_token)
    pages = [
        "/tables/",
        "/tables/restore/",
        f"{t}/",
        f"{t}/characters/{sable.pk}/",
        f"{t}/crew/",
        f"{t}/factions/",
        f"{t}/phase/",
        f"{t}/screen/",
        f"{t}/dice/",
        f"/tables/{founding.pk}/crew/",
    ]
    gm_only = [
        f"{t}/settings/",
        f"{t}/playbooks/new/",
        f"{t}/discord/",
        f"{t}/characters/{sable.pk}/edit/",
    ]
    for who, extra in (("gm", gm_only), ("bo", [f"{t}/characters/import/"])):
        for viewport in (DESKTOP, PHONE):
            page = person(who, viewport=viewport)
            for path in pages + extra:
                check(page, server.url + path)
    # The shared screen's link, as a TV opens it (nobody logged in), with a roll rolled.
    shared = crew_actions.new_screen_link(table=table)
    by = Membership.objects.get(table=table, user=sable.owner)
    roll = flow.start_roll(by=by, character=sable, goal="Slip past the watch", action="prowl")
    call(roll)
    flow.roll_dice(by=by, roll=roll, rng=random.Random(5))
    for viewport in (DESKTOP, PHONE):
        page = person(viewport=viewport)
        check(page, f"{server.url}/screen/{shared.token}/")
        expect(page.get_by_role("region", name="Rolling now")).to_contain_text("Sable")


def check(page, url: str) -> None:
    response = page.goto(url)
    assert response.status == 200, url
    expect(page.locator("h1").first).to_be_visible()
    assert_fits_phone(page)
    assert page.evaluate(SMALL_TARGETS) == [], url
    assert_accessible(page)
