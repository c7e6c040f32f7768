"""Every page a GM or a player opens, at a desktop's and a phone's width: nothing sticks
out sideways, every button and checkbox is at least 24 px, and axe finds nothing serious."""

import pytest
from playwright.sync_api import expect

from tests.browser.screenshots import DESKTOP, seed
from tests.browsers import PHONE, assert_accessible, assert_fits_phone

pytestmark = pytest.mark.browser

CONTROLS = "#main button, #main input[type=checkbox], #main input[type=radio]"
SMALL_TARGETS = f"""[...document.querySelectorAll('{CONTROLS}')]
  .filter(el => el.offsetParent !== null)
  .filter(el => {{ const r = el.getBoundingClientRect(); return r.width < 24 || r.height < 24; }})
  .map(el => el.outerHTML.slice(0, 120))"""


def test_every_page_fits_both_widths_and_is_accessible(person, make_user, server):
    table, sable = seed(make_user)
    t = f"/tables/{table.pk}"
    pages = [
        "/tables/",
        f"{t}/",
        f"{t}/characters/{sable.pk}/",
        f"{t}/crew/",
        f"{t}/factions/",
        f"{t}/phase/",
        f"{t}/screen/",
        f"{t}/dice/",
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
                response = page.goto(server.url + path)
                assert response.status == 200, path
                expect(page.locator("h1").first).to_be_visible()
                assert_fits_phone(page)
                assert page.evaluate(SMALL_TARGETS) == [], path
                assert_accessible(page)
