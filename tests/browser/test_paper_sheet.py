"""The sheet played like paper: a box, dot or tick is clicked (or reached by Tab and
pressed), and the player's and the GM's browsers both show it."""

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from characters.models import Character
from sessions.models import Membership
from tests.browsers import PHONE, assert_accessible, assert_fits_phone, wait_for_socket
from tests.factories import CharacterFactory, CharacterItemFactory, TableFactory

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def standard_content(transactional_db):
    load_standard_content(apps)


@pytest.fixture
def sheet(make_user):
    gm, ada = make_user("gm"), make_user("ada")
    table = TableFactory(gm=gm, name="The Crows' Nest")
    Membership.objects.create(table=table, user=ada, role=Membership.Role.PLAYER)
    character = CharacterFactory(table=table, owner=ada, name="Sable", load="normal")
    CharacterItemFactory(character=character, name="Fine lockpicks", load=1)
    # Armor is a box only while it is carried on the load.
    CharacterItemFactory(character=character, name="Armor", load=2, armor="armor", checked=True)
    return character


def open_sheet(person, server, name, character, viewport=None, locale=None):
    page = person(name, viewport=viewport, locale=locale)
    page.goto(f"{server.url}/tables/{character.table_id}/characters/{character.pk}/")
    expect(page.get_by_role("heading", name="Sable", level=1)).to_be_visible()
    wait_for_socket(page)
    return page


def pressed(page, name):
    return expect(page.get_by_role("button", name=name, exact=True))


def test_boxes_dots_and_ticks_are_clicked_and_every_browser_follows(person, server, sheet):
    ada = open_sheet(person, server, "ada", sheet)
    gm = open_sheet(person, server, "gm", sheet)

    # Stress: the fourth box marks four; clicking it again clears it back to three.
    ada.get_by_role("button", name="Stress 4 of 9", exact=True).click()
    for page in (ada, gm):
        expect(page.get_by_text("Stress 4/9", exact=True)).to_be_visible()
        pressed(page, "Stress 4 of 9").to_have_attribute("aria-pressed", "true")
        pressed(page, "Stress 5 of 9").to_have_attribute("aria-pressed", "false")
    gm.get_by_role("button", name="Stress 4 of 9", exact=True).click()
    expect(ada.get_by_text("Stress 3/9", exact=True)).to_be_visible()

    # By keyboard: focus a dot, press Space, and the focus stays on it after the redraw.
    dot = ada.get_by_role("button", name="Hunt 2 of 3", exact=True)
    dot.focus()
    ada.keyboard.press("Space")
    pressed(gm, "Hunt 2 of 3").to_have_attribute("aria-pressed", "true")
    expect(ada.get_by_role("button", name="Hunt 2 of 3", exact=True)).to_be_focused()
    ada.keyboard.press("Tab")
    expect(ada.get_by_role("button", name="Hunt 3 of 3", exact=True)).to_be_focused()
    ada.keyboard.press("Enter")
    pressed(gm, "Hunt 3 of 3").to_have_attribute("aria-pressed", "true")

    # Xp ticks, coin, an item carried (the load follows), armor, healing.
    ada.get_by_role("button", name="Prowess xp 2 of 6", exact=True).click()
    pressed(gm, "Prowess xp 2 of 6").to_have_attribute("aria-pressed", "true")
    ada.get_by_role("button", name="Coin 3 of 4", exact=True).click()
    expect(gm.get_by_text("Coin 3/4", exact=True)).to_be_visible()
    ada.get_by_role("button", name="Fine lockpicks").click()
    expect(gm.get_by_text("Normal load: 3/5")).to_be_visible()
    # The item and the armor box it gives share the name "Armor": the box is in its group.
    armor_box = {"role": "button", "name": "Armor", "exact": True}
    ada.get_by_role("group", name="Armor").get_by_role(**armor_box).click()
    expect(gm.get_by_role("group", name="Armor").get_by_role(**armor_box)).to_have_attribute(
        "aria-pressed", "true"
    )
    ada.get_by_role("button", name="Healing 2 of 4", exact=True).click()
    expect(gm.get_by_role("heading", name="Healing clock 2/4")).to_be_visible()

    # Harm is written on its line in place: type, Enter.
    line = ada.get_by_role("textbox", name="Level 2 harm").first
    line.fill("Broken hand")
    line.press("Enter")
    expect(gm.locator(f"#harm-row-{sheet.pk}-2")).to_contain_text("Broken hand")

    after = Character.objects.get(pk=sheet.pk)
    assert (after.stress, after.hunt, after.prowess_xp, after.coin, after.armor_used) == (
        3,
        3,
        2,
        3,
        True,
    )
    assert after.healing == 0  # new harm starts the healing clock again
    for page in (ada, gm):
        assert_accessible(page)


def test_reload_after_a_click_shows_the_sheet_and_back_leaves_it(person, server, sheet):
    ada = person("ada")
    ada.goto(f"{server.url}/tables/{sheet.table_id}/")
    ada.get_by_role("link", name="Open my character sheet").click()
    expect(ada.get_by_role("heading", name="Sable", level=1)).to_be_visible()
    wait_for_socket(ada)
    sheet_url = ada.url
    ada.get_by_role("button", name="Stress 2 of 9", exact=True).click()
    expect(ada.get_by_text("Stress 2/9", exact=True)).to_be_visible()
    ada.get_by_role("button", name="Coin 1 of 4", exact=True).click()
    expect(ada.get_by_text("Coin 1/4", exact=True)).to_be_visible()
    # A form on the sheet too (the notes): once boosted, its POST URL went into the history.
    notes = ada.get_by_role("textbox", name="Notes", exact=True)
    notes.fill("Owes Lyssa a favour")
    ada.get_by_role("button", name="Save notes").click()
    expect(notes).to_have_value("Owes Lyssa a favour")
    expect(ada.get_by_role("button", name="Save notes")).to_be_enabled()
    assert ada.url == sheet_url

    response = ada.reload()
    assert response.status == 200
    expect(ada.get_by_text("Stress 2/9", exact=True)).to_be_visible()
    ada.go_back()
    expect(ada.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()


def test_the_sheet_fits_a_phone(person, server, sheet):
    ada = open_sheet(person, server, "ada", sheet, viewport=PHONE)
    assert_fits_phone(ada)
    small = ada.evaluate(
        """[...document.querySelectorAll('#main button, #main input[type=checkbox]')]
        .filter(el => el.offsetParent !== null)
        .map(el => el.getBoundingClientRect())
        .filter(r => r.width < 24 || r.height < 24).length"""
    )
    assert small == 0


# Each word of the sheet that stands alone (an action, a condition, a heading), found
# where it is drawn on more than one line: broken inside the word.
BROKEN_WORDS = """(() => {
  const walker = document.createTreeWalker(document.getElementById("main"), NodeFilter.SHOW_TEXT);
  const broken = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const word = node.textContent.trim();
    if (!/^[\\p{L}]{4,}$/u.test(word) || node.parentElement.offsetParent === null) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) broken.push(word);
  }
  return broken;
})()"""


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_no_word_of_the_sheet_breaks_on_a_phone(person, server, sheet, locale):
    """Issue 38: on a phone the Spanish sheet broke "Destroza/r", "Atormentad/o" and the
    English "Comman/d" inside the word: a column narrower than its longest name."""
    ada = open_sheet(person, server, "ada", sheet, viewport=PHONE, locale=locale)
    assert ada.evaluate(BROKEN_WORDS) == []
