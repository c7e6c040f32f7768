"""What the sheet draws and what its steps let through are one answer
(`access.can_take_sheet_step`): for the GM, the character's player and another player,
every step the page draws is not refused for permission, and every one it does not draw
is refused with nothing changed."""

import re

import pytest
from django.urls import reverse

from characters.access import MARK_DEAD
from characters.models import Character, CharacterAbility, CharacterItem, Contact, GmNote
from characters.queries import ability_advance_choices
from characters.steps import SHEET_STEPS
from crews.models import Crew
from sessions.models import Roll
from tests.factories import CharacterFactory, CharacterItemFactory, ContactFactory
from tests.helpers import give_ability

HTMX = {"HX-Request": "true"}
# The one step no control of the sheet posts: its stress track sets stress ("set-stress").
UNDRAWN = {"stress"}
POSTED_STEP = re.compile(r'(?:hx-post|action)="/tables/\d+/characters/\d+/do/([a-z-]+)/"')


@pytest.fixture
def sheet(table, crew, player):
    """A character with something for every control to act on: a trauma to choose, harm,
    armor used and unused, items, advances to take, a crew dot, a contact, Expertise's
    action still to choose."""
    Crew.objects.filter(pk=crew.pk).update(abilities=["everyone_steals"])
    character = CharacterFactory(
        table=table, owner=player, trauma_pending=1, harm={"1": ["Bruised"]}, load="normal",
        armor_used=True, insight_advances=1, playbook_advances=1,
    )  # fmt: skip
    CharacterItemFactory(character=character, armor="armor", checked=True, load=1)
    CharacterItemFactory(character=character, armor="heavy", checked=True, load=1)
    ContactFactory(character=character)
    give_ability(character, "expertise")
    return character


def posts(character) -> dict[str, tuple[str, dict]]:
    """Each question (a step, and MARK_DEAD) with the URL step and fields it posts."""
    fields = {
        "gm-note": {"text": "Secretly a cultist"},
        "stress": {"amount": "1"},
        "set-stress": {"stress": "2"},
        "trauma": {"condition": "cold"},
        "trauma-mark": {"condition": "haunted", "reason": "By hand"},
        "trauma-clear": {"condition": "cold", "reason": "By hand"},
        "harm": {"level": "2", "description": "Cut"},
        "harm-clear": {"level": "1", "index": "0"},
        "healing": {"ticks": "1"},
        "armor": {"box": "heavy"},
        "armor-restore": {},
        "load": {"level": "heavy"},
        "item": {"item": character.items.first().pk, "checked": "0"},
        "action": {"action": "hunt", "rating": "1"},
        "xp": {"track": "insight", "amount": "1"},
        "advance-ability": {"ability": ability_advance_choices(character).first().pk},
        "crew-dot": {"ability": "everyone_steals", "action": "prowl"},
        "expertise": {"action": "prowl"},
        "advance-action": {"attribute": "insight", "action": "hunt"},
        "coin": {"amount": "1"},
        "stash": {"amount": "1"},
        "withdraw": {"coin": "1"},
        "stance": {"contact": character.contacts.first().pk, "stance": "friend"},
        "notes": {"notes": "Owes the Crows"},
        "state": {"state": "retired"},
        "resist": {"attribute": "prowess"},
        "vice": {},
    }
    assert set(fields) == set(SHEET_STEPS)
    return {name: (name, data) for name, data in fields.items()} | {
        MARK_DEAD: ("state", {"state": "dead"})
    }


def drawn(page: str) -> set[str]:
    found = set(POSTED_STEP.findall(page))
    if re.search(r'<input type="hidden"\s+name="state"\s+value="dead">', page):
        found.add(MARK_DEAD)
    return found


def books(character) -> tuple:
    """Everything a sheet step can change."""
    return (
        list(Character.objects.filter(pk=character.pk).values()),
        list(CharacterItem.objects.filter(character=character).values()),
        list(Contact.objects.filter(character=character).values()),
        list(CharacterAbility.objects.filter(character=character).values()),
        list(GmNote.objects.values()),
        Roll.objects.count(),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", ["gm", "owner", "other player"])
def test_the_sheet_draws_exactly_the_steps_it_lets_through(client, sheet, gm, other_player, viewer):
    user = {"gm": gm, "owner": sheet.owner, "other player": other_player}[viewer]
    client.force_login(user)
    page = client.get(reverse("character_sheet", args=[sheet.table_id, sheet.pk])).text
    shown = drawn(page)
    steps = posts(sheet)
    if viewer == "gm":
        # The scene leaves no control undrawn for want of something to act on.
        assert shown == set(steps) - UNDRAWN
    for question, (step, data) in steps.items():
        if question in UNDRAWN:
            continue
        url = reverse("character_move", args=[sheet.table_id, sheet.pk, step])
        before = books(sheet)
        status = client.post(url, data, headers=HTMX).status_code
        if question in shown:
            assert status not in {403, 404} and status < 500, (question, status)
        else:
            assert status in {403, 422}, (question, status)
            assert books(sheet) == before, question


@pytest.mark.django_db
@pytest.mark.parametrize("state", ["dead", " dead", "dead\n", "DEAD"])
def test_the_player_cannot_mark_their_character_dead_however_it_is_spelt(client, sheet, state):
    client.force_login(sheet.owner)
    url = reverse("character_move", args=[sheet.table_id, sheet.pk, "state"])
    assert client.post(url, {"state": state}, headers=HTMX).status_code in {403, 422}
    assert Character.objects.get(pk=sheet.pk).state == "active"
