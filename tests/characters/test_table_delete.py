"""A table goes with its custom playbooks and the characters that use them, while a
playbook in use cannot be deleted on its own."""

import pytest
from django.db.models import RestrictedError

from characters import actions
from characters.models import Character, CharacterAbility, Playbook, SpecialAbility
from sessions.models import Table
from tests.factories import CharacterAbilityFactory, CharacterFactory, TableFactory


def custom_playbook(table: Table) -> Playbook:
    return actions.create_custom_playbook(
        table=table,
        name="Ghost Hunter",
        xp_trigger="You hunted a spirit.",
        primary="attune",
        secondary="survey",
        ability_keys=[],
        own_abilities=[("Spirit sense", "You see ghosts.")],
        friends=[("Elsa", "a spirit warden")],
        items=[("Spirit lantern", 1)],
    )


def test_deleting_a_table_takes_its_custom_playbooks_and_their_characters(db):
    table = TableFactory()
    playbook = custom_playbook(table)
    hunter = CharacterFactory(table=table, playbook=playbook)
    CharacterAbilityFactory(character=hunter)  # the custom playbook's own ability
    CharacterFactory(table=table)  # a standard playbook's character
    other_table = TableFactory()
    kept = CharacterFactory(table=other_table)
    table_id = table.pk

    table.delete()

    assert not Table.objects.filter(pk=table_id).exists()
    assert not Playbook.objects.filter(table_id=table_id).exists()
    assert not SpecialAbility.objects.filter(playbook=playbook).exists()
    assert list(Character.objects.all()) == [kept]
    assert Playbook.objects.filter(key="cutter", table=None).exists()


def test_deleting_the_gm_takes_their_table_with_its_custom_playbooks(db):
    table = TableFactory()
    CharacterFactory(table=table, playbook=custom_playbook(table))
    table_id = table.pk

    table.gm.delete()

    assert not Table.objects.filter(pk=table_id).exists()
    assert not Character.objects.exists()


def test_a_custom_playbook_in_use_cannot_be_deleted_alone(db):
    table = TableFactory()
    playbook = custom_playbook(table)
    hunter = CharacterFactory(table=table, playbook=playbook)
    CharacterAbilityFactory(character=hunter)

    with pytest.raises(RestrictedError):
        playbook.delete()
    with pytest.raises(RestrictedError):
        playbook.abilities.get().delete()

    assert Character.objects.get() == hunter
    assert CharacterAbility.objects.filter(character=hunter).exists()
