import pytest
from django.urls import reverse
from django.utils import translation

from characters import actions
from characters.models import Character
from sessions.models import Roll
from tests.concurrency import post_at_once
from tests.factories import CharacterFactory


class FixedDice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


@pytest.fixture
def character(table, player):
    # Cutter: skirmish 2, command 1, so Prowess 1 and Resolve 1, Insight 0.
    return CharacterFactory(table=table, owner=player, stress=3)


def sheet_url(character):
    return reverse("character_sheet", args=[character.table_id, character.pk])


def fresh(character):
    return Character.objects.get(pk=character.pk)


def test_resisting_takes_six_minus_the_best_die(character):
    roll = actions.resist(
        character=character, roller=character.owner, attribute="prowess", rng=FixedDice(4)
    )
    assert (roll.pool, roll.character_name, roll.kind) == (1, character.name, "resistance")
    assert fresh(character).stress == 5


def test_a_critical_resistance_clears_one_stress(character):
    Character.objects.filter(pk=character.pk).update(hunt=1, study=1)
    actions.resist(
        character=character, roller=character.owner, attribute="insight", rng=FixedDice(6, 6)
    )
    assert fresh(character).stress == 2


def test_resistance_overflow_is_trauma(character):
    Character.objects.filter(pk=character.pk).update(stress=8)
    roll = actions.resist(
        character=character, roller=character.owner, attribute="resolve", rng=FixedDice(2)
    )
    after = fresh(character)
    assert (after.stress, after.trauma_pending) == (0, 1)
    assert "trauma" in str(roll.summary)


def test_the_sheets_roll_buttons_show_the_dice_harm_leaves(client, character):
    """Issue 13: "Roll Skirmish (2d)" while level 2 harm made the roll 1d."""
    actions.add_harm(character=character, level=2, description="Cut")
    client.force_login(character.owner)
    page = client.get(sheet_url(character)).content.decode()
    assert "Roll Skirmish (1d)" in page
    assert "Roll Hunt (0d: 2 dice, lowest counts)" in page


def test_the_sheets_roll_buttons_open_the_shared_roll(client, character):
    """Issue 13: the sheet rolled actions itself, with its own assist, push and bargain,
    past the GM. Its buttons now propose the table's shared roll, and its own roll is gone."""
    client.force_login(character.owner)
    page = client.get(sheet_url(character)).content.decode()
    table_url = reverse("table_detail", args=[character.table_id])
    assert f'href="{table_url}?roll=skirmish#flow-start"' in page
    assert 'name="bargain"' not in page and 'name="push"' not in page
    old = reverse("character_move", args=[character.table_id, character.pk, "roll"])
    assert client.post(old, {"action": "skirmish"}).status_code == 404
    assert not Roll.objects.exists()
    table_page = client.get(f"{table_url}?roll=skirmish").content.decode()
    assert '<option value="skirmish" selected>' in table_page
    assert '<details id="flow-new" class="flow-new" open>' in table_page


def test_only_the_characters_player_sees_its_roll_buttons(client, character, gm):
    client.force_login(gm)
    assert "Roll Skirmish" not in client.get(sheet_url(character)).content.decode()


def test_indulging_vice_rolls_the_lowest_attribute(character):
    roll = actions.indulge_vice(character=character, roller=character.owner, rng=FixedDice(6, 5))
    assert roll.pool == 0  # Insight 0: two dice, the lower counts
    assert fresh(character).stress == 0
    assert "overindulged" in str(roll.summary)


def test_a_vice_roll_names_the_vice_in_its_readers_language(client, character, gm):
    """Issue 38: the note kept the vice's English name, "Faith" in the Spanish log, its
    announcement and the journal."""
    with translation.override("en"):
        actions.indulge_vice(character=character, roller=character.owner, rng=FixedDice(6, 5))
    note = Roll.objects.get(table=character.table).note
    with translation.override("es"):
        assert str(note) == "Fe"
    assert str(note) == "Faith"
    client.force_login(gm)
    page = client.get(reverse("table_detail", args=[character.table_id]), HTTP_ACCEPT_LANGUAGE="es")
    assert "— Fe</p>" in page.content.decode()


def test_sheet_rolls_reach_the_table_log_with_the_name(client, character, gm):
    client.force_login(character.owner)
    client.post(
        reverse("character_move", args=[character.table_id, character.pk, "resist"]),
        {"attribute": "prowess"},
    )
    roll = Roll.objects.get()
    assert roll.character_name == character.name and roll.pool == 1
    client.force_login(gm)
    page = client.get(reverse("table_detail", args=[character.table_id])).content.decode()
    assert f"<strong>{character.name}</strong>" in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("start,clicks", [(0, 9), (0, 20)])
def test_concurrent_stress_marks_lose_nothing_and_never_reach_nine(start, clicks):
    character = CharacterFactory(stress=start)
    url = reverse("character_move", args=[character.table_id, character.pk, "stress"])
    post_at_once([(character.owner, url, {"amount": "1"})] * clicks)
    after = fresh(character)
    # Every mark counts: marking the last (ninth) box is a trauma and starts again from 0.
    assert 0 <= after.stress < 9
    assert after.trauma_pending * 9 + after.stress == start + clicks


@pytest.mark.django_db(transaction=True)
def test_concurrent_edits_of_different_fields_keep_both():
    character = CharacterFactory()
    url = lambda move: reverse("character_move", args=[character.table_id, character.pk, move])  # noqa: E731
    moves = [("stress", {"amount": "1"})] * 5 + [("coin", {"amount": "1"})] * 4
    post_at_once([(character.owner, url(move), data) for move, data in moves])
    after = fresh(character)
    assert (after.stress, after.coin) == (5, 4)
