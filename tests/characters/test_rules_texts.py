"""The sheet's actions do what the rule texts say (issue 14), on the real database."""

import pytest

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
