"""The shared roll's panel as things of the game you act on (issue 40): a push is a tap on
the die it buys, the devil's bargain a die with its price written on it, an ability's
bonus a die on its card, and the GM's consequences cards from the menu the position and
result allow, each opening on the level or ticks the position calls for; a trade of
position for effect a card with the terms it leaves, and a group action's own bonus the
same dice. A player on a phone taps the dice (one of them by keyboard); the GM at a
desktop taps the cards; every step is read by axe at both sizes."""

import pytest
from playwright.sync_api import expect

from rolls import actions as flow
from rolls import group as flow_group
from rolls.models import ActionRoll, Consequence
from tests.browser.test_every_page import SMALL_TARGETS
from tests.browsers import DESKTOP, PHONE, read_well_at_both_sizes, wait_for_socket
from tests.helpers import Dice, give_ability, member, start

pytestmark = pytest.mark.browser
GOAL = "slip past the guard"  # tests.helpers.start's


def read_well(*pages):
    """axe and the phone's width at both sizes, and every die and card big enough for a
    finger."""
    read_well_at_both_sizes(*pages)
    for page in pages:
        assert page.evaluate(SMALL_TARGETS) == []


def the_roll(page):
    return page.get_by_role("article", name=f"Ada: Prowl — {GOAL}")


def at_the_table(person, server, table):
    """The GM at a desktop and Ada on her phone, each at the table page, live."""
    gm = person("gm", viewport=DESKTOP)
    phone = person("ada", viewport=PHONE)
    for page in (gm, phone):
        page.goto(f"{server.url}/tables/{table.pk}/")
        wait_for_socket(page)
    return gm, phone


def test_a_player_taps_dice_and_the_gm_taps_consequence_cards(person, server, crew):
    table, ada, _ = crew
    give_ability(ada, "ambush")
    roll = start(member(table, ada.owner), ada)  # called risky / standard, as proposed
    gm, phone = at_the_table(person, server, table)

    # The GM offers a bargain: the die it buys, its price typed on it.
    the_roll(gm).get_by_label("Devil's bargain").fill("The watch spots you")
    the_roll(gm).get_by_role("button", name="Offer the bargain").click()
    mine = the_roll(phone)
    bargain = mine.get_by_role("button", name="Accept the devil's bargain: The watch spots you")
    expect(bargain).to_be_visible()

    # A push is a tap on its die, by keyboard too; while it is taken the bargain, which
    # gives that die instead, is not offered, and a second tap gives the die back.
    die = mine.get_by_role("button", name="Push for +1d (2 stress)")
    expect(die).to_have_attribute("aria-pressed", "false")
    die.focus()
    phone.keyboard.press("Space")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(mine).to_contain_text("Pushes for +1d (2 stress)")
    expect(bargain).to_have_count(0)
    expect(mine).to_contain_text("Tap the +1d die again to give it back")
    read_well(phone)
    die.click()
    expect(die).to_have_attribute("aria-pressed", "false")
    bargain.click()
    expect(mine).to_contain_text("Devil's bargain (accepted, +1d): The watch spots you")
    expect(die).to_have_count(0)  # the bargain gave that die
    effect = mine.get_by_role("button", name="Push for +1 effect (2 stress)")
    effect.click()
    expect(effect).to_have_attribute("aria-pressed", "true")
    # The ability the roll brings to mind is a card with the die it may give.
    mine.get_by_role("list", name="Ability bonus").get_by_role("button", name="Ambush: +1d").click()
    expect(mine).to_contain_text("Ambush: +1d")
    for page in (gm, phone):
        expect(the_roll(page)).to_contain_text("Pushes for +1 effect (2 stress)")
    read_well(gm, phone)
    stored = ActionRoll.objects.get(pk=roll.pk)
    assert (stored.push_dice, stored.bargain_accepted, stored.push_effect) == (False, True, True)
    assert (stored.ability_reason, stored.ability_dice) == ("Ambush", 1)

    # A 4 at the top: a risky partial success, rolled here so the menu is known.
    flow.roll_dice(by=member(table, ada.owner), roll=stored, rng=Dice(*[4] * 8))
    for page in (gm, phone):
        page.reload()
        wait_for_socket(page)
    cards = the_roll(gm).get_by_role("list", name="Inflict a consequence")
    for kind in ("Harm", "Complication", "Reduced effect", "Worse position"):
        expect(cards.get_by_role("group", name=kind, exact=True)).to_be_visible()
    expect(cards.get_by_role("group", name="Lost opportunity")).to_have_count(0)
    expect(the_roll(phone).get_by_role("list", name="Inflict a consequence")).to_have_count(0)
    harm = cards.get_by_role("group", name="Harm", exact=True)
    # Risky: the harm card opens on level 2, the complication's on a standard two ticks.
    expect(harm).to_contain_text("Opens on level 2 (position: Risky)")
    expect(harm.get_by_role("radio", name="2", exact=True)).to_be_checked()
    complication = cards.get_by_role("group", name="Complication", exact=True)
    expect(complication.get_by_role("radio", name="2", exact=True)).to_be_checked()
    expect(cards.get_by_role("group", name="Worse position")).to_contain_text(
        "Position: Risky → Desperate"
    )
    read_well(gm)

    # Harm with no description: told on its card, and nothing is inflicted.
    harm.get_by_role("button", name="Inflict the consequence").click()
    expect(harm.get_by_role("alert")).to_contain_text("Harm needs a level (1-4) and a description")
    assert not Consequence.objects.exists()
    # The GM has the last word: severe harm, not the card's moderate.
    harm.get_by_role("radio", name="3", exact=True).check()
    harm.get_by_label("Description").fill("Cut by a halberd")
    harm.get_by_role("button", name="Inflict the consequence").click()
    for page in (gm, phone):
        expect(the_roll(page)).to_contain_text("Harm level 3: Cut by a halberd")
    expect(harm.get_by_role("alert")).to_have_count(0)
    # A complication told in words alone.
    complication.get_by_label("Description").fill("The dogs wake")
    complication.get_by_role("button", name="Inflict the consequence").click()
    expect(the_roll(phone)).to_contain_text("Complication: The dogs wake")
    read_well(gm, phone)
    assert list(Consequence.objects.order_by("pk").values_list("kind", flat=True)) == [
        "harm",
        "complication",
    ]


def test_a_trade_is_a_card_with_the_terms_it_leaves(person, server, crew):
    table, ada, _ = crew
    roll = start(member(table, ada.owner), ada)  # called risky / standard, as proposed
    gm, phone = at_the_table(person, server, table)

    trades = the_roll(phone).get_by_role("group", name="Trades", exact=True)
    expect(
        trades.get_by_role(
            "button",
            name="Ask to trade effect for position: Risky → Controlled, Standard → Limited",
            exact=True,
        )
    ).to_be_visible()
    trades.get_by_role(
        "button", name="Ask to trade position for effect: Risky → Desperate, Standard → Great"
    ).click()
    expect(the_roll(phone)).to_contain_text("Asks to trade position for effect")
    expect(trades).to_have_count(0)  # one trade asked at a time

    answers = the_roll(gm).get_by_role("group", name="Trades", exact=True)
    refuse = answers.get_by_role("button", name="Refuse the trade: Stays: Risky, Standard")
    expect(refuse).to_be_visible()
    read_well(gm, phone)
    accept = answers.get_by_role(
        "button", name="Accept the trade: Risky → Desperate, Standard → Great", exact=True
    )
    accept.focus()
    gm.keyboard.press("Enter")
    for page in (gm, phone):
        expect(the_roll(page).locator(".terms")).to_contain_text("Desperate position")
        expect(the_roll(page).locator(".terms")).to_contain_text("Great effect")
    stored = ActionRoll.objects.get(pk=roll.pk)
    assert (stored.position, stored.effect, stored.trade_asked) == ("desperate", 3, False)


def test_a_group_action_bonus_is_tapped_on_its_dice(person, server, crew):
    table, ada, bo = crew
    roll = start(member(table, ada.owner), ada, group=True)
    flow_group.join_group(by=member(table, bo.owner), roll=roll)
    phone = person("bo", viewport=PHONE)
    phone.goto(f"{server.url}/tables/{table.pk}/")
    wait_for_socket(phone)
    mine = the_roll(phone)
    expect(mine.get_by_role("button", name="Save my bonus dice")).to_have_count(0)

    def bonus():
        return ActionRoll.objects.get(pk=roll.pk).group_bonuses[str(bo.pk)]

    # The push die, by keyboard: pressed while taken; the bargain then gives no die.
    die = mine.get_by_role("button", name="Push for +1d (2 stress)")
    expect(die).to_have_attribute("aria-pressed", "false")
    die.focus()
    phone.keyboard.press("Space")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(mine.get_by_label("Devil's bargain I accept (+1d)")).to_have_count(0)
    expect(mine).to_contain_text("Tap the +1d die again to give it back")
    assert bonus()["push"] is True
    read_well(phone)
    die.click()
    expect(die).to_have_attribute("aria-pressed", "false")

    # The bargain: its price typed, then a die with the price on it, tapped to give back.
    mine.get_by_label("Devil's bargain I accept (+1d)").fill("Drop your lantern")
    mine.get_by_role("button", name="Accept the devil's bargain").click()
    taken = mine.get_by_role("button", name="Devil's bargain I accept (+1d): Drop your lantern")
    expect(taken).to_have_attribute("aria-pressed", "true")
    expect(die).to_have_count(0)  # the bargain gave that die
    assert (bonus()["push"], bonus()["bargain"]) == (False, "Drop your lantern")
    read_well(phone)
    taken.click()
    expect(die).to_have_attribute("aria-pressed", "false")
    assert bonus()["bargain"] == ""
