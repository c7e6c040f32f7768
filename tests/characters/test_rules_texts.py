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
    checked there is nothing to mark; the button reads "Mark armor", not "Use armor armor"."""
    from blades.rules.character import RuleError
    from tests.factories import CharacterItemFactory

    character = CharacterFactory(table=table, owner=player)
    armor = CharacterItemFactory(character=character, name="Armor", load=2, armor="armor")
    sheet = reverse("character_sheet", args=[table.pk, character.pk])
    client.force_login(player)
    page = client.get(sheet).content.decode()
    assert "Use armor armor" not in page and "Mark armor</button>" not in page
    assert "No armor: check armor on this score" in page
    with pytest.raises(RuleError, match="No armor is carried"):
        actions.use_armor(character=character, box="armor")
    actions.set_load(character=character, level="normal")
    actions.check_item(character=character, item_id=armor.pk, checked=True)
    assert "Mark armor</button>" in client.get(sheet).content.decode()
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
    assert "Healing clock: 0/3" in client.get(sheet).content.decode()
    actions.tick_healing(character=character, ticks=3)
    after = fresh(character)
    assert (after.healing, after.harm["1"], after.harm["2"]) == (0, ["Cut"], [])


def test_harm_penalties_apply_once_to_the_sheet_roll_and_its_button(client, table, player):
    """Issue 13: level 1 reduced effect, level 2 −1d, and the button shows the dice the roll
    really uses ("Roll Survey (1d)" rolled 0d)."""
    from blades.rules.rolls import Effect
    from sessions.models import Roll
    from tests.helpers import Dice

    character = CharacterFactory(table=table, owner=player, survey=1)
    Character.objects.filter(pk=character.pk).update(harm={"1": ["Tired"], "2": ["Cut"]})
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[table.pk, character.pk])).content
    assert "Roll Survey (0d)" in page.decode()
    actions.roll_action(
        character=character, roller=player, action="survey", effect=Effect.STANDARD,
        rng=Dice(5, 3),
    )  # fmt: skip
    roll = Roll.objects.get()
    assert roll.pool == 0 and "Limited" in roll.note


def test_severe_harm_needs_help_or_a_push_to_roll(table, player):
    """001 §Harm: severe harm "can't do anything unless you have help from someone else or
    push yourself to perform the action"."""
    from blades.rules.character import RuleError
    from tests.helpers import Dice

    character = CharacterFactory(table=table, owner=player, survey=2)
    Character.objects.filter(pk=character.pk).update(harm={"3": ["Punctured lung"]})
    with pytest.raises(RuleError, match="incapacitated"):
        actions.roll_action(character=character, roller=player, action="survey", rng=Dice(6, 6))
    actions.roll_action(
        character=character, roller=player, action="survey", push=True, rng=Dice(6, 6, 6)
    )
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
    actions.take_ability_advance(character=character, ability_id=shadow.pk)
    assert list(fresh(character).abilities.values_list("ability__key", flat=True)) == ["shadow"]


def test_assist_from_the_sheet_charges_the_helper_1_stress(client, table, player, other_player):
    """001 §Teamwork / RULES.md: "Assist: 1 stress, +1d to one roll" (the sheet charged
    nobody)."""
    from sessions.models import Roll

    roller = CharacterFactory(table=table, owner=player, name="Ada", prowl=1)
    helper = CharacterFactory(table=table, owner=other_player, name="Bo")
    client.force_login(player)
    url = reverse("character_move", args=[table.pk, roller.pk, "roll"])
    page = client.get(reverse("character_sheet", args=[table.pk, roller.pk])).content.decode()
    assert f'<option value="{helper.pk}">Bo</option>' in page
    client.post(url, {"action": "prowl", "position": "risky", "effect": "standard",
                      "assister": helper.pk})  # fmt: skip
    assert Roll.objects.get().pool == 2
    assert fresh(helper).stress == 1 and fresh(roller).stress == 0
