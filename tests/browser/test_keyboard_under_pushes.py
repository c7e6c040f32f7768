"""A keyboard user whose page is redrawn by someone else's change: the focus stays on the
same control (the one with the same name, not merely one like it), the key pressed next
does what it meant, and no change is lost to a request of one's own in flight."""

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from characters.models import Character
from sessions.models import Membership
from tests.browsers import HOLD_ANSWERS, wait_for_socket
from tests.factories import CharacterFactory, TableFactory

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def standard_content(transactional_db):
    load_standard_content(apps)


@pytest.fixture
def sable(make_user):
    gm, ada = make_user("gm"), make_user("ada")
    table = TableFactory(gm=gm, name="The Crows' Nest")
    Membership.objects.create(table=table, user=ada, role=Membership.Role.PLAYER)
    character = CharacterFactory(table=table, owner=ada, name="Sable")
    Character.objects.filter(pk=character.pk).update(harm={"1": ["Bruised", "Winded"]})
    return character


def open_sheet(person, server, name, character):
    page = person(name)
    page.goto(f"{server.url}/tables/{character.table_id}/characters/{character.pk}/")
    expect(page.get_by_role("heading", name="Sable", level=1)).to_be_visible()
    wait_for_socket(page)
    return page


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


@pytest.mark.parametrize("key", ["Enter", "Space"])
def test_a_redraw_keeps_the_focus_on_the_same_control_and_the_key_does_what_it_meant(
    person, server, sable, key
):
    ada = open_sheet(person, server, "ada", sable)
    gm = open_sheet(person, server, "gm", sable)

    # Two buttons alike but for their names: Ada means to clear the second harm.
    button(ada, "Clear Winded").focus()
    button(gm, "Stress 2 of 9").click()
    expect(ada.get_by_text("Stress 2/9", exact=True)).to_be_visible()
    expect(button(ada, "Clear Winded")).to_be_focused()
    ada.keyboard.press(key)
    for page in (ada, gm):
        expect(page.locator(f"#harm-row-{sable.pk}-1")).not_to_contain_text("Winded")
        expect(page.locator(f"#harm-row-{sable.pk}-1")).to_contain_text("Bruised")
    assert Character.objects.get(pk=sable.pk).harm["1"] == ["Bruised"]

    # A box known by its id: the redraw gives back the focus to the new box.
    button(ada, "Stress 5 of 9").focus()
    button(gm, "Coin 2 of 4").click()
    expect(ada.get_by_text("Coin 2/4", exact=True)).to_be_visible()
    expect(button(ada, "Stress 5 of 9")).to_be_focused()
    ada.keyboard.press(key)
    expect(gm.get_by_text("Stress 5/9", exact=True)).to_be_visible()
    expect(button(ada, "Stress 5 of 9")).to_be_focused()


def test_a_change_signalled_while_ones_own_answer_is_on_its_way_is_not_lost(person, server, sable):
    """The GM taps a coin as Ada marks stress: the GM's answer, drawn before Ada's change,
    comes home after her change's signal, which must not be dropped for it."""
    ada = open_sheet(person, server, "ada", sable)
    gm = open_sheet(person, server, "gm", sable)
    gm.evaluate(HOLD_ANSWERS, "POST")

    button(gm, "Coin 2 of 4").click()
    expect(gm.locator("body")).to_have_attribute("data-held-answers", "1")
    button(ada, "Stress 3 of 9").focus()
    ada.keyboard.press("Enter")
    expect(ada.get_by_text("Stress 3/9", exact=True)).to_be_visible()
    # Ada's signal has reached the GM's page (and waits there) before the answer lands.
    revision = Character.objects.get(pk=sable.pk).revision
    expect(gm.locator(f"#sheet-signal-{sable.pk}")).to_have_attribute(
        "data-revision", str(revision)
    )
    gm.evaluate("heldAnswers[0]()")
    expect(gm.get_by_text("Coin 2/4", exact=True)).to_be_visible()
    expect(gm.get_by_text("Stress 3/9", exact=True)).to_be_visible()


# A page whose timers run late, as on a busy phone: every delayed callback waits 3 s more.
LATE_TIMERS = """{
  const setTimeout = window.setTimeout;
  window.setTimeout = (callback, delay, ...rest) =>
    setTimeout(callback, delay > 0 ? delay + 3000 : delay, ...rest);
}"""


def test_a_key_pressed_the_moment_a_redraw_lands_is_acted_on(person, server, sable):
    """The redrawn sheet's controls work at once, not after a timer: htmx wires up new
    content when it settles, after a delay, and a key pressed before that was lost."""
    ada = person("ada")
    ada.add_init_script(LATE_TIMERS)
    ada.goto(f"{server.url}/tables/{sable.table_id}/characters/{sable.pk}/")
    wait_for_socket(ada)
    gm = open_sheet(person, server, "gm", sable)

    button(ada, "Clear Winded").focus()
    button(gm, "Stress 2 of 9").click()
    expect(ada.get_by_text("Stress 2/9", exact=True)).to_be_visible()
    expect(button(ada, "Clear Winded")).to_be_focused()
    ada.keyboard.press("Enter")
    expect(ada.locator(f"#harm-row-{sable.pk}-1")).not_to_contain_text("Winded")
    assert Character.objects.get(pk=sable.pk).harm["1"] == ["Bruised"]
