"""Crew abilities taken on the crew sheet and used on the PCs' sheets (issue 28)."""

import pytest
from django.urls import reverse

from characters.models import Character
from crews import actions
from crews.models import Crew
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


def test_crew_veteran_takes_another_crew_types_ability(crew):
    """Veteran (crews): "Take a special ability from another crew type's list"."""
    Crew.objects.filter(pk=crew.pk).update(advances=2)
    with pytest.raises(actions.RuleError, match="not a special ability this crew can take"):
        actions.take_ability(crew=crew, key="forged_in_the_fire")
    actions.take_ability(crew=crew, key="veteran")
    actions.take_ability(crew=crew, key="forged_in_the_fire")
    assert Crew.objects.get(pk=crew.pk).abilities[-1] == "forged_in_the_fire"


def test_each_pc_adds_the_crew_abilitys_dot_on_the_sheet(client, table, crew, player):
    """Everyone Steals (Shadows): "Each PC may add a dot to Prowl, Finesse or Tinker (max
    3)": once, from the sheet."""
    Crew.objects.filter(pk=crew.pk).update(abilities=["everyone_steals"])
    character = CharacterFactory(table=table, owner=player, prowl=2)
    client.force_login(player)
    sheet = reverse("character_sheet", args=[table.pk, character.pk])
    page = client.get(sheet).content.decode()
    assert "Everyone Steals (the crew's): add a dot to" in page
    move = reverse("character_move", args=[table.pk, character.pk, "crew-dot"])
    answer = client.post(
        move, {"ability": "everyone_steals", "action": "sway"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 422 and "This dot goes on Prowl, Finesse, Tinker." in answer.text
    client.post(move, {"ability": "everyone_steals", "action": "prowl"})
    after = Character.objects.get(pk=character.pk)
    assert (after.prowl, after.crew_dots) == (3, ["everyone_steals"])
    assert client.post(move, {"ability": "everyone_steals", "action": "tinker"}).status_code == 422
    assert "add a dot to" not in client.get(sheet).content.decode()
