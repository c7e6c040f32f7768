"""Characters in the browser: the wizard, a GM's custom playbook and the living sheet."""

import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import F
from playwright.sync_api import expect

from characters.content import load_standard_content
from characters.models import Character
from sessions.models import Table
from tests.browsers import (
    PHONE,
    assert_accessible,
    assert_fits_phone,
    read_well_at_both_sizes,
    start_table,
    wait_for_socket,
)
from tests.factories import CharacterFactory

pytestmark = pytest.mark.browser
User = get_user_model()


@pytest.fixture(autouse=True)
def standard_content(transactional_db):
    """Transactional tests flush the rows the data migration loaded: put them back."""
    load_standard_content(apps)


def check_step(page, title: str) -> None:
    expect(page.get_by_role("heading", name=title, level=2)).to_be_visible()
    assert_accessible(page)
    assert_fits_phone(page)


def next_step(page) -> None:
    page.get_by_role("button", name="Next").click()


def group(page, name: str):
    """A fieldset of choices, by its legend (exact: "Rival" is also in "Friend and rival")."""
    return page.get_by_role("group", name=name, exact=True)


def dots_left(page, text: str):
    """The wizard's count of action dots still to add."""
    return page.get_by_role("status").filter(has_text=text)


def party_member(page, name: str):
    return page.locator("#party .party-member").filter(has_text=name)


def harm_row(page, level: int):
    return page.get_by_role("row").filter(has=page.get_by_role("rowheader", name=str(level)))


def playbook_part(page, title: str):
    """A fold of the custom playbook page, by its heading."""
    heading = page.get_by_role("heading", name=title, level=2, exact=True)
    return page.locator("details.playbook-part").filter(has=heading)


def open_part(page, title: str, keyboard: bool = False):
    """Opens a part of the custom playbook (by a tap on its heading, or from the
    keyboard on its summary) unless it is open already; returns the part."""
    part = playbook_part(page, title)
    if part.get_attribute("open") is None:
        if keyboard:
            part.locator("summary").focus()
            page.keyboard.press("Enter")
        else:
            part.get_by_role("heading", name=title, level=2, exact=True).click()
    expect(part).to_have_attribute("open", "")
    return part


def fill_custom_playbook(gm, own_abilities: str) -> None:
    """Every part of the page written in turn, each opened first."""
    open_part(gm, "Name and concept").get_by_label("Playbook name").fill("Ratcatcher")
    part = open_part(gm, "Special abilities", keyboard=True)
    abilities = part.get_by_role("group", name="Special abilities from the list")
    for name in ("Battleborn", "Bodyguard", "Mule", "Scout", "Focused"):
        abilities.get_by_role("checkbox", name=name, exact=True).check()
    part.get_by_label("Special abilities of your own").fill(own_abilities)
    open_part(gm, "XP trigger").get_by_label("XP trigger").fill(
        "You addressed a challenge with vermin or filth."
    )
    part = open_part(gm, "Items")
    for n, item in enumerate(["Cage", "Poison bait", "Lantern", "Ferret", "Long hook"], start=1):
        part.get_by_label(f"Item {n}", exact=True).fill(item)
        part.get_by_label(f"Item {n} load", exact=True).fill("1")
    part = open_part(gm, "Friends and rivals")
    friends = ["Mags, a tosher", "Pell, a bluecoat", "Old Wix, a fence", "Dray, a cook", "Sim"]
    for n, friend in enumerate(friends, start=1):
        part.get_by_label(f"Friend or rival {n}", exact=True).fill(friend)
    part = open_part(gm, "Starting action dots")
    part.get_by_label("Primary action (2 dots)").select_option(label="Hunt")
    part.get_by_label("Secondary action (1 dot)").select_option(label="Tinker")


OWN_ABILITIES = (
    "Rat king: Rats in the district answer your call.\n"
    "Sewer sense: You always know the way out underground."
)


def make_custom_playbook(gm) -> None:
    gm.get_by_role("link", name="New custom playbook").click()
    fill_custom_playbook(gm, OWN_ABILITIES)
    gm.get_by_role("button", name="Create playbook").click()
    expect(gm.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
    wait_for_socket(gm)


def create_with_cutter(ada) -> None:
    """Every step clicked through at a phone's width, going back once on the way."""
    ada.set_viewport_size(PHONE)
    ada.get_by_role("link", name="Make a character").click()
    check_step(ada, "Playbook")
    ada.get_by_role("radio", name=re.compile("^Cutter")).check()
    next_step(ada)

    check_step(ada, "Heritage")
    ada.get_by_role("radio", name="Skovlan").check()
    ada.get_by_label("Heritage detail").fill("Dockside family")
    next_step(ada)

    check_step(ada, "Background")
    ada.get_by_role("radio", name="Military").check()
    ada.get_by_label("Background detail").fill("Unity War scout")
    next_step(ada)

    check_step(ada, "Action dots")
    # Dots clicked like on paper, grouped under their attribute, the count going down.
    expect(dots_left(ada, "4 dots left")).to_be_visible()
    expect(ada.get_by_role("radio", name="Skirmish 2 of 2 dots")).to_be_checked()
    ada.get_by_role("radio", name="Hunt 1 of 2 dots").check()
    expect(dots_left(ada, "3 dots left")).to_be_visible()
    ada.get_by_role("radio", name="Prowl 1 of 2 dots").check()
    expect(dots_left(ada, "2 dots left")).to_be_visible()
    ada.get_by_role("button", name="Back").click()

    # Back on the previous step, with everything typed there (and on the next) kept.
    check_step(ada, "Background")
    expect(ada.get_by_role("radio", name="Military")).to_be_checked()
    expect(ada.get_by_label("Background detail")).to_have_value("Unity War scout")
    next_step(ada)
    check_step(ada, "Action dots")
    expect(ada.get_by_role("radio", name="Hunt 1 of 2 dots")).to_be_checked()
    expect(ada.get_by_role("radio", name="Prowl 1 of 2 dots")).to_be_checked()
    expect(dots_left(ada, "2 dots left")).to_be_visible()

    # Too many dots: the count says so, the server refuses, and the dots chosen stay.
    ada.get_by_role("radio", name="Finesse 2 of 2 dots").check()
    ada.get_by_role("radio", name="Command 2 of 2 dots").check()
    expect(dots_left(ada, "1 dot too many")).to_be_visible()
    next_step(ada)
    expect(ada.get_by_role("alert")).to_contain_text("Add exactly 4 action dots")
    expect(dots_left(ada, "1 dot too many")).to_be_visible()
    expect(ada.get_by_role("radio", name="Finesse 2 of 2 dots")).to_be_checked()
    expect(ada.get_by_role("radio", name="Command 2 of 2 dots")).to_be_checked()
    assert_fits_phone(ada)
    ada.get_by_role("radio", name="Finesse 1 of 2 dots").check()
    expect(dots_left(ada, "0 dots left")).to_be_visible()
    next_step(ada)

    check_step(ada, "Special ability")
    expect(ada.get_by_role("radio").first).to_be_checked()  # the playbook's default
    next_step(ada)

    check_step(ada, "Friend and rival")
    group(ada, "Close friend").get_by_role("radio").nth(0).check()
    group(ada, "Rival").get_by_role("radio").nth(1).check()
    next_step(ada)

    check_step(ada, "Vice")
    ada.get_by_role("radio", name="Gambling").check()
    ada.get_by_label("Purveyor").fill("Spades' dice den")
    next_step(ada)

    check_step(ada, "Name and look")
    ada.get_by_label("Name").fill("Sable")
    ada.get_by_label("Alias").fill("Knuckles")
    ada.get_by_label("Look").fill("Scarred, a long grey coat")
    ada.get_by_role("button", name="Create character").click()
    expect(ada.get_by_role("heading", name=re.compile("^Sable"), level=1)).to_be_visible()
    wait_for_socket(ada)


def create_with_custom(bo) -> None:
    bo.get_by_role("link", name="Make a character").click()
    bo.get_by_role("radio", name="Ratcatcher A custom playbook").check()
    next_step(bo)
    bo.get_by_role("radio", name="Iruvia").check()
    next_step(bo)
    bo.get_by_role("radio", name="Underworld").check()
    next_step(bo)
    # By keyboard: an arrow key moves along an action's dots, Tab to the next action.
    expect(bo.get_by_role("radio", name="Hunt 2 of 2 dots")).to_be_checked()
    bo.get_by_role("radio", name="Study 0 of 2 dots").focus()
    bo.keyboard.press("ArrowRight")
    expect(bo.get_by_role("radio", name="Study 1 of 2 dots")).to_be_checked()
    expect(bo.get_by_role("radio", name="Study 1 of 2 dots")).to_be_focused()
    expect(dots_left(bo, "3 dots left")).to_be_visible()
    bo.keyboard.press("Tab")
    expect(bo.get_by_role("radio", name="Survey 0 of 2 dots")).to_be_focused()
    bo.keyboard.press("ArrowRight")
    expect(dots_left(bo, "2 dots left")).to_be_visible()
    for action in ("Prowl", "Finesse"):
        bo.get_by_role("radio", name=f"{action} 0 of 2 dots").focus()
        bo.keyboard.press("ArrowRight")
    expect(dots_left(bo, "0 dots left")).to_be_visible()
    bo.keyboard.press("Enter")  # submits the step, like Next
    expect(bo.get_by_role("radio", name=re.compile("^Rat king"))).to_be_visible()
    bo.get_by_role("radio", name=re.compile("^Rat king")).check()
    next_step(bo)
    group(bo, "Close friend").get_by_role("radio", name="Mags, a tosher").check()
    group(bo, "Rival").get_by_role("radio", name="Pell, a bluecoat").check()
    next_step(bo)
    bo.get_by_role("radio", name="Stupor").check()
    bo.get_by_label("Purveyor").fill("The Pale Lantern")
    next_step(bo)
    bo.get_by_label("Name").fill("Nib")
    bo.get_by_role("button", name="Create character").click()
    expect(bo.get_by_role("heading", name="Nib", level=1)).to_be_visible()
    wait_for_socket(bo)


def test_a_player_on_a_phone_picks_a_playbook_card(person, make_user, server):
    """Issue 40: the wizard's first step is the playbooks as cards, each with its special
    ability and xp trigger (read as the radio's description), tapped or keyed."""
    _, ada, _ = start_table(person, make_user)
    ada.set_viewport_size(PHONE)
    ada.get_by_role("link", name="Make a character").click()
    cards = ada.get_by_role("radiogroup", name="Playbook")
    expect(cards.get_by_role("radio")).to_have_count(7)
    hound = cards.get_by_role("radio", name="Hound A deadly sharpshooter and tracker")
    expect(hound).to_have_accessible_description(
        re.compile(
            "^Special ability: Sharpshooter: .+ XP: You addressed a challenge with tracking or "
            "violence.$"
        )
    )
    read_well_at_both_sizes(ada)
    # None chosen: refused beside the cards, and still on the first step.
    next_step(ada)
    expect(cards.get_by_role("alert")).to_contain_text("This field is required.")
    # A tap anywhere on a card takes it, its xp trigger too; arrows move between cards.
    ada.get_by_text("You addressed a challenge with tracking or violence.").click()
    expect(hound).to_be_checked()
    ada.keyboard.press("ArrowDown")
    expect(cards.get_by_role("radio", name=re.compile("^Leech"))).to_be_checked()
    ada.keyboard.press("ArrowUp")
    expect(hound).to_be_checked()
    assert_fits_phone(ada)
    next_step(ada)
    check_step(ada, "Heritage")
    expect(ada.get_by_text("Step 2 of 8 · Hound")).to_be_visible()


def test_a_gm_on_a_phone_writes_a_custom_playbook_part_by_part(person, make_user, server):
    make_user("gm")
    gm = person("gm")
    gm.get_by_label("Table name").fill("The Crows' Nest")
    gm.get_by_role("button", name="Create table").click()
    gm.get_by_role("link", name="New custom playbook").click()
    gm.set_viewport_size(PHONE)

    # Folded, the page reads as the parts of a playbook: the first open, each saying what is filled.
    expect(playbook_part(gm, "Name and concept")).to_have_attribute("open", "")
    expect(playbook_part(gm, "Items")).not_to_have_attribute("open", "")
    expect(playbook_part(gm, "Special abilities")).to_contain_text("0 of 7")
    assert_accessible(gm)
    assert_fits_phone(gm)

    # A line without its colon is refused: only its part opens, with the message and the words kept.
    fill_custom_playbook(gm, "Rat king: Rats answer your call.\nSewer sense")
    gm.get_by_role("button", name="Create playbook").click()
    abilities = playbook_part(gm, "Special abilities")
    expect(abilities).to_have_attribute("open", "")
    expect(abilities).to_contain_text("Needs a fix")
    expect(abilities.get_by_role("alert")).to_contain_text("Write “Name: what it does”")
    expect(abilities.get_by_label("Special abilities of your own")).to_have_value(
        "Rat king: Rats answer your call.\nSewer sense"
    )
    expect(abilities.get_by_role("checkbox", name="Mule", exact=True)).to_be_checked()
    items = playbook_part(gm, "Items")
    expect(items).not_to_have_attribute("open", "")
    expect(items).to_contain_text("5 of 5")
    expect(playbook_part(gm, "Starting action dots")).to_contain_text("Hunt, 2 dots; Tinker, 1 dot")
    assert_accessible(gm)
    assert_fits_phone(gm)

    abilities.get_by_label("Special abilities of your own").fill(OWN_ABILITIES)
    gm.get_by_role("button", name="Create playbook").click()
    expect(gm.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
    assert Table.objects.get().custom_playbooks.get().name == "Ratcatcher"


@pytest.mark.long
def test_two_players_make_characters_and_the_gm_watches_the_sheets(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)

    create_with_cutter(ada)
    assert_accessible(ada)
    assert_fits_phone(ada)
    expect(party_member(gm, "Sable")).to_contain_text("Cutter")

    make_custom_playbook(gm)
    create_with_custom(bo)
    expect(party_member(gm, "Nib")).to_contain_text("Ratcatcher")
    expect(bo.get_by_text("Rat king")).to_be_visible()
    sable = Character.objects.get(name="Sable")
    nib = Character.objects.get(name="Nib")
    assert sable.playbook.name == "Cutter" and nib.playbook.table_id == sable.table_id

    # Ada marks stress by its boxes, then resists; the GM's party view follows without a reload.
    for stress in (1, 2):
        ada.get_by_role("button", name=f"Stress {stress} of 9", exact=True).click()
        expect(ada.get_by_text(f"Stress {stress}/9", exact=True)).to_be_visible()
    expect(party_member(gm, "Sable")).to_contain_text("Stress 2/9")
    ada.get_by_role("button", name=re.compile("^Resist with Prowess")).click()
    expect(gm.locator(".roll").filter(has_text="Sable")).to_be_visible()
    stress = Character.objects.get(pk=sable.pk).stress
    expect(party_member(gm, "Sable")).to_contain_text(f"Stress {stress}/9")
    expect(ada.get_by_text(f"Stress {stress}/9", exact=True)).to_be_visible()

    # The GM and Ada keep Nib's sheet open while Bo marks harm: both follow live.
    gm_sheet = person("gm")
    gm_sheet.goto(f"{server.url}/tables/{nib.table_id}/characters/{nib.pk}/")
    ada.goto(f"{server.url}/tables/{nib.table_id}/characters/{nib.pk}/")
    for page in (gm_sheet, ada):
        wait_for_socket(page)
    for wound in ("Bruised ribs", "Twisted ankle", "Black eye"):
        # Written in place on a blank level 1 line; once both are full, on level 2.
        line = bo.get_by_role("textbox", name="Level 1 harm")
        if line.count() == 0:
            line = bo.get_by_role("textbox", name="Level 2 harm")
        line.first.fill(wound)
        line.first.press("Enter")
        expect(harm_row(bo, 1).or_(harm_row(bo, 2)).filter(has_text=wound)).to_be_visible()
    # Level 1 holds two: the third moved up to level 2.
    for page in (bo, gm_sheet, ada):
        expect(harm_row(page, 1)).to_contain_text("Bruised ribs")
        expect(harm_row(page, 1)).to_contain_text("Twisted ankle")
        expect(harm_row(page, 2)).to_contain_text("Black eye")
        expect(harm_row(page, 2)).to_contain_text("−1d")
    expect(party_member(gm, "Nib")).to_contain_text("Black eye")

    # Ada reads Nib's sheet but gets no controls, and the edit page refuses her.
    expect(ada.get_by_role("heading", name="Nib", level=1)).to_be_visible()
    expect(ada.get_by_role("textbox", name="Level 1 harm")).to_have_count(0)
    expect(ada.get_by_role("button", name="Stress 1 of 9")).to_have_count(0)
    expect(ada.get_by_role("link", name="Edit details")).to_have_count(0)
    response = ada.goto(f"{server.url}/tables/{nib.table_id}/characters/{nib.pk}/edit/")
    assert response.status == 403
    assert Character.objects.get(pk=nib.pk).notes == ""

    for page in (bo, gm_sheet):
        assert_accessible(page)
    ada.goto(f"{server.url}/tables/{nib.table_id}/characters/{nib.pk}/")
    assert_accessible(ada)
    assert_fits_phone(ada)


def test_open_sheets_and_the_party_catch_up_after_a_reconnect(person, make_user, server):
    gm, ada, bo = start_table(person, make_user)
    table = Table.objects.get()
    sable = CharacterFactory(table=table, owner=User.objects.get(username="ada"), name="Sable")
    sheet_url = f"{server.url}/tables/{table.pk}/characters/{sable.pk}/"
    gm.reload()
    sheet = person("gm")
    fetches = []
    sheet.on("request", lambda request: fetches.append(request.url))
    sheet.goto(sheet_url)
    wait_for_socket(sheet)
    expect(sheet.get_by_text("Stress 0/9", exact=True)).to_be_visible()
    # On the first connect the sheet was just rendered: no second fetch. A change made
    # after the connect is pushed behind the greeting on the same socket, so its one
    # fetch comes after any the greeting made: one more, and not two, shows there was none.
    ada.goto(sheet_url)
    ada.get_by_role("button", name="Stress 1 of 9", exact=True).click()
    expect(sheet.get_by_text("Stress 1/9", exact=True)).to_be_visible()
    assert fetches.count(sheet_url) == 2

    server.stop()
    # Changed behind the pages' backs, straight in the database, as an action would.
    Character.objects.filter(pk=sable.pk).update(
        stress=5, harm={"2": ["Broken hand"]}, revision=F("revision") + 1
    )
    server.start()
    expect(party_member(gm, "Sable")).to_contain_text("Stress 5/9")
    expect(party_member(gm, "Sable")).to_contain_text("Broken hand")
    expect(sheet.get_by_text("Stress 5/9", exact=True)).to_be_visible()
    expect(harm_row(sheet, 2)).to_contain_text("Broken hand")
