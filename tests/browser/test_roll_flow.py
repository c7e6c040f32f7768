"""The shared action roll, built live by a GM and two players in three browsers.

The dice are the server's real dice: the test reads what they gave and checks the
sheets against that, taking another (zero-dice) roll when it needs a failure.
"""

import re

import pytest
from playwright.sync_api import expect

from blades.rules.dice import Roll
from blades.rules.rolls import resistance_stress
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew
from rolls.models import ActionRoll, Consequence
from tests.browsers import (
    HOLD_ANSWERS,
    PHONE,
    assert_accessible,
    assert_fits_phone,
    wait_for_socket,
)
from tests.helpers import give_ability

pytestmark = pytest.mark.browser

OUTCOMES = re.compile("Critical|Full success|Partial success|Bad outcome")


def open_table(person, server, table, name, viewport=None):
    page = person(name, viewport=viewport)
    page.goto(f"{server.url}/tables/{table.pk}/")
    wait_for_socket(page)
    return page


def open_roll(page, goal):
    return page.locator(
        "#flow-panel article.step-setup, #flow-panel article.step-consequences"
    ).filter(has_text=goal)


def harm_card(roll):
    """The GM's harm card on the roll: drawn while the result allows harm."""
    return roll.get_by_role("group", name="Harm", exact=True)


def party_line(page, character):
    return page.locator(f"#party-{character.pk}")


def open_start(page):
    """The start form is folded away until a player opens it (issue 13)."""
    start = page.get_by_text("Start an action roll")
    if not page.locator("#flow-start").is_visible():
        start.click()
    expect(page.locator("#flow-start")).to_be_visible()


def propose(page, goal, action, group=False):
    open_start(page)
    form = page.locator("#flow-start")
    form.get_by_label("Goal").fill(goal)
    form.get_by_label("Action", exact=True).select_option(label=action)
    if group:
        form.get_by_label("Group action (I lead)").check()
    form.get_by_role("button", name="Propose the roll").click()


def roll_outcome(goal) -> ActionRoll:
    return ActionRoll.objects.filter(goal=goal).latest("pk")


def failing_roll(gm, ada, bo, ada_page, everyone, attempt):
    """A zero-dice Hunt roll: 35 times in 36 it leaves a consequence to inflict."""
    goal = f"Track the courier {attempt}"
    propose(ada_page, goal, "Hunt")
    expect(open_roll(gm, goal)).to_be_visible()
    open_roll(gm, goal).get_by_label("Position").select_option(label="Desperate")
    open_roll(gm, goal).get_by_role("button", name="Set position and effect").click()
    expect(open_roll(ada_page, goal)).to_contain_text("Desperate position")
    open_roll(ada_page, goal).get_by_role("button", name="Roll the dice").click()
    for page in everyone:
        expect(open_roll(page, goal).locator(".outcome")).to_have_text(OUTCOMES)
    return goal


def test_a_roll_built_together_live(person, server, crew):
    table, ada, bo = crew
    gm = open_table(person, server, table, "gm")
    ada_page = open_table(person, server, table, "ada")
    bo_page = open_table(person, server, table, "bo")
    everyone = (gm, ada_page, bo_page)
    goal = "Slip past the watch"

    # 1. Ada states the goal and picks Prowl; everyone sees it.
    propose(ada_page, goal, "Prowl")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Ada: Prowl")
        expect(open_roll(page, goal)).to_contain_text("Risky position")
    # The dice wait for the GM's call, and Ada's page says so.
    expect(open_roll(ada_page, goal).get_by_role("status")).to_have_text(
        "Waiting for the GM to set position and effect."
    )
    expect(open_roll(ada_page, goal).get_by_role("button", name="Roll the dice")).to_have_count(0)

    # 2. The GM sets desperate / great.
    roll = open_roll(gm, goal)
    roll.get_by_label("Position").select_option(label="Desperate")
    roll.get_by_label("Effect").select_option(label="Great")
    roll.get_by_role("button", name="Set position and effect").click()
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Desperate position · Great effect")

    # 3. Bo assists from his own browser, by keyboard; Ada pushes for a die.
    expect(
        open_roll(ada_page, goal).get_by_role("button", name=re.compile("Assist"))
    ).to_have_count(0)
    assist = open_roll(bo_page, goal).get_by_role("button", name="Assist (+1d, 1 stress)")
    assist.focus()
    bo_page.keyboard.press("Enter")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Bo assists (+1d)")
    die = open_roll(ada_page, goal).get_by_role("button", name="Push for +1d (2 stress)")
    die.click()  # a push is a tap on the die it buys
    expect(die).to_have_attribute("aria-pressed", "true")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Pushes for +1d (2 stress)")
        expect(open_roll(page, goal)).to_contain_text("4d")
    # Only Ada has the dice.
    for page in (gm, bo_page):
        expect(open_roll(page, goal).get_by_role("button", name="Roll the dice")).to_have_count(0)
    assert_accessible(gm)

    # 4. Ada rolls: stress for the push and the assist, xp for desperate.
    open_roll(ada_page, goal).get_by_role("button", name="Roll the dice").click()
    for page in everyone:
        expect(open_roll(page, goal).locator(".outcome")).to_have_text(OUTCOMES)
        expect(party_line(page, ada)).to_contain_text("Stress 2/9")
        expect(party_line(page, bo)).to_contain_text("Stress 1/9")
    first = roll_outcome(goal)
    assert first.pool == 4 and Character.objects.get(pk=ada.pk).prowess_xp == 1
    assert_accessible(gm)
    assert_accessible(ada_page)

    # 5. A level 2 harm: on this roll if the dice allow it, else on a zero-dice roll.
    attempt = 0
    while not harm_card(open_roll(gm, goal)).count():
        open_roll(gm, goal).get_by_role("button", name="Close the roll").click()
        expect(open_roll(gm, goal)).to_have_count(0)
        attempt += 1
        assert attempt < 5, "the dice never failed"
        goal = failing_roll(gm, ada, bo, ada_page, everyone, attempt)
    stress_before = Character.objects.get(pk=ada.pk).stress
    harm = harm_card(open_roll(gm, goal))
    if harm.get_by_label("Who").count():  # asked only when Bo took part
        harm.get_by_label("Who").select_option(label="Ada")
    harm.get_by_label("Description").fill("Stabbed")
    harm.get_by_role("radio", name="2", exact=True).check()
    harm.get_by_label("Resist with").select_option(label="Prowess")
    harm.get_by_role("button", name="Inflict the consequence").click()
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Harm level 2: Stabbed")
        expect(party_line(page, ada)).to_contain_text("2: Stabbed")

    # 6. Ada resists with Prowess; the GM marks it reduced.
    open_roll(ada_page, goal).get_by_role("button", name="Resist with Prowess").click()
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Resistance roll")
    resisted = Consequence.objects.get(description="Stabbed")
    faces = resisted.resist_dice
    expected = max(0, stress_before + resistance_stress(Roll(faces[0], tuple(faces[1:]))))
    ada_now = Character.objects.get(pk=ada.pk)
    if not ada_now.trauma_pending:
        assert ada_now.stress == expected
    open_roll(gm, goal).get_by_role("button", name="Reduced", exact=True).click()
    for page in everyone:
        expect(party_line(page, ada)).to_contain_text("1: Stabbed")
        expect(party_line(page, ada)).not_to_contain_text("2: Stabbed")
    open_roll(gm, goal).get_by_role("button", name="Close the roll").click()
    sheet = person("ada")
    sheet.goto(f"{server.url}/tables/{table.pk}/characters/{ada.pk}/")
    expect(sheet.locator(f"#stress-value-{ada.pk}")).to_have_text(f"Stress {ada_now.stress}/9")
    expect(sheet.locator(f"#harm-row-{ada.pk}-1")).to_contain_text("Stabbed")
    expect(sheet.locator(f"#harm-row-{ada.pk}-2")).not_to_contain_text("Stabbed")

    # A group action: Ada leads, Bo joins, each rolls from their own browser.
    group_goal = "Hold the bridge"
    ada_stress = Character.objects.get(pk=ada.pk).stress
    propose(ada_page, group_goal, "Skirmish", group=True)
    open_roll(bo_page, group_goal).get_by_role("button", name="Join the group action").click()
    for page in everyone:
        expect(open_roll(page, group_goal)).to_contain_text("Bo: not rolled yet")
    expect(open_roll(bo_page, group_goal).get_by_role("status")).to_have_text(
        "Waiting for the GM to set position and effect."
    )
    open_roll(gm, group_goal).get_by_role("button", name="Take the roll as proposed").click()
    open_roll(bo_page, group_goal).get_by_role("button", name="Roll the dice").click()
    expect(open_roll(ada_page, group_goal)).not_to_contain_text("Bo: not rolled yet")
    open_roll(ada_page, group_goal).get_by_role("button", name="Roll the dice").click()
    for page in everyone:
        expect(open_roll(page, group_goal).locator(".outcome")).to_have_text(OUTCOMES)
    group = roll_outcome(group_goal)
    bad = sum(1 for faces in group.group.values() if max(faces[1:]) <= 3)
    if ada_stress + bad <= 9:
        # The leader takes 1 stress per participant whose best die was 1-3.
        assert Character.objects.get(pk=ada.pk).stress == ada_stress + bad
    open_roll(gm, group_goal).get_by_role("button", name="Close the roll").click()
    # The undo button names the roll it takes back (a stale one is refused).
    expect(
        gm.get_by_role("button", name=re.compile(f"Undo the last roll.*{group_goal}"))
    ).to_be_visible()

    # Undo, roll by roll, until both sheets are as they were before the first. Each click
    # waits for the redraw that answers it: until then the Undo button still names the
    # roll just undone, and the redraw can swap it out from under the next click.
    gm.on("dialog", lambda dialog: dialog.accept())
    undo = gm.get_by_role("button", name=re.compile("Undo the last roll"))
    opened = []
    while undo.count():
        undone_goal = undo.text_content().split(": ", 1)[1].strip()
        undo.click()
        expect(finished_line(gm, undone_goal)).to_contain_text("undone")
        # The stories opened before stay open and drawn through the panel's redraw.
        for goal in opened:
            expect(gm.get_by_role("article", name=story_name(goal))).to_contain_text("Undone")
        # Its story is fetched as its line is opened, and says so too.
        expect(finished_story(gm, undone_goal)).to_contain_text("Undone")
        opened.append(undone_goal)
    for page in everyone:
        for character in (ada, bo):
            expect(party_line(page, character)).to_contain_text("Stress 0/9")
            expect(party_line(page, character)).to_contain_text("Harm: none")
    ada_after = Character.objects.get(pk=ada.pk)
    assert (ada_after.prowess_xp, ada_after.stress, ada_after.trauma_pending) == (0, 0, 0)


def finished_line(page, goal: str):
    """A finished roll's one line in the panel (its fold's summary)."""
    return page.locator("details.flow-done > summary").filter(has_text=f"— {goal} ·")


def finished_story(page, goal: str):
    """A finished roll's story, its line opened as a player opens it (once: it stays)."""
    line = finished_line(page, goal)
    if line.locator("xpath=..").get_attribute("open") is None:
        line.click()
    return page.get_by_role("article", name=story_name(goal))


def story_name(goal: str) -> re.Pattern:
    return re.compile(f"— {re.escape(goal)}$")


# Where each reminder's name ends and its text's first letter (the colon) begins.
REMINDER_JOINS = """(list) => [...list.querySelectorAll("li")].map((li) => {
  const name = li.querySelector("strong").getBoundingClientRect();
  const range = document.createRange();
  range.setStart(li.querySelector("strong").nextSibling, 0);
  range.setEnd(li.querySelector("strong").nextSibling, 1);
  const colon = range.getBoundingClientRect();
  return [Math.round(colon.top - name.top), Math.round(colon.left - name.right)];
})"""


def test_the_flow_fits_a_phone_and_is_accessible(person, server, crew):
    table, ada, bo = crew
    give_ability(ada, "ambush")
    crew_actions.create_crew(table=table, crew_type="shadows", name="The Lanterns")
    Crew.objects.filter(table=table).update(upgrades={"carriage": 1})
    phone = open_table(person, server, table, "ada", viewport=PHONE)
    propose(phone, "Climb the tower", "Prowl")
    expect(open_roll(phone, "Climb the tower")).to_be_visible()
    # Each reminder reads as one sentence, "Ambush: …", that wraps as words do: not its
    # name on one line and ": …" on the next, nor "Ambush : …" with a gap.
    reminders = open_roll(phone, "Climb the tower").get_by_role(
        "list", name="Abilities to keep in mind"
    )
    expect(reminders.get_by_role("listitem")).to_have_count(2)
    assert reminders.evaluate(REMINDER_JOINS) == [[0, 0], [0, 0]]
    assert_accessible(phone)
    assert_fits_phone(phone)
    gm = open_table(person, server, table, "gm", viewport=PHONE)
    expect(open_roll(gm, "Climb the tower").get_by_label("Position")).to_be_visible()
    assert_accessible(gm)
    assert_fits_phone(gm)


# --- By keyboard, and through live redraws -------------------------------------------


def at_the_table(person, server, table):
    """The GM, Ada and Bo, each in their own browser, on the table page."""
    return tuple(open_table(person, server, table, name) for name in ("gm", "ada", "bo"))


def focused(locator) -> bool:
    return locator.evaluate("el => el === document.activeElement")


def assert_focus_kept(page) -> None:
    """After a redraw the focus is still somewhere in the page, never dropped to <body>."""
    assert page.evaluate("document.activeElement !== document.body")


def tab_to(page, target, limit=12, back=False) -> None:
    """Press Tab (or Shift+Tab) until `target` has the focus, within `limit` presses."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        assert_focus_kept(page)
        if focused(target):
            return
    raise AssertionError(f"{limit} presses of Tab did not reach {target}")


def press(page, target, key="Enter", limit=12, back=False) -> None:
    tab_to(page, target, limit, back)
    page.keyboard.press(key)


def propose_by_keyboard(page, goal, action) -> None:
    open_start(page)
    form = page.locator("#flow-start")
    form.get_by_label("Goal").focus()
    page.keyboard.type(goal)
    page.keyboard.press("Tab")
    expect(form.get_by_label("Action", exact=True)).to_be_focused()
    page.keyboard.type(action)  # a closed <select> picks the option typed
    expect(form.get_by_label("Action", exact=True)).to_have_value(action.lower())
    press(page, form.get_by_role("button", name="Propose the roll"))


def set_terms_by_keyboard(gm, goal, position, effect) -> None:
    roll = open_roll(gm, goal)
    roll.get_by_label("Position").focus()
    gm.keyboard.type(position)
    gm.keyboard.press("Tab")
    expect(roll.get_by_label("Effect")).to_be_focused()
    gm.keyboard.type(effect)
    press(gm, roll.get_by_role("button", name="Set position and effect"))


def test_a_whole_roll_by_keyboard(person, server, crew):
    """Three people, no mouse: propose, terms, assist, push, roll, harm, resist, judge."""
    table, ada, bo = crew
    everyone = gm, ada_page, bo_page = at_the_table(person, server, table)
    unplaced = []  # pushed fragments htmx found no target for
    for page in everyone:
        page.on("console", lambda m: unplaced.append(m.text) if "oobError" in m.text else None)

    goal = "Find the courier's trail"
    propose_by_keyboard(ada_page, goal, "Hunt")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Ada: Hunt")
    # Ada's answer folded her form away; her focus is on its summary, where the next starts.
    expect(ada_page.get_by_text("Start an action roll")).to_be_focused()

    set_terms_by_keyboard(gm, goal, "Desperate", "Great")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Desperate position · Great effect")
    set_terms = open_roll(gm, goal).get_by_role("button", name="Set position and effect")
    expect(set_terms).to_be_focused()

    # Bo assists: the button goes away with the answer, and his focus stays on the roll.
    open_roll(bo_page, goal).get_by_role("button", name="Assist (+1d, 1 stress)").focus()
    bo_page.keyboard.press("Enter")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Bo assists (+1d)")
    expect(open_roll(bo_page, goal)).to_be_focused()

    # Ada goes on from where she was: tap the die a push buys, roll.
    roll = open_roll(ada_page, goal)
    die = roll.get_by_role("button", name="Push for +1d (2 stress)")
    press(ada_page, die, key="Space")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Pushes for +1d (2 stress)")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(die).to_be_focused()
    # The roll's next step comes before its bonuses (issue 40, the phone): back up to it.
    press(ada_page, roll.get_by_role("button", name="Roll the dice"), back=True)
    for page in everyone:
        expect(open_roll(page, goal).locator(".outcome")).to_have_text(OUTCOMES)
        expect(party_line(page, bo)).to_contain_text("Stress 1/9")
    expect(open_roll(ada_page, goal)).to_be_focused()
    assert roll_outcome(goal).pool == 2

    # A full success leaves nothing to inflict: the GM closes it and Ada tries again
    # with no dice (two dice, the lowest counts), until there are consequences.
    attempt = 0
    while not harm_card(open_roll(gm, goal)).count():
        expect(open_roll(gm, goal)).to_be_focused()
        press(gm, open_roll(gm, goal).get_by_role("button", name="Close the roll"))
        expect(open_roll(gm, goal)).to_have_count(0)
        attempt += 1
        assert attempt < 5, "the dice never failed"
        goal = f"Find the courier's trail, again {attempt}"
        propose_by_keyboard(ada_page, goal, "Hunt")
        expect(open_roll(gm, goal)).to_be_visible()
        set_terms_by_keyboard(gm, goal, "Desperate", "Standard")
        expect(open_roll(ada_page, goal)).to_contain_text("Desperate position")
        press(ada_page, open_roll(ada_page, goal).get_by_role("button", name="Roll the dice"))
        for page in everyone:
            expect(open_roll(page, goal).locator(".outcome")).to_have_text(OUTCOMES)

    # The GM's own control went away with the roll: focus waits on the roll for him.
    roll = open_roll(gm, goal)
    expect(roll).to_be_focused()
    # Severe harm is what a desperate position calls for: its card opens on it (issue 39).
    harm = harm_card(roll)
    severe = harm.get_by_role("radio", name="3", exact=True)
    expect(severe).to_be_checked()
    tab_to(gm, severe, limit=3)
    # The GM judges it moderate: an arrow on the card's levels picks level 2.
    gm.keyboard.press("ArrowLeft")
    expect(harm.get_by_role("radio", name="2", exact=True)).to_be_checked()
    tab_to(gm, harm.get_by_label("Description"))
    gm.keyboard.type("Stabbed")
    if harm.get_by_label("Who").count():  # asked only when Bo took part
        tab_to(gm, harm.get_by_label("Who"))
        gm.keyboard.type("Ada")
        expect(harm.get_by_label("Who")).to_have_value(str(ada.pk))
    tab_to(gm, harm.get_by_label("Resist with"))
    gm.keyboard.type("Prowess")
    press(gm, harm.get_by_role("button", name="Inflict the consequence"))
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Harm level 2: Stabbed")
        expect(party_line(page, ada)).to_contain_text("2: Stabbed")
    assert_focus_kept(gm)

    # Ada resists from the roll, where her focus was left.
    press(ada_page, open_roll(ada_page, goal).get_by_role("button", name="Resist with Prowess"))
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Resistance roll")
    assert_focus_kept(ada_page)

    # The GM judges it (back up the roll, above his form) and closes the roll.
    roll = open_roll(gm, goal)
    press(gm, roll.get_by_role("button", name="Reduced", exact=True), back=True, limit=14)
    for page in everyone:
        expect(party_line(page, ada)).to_contain_text("1: Stabbed")
    assert_focus_kept(gm)
    press(gm, roll.get_by_role("button", name="Close the roll"), limit=40)
    for page in everyone:
        expect(open_roll(page, goal)).to_have_count(0)
        expect(finished_line(page, goal)).to_have_count(1)
    assert_focus_kept(gm)
    for page in everyone:
        expect(finished_story(page, goal)).to_contain_text("Finished")
    assert Consequence.objects.get(description="Stabbed").result == "reduced"
    assert_accessible(gm)
    # Pushed fragments this page has no place for (a sheet's) were dropped quietly.
    assert unplaced == []


def test_a_proposed_roll_folds_its_form_away_on_a_phone(person, server, crew):
    """Issue 40: once proposed, the start form stayed open above the roll in progress. It
    folds; its summary keeps the focus and opens it again for another roll."""
    table, ada, bo = crew
    phone = open_table(person, server, table, "ada", viewport=PHONE)
    propose_by_keyboard(phone, "Climb the tower", "Prowl")
    expect(open_roll(phone, "Climb the tower")).to_be_visible()
    start = phone.get_by_text("Start an action roll")
    expect(phone.locator("#flow-start")).to_be_hidden()
    expect(start).to_be_focused()
    assert_fits_phone(phone)
    # Another roll is a key away (it replaces the one still waiting for the GM's call).
    phone.keyboard.press("Enter")
    goal = phone.locator("#flow-start").get_by_label("Goal")
    expect(goal).to_be_visible()
    expect(goal).to_have_value("")
    propose_by_keyboard(phone, "Climb the wall", "Finesse")
    expect(open_roll(phone, "Climb the wall")).to_be_visible()
    expect(phone.locator("#flow-start")).to_be_hidden()
    expect(start).to_be_focused()


def test_typing_and_focus_survive_a_live_redraw(person, server, crew):
    """Bo types a bargain and the GM picks a position while Ada's steps redraw the panel."""
    table, ada, bo = crew
    everyone = gm, ada_page, bo_page = at_the_table(person, server, table)
    goal = "Talk our way past the gate"
    propose(ada_page, goal, "Sway")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Ada: Sway")

    # The GM has picked a position, not yet sent; Bo is half-way through a bargain.
    open_roll(gm, goal).get_by_label("Position").select_option(label="Desperate")
    bargain = open_roll(bo_page, goal).get_by_label("Devil's bargain")
    bargain.focus()
    bo_page.keyboard.type("Your blade")

    # Ada's step redraws both panels while Bo is still typing.
    open_roll(ada_page, goal).get_by_role("button", name="Ask to trade position for effect").click()
    bo_page.keyboard.type(" snaps", delay=60)
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Asks to trade position for effect")
    bo_page.keyboard.type(" in two")
    expect(bargain).to_be_focused()
    expect(bargain).to_have_value("Your blade snaps in two")
    gm_position = open_roll(gm, goal).get_by_label("Position")
    expect(gm_position).to_have_value("desperate")

    # What Bo sends arrives whole, and his own answer gives him a fresh field.
    bo_page.keyboard.press("Enter")
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text(
            "Devil's bargain offered by bo: Your blade snaps in two"
        )
    expect(bargain).to_have_value("")
    # That redraw too left the GM's unsent choice alone.
    expect(gm_position).to_have_value("desperate")
    open_roll(gm, goal).get_by_role("button", name="Set position and effect").click()
    for page in everyone:
        expect(open_roll(page, goal)).to_contain_text("Desperate position")
    assert ActionRoll.objects.get(goal=goal).bargain == "Your blade snaps in two"


def test_a_later_answer_is_not_lost_to_an_earlier_one(person, server, crew):
    """Two refetches of the panel are out at once and come home in the order they left:
    the older one redraws the panel first, and the newer one must still go in."""
    table, ada, bo = crew
    gm, ada_page, bo_page = at_the_table(person, server, table)
    bo_page.evaluate(HOLD_ANSWERS, None)
    goal = "Cross the rooftops"
    bargain = "Leave a trace"

    # Ada proposes, then the GM sets the terms: two pushes, two refetches on Bo's page,
    # both answered by the server before either is swapped in.
    propose(ada_page, goal, "Prowl")
    expect(open_roll(gm, goal)).to_contain_text("Risky position")
    expect(bo_page.locator("body")).to_have_attribute("data-held-answers", "1")
    roll = open_roll(gm, goal)
    roll.get_by_label("Position").select_option(label="Desperate")
    roll.get_by_role("button", name="Set position and effect").click()
    expect(open_roll(ada_page, goal)).to_contain_text("Desperate position")
    expect(bo_page.locator("body")).to_have_attribute("data-held-answers", "2")

    # Bo sees the proposal, starts a bargain, and then the terms arrive.
    bo_page.evaluate("heldAnswers[0]()")
    expect(open_roll(bo_page, goal)).to_contain_text("Risky position")
    field = open_roll(bo_page, goal).get_by_label("Devil's bargain")
    field.focus()
    bo_page.keyboard.type(bargain)
    bo_page.evaluate("heldAnswers[1]()")
    expect(open_roll(bo_page, goal)).to_contain_text("Desperate position")
    expect(field).to_be_focused()
    expect(field).to_have_value(bargain)
