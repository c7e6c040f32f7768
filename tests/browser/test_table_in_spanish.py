"""Issue 31, whole: a player who reads Spanish plays a roll and reads every word of the
table page, her sheet and the roll in Spanish, while the GM at the same table reads every
word in English; what the table shares (the shared screen, the journal) is in the table's
language, which the GM sets.

"Every word" is read as the page's text: a word the English page shows must not show on
the Spanish one, unless it is the players' own (names, the goal) or reads the same in
both languages (SAME)."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from characters.models import Character
from crews import actions as crew_actions
from sessions import actions
from sessions.models import Clock, Membership
from tests.browsers import wait_for_socket
from tests.factories import AdaFactory

pytestmark = pytest.mark.browser

GOAL = "Slip past the watch"
# The players' own words on these pages: names, the table's, the goal, the harm, a clock.
THEIRS = {"Ada", "The", "Crows", "Nest", "Slip", "past", "the", "watch", "Cut", "Tired", "Luck"}
THEIRS |= {"Bluecoats", "gm", "ada"}  # a clock, the usernames
# Words English and Spanish spell alike ("a", "dice", "Normal"), the names no
# translation changes (Doskvol, Foundry VTT), and units ("d" for dice, UTC).
SAME = {"a", "dice", "no", "Normal", "Visible", "total", "trauma", "Trauma", "traumas"}
SAME |= {"d", "UTC", "JSON"}
SAME |= {"Blades", "Table", "Akoros", "Doskvol", "Foundry", "VTT"}
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


# Every text node (folded parts and menus' options too: a reader opens them) and every
# name a screen reader reads out.
TEXTS = """(root) => {
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    if (!walker.currentNode.parentElement.closest("script, style, template")) {
      texts.push(walker.currentNode.data);
    }
  }
  for (const el of root.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  return texts.join(" ");
}"""


def words(page, selector="main") -> set[str]:
    return set(WORD.findall(page.locator(selector).evaluate(TEXTS)))


def english_left(spanish_page, english_page, selector="main") -> set[str]:
    """The English page's words that the Spanish page still shows."""
    return (words(spanish_page, selector) & words(english_page, selector)) - THEIRS - SAME


@pytest.fixture
def crew(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm, ada_user = (make_user(name) for name in ("gm", "ada"))
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    Membership.objects.create(table=table, user=ada_user, role=Membership.Role.PLAYER)
    ada = AdaFactory(table=table, owner=ada_user)
    actions.create_clock(
        table=table, name="Bluecoats", segments=6, kind=Clock.Kind.DANGER,
        visibility=Clock.Visibility.EVERYONE,
    )  # fmt: skip
    return table, ada


def spanish(page):
    page.get_by_label("Language").select_option(label="Español")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_a_spanish_player_reads_every_word_while_the_gm_reads_english(person, server, crew):
    table, ada_sheet = crew
    gm, ada = person("gm"), person("ada")
    for page in (gm, ada):
        page.goto(f"{server.url}/tables/{table.pk}/")
    spanish(ada)
    for page in (gm, ada):
        wait_for_socket(page)

    ada.get_by_text("Empezar una tirada de acción").click()
    ada.get_by_label("Objetivo").fill(GOAL)
    ada.get_by_label("Acción", exact=True).select_option(label="Merodear")
    ada.get_by_role("button", name="Proponer la tirada").click()
    mine = ada.get_by_role("article", name=re.compile(f"Ada: Merodear — {GOAL}"))
    expect(mine.get_by_role("status")).to_have_text(
        "Esperando a que el DJ fije la posición y el efecto."
    )
    called = gm.get_by_role("article", name=re.compile(f"Ada: Prowl — {GOAL}"))
    called.get_by_label("Position").select_option(label="Desperate")
    called.get_by_label("Effect").select_option(label="Great")
    called.get_by_role("button", name="Set position and effect").click()
    expect(called).to_contain_text("Desperate position · Great effect")
    # Pushed to her in her language, as the GM's page is drawn in his.
    expect(mine).to_contain_text("posición Desesperada · efecto Grande")
    mine.get_by_role("button", name="Tirar los dados").click()
    # The die that counts, named in each reader's language.
    expect(mine.get_by_role("img", name=re.compile(r"\(cuenta\)"))).to_have_count(1)
    expect(called.get_by_role("img", name=re.compile(r"\(counts\)"))).to_have_count(1)
    expect(mine.get_by_role("button", name="Tirar los dados")).to_have_count(0)

    # The GM's consequence, then the roll is done: its line in the log says what it cost.
    harm = called.get_by_role("group", name="Harm", exact=True)
    if harm.count():
        harm.get_by_label("Description").fill("Cut")
        harm.get_by_role("button", name="Inflict the consequence").click()
        expect(mine).to_contain_text("Daño")
    called.get_by_role("button", name="Close the roll").click()
    log = ada.get_by_role("list", name="Registro de tiradas")
    expect(log).to_contain_text("Merodear · Desesperada / Grande")
    expect(gm.get_by_role("list", name="Roll log")).to_contain_text("Prowl · Desperate / Great")
    gm.reload()
    ada.reload()
    for page in (gm, ada):
        wait_for_socket(page)
    left = english_left(ada, gm)
    assert not left, " ".join(sorted(left))

    # Her sheet, after the roll, as she and the GM read it.
    sheet = f"{server.url}/tables/{table.pk}/characters/{ada_sheet.pk}/"
    for page in (gm, ada):
        page.goto(sheet)
        expect(page.get_by_role("heading", name="Ada", level=1)).to_be_visible()
    left = english_left(ada, gm)
    assert not left, " ".join(sorted(left))


def test_her_sheet_reads_in_spanish_while_the_gm_reads_it_in_english(person, server, crew):
    table, ada_sheet = crew
    Character.objects.filter(pk=ada_sheet.pk).update(
        stress=3, traumas=["cold"], harm={"1": ["Tired"], "2": ["Cut"]}, coin=2, prowess_xp=1
    )
    gm, ada = person("gm"), person("ada")
    sheet = f"{server.url}/tables/{table.pk}/characters/{ada_sheet.pk}/"
    ada.goto(sheet)
    spanish(ada)
    gm.goto(sheet)
    for page in (gm, ada):
        expect(page.get_by_role("heading", name="Ada", level=1)).to_be_visible()
    expect(ada.locator("main")).to_contain_text("Matón")
    left = english_left(ada, gm)
    assert not left, " ".join(sorted(left))


def test_the_screen_and_the_journal_follow_the_tables_language(person, server, crew):
    table, ada_sheet = crew
    gm = person("gm")
    gm.goto(f"{server.url}/tables/{table.pk}/settings/")
    gm.get_by_label(re.compile("Language of what the whole table shares")).select_option(
        label="Español"
    )
    gm.get_by_role("button", name="Set the table's language").click()
    # The GM's own pages stay in his language.
    expect(gm.locator("html")).to_have_attribute("lang", "en")

    # The journal's record is the table's; the page around it, its controls included,
    # stays the GM's (issue 38).
    gm.goto(f"{server.url}/tables/{table.pk}/journal/")
    expect(gm.locator("html")).to_have_attribute("lang", "en")
    gm.get_by_role("button", name="Start a session").click()
    expect(gm.get_by_role("button", name="Start a session")).to_have_count(0)

    link = crew_actions.new_screen_link(table=table)
    tv = person()
    tv.goto(f"{server.url}/screen/{link.token}/")
    expect(tv.locator("html")).to_have_attribute("lang", "es")
    expect(tv.get_by_role("region", name="Relojes")).to_contain_text("Bluecoats")
    wait_for_socket(tv)

    gm.goto(f"{server.url}/tables/{table.pk}/")
    wait_for_socket(gm)
    gm.get_by_role("button", name="Tick Bluecoats", exact=True).click()
    clocks = tv.get_by_role("region", name="Relojes")
    expect(clocks.get_by_role("img", name="1 de 6 segmentos llenos")).to_be_visible()
    form = gm.locator("#roll-form")
    form.get_by_label("Note").fill("Luck")
    form.get_by_role("button", name="Roll the dice").click()
    expect(tv.get_by_role("region", name="Últimas tiradas")).to_contain_text("Luck")
    # Not a word of the GM's English page on the room's screen.
    left = english_left(tv, gm)
    assert not left, " ".join(sorted(left))

    table_page = gm.locator("main").evaluate(TEXTS)
    gm.goto(f"{server.url}/tables/{table.pk}/journal/")
    expect(gm.locator(".journal-record")).to_contain_text("Luck")
    expect(gm.locator(".journal-record")).to_have_attribute("lang", "es")
    left = (words(gm, ".journal-record") & set(WORD.findall(table_page))) - THEIRS - SAME
    assert not left, " ".join(sorted(left))
