"""The sheet's actions do what the rule texts say (issue 14), on the real database."""

import pytest
from django.urls import reverse

from characters import actions
from characters.models import Character
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


def fresh(character) -> Character:
    return Character.objects.get(pk=character.pk)


def test_marking_the_last_stress_box_is_trauma_and_zero_stress():
    """001 §Trauma: "When a PC marks their last stress box, they suffer a level of trauma
    ... When you return, you have zero stress"."""
    character = CharacterFactory(stress=7)
    actions.mark_stress(character=character, amount=2)
    after = fresh(character)
    assert (after.stress, after.trauma_pending) == (0, 1)


def test_armor_needs_a_chosen_load_with_armor_checked_and_the_button_names_the_box(
    client, table, player
):
    """Armor is an item (001 §Armor, SRD_FACTS §4.2): without a load chosen and armor
    checked there is nothing to mark; the box reads "Armor", not "Armor armor"."""
    from blades.rules.character import RuleError
    from tests.factories import CharacterItemFactory

    character = CharacterFactory(table=table, owner=player)
    armor = CharacterItemFactory(character=character, name="Armor", load=2, armor="armor")
    sheet = reverse("character_sheet", args=[table.pk, character.pk])
    client.force_login(player)
    page = client.get(sheet).content.decode()
    box = f'id="armor-{character.pk}-armor"'
    assert "Armor armor" not in page and box not in page
    assert "No armor: check armor on this score" in page
    with pytest.raises(RuleError, match="No armor is carried"):
        actions.use_armor(character=character, box="armor")
    actions.set_load(character=character, level="normal")
    actions.check_item(character=character, item_id=armor.pk, checked=True)
    page = client.get(sheet).content.decode()
    assert box in page and ">Armor</button>" in page
    actions.use_armor(character=character, box="armor")
    assert fresh(character).armor_used


def test_vigorous_heals_on_a_3_segment_clock(client, table, player):
    """Vigorous: "your healing clock becomes a 3-clock" (SRD_FACTS §2, 000 Vigorous)."""
    from characters.models import SpecialAbility
    from tests.factories import CharacterAbilityFactory

    character = CharacterFactory(table=table, owner=player)
    actions.add_harm(character=character, level=2, description="Cut")
    ability = SpecialAbility.objects.get(key="vigorous", playbook__key="cutter")
    CharacterAbilityFactory(character=character, ability=ability)
    client.force_login(player)
    sheet = reverse("character_sheet", args=[table.pk, character.pk])
    assert "Healing clock 0/3" in client.get(sheet).content.decode()
    actions.tick_healing(character=character, ticks=3)
    after = fresh(character)
    assert (after.healing, after.harm["1"], after.harm["2"]) == (0, ["Cut"], [])


def test_harm_penalties_apply_once_to_the_shared_roll_and_the_sheets_button(
    client, table, gm, player
):
    """Issue 13: level 1 reduced effect, level 2 −1d, and the sheet's button shows the dice
    the roll really uses ("Roll Survey (1d)" rolled 0d)."""
    from blades.rules.rolls import Effect, Position
    from rolls import actions as flow
    from tests.helpers import Dice, member

    character = CharacterFactory(table=table, owner=player, survey=1)
    Character.objects.filter(pk=character.pk).update(harm={"1": ["Tired"], "2": ["Cut"]})
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[table.pk, character.pk])).content
    assert "Roll Survey (0d" in page.decode()
    roll = flow.start_roll(
        by=member(table, player), character=character, goal="look around", action="survey"
    )
    flow.set_terms(by=member(table, gm), roll=roll, position=Position.RISKY, effect=Effect.STANDARD)
    roll = flow.roll_dice(by=member(table, player), roll=roll, rng=Dice(5, 3))
    assert roll.pool == 0 and roll.as_effect == Effect.LIMITED


def test_severe_harm_needs_help_or_a_push_to_roll(table, gm, player):
    """001 §Harm: severe harm "can't do anything unless you have help from someone else or
    push yourself to perform the action"."""
    from blades.rules.errors import RuleError
    from rolls import actions as flow
    from tests.helpers import Dice, call, member

    character = CharacterFactory(table=table, owner=player, survey=2)
    Character.objects.filter(pk=character.pk).update(harm={"3": ["Punctured lung"]})
    by = member(table, player)
    roll = call(flow.start_roll(by=by, character=character, goal="look", action="survey"))
    with pytest.raises(RuleError, match="incapacitated"):
        flow.roll_dice(by=by, roll=roll, rng=Dice(6, 6))
    flow.set_push(by=by, roll=roll, dice_=False, effect=False, act=True)
    flow.roll_dice(by=by, roll=roll, rng=Dice(6, 6))
    assert fresh(character).stress == 2


def test_veteran_takes_an_ability_from_another_playbook(client, table, player):
    """SRD_FACTS §5: "Every core playbook's ability list ends with Veteran (take an ability
    from another source)"."""
    from blades.rules.character import RuleError
    from characters.models import SpecialAbility

    character = CharacterFactory(table=table, owner=player)  # a Cutter
    Character.objects.filter(pk=character.pk).update(playbook_advances=1)
    shadow = SpecialAbility.objects.get(key="shadow", playbook__key="lurk")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[table.pk, character.pk])).content
    assert 'label="Veteran: an ability from another playbook"' in page.decode()
    assert "Shadow (Lurk)" in page.decode()
    veteran = SpecialAbility.objects.get(key="veteran", playbook=character.playbook)
    with pytest.raises(RuleError):
        actions.take_ability_advance(character=character, ability_id=veteran.pk)
    # The sheet's post, as the action allows it (it answered 422 "choose one" before).
    url = reverse("character_move", args=[table.pk, character.pk, "advance-ability"])
    response = client.post(url, {"ability": shadow.pk}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert list(fresh(character).abilities.values_list("ability__key", flat=True)) == ["shadow"]


def test_an_assist_charges_the_helper_1_stress(table, player, other_player):
    """001 §Teamwork / RULES.md: "Assist: 1 stress, +1d to one roll" (the sheet's own
    assist charged nobody; the sheet now starts the shared roll, where the helper pays)."""
    from rolls import actions as flow
    from tests.helpers import Dice, call, member

    roller = CharacterFactory(table=table, owner=player, name="Ada", prowl=1)
    helper = CharacterFactory(table=table, owner=other_player, name="Bo")
    by = member(table, player)
    roll = call(flow.start_roll(by=by, character=roller, goal="slip by", action="prowl"))
    flow.assist(by=member(table, other_player), roll=roll)
    roll = flow.roll_dice(by=by, roll=roll, rng=Dice(4, 4))
    assert roll.pool == 2
    assert fresh(helper).stress == 1 and fresh(roller).stress == 0
